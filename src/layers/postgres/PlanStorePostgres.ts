/**
 * PlanStore in a shared dossier (PostgreSQL, docs/store.md): the store holds the plan, the work
 * folder holds the files it registers.
 *
 * - The plan is one `pgVersionedRecords` row of kind `"plan"`, key `"plan"`: the JSON text of
 *   `{document, before, after}` (the document in its Schema's encoded form, the prose around the
 *   section one character per byte, as plan.md would hold it). The row's revision is the
 *   document's: an update is `UPDATE … WHERE revision = $expected`; a create stores the
 *   document's own revision (PlanLive creates at 1; an imported plan keeps its revision). A row
 *   that does not decode, or whose revision is not its document's, is `CorruptPlan`.
 * - Prose written before any plan (a hand-written plan.md imported into the dossier) is a row of
 *   kind `"plan-prose"`, key `"prose"` (`putPlanProse`); `prose` answers it while no plan is
 *   stored, "" once one is (the plan's record carries it in `before` from then on).
 * - `register(path)` reads the work folder's file through the FileStore it is given (the folder
 *   adapter's bounds: a source must be single-link; at most `PLAN_LIMITS.fileBytes`), and puts
 *   its bytes in the dossier's `pgContentStore` by SHA-256; PlanLive calls it inside the
 *   checkpoint's `Lock.withLock`, so the bytes are stored in the transaction of the record that
 *   registers them, and another host can pull them. `observe` only measures the local file.
 *
 * Nothing here writes the local view (plan.md): that is the view's refresh, from the store.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { StaleRevision } from "../../domain/Errors.js"
import { isUnder } from "../../domain/Paths.js"
import { PLAN_LIMITS, PlanDocument, SOURCES_AREA } from "../../domain/Plan.js"
import { CorruptPlan } from "../../domain/PlanErrors.js"
import { storeNotes } from "../../domain/StoreNotes.js"
import { FileStore, type FileStoreShape } from "../../services/FileStore.js"
import type { Lock } from "../../services/Lock.js"
import type { Plan } from "../../services/Plan.js"
import {
  PLAN_KEY,
  type PlanKey,
  type PlanRecord,
  PlanStore,
  type PlanStoreError,
  type PlanStoreShape
} from "../../services/ports/PlanStore.js"
import type { Versioned } from "../../services/Store.js"
import { measureRegistered } from "../folder/PlanStoreFolder.js"
import { PlanLive } from "../PlanLive.js"
import { pgContentStore, type PgStoreError, pgVersionedRecords } from "./PgRecords.js"
import { PgStore, type PgStoreShape } from "./PgStore.js"

/** The `kind` of the plan's row in `dossier.records`. */
export const PLAN_KIND = "plan"
/** The `kind` (and key) of prose kept before any plan. */
export const PLAN_PROSE_KIND = "plan-prose"
const PROSE_KEY = "prose"

/** The stored form of a `PlanRecord`. */
const StoredPlan = Schema.Struct({ document: PlanDocument, before: Schema.String, after: Schema.String })
const decodeStored = Schema.decodeUnknownEither(StoredPlan)
const encodeStored = Schema.encodeSync(StoredPlan)

const corrupt = (error: ParseResult.ParseError, dossier: string) => {
  const first = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
  const where = first === undefined || first.path.length === 0 ? "" : ` at ${first.path.map(String).join(".")}`
  return new CorruptPlan({ reason: `the stored plan is not a plan${where}: ${first?.message ?? "invalid"}`, dossier })
}

