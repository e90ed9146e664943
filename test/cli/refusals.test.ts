/**
 * What a refusal tells an agent, through the built CLI: every `--json` error envelope carries the
 * error catalogue's `hint` (the line the human rendering ends with), and `dossier schema errors`
 * describes it.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { errorCatalogue, usageInfo } from "../../src/commands/ErrorCatalogue.js"
import { putInput, runCli, tempWorkdir } from "../support/cli.js"

const run = (dir: string, args: ReadonlyArray<string>, input?: string) =>
  runCli([...args, "--workdir", dir], input === undefined ? {} : { input })

/** A folder with a plan at revision 1. */
const planned = () => {
  const dir = tempWorkdir("dossier-refusals-")
  const r = run(dir, ["plan", "start", "--input", putInput(dir, "s.json", { goal: "g", limits: [], nextAction: "n" })])
  expect(r.code, r.stderr).toBe(0)
  return dir
}

describe("every refusal says what to do under --json too (hint)", () => {
  const cases: ReadonlyArray<
    readonly [string, (dir: string) => ReadonlyArray<string>, string, number, string | undefined]
  > = [
    ["StaleRevision", () => ["plan", "checkpoint", "--input", "-", "--expected", "7"], "StaleRevision", 1, "{}"],
    ["InvalidUrl", () => ["ingest", "ht!tp:/x y"], "InvalidUrl", 1, undefined],
    [
      "UnsafePath",
      (dir) => {
        fs.writeFileSync(path.join(dir, "real.json"), "{}")
        fs.symlinkSync(path.join(dir, "real.json"), path.join(dir, "research/inputs/l.json"))
        return ["plan", "checkpoint", "--input", "research/inputs/l.json", "--expected", "1"]
      },
      "UnsafePath",
      1,
      undefined
    ],
    ["UsageError", () => ["plan", "strat"], "UsageError", 2, undefined]
  ]
  for (const [name, args, tag, code, input] of cases) {
    it(`${name}: the envelope's hint is the catalogue's, the line the human rendering ends with`, () => {
      const dir = planned()
      const argv = args(dir)
      const hint = tag === "UsageError" ? usageInfo.hint : errorCatalogue[tag as keyof typeof errorCatalogue].hint
      const json = run(dir, [...argv, "--json"], input)
      expect(json.code, json.stdout).toBe(code)
      expect(json.json.error, json.stdout).toMatchObject({ _tag: tag, hint })
      const human = run(dir, argv, input)
      expect(human.code).toBe(code)
      expect(human.stderr.trimEnd().split("\n").at(-1)!.trim()).toBe(hint)
      // Said once to a person: not again as a field.
      expect(human.stderr).not.toContain("hint:")
    })
  }

  it("dossier schema errors describes hint, a required string, for every error and the defect", () => {
    const r = runCli(["schema", "errors", "--json"])
    expect(r.code, r.stderr).toBe(0)
    const defs = Object.entries(r.json.schema.$defs as Record<string, any>).filter(([, d]) =>
      d.properties?.error !== undefined
    )
    expect(defs.map(([k]) => k)).toEqual(expect.arrayContaining(["StaleRevision", "UsageError", "Defect"]))
    for (const [name, def] of defs) {
      expect(def.properties.error.properties.hint?.type, name).toBe("string")
      expect(def.properties.error.required, name).toContain("hint")
    }
  })
})

describe("a refusal repeats at most 512 characters of a value it was given", () => {
  const huge = "a".repeat(100_000)

  it("a 100 KB study id: answered in a few hundred bytes, with the marker, under --json and for people", () => {
    const dir = tempWorkdir("dossier-refusals-")
    const json = run(dir, ["journal", "inspect", "--study", huge, "--json"])
    expect(json.code).toBe(1)
    expect(json.stdout.length).toBeLessThan(2048)
    expect(json.json.error._tag).toBe("InvalidInput")
    expect(json.json.error.message).toMatch(
      /^The input is invalid at '--study': 'a+\u2026\[\d+ characters left out\]\u2026a+' is not a study id: 1-64/
    )
    expect(json.json.error.issues[0].message).toContain("characters left out")
    const human = run(dir, ["journal", "inspect", "--study", huge])
    expect(human.code).toBe(1)
    expect(human.stderr.length).toBeLessThan(2048)
    expect(human.stderr).toContain("characters left out")
  })

  it("a 100 KB unknown option and a 100 KB path: clipped too", () => {
    const dir = tempWorkdir("dossier-refusals-")
    const usage = run(dir, ["plan", "inspect", `--${huge}`, "--json"])
    expect(usage.code).toBe(2)
    expect(usage.stdout.length).toBeLessThan(2048)
    expect(usage.json.error.detail).toContain("characters left out")
    const url = run(dir, ["ingest", `https://${huge}.example/`, "--json"])
    expect(url.stdout.length).toBeLessThan(2048)
    expect(url.json.error).toMatchObject({ _tag: "InvalidUrl" })
    expect(url.json.error.url).toMatch(/^https:\/\/a+\u2026\[\d+ characters left out\]\u2026a+\.example\/$/)
  })

  it("an id or a path of normal length is repeated byte for byte", () => {
    const dir = tempWorkdir("dossier-refusals-")
    const id = `Bad-${"x".repeat(60)}`
    const bad = run(dir, ["journal", "inspect", "--study", id, "--json"])
    expect(bad.json.error.issues[0].message).toContain(`'${id}'`)
    const rel = `research/inputs/${"p".repeat(200)}.json`
    const missing = run(dir, ["plan", "start", "--input", rel, "--json"])
    expect(missing.json.error, missing.stdout).toMatchObject({ _tag: "FileNotFound", path: rel })
    expect(missing.json.error.message).toContain(rel)
  })
})

describe("a path no file can have is refused as such, not as a file-system failure to retry", () => {
  it("a name of more than 255 bytes is UnsafePath name-too-long (not retryable), for --input, --file and --path", () => {
    const dir = planned()
    const long = "a".repeat(256)
    const multi = "\u00e9".repeat(128) // 256 bytes of UTF-8 in 128 characters
    for (
      const argv of [
        ["plan", "checkpoint", "--expected", "1", "--input", long],
        ["plan", "checkpoint", "--expected", "1", "--input", `research/inputs/${multi}.json`],
        ["ingest", "--file", `${long}.html`, "--origin", "https://example.org/page"],
        ["source", "follow", "--quote", "a quote of twenty characters at least", "--path", `research/sources/${long}`]
      ]
    ) {
      const r = runCli([...argv, "--json"], { cwd: dir })
      expect(r.code, r.stdout).toBe(1)
      expect(r.json.error, r.stdout).toMatchObject({ _tag: "UnsafePath", reason: "name-too-long", retryable: false })
    }
    // A name of exactly 255 bytes is an ordinary name: not there, so FileNotFound.
    const r = runCli(["plan", "checkpoint", "--expected", "1", "--input", "a".repeat(255), "--json"], { cwd: dir })
    expect(r.json.error._tag, r.stdout).toBe("FileNotFound")
  })
})
