/**
 * What the refresh after a writing tool call says reaches the agent: `dossier mcp` in a folder
 * bound to a shared dossier, driven by the official MCP client, answers a write whose refresh kept
 * a plan.md edited here with the command's answer plus `view: {refreshed, kept, note}` (the note
 * the command line says on stderr, src/domain/ViewNote.ts), the edited file left as it is; a
 * write whose refresh had nothing to keep carries no `view`. Against the test's own throwaway
 * cluster (skipped with a note without the server binaries).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { connect } from "../mcp/support.js"
import { putInput, runCli, tempWorkdir } from "../support/cli.js"
import { pgAvailable, useTestDatabase } from "../support/postgres.js"
import { NOW, ok } from "./support/populated.js"

const cli = (dir: string, args: ReadonlyArray<string>) => runCli([...args, "--workdir", dir, "--json"])

describe.skipIf(!pgAvailable)("dossier mcp in a bound folder: the refresh's note in the answer", () => {
  const db = useTestDatabase()

  it("a kept plan.md is named in the answer's view; an unedited one refreshed, no view", async () => {
    const bind = (name: string) => {
      const dir = tempWorkdir(`dossier-viewnote-${name}-`)
      ok(runCli(["init", "--store", db.url, "--dossier", "notes", "--workdir", dir, "--json"]))
      return dir
    }
    const a = bind("a")
    const b = bind("b")
    ok(cli(a, [
      "plan",
      "start",
      "--input",
      putInput(a, "s.json", { goal: "Compare X and Y", limits: [], nextAction: "search" }),
      "--now",
      NOW
    ]))
    ok(cli(b, ["pull"]))
    const edited = Buffer.concat([fs.readFileSync(path.join(b, "plan.md")), Buffer.from("\nB's own note.\n")])
    fs.writeFileSync(path.join(b, "plan.md"), edited)

    const onB = await connect(b)
    try {
      const call = await onB.call("plan_checkpoint", {
        expected: 1,
        now: NOW,
        input: { completedSteps: [{ id: "b1", summary: "b1" }], nextAction: "go on" }
      })
      expect({ isError: call.isError, ok: call.body?.ok, revision: call.body?.revision }, call.text).toEqual({
        isError: false,
        ok: true,
        revision: 2
      })
      expect(call.body.view).toMatchObject({ refreshed: true, kept: ["plan.md"] })
      expect(call.body.view.note).toContain("plan.md here holds edits the store does not")
      expect(call.body.view.note).toContain("dossier pull")
      // The text content is the same object.
      expect(JSON.parse(call.text)).toEqual(call.body)
      expect(fs.readFileSync(path.join(b, "plan.md"))).toEqual(edited)
    } finally {
      await onB.client.close()
    }

    const onA = await connect(a)
    try {
      const call = await onA.call("plan_checkpoint", {
        expected: 2,
        now: NOW,
        input: { completedSteps: [{ id: "a2", summary: "a2" }], nextAction: "go on" }
      })
      expect({ isError: call.isError, revision: call.body?.revision }, call.text).toEqual({
        isError: false,
        revision: 3
      })
      expect(call.body).not.toHaveProperty("view")
      expect(fs.readFileSync(path.join(a, "plan.md"), "utf8")).toContain(`"revision": 3,`)
    } finally {
      await onA.client.close()
    }
  }, 180_000)
})
