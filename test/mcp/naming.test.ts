/**
 * A refusal names what was given the way the caller gave it: the CLI its options (`--status`),
 * a tool call its arguments (`status`), for the same mistake (src/mcp/ArgumentNames.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { commandSpecs } from "../../src/commands/Specs.js"
import { InvalidInput } from "../../src/domain/Errors.js"
import { DispositionRefused } from "../../src/domain/MonitorErrors.js"
import { namingArguments } from "../../src/mcp/ArgumentNames.js"
import { literature } from "../monitor/support.js"
import { putInput, runCli, tempWorkdir } from "../support/cli.js"
import { connect, type Connected } from "./support.js"

const NOW = "2026-12-01T10:00:00.000Z"

describe("refusals name the input as the caller gave it", () => {
  let dir: string
  let mcp: Connected
  const cli = (args: ReadonlyArray<string>) => {
    const r = runCli([...args, "--workdir", dir, "--json"])
    expect(r.code, r.stdout + r.stderr).toBe(r.json?.error?._tag === "UsageError" ? 2 : 1)
    return r.json.error
  }
  const tool = async (name: string, args: Record<string, unknown>) => {
    const r = await mcp.call(name, args)
    expect(r.isError, r.text).toBe(true)
    return r.body.error
  }

  beforeAll(async () => {
    dir = tempWorkdir()
    putInput(dir, "sub.json", literature("lit"))
    const created = runCli([
      "monitor",
      "create-subscription",
      "--input",
      "research/inputs/sub.json",
      "--now",
      NOW,
      "--workdir",
      dir,
      "--json"
    ])
    expect(created.json?.ok, created.stdout + created.stderr).toBe(true)
    mcp = await connect(dir)
  }, 60_000)
  afterAll(async () => {
    await mcp?.client.close()
  })

  it("a value outside its literals: --status on the command line, status in a tool call", async () => {
    const flags = ["--subscription", "lit", "--expected", "1", "--status", "bogus"]
    // None of the flag's choices: the flag's own validation fails, a UsageError (docs/cli.md).
    const onCli = cli(["monitor", "set-subscription-status", ...flags])
    expect(onCli._tag).toBe("UsageError")
    expect(onCli.message).toMatch(/^--status <status>: Expected "active"/)
    const onTool = await tool("monitor_set_subscription_status", { subscription: "lit", expected: 1, status: "bogus" })
    expect(onTool._tag).toBe("UsageError")
    expect(onTool.message).toBe(onCli.message.replace("--status <status>", "status"))
  })

  it("a malformed id and a value outside its literals: the flag on the command line, the argument in a tool call", async () => {
    const onCli = cli(["monitor", "show", "--subscription", "a b"])
    expect(onCli.issues.map((i: { path: string }) => i.path)).toEqual(["--subscription"])
    const onTool = await tool("monitor_show", { subscription: "a b" })
    expect(onTool.issues.map((i: { path: string }) => i.path)).toEqual(["subscription"])
    const bad = ["--run", "lit.w0", "--outcome", "o1", "--disposition", "bogus"]
    expect(cli(["monitor", "set-outcome-disposition", ...bad]).message).toMatch(/^--disposition <status>: /)
    const toolUsage = await tool("monitor_set_outcome_disposition", {
      run: "lit.w0",
      outcome: "o1",
      disposition: "bogus"
    })
    expect(toolUsage).toMatchObject({ _tag: "UsageError", message: expect.stringMatching(/^disposition: /) })
  })

  it("an option of two words is named by its argument's key (--review-item → reviewItem)", () => {
    const spec = commandSpecs.find((s) => s.path.join(" ") === "monitor set-outcome-disposition")!
    const named = namingArguments(spec)
    const issue = named(new InvalidInput({ issues: [{ path: "--review-item", message: "m" }] }))
    expect(issue).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "reviewItem", message: "m" }] })
    const nested = named(new InvalidInput({ issues: [{ path: "--authorization.messageId", message: "m" }] }))
    expect(nested).toMatchObject({ issues: [{ path: "authorization.messageId" }] })
    const refused = named(new DispositionRefused({ outcomeId: "o1", reason: "r", missing: "--review-item" }))
    expect(refused).toMatchObject({ missing: "reviewItem" })
    expect(refused.message).toContain("give reviewItem")
    // A message that names options names the arguments (exec: `--study needs --candidate`).
    const exec = commandSpecs.find((s) => s.path.join(" ") === "exec")!
    const said = namingArguments(exec)(
      new InvalidInput({ issues: [{ path: "candidate", message: "--study needs --candidate: the candidate" }] })
    )
    expect(said).toMatchObject({ issues: [{ path: "candidate", message: "study needs candidate: the candidate" }] })
    // A path into an input file is not an option.
    const field = named(new InvalidInput({ issues: [{ path: "outputs.0.dependsOn", message: "m" }] }))
    expect(field).toMatchObject({ issues: [{ path: "outputs.0.dependsOn" }] })
  })

  it("a file outside the work folder and a missing value: options on the command line, arguments in a tool call", async () => {
    const onCli = cli(["gate", "--state", "../x.json"])
    expect(onCli).toMatchObject({ _tag: "InputOutsideWorkdir", flag: "--state" })
    const onTool = await tool("gate", { state: "../x.json" })
    expect(onTool).toMatchObject({ _tag: "InputOutsideWorkdir", flag: "state" })
    const usage = cli(["monitor", "set-subscription-status", "--subscription", "lit"])
    expect(usage.message).toContain("--expected")
    const toolUsage = await tool("monitor_set_subscription_status", { subscription: "lit" })
    expect(toolUsage._tag).toBe("UsageError")
    expect(toolUsage.message).not.toMatch(/--[a-z]/)
    expect(toolUsage.message).toContain("expected")
    // Told in the tool's words: its name and its arguments, not the command line's words and flags.
    expect(usage.message).toBe("monitor set-subscription-status needs --input <path> or the flags --expected, --status")
    expect(toolUsage.message).toBe("monitor_set_subscription_status needs input or the arguments expected, status")
    const both = await tool("monitor_create_due_run", { input: { subscriptionId: "lit" }, subscription: "lit" })
    expect(both.message).toBe("monitor_create_due_run: give input or the arguments (subscription), not both")
    const show = await tool("monitor_show", {})
    expect(show.message).toBe("monitor_show needs exactly one of subscription or run")
  })
})
