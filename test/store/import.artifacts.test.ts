/**
 * A folder's journal artifacts imported into a new shared dossier, through the built CLI with
 * --json against the test's own throwaway cluster: `init --store` of a folder holding a journal
 * whose events link files stores those files' bytes with the import (spec store.md: the import
 * copies "every retained and registered file's bytes", journal artifacts among them), so that
 * another host's `init --store` (a pull) brings each linked file byte for byte and its
 * `journal inspect --verify` finds nothing missing.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { put, putInput, runCli, tempWorkdir } from "../support/cli.js"
import { pgAvailable, useTestDatabase } from "../support/postgres.js"

describe.skipIf(!pgAvailable)("a folder's journal artifacts imported into a new shared dossier", () => {
  const db = useTestDatabase()

  it("another host's bind brings each linked file byte for byte; verify finds nothing missing", () => {
    const a = tempWorkdir("dossier-import-artifacts-a-")
    expect(runCli(["init", "--workdir", a, "--json"]).json?.ok).toBe(true)
    const bytes = `linked only by the journal ${Date.now()}\n`
    put(a, "research/results/table.csv", bytes)
    const input = putInput(a, "events.json", [
      { id: "e1", type: "candidate_created", candidate: { id: "c1", title: "first" } },
      { id: "e2", type: "artifact_linked", candidateId: "c1", artifact: { path: "research/results/table.csv" } }
    ])
    const appended = runCli(["journal", "append", "--study", "s1", "--input", input, "--workdir", a, "--json"])
    expect(appended.json, appended.stdout + appended.stderr).toMatchObject({ ok: true, appended: ["e1", "e2"] })
    const bound = runCli(["init", "--store", db.url, "--dossier", "arts", "--workdir", a, "--json"])
    expect(bound.json, bound.stdout + bound.stderr).toMatchObject({ ok: true, store: { imported: true } })

    const b = tempWorkdir("dossier-import-artifacts-b-")
    const pulled = runCli(["init", "--store", db.url, "--dossier", "arts", "--workdir", b, "--json"])
    expect(pulled.json, pulled.stdout + pulled.stderr).toMatchObject({ ok: true, store: { pulled: true } })
    const again = runCli(["pull", "--workdir", b, "--json"])
    expect(again.json?.transfer?.missing, again.stdout + again.stderr).toEqual([])
    expect(fs.readFileSync(path.join(b, "research/results/table.csv"), "utf8")).toBe(bytes)
    const verify = runCli(["journal", "inspect", "--study", "s1", "--verify", "--workdir", b, "--json"])
    expect(verify.json?.verify, verify.stdout + verify.stderr).toMatchObject({ checked: 1, findings: [] })
  }, 120_000)
})
