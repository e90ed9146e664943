/**
 * How the journal's PostgreSQL adapter appends (src/layers/postgres/JournalStorePostgres.ts):
 * inside `PgLock.withLock` of its own dossier it inserts the batch after the head it knows
 * (read, or remembered from its last committed append) with `ON CONFLICT DO NOTHING`, and reads
 * the whole view only when a row could not be stored. These tests hold the paths that the plain
 * conformance suite does not reach on their own: a retried batch (all of it, or part of it
 * beside new events), a retry the rules would refuse on a view without the stored ids, a refusal
 * after the optimistic insert (the rows taken back even when the caller commits), a head this
 * process remembers that another host has moved on from, an append rolled back after it
 * succeeded, writers of one study outside the dossier's lock and beside one inside it — and the
 * view `check` sees is always the stream's.
 *
 * Over 400 lines: each path of one append is held by a case sharing the cluster, the hosts and
 * the adapter's memory per host; split, each file would repeat them.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as fc from "effect/FastCheck"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import { describe, expect, it } from "vitest"
import type { JournalEvent } from "../../src/domain/Journal.js"
import { checkBatch, entryOf } from "../../src/domain/JournalAppend.js"
import { makeJournalStorePostgres } from "../../src/layers/postgres/JournalStorePostgres.js"
import { PgLock, PgLockLayer } from "../../src/layers/postgres/PgLock.js"
import { ensureDossier } from "../../src/layers/postgres/PgSchema.js"
import { PgStore, PgStoreLayer, type PgStoreOptions } from "../../src/layers/postgres/PgStore.js"
import type { LockRegionHint } from "../../src/services/Lock.js"
import type { AppendView, JournalStoreShape } from "../../src/services/ports/JournalStore.js"
import { JournalStoreConformance } from "../../src/testing.js"
import { created, evaluation } from "../journal/events.js"
import { adminQuery, pgAvailable, useTestDatabase } from "../support/postgres.js"
import { underLock } from "./support/lockedJournal.js"
import { countWrites, holdLock, reasonOf, tagOf, traceQueries } from "./support/pgWire.js"

type Runtime = ManagedRuntime.ManagedRuntime<PgStore | PgLock, unknown>

const checkpoint = (id: string, summary: string): JournalEvent => ({
  id,
  type: "checkpoint_saved",
  checkpoint: { summary, nextAction: "next", reviewed: false }
})

const onDuplicate = (index: number, candidateId: string) => ({
  _tag: "DuplicateCandidate" as const,
  index,
  candidateId
})

/** What `check` saw: the event count, the head, the stored digests of the batch's ids, the claims asked. */
interface Seen {
  readonly events: number
  readonly head: AppendView["head"]
  readonly stored: ReadonlyArray<string | null>
}

