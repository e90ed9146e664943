/**
 * The PostgreSQL adapter of JournalStore (src/services/ports/JournalStore.ts), for the dossier of
 * a `PgStore`, over the `dossier.events` table (src/layers/postgres/PgSchema.ts):
 *
 * - a study's events are the rows of log `journal`, stream `<study>`: `position` is the event's
 *   seq (1, 2, …), `id` its id (`UNIQUE(dossier, log, stream, id)`), `digest` the SHA-256 of
 *   `event`, and `event` its canonical text (RFC 8785), exactly the bytes of its journal line;
 * - the names the events claim (candidate ids) are the rows of log `journal-claims`, stream
 *   `<study>`: `id` the name, `event` the id of the event that claims it, `digest` that event's
 *   digest. The append's check asks any name (`view.claimed`), so an append reads the study's
 *   claims (one row per candidate, never one per event).
 *
 * `append`, inside `PgLock.withLock` of its own dossier (every command), runs in the command's
 * transaction as it is: no other command writes the dossier meanwhile, and a failure rolls the
 * whole command back. It starts from the study as this process's last committed append to it
 * left it (else the head and the claims, read: one probe and one row per candidate), takes no id
 * of the batch for stored, and inserts events and claims after that head in one statement, each
 * row `ON CONFLICT DO NOTHING`. Every row in proves that view was the stream's (see `insert`);
 * the pure `check` then runs once on it, and a refusal takes the rows back. A row not in (a
 * retried batch, a head another host moved on) sends the append the old way: the rows taken
 * back, the study's advisory lock, the whole view (the head, the stored digests of the batch's
 * ids, the claims) in one statement, `check` once on it, what is new stored after the head.
 * When the region's caller said it closes with the append (`LockHeld.closing`: the journal's
 * append of a batch that links no file), the optimistic insert is the region's last statement,
 * sent with the `COMMIT` right behind it: `check` runs first on the view this process knows (a
 * refusal there proves nothing and sends the append to the whole view), and the insert fails
 * unless every row goes in — its transaction rolled back by that failure, the append reopens
 * one (`closing.reopen`) and goes on the old way in it (`check` then called again, on the view
 * read). `appendCommand` sends that optimistic insert as a whole command (`PgLock`'s one-statement
 * command, no region) for a study this process knows, and leaves the rest to the region. On its own (no `PgLock`), the append is a transaction (a savepoint in the caller's)
 * that takes the study's lock first, so two connections appending to one study take turns. A
 * refusal, a `ConflictingEvent`, a failure of the connection, or an interruption stores nothing.
 *
 * `read`, `lines` and `studies` render the rows as the journal lines of spec journal.md
 * (`encodeLine`), the bytes the folder adapter holds for the same appends, and `read`/`studies`
 * replay those bytes as the folder does: a row edited behind dossier's back (a digest that does
 * not hold, a gap in the positions, an event that breaks the rules) is `CorruptJournal`, or a
 * `corrupt` row of `studies`. A journal in SQL has no torn write: its tail is always clean.
 *
 * Every statement is parameterized; a driver failure is `StoreUnavailable` or `LockTimeout`.
 *
 * Over 400 lines: the append's two paths (the optimistic insert and the whole view) share one
 * attempt, its statements and the memory of what was committed, and each path's correctness
 * rests on the others' (a view proved by the insert, a memory only of committed states).
 */
