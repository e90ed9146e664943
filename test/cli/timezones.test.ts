/**
 * Reading a subscription checks its time zone without building an `Intl.DateTimeFormat`: the
 * first one a process builds makes V8 build its set of date-format locales, which cost a
 * `monitor list` or `monitor show` more than a bare Node start (docs/performance.md, "Issue 28,
 * tenth round"). A zone in the run time's canonical list is taken from that list; other
 * spellings are still asked of `Intl.DateTimeFormat`, and an unknown zone is still refused.
 * Runs the built CLI (`npm run build` first) with a preloaded hook that counts formatters.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { CLI, putInput, runCli, tempWorkdir } from "../support/cli.js"

const HOOK = [
  "let n = 0",
  "const Original = Intl.DateTimeFormat",
  "Intl.DateTimeFormat = new Proxy(Original, {",
  "  construct: (t, a, nt) => { n++; return Reflect.construct(t, a, nt) },",
  "  apply: (t, self, a) => { n++; return Reflect.apply(t, self, a) }",
  "})",
  "process.on(\"exit\", () => process.stderr.write(\"formatters built: \" + n + \"\\n\"))",
  ""
].join("\n")

/** A folder with a plan and a subscription in each of `zones` (id, zone). */
const folder = (zones: ReadonlyArray<readonly [string, string]>) => {
  const dir = tempWorkdir("dossier-timezones-")
  const at = ["--workdir", dir, "--json"]
  const plan = putInput(dir, "plan.json", { goal: "g", limits: [], nextAction: "n" })
  expect(runCli(["plan", "start", ...at, "--input", plan]).code).toBe(0)
  for (const [id, timezone] of zones) {
    const input = putInput(dir, `${id}.json`, {
      id,
      kind: "literature",
      target: "t",
      timezone,
      anchor: "2026-12-01T09:00"
    })
    const r = runCli(["monitor", "create-subscription", ...at, "--now", "2026-11-30T10:00:00Z", "--input", input])
    expect(r.code, r.stdout).toBe(0)
  }
  fs.writeFileSync(path.join(dir, "hook.cjs"), HOOK)
  return dir
}

const hooked = (dir: string, args: ReadonlyArray<string>) => {
  const r = spawnSync(
    process.execPath,
    ["-r", path.join(dir, "hook.cjs"), CLI, ...args, "--workdir", dir, "--json"],
    { encoding: "utf8" }
  )
  const built = /formatters built: (\d+)/.exec(r.stderr)
  return { code: r.status, stdout: r.stdout, built: built === null ? -1 : Number(built[1]) }
}

describe("time zones read from records", () => {
  it("monitor list, show, due, next and status build no Intl.DateTimeFormat for a canonical zone", () => {
    const dir = folder([["lit", "Europe/Berlin"], ["nyc", "America/New_York"]])
    try {
      for (
        const args of [
          ["monitor", "list"],
          ["monitor", "show", "--subscription", "lit"],
          ["monitor", "due"],
          ["next"],
          ["status"]
        ]
      ) {
        // Twice: the first run of a reader may write the scan index, the second reads it.
        for (const run of [1, 2]) {
          const r = hooked(dir, args)
          expect(r.code, `${args.join(" ")}: ${r.stdout}`).toBe(0)
          expect(r.built, `${args.join(" ")} (run ${run})`).toBe(0)
        }
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it("an alias is still accepted and an unknown zone still refused, as Intl.DateTimeFormat decides", () => {
    const dir = folder([["kol", "Asia/Kolkata"]])
    try {
      const alias = hooked(dir, ["monitor", "show", "--subscription", "kol"])
      expect(alias.code, alias.stdout).toBe(0)
      expect(JSON.parse(alias.stdout).subscription.timezone).toBe("Asia/Kolkata")
      const file = path.join(dir, ".dossier/monitor/subscriptions/kol.json")
      fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace("\"Asia/Kolkata\"", "\"Mars/Olympus\""))
      const unknown = runCli(["monitor", "show", "--subscription", "kol", "--workdir", dir, "--json"])
      expect(unknown.code).toBe(1)
      expect(unknown.json.error._tag).toBe("CorruptMonitorRecord")
      expect(unknown.json.error.reason).toContain("timezone")
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
