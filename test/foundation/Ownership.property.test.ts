/**
 * The pure rules behind issue 13's items 3 and 4: which files a path flag may not name
 * (`ownerOf`), and which paths a monitor transaction record may name (`isOwnRecordEntry`).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as fc from "effect/FastCheck"
import { ownerOf } from "../../src/domain/Ownership.js"
import { normalizeRelative } from "../../src/domain/Paths.js"
import { isOwnRecordEntry } from "../../src/layers/folder/MonitorTransaction.js"

const segment = fc.constantFrom(
  "a",
  "b",
  ".",
  "..",
  "",
  ".dossier",
  "monitor",
  "runs",
  "subscriptions",
  "reports.jsonl",
  "x.json",
  "lit.w3.json",
  "plan.md"
)
const pathLike = fc.array(segment, { minLength: 1, maxLength: 7 }).map((xs) => xs.join("/"))
const studyId = fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,10}$/).filter((s) =>
  !["inputs", "sources", "results", "gate"].includes(s)
)

describe("ownerOf", () => {
  it.prop(
    "everything under .dossier/ is dossier's state, everything under research/sources/ retained",
    [pathLike],
    ([p]) => {
      expect(ownerOf(`.dossier/${p}`, new Set())).toBe("dossier-state")
      expect(ownerOf(`research/sources/${p}`, new Set())).toBe("retained-file")
    }
  )

  it.prop("a study's journal, manifest, index, recovered tails and legacy snapshots are the journal's", [
    studyId,
    pathLike
  ], ([s, p]) => {
    for (const f of ["research-events.jsonl", "manifest.json", "index.json", `recovered/${p}`, `legacy/${p}`]) {
      expect(ownerOf(`research/${s}/${f}`, new Set())).toBe("journal-file")
    }
  })

  it("registered files and plan.md are owned; a run's own file is nobody's", () => {
    expect(ownerOf("plan.md", new Set())).toBe("plan-file")
    expect(ownerOf("research/results/out.json", new Set(["research/results/out.json"]))).toBe("registered-file")
    expect(ownerOf("run/state.json", new Set(["research/results/out.json"]))).toBeNull()
    expect(ownerOf("research/s/notes.json", new Set())).toBeNull()
  })
})

describe("isOwnRecordEntry", () => {
  it.prop(
    "a path that is not in normal form is never accepted",
    [pathLike, fc.constantFrom("replace", "append")],
    ([p, kind]) => {
      const path = `.dossier/monitor/${p}`
      const entry = kind === "replace"
        ? { kind: "replace" as const, path, before: null, after: null }
        : { kind: "append" as const, path, sizeBefore: 0, data: "" }
      const normal = normalizeRelative(path)
      if (Either.isLeft(normal) || normal.right !== path) expect(isOwnRecordEntry(entry)).toBe(false)
      // Accepted paths are exactly the record files.
      if (isOwnRecordEntry(entry)) {
        expect(/^\.dossier\/monitor\/((subscriptions|runs)\/[^/]+\.json|reports\.jsonl)$/.test(path)).toBe(true)
      }
    }
  )

  it("the monitor's records are accepted, by their kind", () => {
    expect(
      isOwnRecordEntry({ kind: "replace", path: ".dossier/monitor/subscriptions/lit.json", before: null, after: "{}" })
    ).toBe(true)
    expect(isOwnRecordEntry({ kind: "replace", path: ".dossier/monitor/runs/lit.w3.json", before: null, after: "{}" }))
      .toBe(true)
    expect(isOwnRecordEntry({ kind: "append", path: ".dossier/monitor/reports.jsonl", sizeBefore: 0, data: "" })).toBe(
      true
    )
    expect(isOwnRecordEntry({ kind: "replace", path: ".dossier/monitor/reports.jsonl", before: null, after: null }))
      .toBe(false)
    expect(isOwnRecordEntry({ kind: "append", path: ".dossier/monitor/runs/lit.w3.json", sizeBefore: 0, data: "" }))
      .toBe(false)
    expect(isOwnRecordEntry({ kind: "replace", path: ".dossier/monitor/runs/..json", before: null, after: null })).toBe(
      false
    )
  })
})