import { TransactionConnection } from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { LockTimeout } from "../../domain/Errors.js"
import { type JournalEvent, journalTooLarge } from "../../domain/Journal.js"
import { entryText, splitBatch } from "../../domain/JournalAppend.js"
import { type ConflictingEvent, CorruptJournal } from "../../domain/JournalErrors.js"
import { encodeLine, replay } from "../../domain/JournalLines.js"
import type { Head, StudyRow } from "../../domain/JournalOutput.js"
import { rememberProjection } from "../../domain/JournalProjection.js"
import type { FileStore } from "../../services/FileStore.js"
import type { Journal } from "../../services/Journal.js"
import type { Lock } from "../../services/Lock.js"
import {
  type AppendView,
  type JournalAppended,
  type JournalEntry,
  JournalStore,
  type JournalStoreShape,
  type JournalTail,
  type StoredJournal
} from "../../services/ports/JournalStore.js"
import type { LoggedEvent } from "../../services/Store.js"
import { JournalFromStore } from "../JournalLive.js"
import { JournalArtifactsPostgres } from "./JournalArtifactsPostgres.js"
import { type ClosingStatement, holdsDossierLock, type LockHeld, oneStatementOf } from "./PgLock.js"
import type { PgStoreError } from "./PgRecords.js"
import { PgStore, type PgStoreShape } from "./PgStore.js"

/** The `log` of the journal's events, and of the names they claim, in `dossier.events`. */
export const JOURNAL_LOG = "journal"
export const CLAIMS_LOG = "journal-claims"

const CLEAN: JournalTail = { state: "clean", bytes: 0 }

const NOT_STORED = Effect.succeed(Option.none<JournalAppended>())

/** The bytes of a journal line beside its event's text: `{"seq":` `,"sha256":"` 64 hex `","event":` `}\n`. */
const LINE_FRAME_BYTES = 7 + 11 + 64 + 10 + 2

interface EventRow {
  readonly position: number
  readonly digest: string
  readonly event: string
}

/** A stored row of the view an append reads: `h` the head, `d` a batch id's digest, `c` a claim. */
interface ViewRow {
  readonly k: "h" | "d" | "c"
  readonly id: string
  readonly digest: string
  readonly position: number
}

/** What an append knows of a study's stream: its head, the names claimed, the last claim's position. */
interface KnownStudy {
  readonly head: Head | null
  readonly claimed: ReadonlySet<string>
  readonly lastClaim: number
}

/** How many studies' streams an adapter remembers between appends (the least recent forgotten). */
const KNOWN_STUDIES = 256

/** Attempts of an append on the whole view before it is a `LockTimeout` (see `append`). */
const MAX_ROUNDS = 20

/** A row to insert (`json_to_recordset`). */
interface NewRow {
  readonly position: number
  readonly id: string
  readonly digest: string
  readonly event: string
}

/**
 * The statements of an append, run on the transaction's connection as they are (parameterized;
 * without the per-statement span and compilation of a `sql` template: an append is a handful of
 * round trips, and those cost as much as one of them).
 */
const STUDY_LOCK = "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))"
const HEAD_AND_CLAIMS = `SELECT 'h' AS k, h.id, h.digest, h.position FROM (
    SELECT id, digest, position FROM dossier.events
    WHERE dossier = $1 AND log = $2 AND stream = $3
    ORDER BY position DESC LIMIT 1) AS h
  UNION ALL
  SELECT 'c', id, digest, position FROM dossier.events WHERE dossier = $1 AND log = $4 AND stream = $3`
const VIEW = HEAD_AND_CLAIMS
const VIEW_WITH_IDS = `${HEAD_AND_CLAIMS}
  UNION ALL
  SELECT 'd', id, digest, position FROM dossier.events
  WHERE dossier = $1 AND log = $2 AND stream = $3 AND id IN (SELECT json_array_elements_text($5::json))`
/** The rows of `json_to_recordset(<rows>)` into the stream `$3` of log `<log>`: all, or the statement fails. */
const STRICT_ROWS = (log: string, rows: string) =>
  `INSERT INTO dossier.events (dossier, log, stream, position, id, digest, event)
  SELECT $1, ${log}, $3, t.position, t.id, t.digest, t.event
  FROM json_to_recordset(${rows}::json) AS t(position integer, id text, digest text, event text)`
/** The same, each row stored unless its id or position is taken (`RETURNING` says which went in). */
const INSERT_ROWS = (log: string, rows: string) =>
  `${STRICT_ROWS(log, rows)}
  ON CONFLICT DO NOTHING`
