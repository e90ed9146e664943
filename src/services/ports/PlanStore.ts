/**
 * PlanStore: where the plan is kept, and how the files it registers are measured. The plan's
 * logic (src/layers/PlanLive.ts) runs over this port and the `Lock` only.
 *
 * Contract:
 * - `plan` is a `VersionedRecords` (src/services/Store.ts) with one key, `"plan"`. The record's
 *   revision is its document's `revision`; `put(key, value, expected)` stores `value` only when
 *   the stored revision is `expected` (null: no plan stored), else `StaleRevision {expected,
 *   actual}` (`actual` 0 when there is none) and nothing changes. `value.document.revision` must
 *   be `(expected ?? 0) + 1` (the logic never asks otherwise; an adapter may die on it). SQL: one row per study,
 *   `UPDATE … WHERE study = $1 AND revision = $expected` (or `INSERT … ON CONFLICT DO NOTHING`).
 * - `PlanRecord.before`/`after` are the prose around the plan's section, one character per byte
 *   (latin1; src/domain/PlanMarkdown.ts), kept and answered byte for byte. A store that renders
 *   no document keeps them as given.
 * - `prose` is text kept where no plan is yet (the folder: a plan.md written by hand before
 *   `plan start`); "" when there is none, or when a plan is stored. The logic places a new plan
 *   after it (`appendPosition`) and hands the result to `put` as `before`/`after`.
 * - `register(path)` and `observe(path)` measure the file a plan names (a source under
 *   `research/sources/`, an output, a dependency; a normalized relative path) as it is now:
 *   its SHA-256 and size, or `FileNotFound`, `UnsafePath` (a symlink; a hard-linked source),
 *   `LimitExceeded` (over `PLAN_LIMITS.fileBytes`), `IoError`. `register` is called when a
 *   checkpoint registers the file: a store that keeps content (SQL: a `ContentStore` by SHA-256)
 *   keeps these bytes then; the folder and memory stores leave the file where it is.
 * - Errors: `PlanStoreError` (a stored plan that does not decode is `CorruptPlan`; storage
 *   failures are tagged domain errors; nothing names a descriptor or a Node error).
 * - The logic calls the port inside `Lock.withLock` for every write (`get` then `put`: one
 *   transaction in SQL); reads may run without it.
 * - `restore(held, expected)` copies what another store holds (import, export, pull;
 *   src/layers/StoreTransfer.ts): the plan at its own revision (which may be more than one
 *   above `expected`: a pull brings several at once), or, with no plan, the prose. The stored
 *   revision must be `expected` (null: no plan stored), else `StaleRevision` and nothing
 *   changes. `put` cannot serve: it only ever stores revision `expected + 1`, and never prose.
 *
 * Adapters: `PlanStoreFolder` (src/layers/folder/PlanStoreFolder.ts: plan.md, byte for byte) and
 * `PlanStoreMemory` (src/layers/memory/PlanStoreMemory.ts: the record in a Ref). Both measure
 * files through the `FileStore` they are given: the registered files are the work folder's.
 * `PlanStorePostgres` (src/layers/postgres/PlanStorePostgres.ts) keeps the record in a shared
 * dossier and uploads what `register` measures; it measures the same local files.
 * `PlanStoreConformance` (src/testing/PlanStoreConformance.ts) holds any adapter to this contract.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type {
  FileNotFound,
  IoError,
  LimitExceeded,
  LockTimeout,
  StaleRevision,
  UnsafePath
} from "../../domain/Errors.js"
import type { PlanDocument } from "../../domain/Plan.js"
import type { CorruptPlan } from "../../domain/PlanErrors.js"
import type { StoreUnavailable } from "../../domain/StoreErrors.js"
import type { Digest } from "../FileStore.js"
import type { Versioned, VersionedRecords } from "../Store.js"

/** The one key of the plan's records. */
export type PlanKey = "plan"
export const PLAN_KEY: PlanKey = "plan"

/** The plan and the prose around its section (one character per byte). */
export interface PlanRecord {
  readonly document: PlanDocument
  readonly before: string
  readonly after: string
}

/**
 * What reading or writing the stored plan may fail with (`StoreUnavailable` and `LockTimeout`: a
 * shared store, src/layers/postgres/PlanStorePostgres.ts).
 */
export type PlanStoreError = CorruptPlan | IoError | UnsafePath | LimitExceeded | StoreUnavailable | LockTimeout

/** What measuring a registered file may fail with. */
export type RegisteredFileError = FileNotFound | IoError | UnsafePath | LimitExceeded

/** What a plan store holds: the plan at its revision, or (with no plan) prose ("" when none). */
export interface PlanHeld {
  readonly record: Option.Option<Versioned<PlanRecord>>
  readonly prose: string
}

export interface PlanStoreShape {
  readonly plan: VersionedRecords<PlanKey, PlanRecord, PlanStoreError>
  /** Prose kept where no plan is yet ("" when none, or when a plan is stored). */
  readonly prose: Effect.Effect<string, PlanStoreError>
  /** Measure a file a checkpoint registers now (a content-keeping store keeps its bytes). */
  readonly register: (path: string) => Effect.Effect<Digest, RegisteredFileError | StoreUnavailable | LockTimeout>
  /** Measure a registered file as it is now, for verification. Never writes. */
  readonly observe: (path: string) => Effect.Effect<Digest, RegisteredFileError>
  /** Store a copy of what another store holds in place of revision `expected` (see the contract). */
  readonly restore: (held: PlanHeld, expected: number | null) => Effect.Effect<void, PlanStoreError | StaleRevision>
  /**
   * What a verification that finds registered files missing here adds to its note: a shared
   * store holds their bytes, in the library's words (src/domain/StoreNotes.ts; the command line
   * says `dossier pull` brings them). None: the folder is all there is.
   */
  readonly missingNote?: string
}

export class PlanStore extends Context.Tag("dossier/PlanStore")<PlanStore, PlanStoreShape>() {}
