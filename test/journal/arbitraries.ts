/** fast-check generators of valid journal events and batches (references always resolve). */
import * as fc from "fast-check"
import { jsonProblem, MAX_FREE_DEPTH } from "../../src/domain/Decode.js"
import type { JournalEvent } from "../../src/domain/Journal.js"

export const candidateIdArb = fc.constantFrom("cand-a", "cand-b", "cand-c", "cand-d")
const text = fc.string({ minLength: 1, maxLength: 12 })
const hex64 = fc.stringMatching(/^[0-9a-f]{64}$/)
const iso = fc.integer({ min: 0, max: 4_000_000_000_000 }).map((ms) => new Date(ms).toISOString())

/** One operation; `toEvents` turns a list of them into a valid event sequence. */
export type Op =
  | {
    readonly k: "exec"
    readonly c: string
    readonly runtimeId: string
    readonly status: string
    readonly exitCode?: number | null
    readonly logRef?: string
  }
  | {
    readonly k: "artifact"
    readonly c: string
    readonly path: string
    readonly sha256: string
    readonly bytes: number
  }
  | {
    readonly k: "eval"
    readonly c: string
    readonly decision: "accept" | "reject" | "inconclusive"
    readonly metric: number
  }
  | { readonly k: "select"; readonly c: string; readonly reason: string }
  | { readonly k: "checkpoint"; readonly summary: string; readonly reviewed: boolean }

export const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    k: fc.constant("exec" as const),
    c: candidateIdArb,
    runtimeId: text,
    status: text,
    exitCode: fc.option(fc.integer({ min: -1, max: 255 })),
    logRef: text
  }, {
    requiredKeys: ["k", "c", "runtimeId", "status"]
  }),
  fc.record({
    k: fc.constant("artifact" as const),
    c: candidateIdArb,
    path: fc.constantFrom("research/results/a.csv", "research/results/b/c.json", "out.txt"),
    sha256: hex64,
    bytes: fc.nat()
  }),
  fc.record({
    k: fc.constant("eval" as const),
    c: candidateIdArb,
    decision: fc.constantFrom("accept" as const, "reject" as const, "inconclusive" as const),
    metric: fc.double({ noNaN: true, noDefaultInfinity: true })
  }),
  fc.record({ k: fc.constant("select" as const), c: candidateIdArb, reason: text }),
  fc.record({ k: fc.constant("checkpoint" as const), summary: text, reviewed: fc.boolean() })
)

const created = (id: string, c: string): JournalEvent => ({
  id,
  type: "candidate_created",
  candidate: { id: c, title: `title of ${c}`, protocolVersion: "p1" }
})

/** Valid events for a list of ops: a candidate is created just before its first use. */
export const toEvents = (ops: ReadonlyArray<Op>, prefix = "e", at?: string): Array<JournalEvent> => {
  const out: Array<JournalEvent> = []
  const made = new Set<string>()
  const stamp = at === undefined ? {} : { at }
  ops.forEach((op, i) => {
    const id = `${prefix}${i}`
    if (op.k !== "checkpoint" && !made.has(op.c)) {
      made.add(op.c)
      out.push(created(`${prefix}${i}-create-${op.c}`, op.c))
    }
    switch (op.k) {
      case "exec":
        out.push({
          id,
          ...stamp,
          type: "execution_linked",
          candidateId: op.c,
          execution: {
            runtimeId: op.runtimeId,
            status: op.status,
            ...(op.exitCode !== undefined ? { exitCode: op.exitCode } : {}),
            ...(op.logRef !== undefined ? { logRef: op.logRef } : {})
          }
        })
        return
      case "artifact":
        out.push({
          id,
          ...stamp,
          type: "artifact_linked",
          candidateId: op.c,
          artifact: { path: op.path, sha256: op.sha256, bytes: op.bytes }
        })
        return
      case "eval":
        out.push({
          id,
          ...stamp,
          type: "evaluation_recorded",
          candidateId: op.c,
          evaluation: { evaluatorVersion: "ev1", metrics: { m: op.metric }, decision: op.decision }
        })
        return
      case "select":
        out.push({ id, ...stamp, type: "candidate_selected", candidateId: op.c, reason: op.reason })
        return
      case "checkpoint":
        out.push({
          id,
          ...stamp,
          type: "checkpoint_saved",
          checkpoint: { summary: op.summary, nextAction: "next", reviewed: op.reviewed }
        })
        return
    }
  })
  return out
}

export const eventsArb = (maxOps = 30) => fc.array(opArb, { maxLength: maxOps }).map((ops) => toEvents(ops))

export const legacyArb: fc.Arbitrary<JournalEvent> = fc
  .record({
    sha: hex64,
    ids: fc.uniqueArray(fc.constantFrom("old-1", "old-2", "old-3"), { minLength: 1 }),
    status: fc.constantFrom(
      "created" as const,
      "evaluated" as const,
      "accepted" as const,
      "rejected" as const,
      "selected" as const
    ),
    pv: fc.option(text, { nil: null })
  })
  .map(({ sha, ids, status, pv }) => ({
    id: `legacy:${sha}`,
    type: "legacy_imported" as const,
    manifestSha256: sha,
    snapshotPath: `research/s/legacy/manifest-${sha}.json`,
    protocolVersion: pv,
    candidates: ids.map((id) => ({ id, status, resultPaths: [`research/results/${id}.csv`] })),
    completed: ids.slice(0, 1),
    selected: status === "selected" ? ids[0]! : null
  }))

/** Any event of any type, valid on its own (references are not checked here). */
export const anyEventArb: fc.Arbitrary<JournalEvent> = fc.oneof(
  eventsArb(3).filter((es) => es.length > 0).chain((es) => fc.constantFrom(...es)),
  legacyArb,
  iso.map((at): JournalEvent => ({
    id: "t1",
    at,
    type: "checkpoint_saved",
    checkpoint: { summary: "s", nextAction: "n", reviewed: false }
  })),
  // fc.jsonValue sometimes makes a `__proto__` key, which no valid event holds (it is refused).
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 })).filter((params) =>
    jsonProblem(params, MAX_FREE_DEPTH) === null
  ).map((params): JournalEvent => ({
    id: "p1",
    type: "candidate_created",
    candidate: { id: "x", title: "t", params }
  }))
)