const INSERT_EVENTS = `${INSERT_ROWS("$2", "$4")} RETURNING 'e' AS k, position`
const INSERT_EVENTS_CLAIMS = `WITH ev AS (${INSERT_ROWS("$2", "$4")} RETURNING position),
  cl AS (${INSERT_ROWS("$5", "$6")} RETURNING position)
  SELECT 'e' AS k, position FROM ev UNION ALL SELECT 'c', position FROM cl`
/**
 * The insert as the region's closing statement (`LockHeld.closing`: the `COMMIT` sent right
 * behind it): the same rows without `ON CONFLICT`, so that it stores every row or fails — a row
 * whose id or position is taken is a unique violation (SQLSTATE 23505 on `dossier.events`), the
 * statement's rows go with it, and the `COMMIT` behind it is a rollback. (Counting the rows an
 * `ON CONFLICT DO NOTHING` insert returned, as it did before, cost the server ~0.1 ms more per
 * append: docs/performance.md, "Shared store".)
 */
/** Exported for bench/store.ts, which sends the library's statements raw. */
export const CLOSING_EVENTS = STRICT_ROWS("$2", "$4")
// A data-modifying WITH runs to completion whether or not the main statement reads it.
const CLOSING_EVENTS_CLAIMS = `WITH ev AS (${STRICT_ROWS("$2", "$4")}) ${STRICT_ROWS("$5", "$6")}`
/** Whether a failure of the closing insert is a row of it not stored (taken), not the server's. */
const rowsTaken = (e: SqlError): boolean => {
  const cause = e.cause as { code?: unknown; table?: unknown } | undefined
  return cause?.code === "23505" && cause.table === "events"
}

const TAKE_BACK = `WITH ev AS (
    DELETE FROM dossier.events WHERE dossier = $1 AND log = $2 AND stream = $3 AND position = ANY($4::int[])
  ) DELETE FROM dossier.events WHERE dossier = $1 AND log = $5 AND stream = $3 AND position = ANY($6::int[])`

/** A row an insert stored: `e` an event, `c` a claim, at `position`. */
interface StoredRow {
  readonly k: "e" | "c"
  readonly position: number
}

/** The journal lines of stored rows (positions as stored: a gap is damage the replay reports). */
const render = (rows: ReadonlyArray<EventRow>): Buffer => {
  let text = ""
  for (const r of rows) text += encodeLine(r.position, r.event, r.digest)
  return Buffer.from(text, "utf8")
}

const asBytes = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength)

