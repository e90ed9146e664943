/**
 * GrantStore in a shared dossier (PostgreSQL): the `GrantStore` port
 * (src/services/ports/GrantStore.ts) over the generic tables of ./PgSchema.ts, no migration.
 *
 * - A grant's record is a `dossier.records` row of kind `grant`, key = the grant's id, value the
 *   JSON text of the sealed grant (its Schema's encoded form), created once (`INSERT … ON
 *   CONFLICT DO NOTHING`, through `pgVersionedRecords`) and never updated. A create that finds a
 *   row compares it with the grant: equal in every field answers `false`, anything else (another
 *   grant, a row that does not decode) is `ConflictingGrant` and nothing changes.
 * - A grant's events are `dossier.events` rows of log `grants`, stream = the grant's id, in
 *   position order; position and id are the event's place (1, 2, …), `digest` the SHA-256 of its
 *   JSON text. An append naming `expected` is one statement: `INSERT … position = expected + 1
 *   WHERE (the stream's count) = expected ON CONFLICT DO NOTHING`. The count check refuses an
 *   append naming a count ahead; the unique position refuses the second of two writers naming
 *   the same count (it waits for the first's row, then inserts nothing), with or without the
 *   dossier's lock. Either way the answer is `StaleRevision {expected, actual}` and nothing
 *   changes. (`pgEventLog`'s append is idempotent by id at the next position: it cannot say
 *   "after exactly `expected`", so the append is written here.)
 * - Reads fail closed as the folder does: a record that does not decode is
 *   `GrantDigestMismatch`, an event that does not decode reads as a revocation.
 *
 * The grants' logic (GrantsLive) checks each record's digest and signature on every load, on
 * the host that runs the command; the roots a grant names are checked on the host that runs
 * `exec` (ExecFiles, WorkTree): only the records are shared. Every statement is parameterized;
 * every driver failure is `StoreUnavailable` or `LockTimeout`.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { isDeepStrictEqual } from "node:util"
import { sha256Hex } from "../../domain/Canonical.js"
import { decodeWith, parseJson } from "../../domain/Decode.js"
import { StaleRevision } from "../../domain/Errors.js"
import { ConflictingGrant, GrantDigestMismatch } from "../../domain/ExecErrors.js"
import {
  type GrantEvent,
  GrantEvent as GrantEventSchema,
  type StoredGrant,
  StoredGrant as StoredGrantSchema
} from "../../domain/Grant.js"
import { GrantStore, type GrantStoreShape } from "../../services/ports/GrantStore.js"
import { damagedEvent } from "../folder/GrantStoreFolder.js"
import { type PgStoreError, pgVersionedRecords } from "./PgRecords.js"
import { PgStore, type PgStoreShape } from "./PgStore.js"

/** The `kind` of a grant's record in `dossier.records`. */
export const GRANT_KIND = "grant"
/** The `log` of grants' events in `dossier.events` (one stream per grant, named by its id). */
export const GRANT_EVENTS_LOG = "grants"

const encodeGrant = Schema.encodeSync(StoredGrantSchema)
const decodeGrant = decodeWith(StoredGrantSchema)
const encodeEvent = Schema.encodeSync(GrantEventSchema)
const decodeEvent = decodeWith(GrantEventSchema)

/** A stored record's text as a grant, or Left when it does not decode. */
const parseGrant = (text: string) => Either.flatMap(parseJson(text), decodeGrant)

/** The JSON text a grant is stored as. */
export const grantRowText = (grant: StoredGrant): string => JSON.stringify(encodeGrant(grant))

export const makeGrantStorePostgres = (store: PgStoreShape): GrantStoreShape<PgStoreError> => {
  const { sql, config, mapErrors } = store
  const dossier = config.dossier
  const records = pgVersionedRecords(store, GRANT_KIND, Schema.Unknown)

  /** The stored text of a grant's record; None when there is none. */
  const textOf = (id: string) =>
    mapErrors(
      Effect.map(
        sql<{ value: string }>`SELECT value FROM dossier.records
          WHERE dossier = ${dossier} AND kind = ${GRANT_KIND} AND key = ${id}`,
        (rows) => Option.fromNullable(rows[0]?.value)
      )
    )

  const countOf = (id: string) =>
    mapErrors(
      Effect.map(
        sql<{ n: number }>`SELECT count(*)::int AS n FROM dossier.events
          WHERE dossier = ${dossier} AND log = ${GRANT_EVENTS_LOG} AND stream = ${id}`,
        (rows) => rows[0]?.n ?? 0
      )
    )

  return {
    get: (id) =>
      Effect.flatMap(
        textOf(id),
        Option.match({
          onNone: () => Effect.succeed(Option.none()),
          onSome: (text) =>
            Either.match(parseGrant(text), {
              onLeft: () => Effect.fail(new GrantDigestMismatch({ grantId: id })),
              onRight: (g) => Effect.succeed(Option.some(g))
            })
        })
      ),
    create: (grant) =>
      records.put(grant.id, encodeGrant(grant), null).pipe(
        Effect.as(true),
        Effect.catchTag("StaleRevision", () =>
          Effect.flatMap(textOf(grant.id), (there) => {
            // The same record: equal in every field once both are read back as stored.
            const stored = Option.flatMap(there, (text) => Either.getRight(parseGrant(text)))
            const given = Either.getRight(parseGrant(grantRowText(grant)))
            return Option.isSome(stored) && Option.isSome(given) && isDeepStrictEqual(stored.value, given.value)
              ? Effect.succeed(false)
              : Effect.fail(new ConflictingGrant({ grantId: grant.id }))
          }))
      ),
    ids: records.keys,
    events: (id) =>
      mapErrors(
        Effect.map(
          sql<{ event: string }>`SELECT event FROM dossier.events
            WHERE dossier = ${dossier} AND log = ${GRANT_EVENTS_LOG} AND stream = ${id} ORDER BY position`,
          (rows) => {
            const value = rows.map((r): GrantEvent => {
              const e = Either.flatMap(parseJson(r.event), decodeEvent)
              return Either.isRight(e) ? e.right : damagedEvent
            })
            return { revision: value.length, value }
          }
        )
      ),
    appendEvent: (id, event, expected) =>
      Effect.gen(function*() {
        if (!Number.isSafeInteger(expected) || expected < 0) {
          return yield* new StaleRevision({ expected, actual: yield* countOf(id) })
        }
        const text = JSON.stringify(encodeEvent(event))
        const position = expected + 1
        const rows = yield* mapErrors(
          sql<{ position: number }>`INSERT INTO dossier.events (dossier, log, stream, position, id, digest, event)
            SELECT ${dossier}, ${GRANT_EVENTS_LOG}, ${id}, ${position}, ${String(position)}, ${sha256Hex(text)}, ${text}
            WHERE (SELECT count(*) FROM dossier.events
              WHERE dossier = ${dossier} AND log = ${GRANT_EVENTS_LOG} AND stream = ${id}) = ${expected}
            ON CONFLICT DO NOTHING RETURNING position`
        )
        if (rows.length > 0) return position
        return yield* new StaleRevision({ expected, actual: yield* countOf(id) })
      })
  }
}

/** GrantStore of the shared dossier of the `PgStore` in context. */
export const GrantStorePostgres: Layer.Layer<GrantStore, never, PgStore> = Layer.effect(
  GrantStore,
  Effect.map(PgStore, makeGrantStorePostgres)
)
