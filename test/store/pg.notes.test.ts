/**
 * The note a library user of `DossierPostgres` reads when a registered file is missing in this
 * folder names no command: the library does not write the folder's view, and its user may have
 * no shell (docs/library.md). The command line and the MCP server say the same note in their
 * words, `dossier pull` (src/domain/StoreNotes.ts, as `Errors.hint` does for refusals); the CLI's
 * side is held by test/store/pg.bound.test.ts.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { commandLineNote } from "../../src/domain/StoreNotes.js"
import { DossierPostgres } from "../../src/layers/DossierPostgres.js"
import { Plan } from "../../src/services/Plan.js"
import { put, tempWorkdir } from "../support/cli.js"
import { pgAvailable, useTestDatabase } from "../support/postgres.js"

const NOW = new Date("2026-11-30T10:00:00.000Z")

describe.skipIf(!pgAvailable)("a shared dossier's notes, through the library", () => {
  const db = useTestDatabase()

  it.live("Plan.inspect: a registered output missing here is said without naming a command", () => {
    const dir = tempWorkdir("dossier-notes-")
    put(dir, "research/results/r.md", "Result.\n")
    return Effect.gen(function*() {
      const plan = yield* Plan
      yield* plan.start({ goal: "A goal.", limits: [], nextAction: "Write." }, { now: NOW })
      yield* plan.checkpoint(
        { outputs: [{ path: "research/results/r.md", dependsOn: [] }], expectedRevision: 1 },
        { now: NOW }
      )
      const before = yield* plan.inspect
      expect(before.state === "active" && before.note).not.toContain("shared dossier")
      fs.rmSync(path.join(dir, "research/results/r.md"))
      const view = yield* plan.inspect
      if (view.state !== "active") throw new Error(`expected an active plan, got ${view.state}`)
      expect(view.verification.findings).toContainEqual(
        expect.objectContaining({ kind: "output-missing", path: "research/results/r.md" })
      )
      expect(view.note).toContain("A registered file missing here is held by the shared dossier")
      expect(view.note).not.toMatch(/dossier pull|`dossier /)
      // The command line's words for the same note.
      expect(commandLineNote(view.note)).toContain("held by the shared dossier: `dossier pull` brings it.")
    }).pipe(Effect.provide(DossierPostgres({ url: db.url, dossier: "notes", workdir: dir })))
  }, 120_000)
})