export const makeJournalStorePostgres = (
  store: PgStoreShape
): JournalStoreShape & Required<Pick<JournalStoreShape, "appendCommand">> => {
  const { sql, config, mapErrors } = store
  const dossier = config.dossier

  const rowsOf = (study: string) =>
    sql<EventRow>`SELECT position, digest, event FROM dossier.events
      WHERE dossier = ${dossier} AND log = ${JOURNAL_LOG} AND stream = ${study} ORDER BY position`

  /**
   * What this process knows of each study's stream, as a transaction of it left it once
   * committed (never a state that was not: only `PgLock`'s own transaction says when it has
   * committed). An append starts from it instead of reading the view; one that is no longer the
   * stream's is found out by the insert (see `insert`).
   */
  const known = new Map<string, KnownStudy>()
  const forget = (study: string) => void known.delete(study)
  const remember = (study: string, state: KnownStudy) => {
    known.delete(study)
    if (known.size >= KNOWN_STUDIES) known.delete(known.keys().next().value!)
    known.set(study, state)
  }
  const knowOnCommit = (held: LockHeld | null, study: string, state: KnownStudy) =>
    held?.afterCommit?.(() => remember(study, state))

  /** The study's advisory lock (beside the dossier's): writers of one study take turns. */
  const studyLock = (conn: Connection, study: string) =>
    conn.execute(STUDY_LOCK, [`dossier:${dossier}:journal:${study}`], undefined)

  /**
   * The view an append reads: the head (the position index backward, one probe) and the claims,
   * with `ids` also the stored digests of those ids. The id lookup is planned from the table's
   * statistics (a study created since the last ANALYZE may be read whole), so only a retried or
   * refused batch asks for it.
   */
  const readView = (conn: Connection, study: string, ids: ReadonlyArray<string> | null) =>
    Effect.map(
      ids === null
        ? conn.execute(VIEW, [dossier, JOURNAL_LOG, study, CLAIMS_LOG], undefined)
        : conn.execute(VIEW_WITH_IDS, [dossier, JOURNAL_LOG, study, CLAIMS_LOG, JSON.stringify(ids)], undefined),
      (rows) => {
        let head: Head | null = null
        let lastClaim = 0
        const digests = new Map<string, string>()
        const claimed = new Set<string>()
        for (const r of rows as ReadonlyArray<ViewRow>) {
          if (r.k === "h") head = { seq: r.position, id: r.id }
          else if (r.k === "d") digests.set(r.id, r.digest)
          else {
            claimed.add(r.id)
            if (r.position > lastClaim) lastClaim = r.position
          }
        }
        return { state: { head, claimed, lastClaim } satisfies KnownStudy, digests }
      }
    )

  /**
   * Insert the rows, each `ON CONFLICT DO NOTHING`: the positions of the rows inserted. Every row
   * inserted means no id of the batch was stored (each is a probe of the primary key, whatever
   * the plan) and the stream was no longer than the view the positions were counted from
   * (positions are dense and unique: a longer stream holds the first new one). The view is one
   * the stream has had (read in this transaction, or a committed one this process knew), and
   * nothing deletes a stored row: so the stream was that view.
   */
  const insert = (conn: Connection, study: string, events: ReadonlyArray<NewRow>, claims: ReadonlyArray<NewRow>) =>
    conn.execute(
      claims.length === 0 ? INSERT_EVENTS : INSERT_EVENTS_CLAIMS,
      claims.length === 0
        ? [dossier, JOURNAL_LOG, study, JSON.stringify(events)]
        : [dossier, JOURNAL_LOG, study, JSON.stringify(events), CLAIMS_LOG, JSON.stringify(claims)],
      undefined
    ) as Effect.Effect<ReadonlyArray<StoredRow>, SqlError>

  /** The insert that fails unless every row goes in (see `CLOSING_EVENTS`): its text, parameters and name. */
  const closingInsert = (study: string, events: ReadonlyArray<NewRow>, claims: ReadonlyArray<NewRow>) =>
    claims.length === 0
      ? {
        text: CLOSING_EVENTS,
        params: [dossier, JOURNAL_LOG, study, JSON.stringify(events)],
        // Prepared once per connection (the server parses and plans it once).
        name: "dossier-journal-closing-events"
      }
      : {
        text: CLOSING_EVENTS_CLAIMS,
        params: [
          dossier,
          JOURNAL_LOG,
          study,
          JSON.stringify(events),
          CLAIMS_LOG,
          JSON.stringify(claims)
        ],
        name: "dossier-journal-closing-events-claims"
      }

  /** `insert` as the region's closing statement: fails unless every row went in (see `CLOSING_EVENTS`). */
  const insertClosing = (
    closing: ClosingStatement,
    study: string,
    events: ReadonlyArray<NewRow>,
    claims: ReadonlyArray<NewRow>
  ) => {
    const { name, params, text } = closingInsert(study, events, claims)
    return closing.send(text, params, name)
  }

  /** The rows of `fresh` after `state`, and the names claimed with them. */
  const newRows = (state: KnownStudy, fresh: ReadonlyArray<JournalEntry>) => {
    const events: Array<NewRow> = []
    const claims: Array<NewRow> = []
    const claimed = new Set(state.claimed)
    const first = state.head?.seq ?? 0
    for (const e of fresh) {
      events.push({ position: first + events.length + 1, id: e.id, digest: e.digest, event: entryText(e) })
      for (const name of e.claims) {
        if (claimed.has(name)) continue
        claimed.add(name)
        claims.push({ position: state.lastClaim + claims.length + 1, id: name, digest: e.digest, event: e.id })
      }
    }
    const last = events[events.length - 1]!
    const head: Head = { seq: last.position, id: last.id }
    return { events, claims, head, next: { head, claimed, lastClaim: state.lastClaim + claims.length } }
  }

  /** The view of what this process knows of a study (`digests`: the stored digests of the batch's ids). */
  const viewOf = (state: KnownStudy, digests: ReadonlyMap<string, string> | null): AppendView => ({
    events: state.head?.seq ?? 0,
    head: state.head,
    tail: CLEAN,
    digestOf: (id) => digests?.get(id),
    claimed: (name) => state.claimed.has(name)
  })

  /**
   * The append of a batch to a study this process knows, as a command of its own when `lock` is
   * the `PgLock` of this store: the optimistic insert of the region that closes with it (below)
   * sent as the whole command (`PgLock`'s `oneStatementOf`: `BEGIN` and the lock, the insert,
   * `COMMIT`, in one write, no region, no fiber of its own). `check` runs first on the view this
   * process knows; a refusal there, a batch with nothing new, a row that does not go in, or a
   * study not known: `Option.none()`, nothing stored, and the caller's region decides (the study
   * forgotten when a row did not go in, so that region reads its view).
   */
  const appendCommand: NonNullable<JournalStoreShape["appendCommand"]> = (study, batch, check, lock) => {
    const run = oneStatementOf(lock, store)
    if (run === null) return null
    return Effect.suspend(() => {
      const state = known.get(study)
      if (state === undefined) return NOT_STORED
      const view = viewOf(state, null)
      if (check(view) !== null) return NOT_STORED
      const split = splitBatch(batch, view.digestOf)
      if (Either.isLeft(split) || split.right.fresh.length === 0) return NOT_STORED
      const { existing, fresh } = split.right
      const { claims, events, head, next } = newRows(state, fresh)
      return Effect.map(
        run({ ...closingInsert(study, events, claims), refused: rowsTaken, committed: () => remember(study, next) }),
        (rows): Option.Option<JournalAppended> => {
          if (rows !== null) return Option.some({ appended: fresh.map((e) => e.id), existing, head })
          forget(study)
          return Option.none()
        }
      )
    })
  }

  /** Take back rows this transaction inserted (its own, uncommitted: nobody else saw them). */
  const takeBack = (conn: Connection, study: string, rows: ReadonlyArray<StoredRow>) => {
    const list = (k: StoredRow["k"]) => `{${rows.filter((r) => r.k === k).map((r) => r.position).join(",")}}`
    return conn.execute(TAKE_BACK, [dossier, JOURNAL_LOG, study, list("e"), CLAIMS_LOG, list("c")], undefined)
  }

  const append = <E>(
    study: string,
    batch: ReadonlyArray<JournalEntry>,
    check: (view: AppendView) => E | null
  ): Effect.Effect<JournalAppended, PgStoreError | ConflictingEvent | E> => {
    const ids = [...new Set(batch.map((e) => e.id))]
    /**
     * One attempt on `state`, with `digests` the stored digests of the batch's ids, or null: the
     * optimistic attempt, which takes none for stored. The rules' answer, or the rows stored, or
     * null when the view was not the stream's (nothing of the attempt is left stored). `check` is
     * called once per attempt, on a view that is the stream's: the optimistic attempt inserts
     * first and asks `check` only once every row is in (which proves its view), taking the rows
     * back when `check` refuses.
     */
    const attempt = (
      conn: Connection,
      held: LockHeld | null,
      state: KnownStudy,
      digests: ReadonlyMap<string, string> | null
    ): Effect.Effect<Either.Either<JournalAppended, E | ConflictingEvent> | null, SqlError> =>
      Effect.gen(function*() {
        const optimistic = digests === null
        const view = viewOf(state, digests)
        // The region closes with the optimistic insert when its caller said so: the rules run
        // first, on the view the insert then proves (a refusal there proves nothing: the whole
        // view decides).
        const closing = optimistic ? held?.closing ?? null : null
        if (closing !== null && check(view) !== null) return null
        if (!optimistic) {
          const refused = check(view)
          if (refused !== null) {
            knowOnCommit(held, study, state)
            return Either.left(refused)
          }
        }
        const split = splitBatch(batch, view.digestOf)
        // On the optimistic view an empty batch proves nothing, and a conflict within the batch
        // may not be the first one: the whole view decides.
        if (optimistic && (Either.isLeft(split) || split.right.fresh.length === 0)) return null
        if (Either.isLeft(split)) {
          knowOnCommit(held, study, state)
          return Either.left(split.left)
        }
        const { existing, fresh } = split.right
        if (fresh.length === 0) {
          knowOnCommit(held, study, state)
          return Either.right({ appended: [], existing, head: state.head } satisfies JournalAppended)
        }
        const { claims, events, head, next } = newRows(state, fresh)
        if (closing !== null) {
          // Every row in, else the statement failed and its transaction with it: the whole view
          // then decides, in a new transaction.
          const closed = yield* Effect.either(insertClosing(closing, study, events, claims))
          if (Either.isLeft(closed)) {
            if (!rowsTaken(closed.left)) return yield* closed.left
            yield* closing.reopen
            return null
          }
        } else {
          const stored = yield* insert(conn, study, events, claims)
          if (stored.length < events.length + claims.length) {
            if (stored.length > 0) yield* takeBack(conn, study, stored)
            return null
          }
          if (optimistic) {
            const refused = check(view)
            if (refused !== null) {
              yield* takeBack(conn, study, stored)
              knowOnCommit(held, study, state)
              return Either.left(refused)
            }
          }
        }
        knowOnCommit(held, study, next)
        return Either.right({ appended: fresh.map((e) => e.id), existing, head } satisfies JournalAppended)
      })

    /**
     * The optimistic attempt first, on what this process knows of the study (the stream as its
     * last append here left it), else on the head and the claims read now. When a row cannot be
     * stored (an id stored already: a retry; the stream longer or other than known), the whole
     * view is read — the study's lock taken first when it is not held — and the attempt made on
     * it (again only if, that very moment, a writer outside the study's lock stored first).
     */
    const run = (held: LockHeld | null) =>
      Effect.gen(function*() {
        // Inside a transaction (the command's, or the append's own): its connection.
        const tx = yield* Effect.serviceOption(TransactionConnection)
        if (Option.isNone(tx)) return yield* Effect.dieMessage("a journal append runs inside a transaction")
        const conn = tx.value[0]
        if (held === null) yield* studyLock(conn, study)
        const state = known.get(study) ?? (yield* readView(conn, study, null)).state
        const fast = yield* attempt(conn, held, state, null)
        if (fast !== null) return yield* fast
        forget(study)
        if (held !== null) yield* studyLock(conn, study)
        for (let round = 0; round < MAX_ROUNDS; round++) {
          const full = yield* readView(conn, study, ids)
          const answer = yield* attempt(conn, held, full.state, full.digests)
          if (answer !== null) return yield* answer
        }
        // Another writer (one outside the study's lock) stored before each attempt: a wait for it.
        return yield* new LockTimeout({ waitedMs: config.lockTimeoutMs })
      })

    return mapErrors(Effect.flatMap(
      holdsDossierLock(dossier),
      // Inside the dossier's lock (the command's transaction, which a failure rolls back whole)
      // no other command writes the study: no savepoint, and the study's lock only on the slow
      // path. On its own, the append is a transaction (a savepoint in the caller's) that takes
      // the study's lock first, so two such writers of one study take turns.
      (held) => held !== null ? run(held) : sql.withTransaction(run(null))
    ))
  }

  const read: JournalStoreShape["read"] = (study) =>
    Effect.flatMap(mapErrors(rowsOf(study)), (rows) => {
      if (rows.length === 0) return Effect.succeed(Option.none())
      const bytes = render(rows)
      const r = replay(bytes)
      if (r.corrupt !== null) return Effect.fail(new CorruptJournal({ ...r.corrupt, study, dossier }))
      // As the folder's: the events are decoded again only when asked for (`projectionOf`
      // takes the projection this replay built).
      let events: ReadonlyArray<LoggedEvent<JournalEvent>> | undefined
      const history: StoredJournal = {
        tail: CLEAN,
        get events() {
          if (events === undefined) {
            const list: Array<JournalEvent> = []
            replay(bytes, list)
            events = list.map((event, i) => ({ id: event.id, digest: rows[i]!.digest, event }))
          }
          return events
        }
      }
      rememberProjection(history, r.projector, r.events)
      return Effect.succeed(Option.some(history))
    })

  const studies: JournalStoreShape["studies"] = mapErrors(Effect.gen(function*() {
    const streams = yield* sql<{ stream: string }>`SELECT DISTINCT stream FROM dossier.events
      WHERE dossier = ${dossier} AND log = ${JOURNAL_LOG}`
    const names = streams.map((s) => s.stream).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    const out: Array<StudyRow> = []
    // One study's rows at a time: what `studies` holds is one journal, as the folder's.
    for (const study of names) {
      const rows = yield* rowsOf(study)
      if (rows.length === 0) continue
      const r = replay(render(rows))
      out.push({
        study,
        tail: r.corrupt !== null ? "corrupt" : "clean",
        tailBytes: 0,
        corruptLine: r.corrupt?.line ?? null,
        head: r.projector.currentHead()
      })
    }
    return out
  }))

  const lines: JournalStoreShape["lines"] = (study, maxBytes) =>
    mapErrors(Effect.gen(function*() {
      // The size first, so that a journal over the limit is refused without being fetched.
      const [size] = yield* sql<{ n: number; bytes: string | null }>`SELECT count(*)::int AS n,
          sum(octet_length(event) + ${LINE_FRAME_BYTES} + length(position::text))::bigint AS bytes
        FROM dossier.events WHERE dossier = ${dossier} AND log = ${JOURNAL_LOG} AND stream = ${study}`
      if (size === undefined || size.n === 0) return Option.none()
      const expected = Number(size.bytes ?? 0)
      if (expected > maxBytes) {
        return yield* journalTooLarge(study, maxBytes, expected)
      }
      const rows = yield* rowsOf(study)
      if (rows.length === 0) return Option.none()
      const bytes = render(rows)
      // An append between the two statements (outside a transaction) may have grown it.
      if (bytes.byteLength > maxBytes) {
        return yield* journalTooLarge(study, maxBytes, bytes.byteLength)
      }
      return Option.some(asBytes(bytes))
    }))

  return { read, append, appendCommand, studies, lines }
}

/** The JournalStore of the context's `PgStore` (its dossier). */
export const JournalStorePostgres: Layer.Layer<JournalStore, never, PgStore> = Layer.effect(
  JournalStore,
  Effect.map(PgStore, makeJournalStorePostgres)
)

/**
 * The Journal over a shared dossier: its logic (`JournalFromStore`) over `JournalStorePostgres`
 * and `JournalArtifactsPostgres` (with `PgLockLayer` as the Lock, and this host's FileStore for
 * the artifacts).
 */
export const JournalPostgres: Layer.Layer<Journal, never, PgStore | FileStore | Lock> = JournalFromStore.pipe(
  Layer.provide(Layer.merge(JournalStorePostgres, JournalArtifactsPostgres))
)