export const makePlanStorePostgres = (store: PgStoreShape, files: FileStoreShape): PlanStoreShape => {
  const { sql, config, mapErrors } = store
  const records = pgVersionedRecords(store, PLAN_KIND, Schema.Unknown)
  const proseRecords = pgVersionedRecords(store, PLAN_PROSE_KIND, Schema.String)
  const content = pgContentStore(store)
  const measure = measureRegistered(files)

  const get: Effect.Effect<Option.Option<Versioned<PlanRecord>>, PlanStoreError> = Effect.flatMap(
    records.get(PLAN_KEY),
    Option.match({
      onNone: () => Effect.succeed(Option.none()),
      onSome: (row) =>
        Either.match(decodeStored(row.value), {
          onLeft: (e) => Effect.fail(corrupt(e, config.dossier)),
          onRight: (value) =>
            value.document.revision === row.revision
              ? Effect.succeed(Option.some({ revision: row.revision, value }))
              : Effect.fail(
                new CorruptPlan({
                  reason:
                    `the stored plan's revision ${row.revision} is not its document's (${value.document.revision})`,
                  dossier: config.dossier
                })
              )
        })
    })
  )

  const storedRevision = Effect.map(records.get(PLAN_KEY), Option.match({ onNone: () => 0, onSome: (r) => r.revision }))

  /** A create at the document's own revision; a plan already there is `StaleRevision {0, actual}`. */
  const create = (value: PlanRecord): Effect.Effect<number, PgStoreError | StaleRevision> =>
    Effect.gen(function*() {
      const revision = value.document.revision
      const text = JSON.stringify(encodeStored(value))
      const rows = yield* mapErrors(sql<{ revision: number }>`INSERT INTO dossier.records
          (dossier, kind, key, revision, value)
        VALUES (${config.dossier}, ${PLAN_KIND}, ${PLAN_KEY}, ${revision}, ${text})
        ON CONFLICT (dossier, kind, key) DO NOTHING RETURNING revision`)
      if (rows[0] !== undefined) return revision
      return yield* new StaleRevision({ expected: 0, actual: yield* storedRevision })
    })

  const put = (_key: PlanKey, value: PlanRecord, expected: number | null) =>
    Effect.gen(function*() {
      const revision = value.document.revision
      if (!Number.isSafeInteger(revision) || revision < 1) {
        return yield* Effect.dieMessage(`PlanStore.put: revision ${revision}`)
      }
      if (expected === null) return yield* create(value)
      if (revision !== expected + 1) {
        const actual = yield* storedRevision
        if (actual !== expected) return yield* new StaleRevision({ expected, actual })
        return yield* Effect.dieMessage(`PlanStore.put: revision ${revision} after ${actual}`)
      }
      return yield* records.put(PLAN_KEY, encodeStored(value), expected)
    })

  return {
    plan: {
      get: () => get,
      put,
      keys: Effect.map(records.keys, (keys) => keys.filter((k): k is PlanKey => k === PLAN_KEY))
    },
    prose: Effect.flatMap(storedRevision, (revision) =>
      revision > 0
        ? Effect.succeed("")
        : Effect.map(proseRecords.get(PROSE_KEY), Option.match({ onNone: () => "", onSome: (r) => r.value }))),
    register: (path) =>
      Effect.flatMap(
        files.read(path, { requireSingleLink: isUnder(path, SOURCES_AREA), maxBytes: PLAN_LIMITS.fileBytes }),
        (data) => Effect.map(content.put(data), (c) => ({ sha256: c.sha256, bytes: c.bytes }))
      ),
    observe: measure,
    missingNote: storeNotes.registeredMissing.library,
    // A copy of another store's plan at its own revision (import, pull), or its prose.
    restore: (held, expected) =>
      Effect.gen(function*() {
        const actual = yield* storedRevision
        if (actual !== (expected ?? 0)) return yield* new StaleRevision({ expected: expected ?? 0, actual })
        if (Option.isNone(held.record)) {
          if (held.prose !== "") yield* putPlanProse(store, held.prose)
          return
        }
        const { revision, value } = held.record.value
        const text = JSON.stringify(encodeStored(value))
        const rows = yield* mapErrors(
          expected === null
            ? sql<{ revision: number }>`INSERT INTO dossier.records (dossier, kind, key, revision, value)
                VALUES (${config.dossier}, ${PLAN_KIND}, ${PLAN_KEY}, ${revision}, ${text})
                ON CONFLICT (dossier, kind, key) DO NOTHING RETURNING revision`
            : sql<{ revision: number }>`UPDATE dossier.records SET revision = ${revision}, value = ${text}
                WHERE dossier = ${config.dossier} AND kind = ${PLAN_KIND} AND key = ${PLAN_KEY}
                AND revision = ${expected} RETURNING revision`
        )
        if (rows[0] === undefined) {
          return yield* new StaleRevision({ expected: expected ?? 0, actual: yield* storedRevision })
        }
      })
  }
}

/**
 * Keep `text` as the dossier's prose before any plan (one character per byte), replacing any kept
 * before: how an import brings a hand-written plan.md that has no plan section yet.
 */
export const putPlanProse = (store: PgStoreShape, text: string): Effect.Effect<void, PgStoreError> => {
  const proseRecords = pgVersionedRecords(store, PLAN_PROSE_KIND, Schema.String)
  return Effect.flatMap(
    proseRecords.get(PROSE_KEY),
    (kept) =>
      proseRecords.put(PROSE_KEY, text, Option.isSome(kept) ? kept.value.revision : null).pipe(
        // Only a writer outside the dossier's lock could have raced it there.
        Effect.catchTag("StaleRevision", (e) => Effect.dieMessage(`putPlanProse: ${e.message}`)),
        Effect.asVoid
      )
  )
}

/** PlanStore of the dossier of the context's `PgStore`, measuring files through the FileStore. */
export const PlanStorePostgres: Layer.Layer<PlanStore, never, PgStore | FileStore> = Layer.effect(
  PlanStore,
  Effect.zipWith(PgStore, FileStore, makePlanStorePostgres)
)

/** Plan over a shared dossier: the plan's logic over `PlanStorePostgres` (with `PgLockLayer` as the Lock). */
export const PlanPostgres: Layer.Layer<Plan, never, PgStore | FileStore | Lock> = PlanLive.pipe(
  Layer.provide(PlanStorePostgres)
)
