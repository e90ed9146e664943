/**
 * The JournalStore conformance suite: random sequences of port calls — appends of batches drawn
 * from a small pool of ids and contents (so retries, conflicts, unknown and duplicate candidates
 * are frequent), with the journal's rules as `check`, with a check that leaves id conflicts to
 * the store, or with a check that refuses — run on the store under test and on a plain reference
 * model in lockstep. After every call the answer (value, or error tag with its fields) must be the model's, the
 * view `check` saw must be the model's, and every study read back must hold the model's events
 * with their digests, its `lines` the journal lines of spec journal.md, byte for byte.
 * The folder and memory adapters pass it (test/journal/store.conformance.test.ts); an adapter
 * of yours (a SQL one) should too:
 *
 *   it.effect.prop("my store conforms", { ops: JournalStoreConformance.operations },
 *     ({ ops }) => JournalStoreConformance.check(() => ({ store: myStore() }), ops))
 *
 * `check` runs each call alone (no concurrency): the unit of atomicity is the caller's Lock.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as fc from "effect/FastCheck"
import * as Option from "effect/Option"
import { isDeepStrictEqual } from "node:util"
import { type JournalEvent, journalTooLarge } from "../domain/Journal.js"
import { type BatchEntry, checkBatch, entryOf } from "../domain/JournalAppend.js"
import { encodeLine, eventDigest, eventText } from "../domain/JournalLines.js"
import type { AppendView, JournalStoreShape } from "../services/ports/JournalStore.js"

/** A store to check. */
export interface JournalStoreUnderTest {
  readonly store: JournalStoreShape
  /** Called after the sequence (remove a temporary folder). */
  readonly dispose?: () => void
}

export class ConformanceMismatch extends Data.TaggedError("ConformanceMismatch")<{
  readonly step: number
  readonly operation: Operation
  readonly expected: unknown
  readonly actual: unknown
}> {}

/** How an append's check decides: the journal's rules, the rules without the id comparison (left to the store), or a refusal. */
export type CheckMode = "rules" | "store-conflicts" | "refuse"

export type Operation =
  | {
    readonly op: "append"
    readonly study: string
    readonly events: ReadonlyArray<JournalEvent>
    readonly mode: CheckMode
  }
  | { readonly op: "read"; readonly study: string }
  | { readonly op: "studies" }
  | { readonly op: "lines"; readonly study: string; readonly maxBytes: number }

const STUDIES = ["s1", "s2"] as const
const CANDIDATES = ["a", "b", "c"] as const

const created = (id: string, candidate: string, title: string): JournalEvent => ({
  id,
  type: "candidate_created",
  candidate: { id: candidate, title }
})
const evaluated = (id: string, candidate: string, value: number): JournalEvent => ({
  id,
  type: "evaluation_recorded",
  candidateId: candidate,
  evaluation: { evaluatorVersion: "v1", metrics: { m: value }, decision: "accept" }
})
const checkpoint = (id: string, summary: string): JournalEvent => ({
  id,
  type: "checkpoint_saved",
  checkpoint: { summary, nextAction: "next", reviewed: false }
})

/** Events from a small pool: the same id comes back with the same or another content. */
export const event: fc.Arbitrary<JournalEvent> = fc.oneof(
  fc.tuple(fc.integer({ min: 1, max: 4 }), fc.constantFrom(...CANDIDATES), fc.constantFrom("t", "u")).map(([i, c, t]) =>
    created(`c${i}`, c, t)
  ),
  fc.tuple(fc.integer({ min: 1, max: 4 }), fc.constantFrom(...CANDIDATES), fc.constantFrom(1, 2)).map(([i, c, v]) =>
    evaluated(`e${i}`, c, v)
  ),
  fc.tuple(fc.integer({ min: 1, max: 3 }), fc.constantFrom("x", "y")).map(([i, s]) => checkpoint(`k${i}`, s))
)

export const operation: fc.Arbitrary<Operation> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant("append" as const),
      study: fc.constantFrom(...STUDIES),
      // Ids unique within a batch: the Journal refuses repeated ids (DuplicateEventId) before any store.
      events: fc.uniqueArray(event, { minLength: 1, maxLength: 4, selector: (e) => e.id }),
      mode: fc.constantFrom<CheckMode>("rules", "rules", "store-conflicts", "refuse")
    })
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("read" as const), study: fc.constantFrom(...STUDIES, "s3") }) },
  { weight: 1, arbitrary: fc.constant({ op: "studies" as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("lines" as const),
      study: fc.constantFrom(...STUDIES, "s3"),
      maxBytes: fc.constantFrom(200, 1_000_000)
    })
  }
)

export const operations: fc.Arbitrary<ReadonlyArray<Operation>> = fc.array(operation, { minLength: 1, maxLength: 30 })

class Refused extends Data.TaggedError("Refused")<{}> {}

const onDuplicate = (index: number, candidateId: string) => ({
  _tag: "DuplicateCandidate" as const,
  index,
  candidateId
})

