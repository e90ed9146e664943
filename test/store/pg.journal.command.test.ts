/**
 * The journal's append through `Journal` on a shared dossier (`DossierPostgres`), for a study the
 * process knows: one command of the store's own (`JournalStorePostgres`'s `appendCommand` over
 * `PgLock`'s one-statement command), not a region — `BEGIN` and the lock, the insert and `COMMIT`
 * in one write, no fiber forked for the deadline — and the same answers as the region's: a
 * retried batch, a conflict, another host's head, `LockTimeout`, the deadline, an interruption.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Supervisor from "effect/Supervisor"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import type { JournalEvent } from "../../src/domain/Journal.js"
import { DossierPostgres } from "../../src/layers/DossierPostgres.js"
import { PgLockLayer } from "../../src/layers/postgres/PgLock.js"
import { PgStoreLayer, type PgStoreOptions } from "../../src/layers/postgres/PgStore.js"
import { Journal } from "../../src/services/Journal.js"
import { created, evaluation } from "../journal/events.js"
import { adminQuery, pgAvailable, useTestDatabase } from "../support/postgres.js"
import { countWrites, holdLock, reasonOf, tagOf, traceQueries } from "./support/pgWire.js"

/** Counts the fibers started under it. */
class CountForks extends Supervisor.AbstractSupervisor<void> {
  started = 0
  get value() {
    return Effect.void
  }
  override onStart() {
    this.started++
  }
}