describe.skipIf(!pgAvailable)("the journal's append on PostgreSQL", () => {
  const db = useTestDatabase()

  let dossiers = 0
  /**
   * A runtime (a host) of dossier `name`: its own pool, PgLock and journal adapter (so its own
   * memory), with the store's `waits` (lock timeout, deadline) when given.
   */
  const host = (name: string, waits: Pick<PgStoreOptions, "lockTimeoutMs" | "deadlineMs"> = {}): Runtime =>
    ManagedRuntime.make(PgLockLayer.pipe(Layer.provideMerge(PgStoreLayer({ url: db.url, dossier: name, ...waits }))))
  const fresh = (prefix: string) => `${prefix}-${dossiers++}`

  /** The adapter of the runtime's dossier (made once per runtime, as a layer would). */
  const adapters = new WeakMap<Runtime, JournalStoreShape>()
  const adapterOf = (rt: Runtime) =>
    Effect.gen(function*() {
      const known = adapters.get(rt)
      if (known !== undefined) return known
      const store = yield* PgStore
      const made = makeJournalStorePostgres(store)
      adapters.set(rt, made)
      return made
    })

  /**
   * Append `events` with the journal's rules, inside the dossier's lock (`locked`, the default)
   * or on its own; the answer, and every view `check` was called with.
   */
  const append = (
    rt: Runtime,
    study: string,
    events: ReadonlyArray<JournalEvent>,
    locked = true,
    hint: LockRegionHint | undefined = undefined
  ) =>
    rt.runPromise(Effect.gen(function*() {
      const journals = yield* adapterOf(rt)
      const lock = yield* PgLock
      const entries = events.map(entryOf)
      const rules = checkBatch(entries, onDuplicate)
      const seen: Array<Seen> = []
      const call = journals.append(study, entries, (view) => {
        seen.push({
          events: view.events,
          head: view.head,
          stored: entries.map((e) => view.digestOf(e.id) ?? null)
        })
        return rules(view)
      })
      const answer = yield* Effect.either(locked ? lock.withLock(call, hint) : call)
      return { answer, seen }
    }))

  const rowsOf = async (dossier: string, log = "journal") =>
    (await adminQuery(
      db.url,
      "SELECT stream, position, id FROM dossier.events WHERE dossier = $1 AND log = $2 ORDER BY stream, position",
      [dossier, log]
    )).rows as Array<{ stream: string; position: number; id: string }>
  const idsOf = async (dossier: string, log = "journal") => (await rowsOf(dossier, log)).map((r) => r.id)
  const digestOf = (e: JournalEvent) => entryOf(e).digest

  it("conforms to the JournalStore contract inside PgLock.withLock of its own dossier", async () => {
    await fc.assert(
      fc.asyncProperty(JournalStoreConformance.operations, async (ops) => {
        const name = fresh("conf-held")
        const rt = host(name)
        try {
          await rt.runPromise(Effect.gen(function*() {
            const inner = yield* adapterOf(rt)
            const lock = yield* PgLock
            const store = underLock(inner, lock)
            return yield* JournalStoreConformance.check(() => ({ store }), ops)
          }))
        } finally {
          await rt.dispose()
        }
      }),
      { numRuns: 12, seed: 2614 }
    )
  }, 120_000)

  it("a retried batch: the same content is existing, beside new events too; other content stores nothing", async () => {
    const name = fresh("retry")
    const rt = host(name)
    try {
      const first = [created("c1", "a"), evaluation("e1", "a")]
      expect((await append(rt, "s", first)).answer).toEqual(
        Either.right({ appended: ["c1", "e1"], existing: [], head: { seq: 2, id: "e1" } })
      )
      // All of it again: the rules on a view without the stored ids would refuse `c1` (candidate
      // `a` created twice); the stored ids are read, and both are existing.
      const again = await append(rt, "s", first)
      expect(again.answer).toEqual(Either.right({ appended: [], existing: ["c1", "e1"], head: { seq: 2, id: "e1" } }))
      expect(again.seen).toEqual([{
        events: 2,
        head: { seq: 2, id: "e1" },
        stored: [digestOf(first[0]!), digestOf(first[1]!)]
      }])
      // A new candidate before a stored one, and a checkpoint after: the new ones stored in order.
      const mixed = [created("c2", "b"), first[0]!, checkpoint("k1", "x")]
      const answer = await append(rt, "s", mixed)
      expect(answer.answer).toEqual(
        Either.right({ appended: ["c2", "k1"], existing: ["c1"], head: { seq: 4, id: "k1" } })
      )
      expect(answer.seen).toEqual([{
        events: 2,
        head: { seq: 2, id: "e1" },
        stored: [null, digestOf(first[0]!), null]
      }])
      expect(await rowsOf(name)).toEqual(
        ["c1", "e1", "c2", "k1"].map((id, i) => ({ stream: "s", position: i + 1, id }))
      )
      expect(await rowsOf(name, "journal-claims")).toEqual([
        { stream: "s", position: 1, id: "a" },
        { stream: "s", position: 2, id: "b" }
      ])
      // The same id with other content, after a new event: a conflict, nothing of the batch stored.
      const conflict = await append(rt, "s", [checkpoint("k2", "y"), evaluation("e1", "a", "reject")])
      expect(conflict.answer).toEqual(Either.left(expect.objectContaining({ _tag: "ConflictingEvent", id: "e1" })))
      expect(await idsOf(name)).toEqual(["c1", "e1", "c2", "k1"])
      // The next append starts after the stored head.
      const next = await append(rt, "s", [evaluation("e2", "b")])
      expect(next.answer).toEqual(Either.right({ appended: ["e2"], existing: [], head: { seq: 5, id: "e2" } }))
      expect(next.seen).toEqual([{ events: 4, head: { seq: 4, id: "k1" }, stored: [null] }])
    } finally {
      await rt.dispose()
    }
  })

  it("a refusal after the optimistic insert stores nothing, even when the caller commits its transaction", async () => {
    const name = fresh("refused")
    const rt = host(name)
    try {
      await append(rt, "s", [created("c1", "a")])
      const batches: ReadonlyArray<ReadonlyArray<JournalEvent>> = [
        [checkpoint("k1", "x"), evaluation("e1", "unknown")],
        [created("c2", "b"), created("c3", "b")],
        [created("c4", "a")]
      ]
      for (const batch of batches) {
        // The refusal caught inside the lock: the command's transaction commits.
        const r = await rt.runPromise(Effect.gen(function*() {
          const journals = yield* adapterOf(rt)
          const lock = yield* PgLock
          const entries = batch.map(entryOf)
          return yield* lock.withLock(Effect.either(journals.append("s", entries, checkBatch(entries, onDuplicate))))
        }))
        expect(["UnknownCandidate", "DuplicateCandidate"]).toContain(tagOf(r))
      }
      expect(await idsOf(name)).toEqual(["c1"])
      expect(await idsOf(name, "journal-claims")).toEqual(["a"])
      const next = await append(rt, "s", [created("c2", "b")])
      expect(next.answer).toEqual(Either.right({ appended: ["c2"], existing: [], head: { seq: 2, id: "c2" } }))
      expect(await rowsOf(name, "journal-claims")).toEqual([
        { stream: "s", position: 1, id: "a" },
        { stream: "s", position: 2, id: "b" }
      ])
    } finally {
      await rt.dispose()
    }
  })

  it("a head this host remembers, moved on by another host: the append lands after the other's, on the stream's view", async () => {
    const name = fresh("hosts")
    const [a, b] = [host(name), host(name)]
    try {
      await rtEnsure(a, name)
      expect((await append(a, "s", [created("c1", "x")])).answer).toMatchObject(Either.right({ head: { seq: 1 } }))
      expect((await append(a, "s", [evaluation("e1", "x")])).answer).toMatchObject(Either.right({ head: { seq: 2 } }))
      // Host b appends twice, one of them a new candidate (a claim host a does not know of).
      expect((await append(b, "s", [created("c2", "y"), evaluation("e2", "x")])).answer).toMatchObject(
        Either.right({ head: { seq: 4, id: "e2" } })
      )
      // Host a: its memory says head 2; the stream is at 4, with `y` claimed.
      const late = await append(a, "s", [evaluation("e3", "y"), created("c3", "z")])
      expect(late.answer).toEqual(Either.right({ appended: ["e3", "c3"], existing: [], head: { seq: 6, id: "c3" } }))
      expect(late.seen).toEqual([{ events: 4, head: { seq: 4, id: "e2" }, stored: [null, null] }])
      // A batch whose rules need b's claim, from a host that has not seen it: refused only if it must be.
      const dup = await append(a, "s", [created("c4", "y")])
      expect(dup.answer).toEqual(Either.left(expect.objectContaining({ _tag: "DuplicateCandidate", candidateId: "y" })))
      // And back on host b, whose memory is two events behind.
      const back = await append(b, "s", [checkpoint("k1", "done")])
      expect(back.answer).toEqual(Either.right({ appended: ["k1"], existing: [], head: { seq: 7, id: "k1" } }))
      expect(back.seen).toEqual([{ events: 6, head: { seq: 6, id: "c3" }, stored: [null] }])
      expect(await idsOf(name)).toEqual(["c1", "e1", "c2", "e2", "e3", "c3", "k1"])
      expect((await rowsOf(name, "journal-claims")).map((r) => [r.position, r.id])).toEqual([[1, "x"], [2, "y"], [
        3,
        "z"
      ]])
      const read = await a.runPromise(Effect.flatMap(adapterOf(a), (j) => j.read("s")))
      expect(Option.getOrThrow(read).events.map((e) => e.id)).toEqual(["c1", "e1", "c2", "e2", "e3", "c3", "k1"])
    } finally {
      await a.dispose()
      await b.dispose()
    }
  })

  it("an append rolled back after it succeeded is not remembered: the next one starts from the stored head", async () => {
    const name = fresh("rolled-back")
    const rt = host(name)
    try {
      await append(rt, "s", [created("c1", "a"), evaluation("e1", "a")])
      const failed = await rt.runPromise(Effect.gen(function*() {
        const journals = yield* adapterOf(rt)
        const lock = yield* PgLock
        const entries = [created("c2", "b"), evaluation("e2", "b")].map(entryOf)
        return yield* Effect.either(lock.withLock(Effect.zipRight(
          journals.append("s", entries, checkBatch(entries, onDuplicate)),
          Effect.fail("later step failed" as const)
        )))
      }))
      expect(failed).toEqual(Either.left("later step failed"))
      expect(await idsOf(name)).toEqual(["c1", "e1"])
      const next = await append(rt, "s", [evaluation("e3", "a"), created("c2", "b")])
      expect(next.answer).toEqual(Either.right({ appended: ["e3", "c2"], existing: [], head: { seq: 4, id: "c2" } }))
      expect(next.seen).toEqual([{ events: 2, head: { seq: 2, id: "e1" }, stored: [null, null] }])
      expect((await rowsOf(name, "journal-claims")).map((r) => [r.position, r.id])).toEqual([[1, "a"], [2, "b"]])
      // Two appends to one study in one transaction: the second starts after the first.
      const both = await rt.runPromise(Effect.gen(function*() {
        const journals = yield* adapterOf(rt)
        const lock = yield* PgLock
        const one = [checkpoint("k1", "x")].map(entryOf)
        const two = [checkpoint("k2", "y")].map(entryOf)
        return yield* lock.withLock(Effect.zip(
          journals.append("s", one, checkBatch(one, onDuplicate)),
          journals.append("s", two, checkBatch(two, onDuplicate))
        ))
      }))
      expect(both.map((x) => x.head)).toEqual([{ seq: 5, id: "k1" }, { seq: 6, id: "k2" }])
      expect(await idsOf(name)).toEqual(["c1", "e1", "e3", "c2", "k1", "k2"])
    } finally {
      await rt.dispose()
    }
  })

  it(
    "writers of one study at once outside the dossier's lock, one of them inside it later: nothing lost, nothing twice",
    async () => {
      const name = fresh("mixed")
      const hosts = Array.from({ length: 4 }, () => host(name))
      try {
        await rtEnsure(hosts[0]!, name)
        // Each host: a candidate of its own first, then 5 batches, all on its own (the study's lock).
        const runs = hosts.map(async (rt, h) => {
          const answers = []
          answers.push(await append(rt, "s", [created(`h${h}-c`, `cand-${h}`)], false))
          for (let k = 0; k < 5; k++) {
            answers.push(
              await append(rt, "s", [evaluation(`h${h}-e${k}`, `cand-${h}`), checkpoint(`h${h}-k${k}`, "x")], false)
            )
          }
          return answers
        })
        const all = (await Promise.all(runs)).flat()
        // Then each host inside the dossier's lock, from what it remembers of the study.
        for (const [h, rt] of hosts.entries()) {
          all.push(await append(rt, "s", [evaluation(`h${h}-last`, `cand-${h}`)]))
        }
        for (const a of all) expect(tagOf(a.answer)).toBe("Right")
        const rows = await rowsOf(name)
        expect(rows.map((r) => r.position)).toEqual(Array.from({ length: 4 * 12 }, (_, i) => i + 1))
        expect(new Set(rows.map((r) => r.id)).size).toBe(4 * 12)
        // Each batch whole and in order; each answer's head is its last event's position.
        for (const a of all) {
          const right = Either.getOrThrow(a.answer)
          const at = rows.findIndex((r) => r.id === right.appended[0])
          expect(rows.slice(at, at + right.appended.length).map((r) => r.id)).toEqual(right.appended)
          expect(right.head).toEqual({ seq: at + right.appended.length, id: right.appended[right.appended.length - 1] })
        }
        expect((await rowsOf(name, "journal-claims")).map((r) => r.position)).toEqual([1, 2, 3, 4])
      } finally {
        await Promise.all(hosts.map((rt) => rt.dispose()))
      }
    },
    120_000
  )

  it("the command's deadline: a region that runs past it, or waits for the lock past it, is rolled back", async () => {
    const name = fresh("deadline")
    const holder = host(name)
    const rt = host(name, { deadlineMs: 600 })
    try {
      await rtEnsure(holder, name)
      // Past the deadline inside the region: what it appended is rolled back.
      const slow = await rt.runPromise(Effect.gen(function*() {
        const journals = yield* adapterOf(rt)
        const lock = yield* PgLock
        const entries = [created("c1", "a")].map(entryOf)
        return yield* Effect.either(lock.withLock(Effect.zipRight(
          journals.append("s", entries, checkBatch(entries, onDuplicate)),
          Effect.sleep("5 seconds")
        )))
      }))
      expect(slow).toEqual(
        Either.left(expect.objectContaining({ _tag: "StoreUnavailable", reason: expect.stringContaining("deadline") }))
      )
      expect(await idsOf(name)).toEqual([])
      // Waiting for the dossier's lock (held by another host until the answer; lock_timeout is
      // 10 s): only the deadline (600 ms) can end the wait, and it does.
      const held = await holdLock(holder)
      const started = Date.now()
      const waited = await append(rt, "s", [created("c1", "a")])
      expect(tagOf(waited.answer)).toBe("StoreUnavailable")
      expect(reasonOf(waited.answer)).toContain("deadline")
      expect(Date.now() - started).toBeGreaterThanOrEqual(550)
      await held.release()
      // The pool's connections are fine afterwards: the same append goes through.
      const again = await append(rt, "s", [created("c1", "a")])
      expect(again.answer).toEqual(Either.right({ appended: ["c1"], existing: [], head: { seq: 1, id: "c1" } }))
      expect(await idsOf(name)).toEqual(["c1"])
    } finally {
      await rt.dispose()
      await holder.dispose()
    }
  }, 60_000)

  it(
    "a region that opens with its statement: sent behind BEGIN and the lock; a wait past lock_timeout or the deadline stores nothing",
    async () => {
      const name = fresh("opens")
      const holder = host(name)
      const quick = host(name, { lockTimeoutMs: 400 })
      const short = host(name, { deadlineMs: 600 })
      const opens: LockRegionHint = { opensWithStatement: true }
      const { trace, restore } = traceQueries()
      try {
        await rtEnsure(holder, name)
        for (const rt of [quick, short]) {
          // The first command of a process learns the lock's key (a round trip of its own).
          expect((await append(rt, `s-${rt === quick ? "q" : "d"}`, [created("c0", "a")], true, opens)).answer)
            .toEqual(Either.right(expect.objectContaining({ appended: ["c0"] })))
        }
        trace.length = 0
        const more = await append(quick, "s-q", [created("c1", "b")], true, opens)
        expect(more.answer).toEqual(Either.right({ appended: ["c1"], existing: [], head: { seq: 2, id: "c1" } }))
        // The insert went out before the BEGIN's answer came back: one round trip for both.
        // (A candidate's creation also claims its name: the insert is a WITH of both.)
        expect(trace.slice(0, 3)).toEqual(["> BEGIN", "> WITH", "< BEGIN"])
        // Another host holds the lock: a wait past lock_timeout (400 ms) is LockTimeout; the insert
        // sent behind the BEGIN found the transaction aborted and stored nothing.
        // (It holds the lock until both answers are in: only each waiter's own bound ends its wait.)
        const held = await holdLock(holder)
        const timedOut = await append(quick, "s-q", [created("c2", "c")], true, opens)
        expect(tagOf(timedOut.answer)).toBe("LockTimeout")
        // Past the command's deadline (600 ms) while waiting: StoreUnavailable, the deadline's.
        const started = Date.now()
        const late = await append(short, "s-d", [created("c2", "c")], true, opens)
        expect(tagOf(late.answer)).toBe("StoreUnavailable")
        expect(reasonOf(late.answer)).toContain("deadline")
        expect(Date.now() - started).toBeGreaterThanOrEqual(550)
        await held.release()
        expect((await rowsOf(name)).map((r) => `${r.stream}:${r.id}`)).toEqual(["s-d:c0", "s-q:c0", "s-q:c1"])
        // The pools' connections are fine afterwards: the same appends go through.
        expect((await append(quick, "s-q", [created("c2", "c")], true, opens)).answer)
          .toEqual(Either.right({ appended: ["c2"], existing: [], head: { seq: 3, id: "c2" } }))
        expect((await append(short, "s-d", [created("c2", "c")], true, opens)).answer)
          .toEqual(Either.right({ appended: ["c2"], existing: [], head: { seq: 2, id: "c2" } }))
      } finally {
        restore()
        await quick.dispose()
        await short.dispose()
        await holder.dispose()
      }
    },
    60_000
  )

  it(
    "a region that also closes with its insert: COMMIT sent behind it; a row not stored sends it to the whole view in a new transaction",
    async () => {
      const name = fresh("closes")
      const [a, b] = [host(name), host(name)]
      const both: LockRegionHint = { opensWithStatement: true, closesWithStatement: true }
      const { trace, restore } = traceQueries()
      try {
        await rtEnsure(a, name)
        expect((await append(a, "s", [created("c1", "x")], true, both)).answer)
          .toEqual(Either.right({ appended: ["c1"], existing: [], head: { seq: 1, id: "c1" } }))
        trace.length = 0
        const writes = countWrites()
        const one = await append(a, "s", [evaluation("e1", "x")], true, both).finally(writes.restore)
        expect(one.answer).toEqual(Either.right({ appended: ["e1"], existing: [], head: { seq: 2, id: "e1" } }))
        // BEGIN and the lock, the insert and COMMIT: all sent before the first answer, in one
        // write to the socket (the server wakes once for the three).
        // (The insert has no ON CONFLICT: a row not stored fails it with a unique violation.)
        expect(trace.slice(0, 4)).toEqual(["> BEGIN", "> INSERT", "> COMMIT", "< BEGIN"])
        expect(writes.count()).toBe(1)
        expect(trace.slice(4)).toEqual(["< INSERT", "< COMMIT"])
        // A retry of it: the insert's check fails (the id is stored), its transaction rolls back, and
        // the append goes on in a new one on the whole view: existing, nothing twice.
        trace.length = 0
        const retry = await append(a, "s", [evaluation("e1", "x"), evaluation("e2", "x")], true, both)
        expect(retry.answer).toEqual(Either.right({ appended: ["e2"], existing: ["e1"], head: { seq: 3, id: "e2" } }))
        expect(trace.filter((t) => t === "> BEGIN")).toHaveLength(2)
        // Other content under a stored id: ConflictingEvent, nothing stored.
        const other = await append(a, "s", [evaluation("e3", "x"), evaluation("e2", "x", "reject")], true, both)
        expect(tagOf(other.answer)).toBe("ConflictingEvent")
        // Host b moves the head on: host a's memory is behind, its insert's check fails, and the
        // batch lands after b's on the stream's view.
        expect((await append(b, "s", [created("c2", "y")], true, both)).answer)
          .toMatchObject(Either.right({ head: { seq: 4, id: "c2" } }))
        const late = await append(a, "s", [evaluation("e4", "y"), created("c3", "z")], true, both)
        expect(late.answer).toEqual(Either.right({ appended: ["e4", "c3"], existing: [], head: { seq: 6, id: "c3" } }))
        expect(late.seen.at(-1)).toEqual({ events: 4, head: { seq: 4, id: "c2" }, stored: [null, null] })
        // A refusal on what host a knows is not taken for the stream's: here it is, and nothing is stored.
        const dup = await append(b, "s", [created("c4", "z")], true, both)
        expect(dup.answer).toEqual(
          Either.left(expect.objectContaining({ _tag: "DuplicateCandidate", candidateId: "z" }))
        )
        expect(await idsOf(name)).toEqual(["c1", "e1", "e2", "c2", "e4", "c3"])
        expect((await rowsOf(name, "journal-claims")).map((r) => r.id)).toEqual(["x", "y", "z"])
        // Another host holds the lock past lock_timeout: LockTimeout, the insert and COMMIT behind
        // the failed BEGIN stored nothing; afterwards the same batch goes through.
        const quick = host(name, { lockTimeoutMs: 400 })
        try {
          expect((await append(quick, "t", [created("c1", "x")], true, both)).answer)
            .toMatchObject(Either.right({ appended: ["c1"] }))
          const held = await holdLock(b)
          const timedOut = await append(quick, "t", [evaluation("e1", "x")], true, both)
          expect(tagOf(timedOut.answer)).toBe("LockTimeout")
          await held.release()
          expect((await rowsOf(name)).filter((r) => r.stream === "t").map((r) => r.id)).toEqual(["c1"])
          expect((await append(quick, "t", [evaluation("e1", "x")], true, both)).answer)
            .toEqual(Either.right({ appended: ["e1"], existing: [], head: { seq: 2, id: "e1" } }))
        } finally {
          await quick.dispose()
        }
        // Past the command's deadline (600 ms) while waiting for the lock (lock_timeout 10 s):
        // StoreUnavailable within it, nothing stored.
        const short = host(name, { deadlineMs: 600 })
        try {
          expect((await append(short, "u", [created("c1", "x")], true, both)).answer)
            .toMatchObject(Either.right({ appended: ["c1"] }))
          const held = await holdLock(b)
          const started = Date.now()
          const late = await append(short, "u", [evaluation("e1", "x")], true, both)
          expect(tagOf(late.answer)).toBe("StoreUnavailable")
          expect(reasonOf(late.answer)).toContain("deadline")
          expect(Date.now() - started).toBeGreaterThanOrEqual(550)
          await held.release()
          expect((await rowsOf(name)).filter((r) => r.stream === "u").map((r) => r.id)).toEqual(["c1"])
          expect((await append(short, "u", [evaluation("e1", "x")], true, both)).answer)
            .toEqual(Either.right({ appended: ["e1"], existing: [], head: { seq: 2, id: "e1" } }))
        } finally {
          await short.dispose()
        }
      } finally {
        restore()
        await a.dispose()
        await b.dispose()
      }
    },
    60_000
  )

  /** The dossier's row (a writer's PgStoreLayer made it already; again is harmless). */
  const rtEnsure = (rt: Runtime, name: string) =>
    rt.runPromise(Effect.flatMap(PgStore, (store) => store.mapErrors(ensureDossier(store.sql, name))))
})
