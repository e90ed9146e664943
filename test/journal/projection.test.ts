/** Properties of the pure projection (what `inspect` prints and manifest.json is derived from). */
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as fc from "fast-check"
import { type JournalEvent } from "../../src/domain/Journal.js"
import { manifestOf, project } from "../../src/domain/JournalProjection.js"
import { validateManifest } from "../../src/domain/JournalRules.js"
import { candidateIdArb, eventsArb, legacyArb, type Op, opArb, toEvents } from "./arbitraries.js"

const statuses = (events: ReadonlyArray<JournalEvent>) =>
  Object.fromEntries(project(events).projection.candidates.map((c) => [c.id, c.status]))

describe("projection", () => {
  it("generated sequences satisfy the referential rules", () => {
    fc.assert(fc.property(eventsArb(), (events) => {
      expect(project(events).problem).toBeNull()
    }))
  })

  it("the projection of a prefix never claims more than the whole", () => {
    fc.assert(
      fc.property(eventsArb(40), fc.nat(), (events, cut) => {
        const k = events.length === 0 ? 0 : cut % (events.length + 1)
        const part = project(events.slice(0, k)).projection
        const whole = project(events).projection
        expect(part.events).toBeLessThanOrEqual(whole.events)
        expect(part.head?.seq ?? 0).toBeLessThanOrEqual(whole.head?.seq ?? 0)
        const wholeById = new Map(whole.candidates.map((c) => [c.id, c]))
        for (const c of part.candidates) {
          const w = wholeById.get(c.id)
          expect(w).toBeDefined()
          expect(c.artifacts.length).toBeLessThanOrEqual(w!.artifacts.length)
          expect(c.executions.length).toBeLessThanOrEqual(w!.executions.length)
          expect(w!.artifacts.slice(0, c.artifacts.length)).toEqual(c.artifacts)
        }
        // Every fact of the prefix names an event that exists in the whole history.
        const ids = new Set(events.map((e) => e.id))
        if (part.selected !== null) expect(ids.has(part.selected.eventId)).toBe(true)
        if (part.checkpoint !== null) expect(ids.has(part.checkpoint.eventId)).toBe(true)
      })
    )
  })

  it("interleaving the histories of different candidates does not change their statuses", () => {
    // Per-candidate op lists (no selections: two selections do not commute), merged in two random orders.
    const perCandidate = fc.uniqueArray(candidateIdArb, { minLength: 1, maxLength: 4 }).chain((cs) =>
      fc.tuple(
        ...cs.map((c) =>
          fc.array(opArb.filter((o) => o.k !== "select" && o.k !== "checkpoint"), { maxLength: 6 }).map((ops) =>
            ops.map((o) => ({ ...o, c }) as Op)
          )
        )
      )
    )
    const merge = (lists: ReadonlyArray<ReadonlyArray<Op>>, picks: ReadonlyArray<number>) => {
      const queues = lists.map((l) => [...l])
      const out: Array<Op> = []
      let p = 0
      while (queues.some((q) => q.length > 0)) {
        const open = queues.filter((q) => q.length > 0)
        out.push(open[(picks[p++ % Math.max(1, picks.length)] ?? 0) % open.length]!.shift()!)
      }
      return out
    }
    fc.assert(
      fc.property(
        perCandidate,
        fc.array(fc.nat(), { minLength: 1 }),
        fc.array(fc.nat(), { minLength: 1 }),
        fc.option(candidateIdArb),
        (lists, a, b, sel) => {
          const tagged = (ops: ReadonlyArray<Op>) => {
            // Stable ids per op so both orders hold the same events.
            const events = toEvents(ops)
            return events
          }
          const ea = tagged(merge(lists, a))
          const eb = tagged(merge(lists, b))
          const withSel = (es: Array<JournalEvent>) =>
            sel !== null && es.some((e) => e.type === "candidate_created" && e.candidate.id === sel)
              ? [...es, { id: "sel", type: "candidate_selected" as const, candidateId: sel, reason: "r" }]
              : es
          expect(statuses(withSel(ea))).toEqual(statuses(withSel(eb)))
        }
      )
    )
  })

  it("status follows the latest evaluation and the latest selection", () => {
    const events = toEvents([
      { k: "eval", c: "cand-a", decision: "accept", metric: 1 },
      { k: "eval", c: "cand-b", decision: "inconclusive", metric: 1 },
      { k: "eval", c: "cand-c", decision: "accept", metric: 1 },
      { k: "eval", c: "cand-c", decision: "reject", metric: 0 },
      { k: "select", c: "cand-a", reason: "first" },
      { k: "select", c: "cand-b", reason: "second" },
      { k: "artifact", c: "cand-d", path: "out.txt", sha256: "0".repeat(64), bytes: 1 }
    ])
    const { projection } = project(events)
    expect(statuses(events)).toEqual({
      "cand-a": "accepted",
      "cand-b": "selected",
      "cand-c": "rejected",
      "cand-d": "created"
    })
    expect(projection.selected).toEqual({ candidateId: "cand-b", reason: "second", eventId: "e5" })
    expect(projection.completed).toEqual(["cand-a"])
    expect(projection.candidates.find((c) => c.id === "cand-c")!.lastEvaluation!.decision).toBe("reject")
  })

  it("an unknown candidate or a second creation stops the projection there", () => {
    const r = project([
      { id: "x", type: "candidate_selected", candidateId: "nobody", reason: "r" }
    ])
    expect(r.problem).toEqual({ index: 0, problem: { _tag: "unknown-candidate", candidateId: "nobody" } })
    const twice = toEvents([{ k: "eval", c: "cand-a", decision: "accept", metric: 1 }])
    const r2 = project([...twice, { ...twice[0]!, id: "again" }])
    expect(r2.problem?.problem._tag).toBe("duplicate-candidate")
    expect(r2.projection.events).toBe(2)
  })

  it("the manifest projection always passes the strict v1 validator", () => {
    fc.assert(
      fc.property(fc.option(legacyArb, { nil: undefined }), eventsArb(), (legacy, events) => {
        const all = legacy === undefined ? events : [legacy, ...events]
        const { projection, problem } = project(all)
        expect(problem).toBeNull()
        const m = manifestOf("s", projection)
        expect(Either.isRight(validateManifest(JSON.parse(JSON.stringify(m))))).toBe(true)
      })
    )
  })

  it("a legacy_imported event's selected and completed name candidates; its own ids are unique", () => {
    const sha = "b".repeat(64)
    const legacy = (over: Partial<Extract<JournalEvent, { type: "legacy_imported" }>>): JournalEvent => ({
      id: `legacy:${sha}`,
      type: "legacy_imported",
      manifestSha256: sha,
      snapshotPath: `research/s/legacy/manifest-${sha}.json`,
      protocolVersion: null,
      candidates: [{ id: "old-1", status: "accepted", resultPaths: [] }],
      completed: ["old-1"],
      selected: "old-1",
      ...over
    })
    expect(project([legacy({})]).problem).toBeNull()
    // A candidate created earlier in the journal counts, as for any reference.
    expect(
      project([
        { id: "c", type: "candidate_created", candidate: { id: "new", title: "t" } },
        legacy({ selected: "new" })
      ]).problem
    )
      .toBeNull()
    expect(project([legacy({ selected: "nope" })]).problem).toMatchObject({
      problem: { _tag: "unknown-candidate", candidateId: "nope" }
    })
    expect(project([legacy({ completed: ["old-1", "gone"] })]).problem).toMatchObject({
      problem: { _tag: "unknown-candidate", candidateId: "gone" }
    })
    const twice = { id: "old-1", status: "rejected" as const, resultPaths: [] }
    expect(project([legacy({ candidates: [{ id: "old-1", status: "accepted", resultPaths: [] }, twice] })]).problem)
      .toMatchObject({ problem: { _tag: "duplicate-candidate", candidateId: "old-1" } })
  })

  it("legacy candidates count as created and keep their recorded status until the journal decides", () => {
    const sha = "a".repeat(64)
    const legacy: JournalEvent = {
      id: `legacy:${sha}`,
      type: "legacy_imported",
      manifestSha256: sha,
      snapshotPath: `research/s/legacy/manifest-${sha}.json`,
      protocolVersion: "p0",
      candidates: [
        { id: "old-1", status: "selected", resultPaths: ["research/results/1.csv"] },
        { id: "old-2", status: "rejected", resultPaths: [] }
      ],
      completed: ["old-1"],
      selected: "old-1"
    }
    const later: Array<JournalEvent> = [
      {
        id: "n1",
        type: "evaluation_recorded",
        candidateId: "old-2",
        evaluation: { evaluatorVersion: "v", metrics: {}, decision: "accept" }
      },
      { id: "n2", type: "candidate_selected", candidateId: "old-2", reason: "better" }
    ]
    expect(statuses([legacy])).toEqual({ "old-1": "selected", "old-2": "rejected" })
    expect(manifestOf("s", project([legacy]).projection)).toEqual({
      version: 1,
      study: "s",
      protocolVersion: "p0",
      candidates: [
        { id: "old-1", status: "selected", resultPaths: ["research/results/1.csv"] },
        { id: "old-2", status: "rejected", resultPaths: [] }
      ],
      completed: ["old-1"],
      selected: "old-1"
    })
    expect(statuses([legacy, ...later])).toEqual({ "old-1": "accepted", "old-2": "selected" })
  })
})