describe.skipIf(!pgAvailable)("the journal's append through Journal on PostgreSQL", () => {
  const db = useTestDatabase()
  const workdir = fs.mkdtempSync(path.join(os.tmpdir(), "dossier-journal-command-"))
  let dossiers = 0
  const fresh = (prefix: string) => `${prefix}-${dossiers++}`

  /** A host of dossier `name`: the services of a shared dossier, its own pool and memory. */
  const host = (name: string, waits: Pick<PgStoreOptions, "lockTimeoutMs" | "deadlineMs"> = {}) =>
    ManagedRuntime.make(DossierPostgres({ url: db.url, dossier: name, workdir, ...waits }))
  type Host = ReturnType<typeof host>
  /** Another host's lock only (to hold the dossier's lock). */
  const locker = (name: string) =>
    ManagedRuntime.make(PgLockLayer.pipe(Layer.provideMerge(PgStoreLayer({ url: db.url, dossier: name }))))

  const append = (rt: Host, study: string, events: ReadonlyArray<JournalEvent>, forks?: CountForks) =>
    rt.runPromise(Effect.either(Effect.flatMap(Journal, (journal) => {
      const call = journal.append(study, events)
      return forks === undefined ? call : Effect.supervised(call, forks)
    })))

  const idsOf = async (name: string, study: string) =>
    (await adminQuery(
      db.url,
      "SELECT id FROM dossier.events WHERE dossier = $1 AND log = 'journal' AND stream = $2 ORDER BY position",
      [name, study]
    )).rows.map((r) => (r as { id: string }).id)

  it("a known study's append is one command: one write, BEGIN, insert and COMMIT, no fiber forked", async () => {
    const name = fresh("one")
    const rt = host(name)
    const { trace, restore } = traceQueries()
    try {
      // The first append of a study the process does not know reads its view in a region.
      expect(await append(rt, "s", [created("c1", "x")])).toEqual(
        Either.right({ study: "s", appended: ["c1"], skipped: [], head: { seq: 1, id: "c1" } })
      )
      trace.length = 0
      const writes = countWrites()
      const forks = new CountForks()
      const answer = await append(rt, "s", [evaluation("e1", "x"), evaluation("e2", "x")], forks).finally(
        writes.restore
      )
      expect(answer).toEqual(
        Either.right({ study: "s", appended: ["e1", "e2"], skipped: [], head: { seq: 3, id: "e2" } })
      )
      expect(trace).toEqual(["> BEGIN", "> INSERT", "> COMMIT", "< BEGIN", "< INSERT", "< COMMIT"])
      expect(writes.count()).toBe(1)
      // The deadline is a timer of the command, not a fiber of its own.
      expect(forks.started).toBe(0)
      expect(await idsOf(name, "s")).toEqual(["c1", "e1", "e2"])
    } finally {
      restore()
      await rt.dispose()
    }
  }, 60_000)

  it("a retry, a conflict, another host's head: the region decides, as without the command", async () => {
    const name = fresh("retry")
    const [a, b] = [host(name), host(name)]
    try {
      expect(tagOf(await append(a, "s", [created("c1", "x")]))).toBe("Right")
      expect(tagOf(await append(a, "s", [evaluation("e1", "x")]))).toBe("Right")
      // The same batch again, and beside a new event: existing, nothing twice.
      expect(await append(a, "s", [evaluation("e1", "x")])).toEqual(
        Either.right({ study: "s", appended: [], skipped: ["e1"], head: { seq: 2, id: "e1" } })
      )
      expect(await append(a, "s", [evaluation("e1", "x"), evaluation("e2", "x")])).toEqual(
        Either.right({ study: "s", appended: ["e2"], skipped: ["e1"], head: { seq: 3, id: "e2" } })
      )
      // Other content under a stored id: ConflictingEvent, nothing stored.
      expect(tagOf(await append(a, "s", [evaluation("e3", "x"), evaluation("e2", "x", "reject")])))
        .toBe("ConflictingEvent")
      // An unknown candidate: the journal's refusal, nothing stored.
      expect(tagOf(await append(a, "s", [evaluation("e3", "nobody")]))).toBe("UnknownCandidate")
      // Host b moves the head on; host a's next batch lands after b's.
      expect(tagOf(await append(b, "s", [created("c2", "y")]))).toBe("Right")
      expect(await append(a, "s", [evaluation("e4", "y")])).toEqual(
        Either.right({ study: "s", appended: ["e4"], skipped: [], head: { seq: 5, id: "e4" } })
      )
      // And host a's next one goes on from there.
      expect(await append(a, "s", [evaluation("e5", "x")])).toEqual(
        Either.right({ study: "s", appended: ["e5"], skipped: [], head: { seq: 6, id: "e5" } })
      )
      expect(await idsOf(name, "s")).toEqual(["c1", "e1", "e2", "c2", "e4", "e5"])
    } finally {
      await a.dispose()
      await b.dispose()
    }
  }, 60_000)

  it(
    "another host holds the lock: LockTimeout past lock_timeout, StoreUnavailable past the deadline, nothing stored",
    async () => {
      const name = fresh("waits")
      const holder = locker(name)
      const quick = host(name, { lockTimeoutMs: 400 })
      const short = host(name, { deadlineMs: 600 })
      try {
        // Both hosts know study s (the second finds c1 stored: a retry).
        for (const rt of [quick, short]) expect(tagOf(await append(rt, "s", [created("c1", "x")]))).toBe("Right")
        const held = await holdLock(holder)
        const timedOut = await append(quick, "s", [evaluation("e1", "x")])
        expect(tagOf(timedOut)).toBe("LockTimeout")
        const started = Date.now()
        const late = await append(short, "s", [evaluation("e2", "x")])
        expect(tagOf(late)).toBe("StoreUnavailable")
        expect(reasonOf(late)).toContain("deadline")
        expect(Date.now() - started).toBeGreaterThanOrEqual(550)
        await held.release()
        expect(await idsOf(name, "s")).toEqual(["c1"])
        // The pools' connections are fine afterwards: the same batches go through.
        expect(tagOf(await append(quick, "s", [evaluation("e1", "x")]))).toBe("Right")
        expect(tagOf(await append(short, "s", [evaluation("e2", "x")]))).toBe("Right")
        expect(await idsOf(name, "s")).toEqual(["c1", "e1", "e2"])
      } finally {
        await quick.dispose()
        await short.dispose()
        await holder.dispose()
      }
    },
    60_000
  )

  it("an interrupted append waiting for the lock: its wait cancelled, nothing stored, the pool fine", async () => {
    const name = fresh("interrupt")
    const holder = locker(name)
    const rt = host(name)
    try {
      expect(tagOf(await append(rt, "s", [created("c1", "x")]))).toBe("Right")
      const held = await holdLock(holder)
      const fiber = rt.runFork(Effect.flatMap(Journal, (journal) => journal.append("s", [evaluation("e1", "x")])))
      await new Promise((resolve) => setTimeout(resolve, 300))
      const started = Date.now()
      const exit = await rt.runPromise(Fiber.interrupt(fiber))
      expect(Exit.isInterrupted(exit)).toBe(true)
      // The server's wait was cancelled: the interruption did not wait for the holder.
      expect(Date.now() - started).toBeLessThan(5_000)
      await held.release()
      expect(await idsOf(name, "s")).toEqual(["c1"])
      expect(tagOf(await append(rt, "s", [evaluation("e1", "x")]))).toBe("Right")
      expect(await idsOf(name, "s")).toEqual(["c1", "e1"])
    } finally {
      await rt.dispose()
      await holder.dispose()
    }
  }, 60_000)
})
