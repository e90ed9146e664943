/**
 * A flag value that is none of the flag's choices, and a flag given without the flag it needs, are
 * mistakes of the command line: `UsageError`, exit 2 (spec: "a flag value that fails its own
 * validation"; "missing argument"), through the built CLI and through `dossier mcp` (spawns
 * processes).
 */
import * as fs from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { connect, type Connected } from "../mcp/support.js"
import { putInput, runCli, tempWorkdir } from "../support/cli.js"

const usage = (r: ReturnType<typeof runCli>) => ({ code: r.code, tag: r.json?.error?._tag, stderr: r.stderr })

describe("a value that is none of its flag's choices", () => {
  it("is a UsageError (exit 2) naming the flag and its choices, and nothing is written", () => {
    const dir = tempWorkdir()
    const lines: ReadonlyArray<readonly [ReadonlyArray<string>, string, string]> = [
      [
        ["monitor", "set-subscription-status", "--subscription", "s1", "--expected", "1", "--status", "bogus"],
        "--status",
        "paused"
      ],
      [["monitor", "transition-run", "--run", "s1.w0", "--expected", "1", "--to", "flying"], "--to", "running"],
      [
        ["monitor", "set-outcome-disposition", "--run", "s1.w0", "--outcome", "o1", "--disposition", "bogus"],
        "--disposition",
        "dismissed"
      ]
    ]
    for (const [line, flag, choice] of lines) {
      const r = runCli([...line, "--json"], { cwd: dir })
      expect(usage(r), line.join(" ")).toEqual({ code: 2, tag: "UsageError", stderr: "" })
      expect(r.json.error.message).toContain(flag)
      expect(r.json.error.message).toContain(choice)
      const human = runCli(line, { cwd: dir })
      expect(human.code).toBe(2)
      expect(human.stderr).toContain(`error UsageError: ${flag} <status>:`)
    }
    expect(fs.readdirSync(dir)).toEqual([])
  })

  it("a malformed id given as a flag stays InvalidInput naming the flag (docs/cli.md, ids)", () => {
    const dir = tempWorkdir()
    const r = runCli(["monitor", "transition-run", "--run", "a b", "--expected", "1", "--to", "running", "--json"], {
      cwd: dir
    })
    expect({ code: r.code, tag: r.json?.error?._tag, path: r.json?.error?.issues?.[0]?.path })
      .toEqual({ code: 1, tag: "InvalidInput", path: "--run" })
  })
})

describe("plan start --replace-goal without a revision", () => {
  it("is a UsageError (exit 2), as --expected without --replace-goal is, and changes nothing", () => {
    const dir = tempWorkdir()
    const first = runCli([
      "plan",
      "start",
      "--input",
      putInput(dir, "a.json", { goal: "g one", limits: [], nextAction: "n" }),
      "--json"
    ], { cwd: dir })
    expect(first.json?.ok).toBe(true)
    const before = fs.readFileSync(`${dir}/plan.md`, "utf8")
    const other = putInput(dir, "b.json", { goal: "g two", limits: [], nextAction: "n" })
    const r = runCli(["plan", "start", "--replace-goal", "--input", other, "--json"], { cwd: dir })
    expect(usage(r)).toEqual({ code: 2, tag: "UsageError", stderr: "" })
    expect(r.json.error.message).toContain("--replace-goal needs --expected <revision>")
    const stray = runCli(["plan", "start", "--expected", "1", "--input", other, "--json"], { cwd: dir })
    expect(usage(stray)).toEqual({ code: 2, tag: "UsageError", stderr: "" })
    expect(fs.readFileSync(`${dir}/plan.md`, "utf8")).toBe(before)
  })
})

describe("the same mistakes through dossier mcp", () => {
  let dir: string
  let server: Connected
  beforeAll(async () => {
    dir = tempWorkdir("dossier-mcp-usage-")
    server = await connect(dir)
  })
  afterAll(async () => {
    await server.client.close()
  })

  it("answer UsageError in the tool's argument names", async () => {
    const status = await server.call("monitor_set_subscription_status", {
      subscription: "s1",
      expected: 1,
      status: "bogus"
    })
    expect(status.isError).toBe(true)
    expect(status.body.error._tag).toBe("UsageError")
    expect(status.body.error.message).toMatch(/^status: /)
    await server.call("plan_start", { input: { goal: "g one", limits: [], nextAction: "n" } })
    const replace = await server.call("plan_start", {
      replaceGoal: true,
      input: { goal: "g two", limits: [], nextAction: "n" }
    })
    expect(replace.isError).toBe(true)
    expect(replace.body.error._tag).toBe("UsageError")
    expect(replace.body.error.message).toContain("replaceGoal needs expected")
  })
})
