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
 * `append` runs as one transaction (a savepoint inside the caller's `PgLock.withLock`) that first
 * takes an advisory transaction lock on the study (so that it is correct on its own too: two
 * connections appending to one study take turns), then reads the view (the head, the stored
 * digests of the batch's ids, the claims) in one statement, runs the pure `check` on it once,
 * and stores what is new — events and claims — in one statement, at the positions after the
 * head. A refusal, a `ConflictingEvent`, a failure of the connection, or an interruption stores
 * nothing: the transaction (or savepoint) is rolled back, or the server drops it with the
 * connection.
 *
 * `read`, `lines` and `studies` render the rows as the journal lines of spec journal.md
 * (`encodeLine`), the bytes the folder adapter holds for the same appends, and `read`/`studies`
 * replay those bytes as the folder does: a row edited behind dossier's back (a digest that does
 * not hold, a gap in the positions, an event that breaks the rules) is `CorruptJournal`, or a
 * `corrupt` row of `studies`. A journal in SQL has no torn write: its tail is always clean.
 *
 * Every statement is parameterized; a driver failure is `StoreUnavailable` or `LockTimeout`.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { LimitExceeded } from "../../domain/Errors.js"
import type { JournalEvent } from "../../domain/Journal.js"
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
import type { PgStoreError } from "./PgRecords.js"
import { PgStore, type PgStoreShape } from "./PgStore.js"

/** The `log` of the journal's events, and of the names they claim, in `dossier.events`. */
export const JOURNAL_LOG = "journal"
export const CLAIMS_LOG = "journal-claims"

const CLEAN: JournalTail = { state: "clean", bytes: 0 }

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

/** A row to insert (`json_to_recordset`). */
interface NewRow {
  readonly position: number
  readonly id: string
  readonly digest: string
  readonly event: string
}

/** The journal lines of stored rows (positions as stored: a gap is damage the replay reports). */
const render = (rows: ReadonlyArray<EventRow>): Buffer => {
  let text = ""
  for (const r of rows) text += encodeLine(r.position, r.event, r.digest)
  return Buffer.from(text, "utf8")
}

const asBytes = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength)

export const makeJournalStorePostgres = (store: PgStoreShape): JournalStoreShape => {
  const { sql, config, mapErrors } = store
  const dossier = config.dossier

  const rowsOf = (study: string) =>
    sql<EventRow>`SELECT position, digest, event FROM dossier.events
      WHERE dossier = ${dossier} AND log = ${JOURNAL_LOG} AND stream = ${study} ORDER BY position`

  const append = <E>(
    study: string,
    batch: ReadonlyArray<JournalEntry>,
    check: (view: AppendView) => E | null
  ): Effect.Effect<JournalAppended, PgStoreError | ConflictingEvent | E> =>
    mapErrors(sql.withTransaction(Effect.gen(function*() {
      // Writers of one study take turns (beside the dossier's lock, which a caller may not hold);
      // a statement of its own, so that the view below is read after the lock is granted.
      yield* sql`SELECT pg_advisory_xact_lock(hashtextextended(${`dossier:${dossier}:journal:${study}`}, 0))`
      const ids = JSON.stringify([...new Set(batch.map((e) => e.id))])
      const rows = yield* sql<ViewRow>`SELECT 'h' AS k, h.id, h.digest, h.position FROM (
          SELECT id, digest, position FROM dossier.events
          WHERE dossier = ${dossier} AND log = ${JOURNAL_LOG} AND stream = ${study}
          ORDER BY position DESC LIMIT 1) AS h
        UNION ALL
        SELECT 'd', id, digest, position FROM dossier.events
          WHERE dossier = ${dossier} AND log = ${JOURNAL_LOG} AND stream = ${study}
            AND id IN (SELECT json_array_elements_text(${ids}::json))
        UNION ALL
        SELECT 'c', id, digest, position FROM dossier.events
          WHERE dossier = ${dossier} AND log = ${CLAIMS_LOG} AND stream = ${study}`
      let head: Head | null = null
      let lastClaim = 0
      const digests = new Map<string, string>()
      const claimed = new Set<string>()
      for (const r of rows) {
        if (r.k === "h") head = { seq: r.position, id: r.id }
        else if (r.k === "d") digests.set(r.id, r.digest)
        else {
          claimed.add(r.id)
          if (r.position > lastClaim) lastClaim = r.position
        }
      }
      const view: AppendView = {
        events: head?.seq ?? 0,
        head,
        tail: CLEAN,
        digestOf: (id) => digests.get(id),
        claimed: (name) => claimed.has(name)
      }
      const refused = check(view)
      if (refused !== null) return yield* Effect.fail(refused)
      const split = splitBatch(batch, view.digestOf)
      if (Either.isLeft(split)) return yield* Effect.fail(split.left)
      const { existing, fresh } = split.right
      if (fresh.length === 0) return { appended: [], existing, head } satisfies JournalAppended
      const events: Array<NewRow> = []
      const claims: Array<NewRow> = []
      for (const e of fresh) {
        events.push({ position: view.events + events.length + 1, id: e.id, digest: e.digest, event: entryText(e) })
        for (const name of e.claims) {
          if (claimed.has(name)) continue
          claimed.add(name)
          claims.push({ position: lastClaim + claims.length + 1, id: name, digest: e.digest, event: e.id })
        }
      }
      yield* sql`WITH ev AS (
          INSERT INTO dossier.events (dossier, log, stream, position, id, digest, event)
          SELECT ${dossier}, ${JOURNAL_LOG}, ${study}, t.position, t.id, t.digest, t.event
          FROM json_to_recordset(${JSON.stringify(events)}::json)
            AS t(position integer, id text, digest text, event text)
          RETURNING 1
        ), cl AS (
          INSERT INTO dossier.events (dossier, log, stream, position, id, digest, event)
          SELECT ${dossier}, ${CLAIMS_LOG}, ${study}, t.position, t.id, t.digest, t.event
          FROM json_to_recordset(${JSON.stringify(claims)}::json)
            AS t(position integer, id text, digest text, event text)
          RETURNING 1
        ) SELECT (SELECT count(*) FROM ev)::int AS events, (SELECT count(*) FROM cl)::int AS claims`
      const last = events[events.length - 1]!
      return {
        appended: fresh.map((e) => e.id),
        existing,
        head: { seq: last.position, id: last.id }
      } satisfies JournalAppended
    })))

  const read: JournalStoreShape["read"] = (study) =>
    Effect.flatMap(mapErrors(rowsOf(study)), (rows) => {
      if (rows.length === 0) return Effect.succeed(Option.none())
      const bytes = render(rows)
      const r = replay(bytes)
      if (r.corrupt !== null) return Effect.fail(new CorruptJournal(r.corrupt))
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
        return yield* new LimitExceeded({ limit: "fileBytes", max: maxBytes, actual: expected })
      }
      const rows = yield* rowsOf(study)
      if (rows.length === 0) return Option.none()
      const bytes = render(rows)
      // An append between the two statements (outside a transaction) may have grown it.
      if (bytes.byteLength > maxBytes) {
        return yield* new LimitExceeded({ limit: "fileBytes", max: maxBytes, actual: bytes.byteLength })
      }
      return Option.some(asBytes(bytes))
    }))

  return { read, append, studies, lines }
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
