/**
 * The exec tools over MCP (the official SDK client and the built server): a grant created with
 * its input inline, a confined run whose program and arguments are one array, the evidence
 * shown and verified, and the refusals an agent can meet. The run needs bubblewrap: without it
 * the runs are skipped (loudly, by ../exec/support.ts) and only the tools' descriptions are checked.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sandboxWorks } from "../exec/support.js"
import { put, tempWorkdir } from "../support/cli.js"
import { connect, type Connected, execGrant } from "./support.js"

let dir: string
let server: Connected

beforeAll(async () => {
  dir = tempWorkdir("dossier-mcp-exec-")
  put(dir, "research/exp/data/train.csv", "a,b\n1,2\n")
  server = await connect(dir)
})

afterAll(async () => {
  await server?.client.close()
})

const grantInput = execGrant

describe("exec over MCP", () => {
  it("the exec tool says how the program is given, and requires grant and program", async () => {
    const { tools } = await server.client.listTools()
    const exec = tools.find((t) => t.name === "exec")!
    expect((exec.inputSchema.properties as any).program.description).toContain("`-- <program> [args…]` as an array")
    expect(exec.inputSchema.properties).toMatchObject({
      program: { type: "array", items: { type: "string" } },
      grant: { type: "string" }
    })
    expect([...(exec.inputSchema.required ?? [])].sort()).toEqual(["grant", "program"])
    const r = await server.call("exec", { program: ["true"] })
    expect(r.isError).toBe(true)
    expect(r.body.error._tag).toBe("UsageError")
    expect(r.body.error.message).toContain("grant")
    // No program: said in the tool's terms (a call has no `--`), before the grant is looked at.
    const empty = await server.call("exec", { grant: "nope", program: [] })
    expect({ isError: empty.isError, tag: empty.body.error._tag }).toEqual({ isError: true, tag: "UsageError" })
    expect(empty.body.error.message).toBe(
      "argument 'program': expected at least the program to run, [\"<program>\", \"<arg>\", \u2026], got []"
    )
  })

  it.skipIf(!sandboxWorks)("runs a program confined, with its arguments, and shows the evidence", async () => {
    const created = await server.call("grant_create", { input: grantInput })
    expect(created.isError, created.text).toBe(false)
    const run = await server.call("exec", {
      grant: "g1",
      program: ["sh", "-c", "wc -l < /work/research/exp/data/train.csv > lines.txt; echo \"$1\"", "sh", "--json"]
    })
    expect(run.isError, run.text).toBe(false)
    const x = run.body.execution
    expect(x).toMatchObject({
      status: "exited",
      exitCode: 0,
      grantId: "g1",
      argv: ["sh", "-c", expect.any(String), "sh", "--json"]
    })
    // The program's output goes to the evidence, never into the protocol stream.
    expect(fs.readFileSync(path.join(dir, x.stdout.path), "utf8")).toBe("--json\n")
    expect(x.outputs).toEqual([{
      path: "research/exp/runs/r1/lines.txt",
      bytes: 2,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/)
    }])
    const shown = await server.call("exec_show", { execution: x.id, verify: true })
    expect(shown.isError, shown.text).toBe(false)
    expect(shown.body.execution).toEqual(x)
    expect(shown.body.verify).toMatchObject({ checked: 3, findings: [] })
    const missing = await server.call("exec", { grant: "nope", program: ["true"] })
    expect({ isError: missing.isError, tag: missing.body.error._tag }).toEqual({ isError: true, tag: "GrantNotFound" })
    const unknown = await server.call("exec_show", { execution: "x-20260101T000000-00000000" })
    expect(unknown.body.error._tag).toBe("ExecutionNotFound")
  }, 60_000)
  it.skipIf(!sandboxWorks)(
    "a command line no program can be started with is InvalidInput before the run, never a Defect",
    async () => {
      const created = await server.call("grant_create", { input: grantInput })
      expect(created.isError, created.text).toBe(false)
      const before = (await server.call("grant_show", { grant: "g1" })).body
      const records = () =>
        fs.existsSync(path.join(dir, ".dossier/executions"))
          ? fs.readdirSync(path.join(dir, ".dossier/executions"))
          : []
      const kept = records()
      const cases: ReadonlyArray<[ReadonlyArray<string>, string, RegExp]> = [
        [["/bin/echo", "x\u0000y"], "program.1", /NUL byte/],
        [["a\u0000b"], "program.0", /NUL byte/],
        [["/bin/echo", "\ud800"], "program.1", /lone surrogate/],
        [["/bin/echo", "x".repeat(200_000)], "program.1", /is 200000 bytes; .* at most 131071/],
        [["/bin/echo", ...Array.from({ length: 120_000 }, () => "ab")], "program", /at most 1048576 together/]
      ]
      for (const [program, at, message] of cases) {
        const r = await server.call("exec", { grant: "g1", program })
        expect({ isError: r.isError, tag: r.body.error._tag }, at).toEqual({ isError: true, tag: "InvalidInput" })
        expect(r.body.error.issues[0].path, at).toBe(at)
        expect(r.body.error.issues[0].message, at).toMatch(message)
      }
      // Nothing was admitted or charged, and the server goes on.
      expect(records()).toEqual(kept)
      expect((await server.call("grant_show", { grant: "g1" })).body.remaining).toEqual(before.remaining)
      expect((await server.call("plan_inspect")).isError).toBe(false)
    },
    60_000
  )
})