/** The check an append runs in `mode`; it records every view it is called with. */
const checkOf = (mode: CheckMode, entries: ReadonlyArray<BatchEntry>, seen: Array<unknown>) => {
  const rules = checkBatch(entries, onDuplicate)
  return (view: AppendView) => {
    seen.push({
      events: view.events,
      head: view.head,
      tail: view.tail,
      digests: entries.map((e) => view.digestOf(e.id) ?? null),
      claimed: CANDIDATES.filter((c) => view.claimed(c))
    })
    if (mode === "refuse") return new Refused()
    return rules(mode === "rules" ? view : { ...view, digestOf: () => undefined })
  }
}

/** The reference: per study, its events in order. */
const makeModel = (): JournalStoreShape => {
  const streams = new Map<string, Array<BatchEntry>>()
  const head = (s: ReadonlyArray<BatchEntry>) => s.length === 0 ? null : { seq: s.length, id: s[s.length - 1]!.id }
  return {
    read: (study) =>
      Effect.sync(() =>
        Option.map(
          Option.fromNullable(streams.get(study)),
          (s) => ({ events: s, tail: { state: "clean", bytes: 0 } as const })
        )
      ),
    append: (study, batch, check) =>
      Effect.suspend(() => {
        const s = streams.get(study) ?? []
        const view: AppendView = {
          events: s.length,
          head: head(s),
          tail: { state: "clean", bytes: 0 },
          digestOf: (id) => s.find((e) => e.id === id)?.digest,
          claimed: (name) => s.some((e) => e.claims.includes(name))
        }
        const refused = check(view)
        if (refused !== null) return Effect.fail(refused)
        const appended: Array<string> = []
        const existing: Array<string> = []
        const next = [...s]
        for (const e of batch) {
          const there = next.find((x) => x.id === e.id)
          if (there === undefined) {
            next.push(e)
            appended.push(e.id)
          } else if (there.digest === e.digest) existing.push(e.id)
          else return Effect.fail({ _tag: "ConflictingEvent", id: e.id } as never)
        }
        if (next.length > 0) streams.set(study, next)
        return Effect.succeed({ appended, existing, head: head(next) })
      }),
    studies: Effect.sync(() =>
      [...streams.keys()].sort().map((study) => ({
        study,
        tail: "clean" as const,
        tailBytes: 0,
        corruptLine: null,
        head: head(streams.get(study)!)
      }))
    ),
    lines: (study, maxBytes) =>
      Effect.suspend(() => {
        const s = streams.get(study)
        if (s === undefined) return Effect.succeed(Option.none())
        const bytes = Buffer.from(s.map((e, i) => encodeLine(i + 1, eventText(e.event))).join(""))
        return bytes.byteLength > maxBytes
          ? Effect.fail(
            journalTooLarge(study, maxBytes, bytes.byteLength)
          )
          : Effect.succeed(Option.some(new Uint8Array(bytes)))
      })
  }
}

/**
 * An answer as comparable data: a value, or the error's tag with its fields (the same refusal
 * carries the same fields whatever the adapter: a `LimitExceeded` of `lines` names the journal's
 * path, as the folder's does).
 */
const outcome = <A>(effect: Effect.Effect<A, unknown>, view: (a: A) => unknown) =>
  Effect.map(Effect.either(effect), (r) =>
    Either.isRight(r)
      ? { ok: view(r.right) }
      : {
        error: (r.left as { _tag?: string })._tag ?? "?",
        ...(r.left instanceof Object ? { ...r.left } : {})
      })

const run = (store: JournalStoreShape, op: Operation) => {
  switch (op.op) {
    case "append": {
      const entries = op.events.map(entryOf)
      const seen: Array<unknown> = []
      return Effect.map(
        outcome(store.append(op.study, entries, checkOf(op.mode, entries, seen)), (a) => a),
        (answer) => ({ answer, seen })
      )
    }
    case "read":
      return outcome(store.read(op.study), (h) =>
        Option.map(h, (s) => ({
          tail: s.tail,
          events: s.events.map((e) => ({
            id: e.id,
            digest: e.digest,
            event: e.event,
            digestHolds: e.digest === eventDigest(e.event)
          }))
        })))
    case "studies":
      return outcome(store.studies, (rows) => rows)
    case "lines":
      return outcome(
        store.lines(op.study, op.maxBytes),
        (b) => Option.map(b, (bytes) => Buffer.from(bytes).toString("utf8"))
      )
  }
}

/** Canonical, comparable data (Options, Uint8Arrays and class instances as plain values). */
const plain = (u: unknown): unknown => JSON.parse(JSON.stringify(u)) as unknown

/**
 * Run `ops` on a fresh store from `make` and on a fresh reference model; fail with the first step
 * whose answers (or the views `check` saw) differ.
 */
export const check = (
  make: () => JournalStoreUnderTest,
  ops: ReadonlyArray<Operation>
): Effect.Effect<void, ConformanceMismatch> =>
  Effect.acquireUseRelease(
    Effect.sync(() => ({ subject: make(), reference: makeModel() })),
    ({ reference, subject }) =>
      Effect.forEach(ops, (op, step) =>
        Effect.gen(function*() {
          const actual = plain(yield* run(subject.store, op))
          const expected = plain(yield* run(reference, op))
          if (!isDeepStrictEqual(actual, expected)) {
            return yield* new ConformanceMismatch({ step, operation: op, expected, actual })
          }
        }), { discard: true }),
    ({ subject }) => Effect.sync(() => subject.dispose?.())
  )
