/**
 * Monitor: the research monitor (spec monitor.md). Subscriptions that re-check a topic on a
 * cadence, frozen runs with receipt digests, completions bound to the bytes they used, and
 * set-once outcome dispositions. No daemon: due subscriptions are discovered by the next
 * `dossier next` or `dossier monitor due`.
 *
 * State: behind the ports of ./ports/MonitorStore.ts. In the work folder (the folder adapter,
 * src/layers/folder/): `.dossier/monitor/subscriptions/<id>.json`, `.dossier/monitor/runs/<runId>.json`,
 * `.dossier/monitor/reports.jsonl`; multi-file writes go through one transaction with an intent
 * record (`.dossier/monitor/intent.json`). Every method first recovers an interrupted
 * transaction, under the lock. The folder's scans keep a derived scan index
 * (`.dossier/monitor/scan.index`, src/domain/ScanIndex.ts) that never changes an answer.
 *
 * Layers (src/layers/MonitorLive.ts): `MonitorLive`, requiring FileStore | Lock (no Workdir);
 * `MonitorFromStore`, requiring the ports and a Lock; `MonitorMemory`, in memory.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type {
  FileNotFound,
  InvalidInput,
  IoError,
  LimitExceeded,
  LockTimeout,
  RecoveryNeeded,
  StaleRevision,
  UnsafePath
} from "../domain/Errors.js"
import type { ConflictingEvent } from "../domain/JournalErrors.js"
import type { MonitorError } from "../domain/MonitorErrors.js"
import type { DueEntry, Fact, UnresolvedOutcome } from "../domain/MonitorOutputs.js"
import type {
  CreateDueRunInput,
  FinishRunInput,
  Outcome,
  OutcomeDispositionInput,
  RunRecord,
  SubscriptionInput,
  SubscriptionRecord,
  SubscriptionStatusInput,
  SubscriptionUpdateInput,
  TransitionRunInput
} from "../domain/MonitorSchema.js"
import type { StoreUnavailable } from "../domain/StoreErrors.js"
import type { RecoveredTransaction } from "./ports/MonitorStore.js"

/** Every refusal a monitor method can answer with. */
export type MonitorServiceError =
  | MonitorError
  | ConflictingEvent
  | InvalidInput
  | IoError
  | LockTimeout
  | StoreUnavailable
  | RecoveryNeeded
  | StaleRevision
  | FileNotFound
  | UnsafePath
  | LimitExceeded

export type { RecoveredTransaction } from "./ports/MonitorStore.js"

/**
 * Optional arguments, as every service of the library takes them: one trailing object that may be
 * left out, whose fields are plain values that may be left out. `now` defaults to Effect's Clock.
 * A wrong value (or object: a bare `Date` included) is `InvalidInput`, never a defect.
 */
export interface MonitorOptions {
  readonly now?: Date | undefined
}

export interface MonitorShape {
  readonly createSubscription: (
    input: SubscriptionInput,
    options?: MonitorOptions
  ) => Effect.Effect<{ readonly created: boolean; readonly subscription: SubscriptionRecord }, MonitorServiceError>
  readonly updateSubscription: (
    input: SubscriptionUpdateInput,
    options?: MonitorOptions
  ) => Effect.Effect<{ readonly gridChanged: boolean; readonly subscription: SubscriptionRecord }, MonitorServiceError>
  readonly setSubscriptionStatus: (
    input: SubscriptionStatusInput,
    options?: MonitorOptions
  ) => Effect.Effect<{ readonly changed: boolean; readonly subscription: SubscriptionRecord }, MonitorServiceError>
  /** Every subscription with its due state; receipt mismatches of active runs are listed, not fatal. */
  readonly due: (options?: MonitorOptions) => Effect.Effect<
    {
      readonly now: string
      readonly subscriptions: ReadonlyArray<DueEntry>
      /** Subscription records that cannot be read, by id (the file name): listed, not fatal. */
      readonly damaged: ReadonlyArray<{ readonly id: string; readonly damaged: string }>
      readonly receiptMismatches: ReadonlyArray<string>
    },
    MonitorServiceError
  >
  readonly createDueRun: (
    input: CreateDueRunInput,
    options?: MonitorOptions
  ) => Effect.Effect<{ readonly created: boolean; readonly run: RunRecord }, MonitorServiceError>
  readonly transitionRun: (
    input: TransitionRunInput,
    options?: MonitorOptions
  ) => Effect.Effect<{ readonly run: RunRecord }, MonitorServiceError>
  readonly finishRun: (
    input: FinishRunInput,
    options?: MonitorOptions
  ) => Effect.Effect<
    {
      /** false: an exact repeat of the finish that completed the run (nothing written). */
      readonly changed: boolean
      readonly run: RunRecord
      readonly subscription: { readonly id: string; readonly revision: number; readonly nextDueAt: string }
      readonly reported: boolean
    },
    MonitorServiceError
  >
  readonly setOutcomeDisposition: (
    input: OutcomeDispositionInput,
    options?: MonitorOptions
  ) => Effect.Effect<
    { readonly changed: boolean; readonly runId: string; readonly runRevision: number; readonly outcome: Outcome },
    MonitorServiceError
  >
  readonly unresolvedOutcomes: Effect.Effect<
    { readonly outcomes: ReadonlyArray<UnresolvedOutcome>; readonly receiptMismatches: ReadonlyArray<string> },
    MonitorServiceError
  >
  readonly showSubscription: (id: string) => Effect.Effect<SubscriptionRecord, MonitorServiceError>
  readonly showRun: (
    id: string
  ) => Effect.Effect<RunRecord & { readonly binding: "verified" | "stale" | null }, MonitorServiceError>
  /**
   * Every subscription (status, nextDueAt) and every run (status), in creation order; a record
   * that cannot be read is listed by id with `status: "unreadable"`. Reads only.
   */
  readonly list: Effect.Effect<MonitorList, MonitorServiceError>
  /** How many subscription records are stored, readable or not (`dossier status`). Reads only, without the lock. */
  readonly subscriptionCount: Effect.Effect<number, MonitorServiceError>
  /** The monitor's facts for `dossier next` (transaction-recovered first), each with its revisions. */
  readonly facts: (options?: MonitorOptions) => Effect.Effect<ReadonlyArray<Fact>, MonitorServiceError>
  /** Recover an interrupted transaction now (every other method does this first). */
  readonly recover: Effect.Effect<ReadonlyArray<RecoveredTransaction>, MonitorServiceError>
}

export interface MonitorList {
  readonly subscriptions: ReadonlyArray<{
    readonly id: string
    readonly status: SubscriptionRecord["status"] | "unreadable"
    readonly revision: number | null
    readonly kind: SubscriptionRecord["kind"] | null
    readonly target: string | null
    readonly nextDueAt: string | null
    /** When it is next due (`nextWindowAt`, src/domain/MonitorRules.ts): nextDueAt, or with an active run the window after the run's. */
    readonly nextWindowAt: string | null
    readonly activeRunId: string | null
  }>
  readonly runs: ReadonlyArray<{
    readonly id: string
    readonly subscriptionId: string | null
    readonly status: RunRecord["status"] | "unreadable"
    readonly revision: number | null
    readonly windowStart: string | null
  }>
}

export class Monitor extends Context.Tag("dossier/Monitor")<Monitor, MonitorShape>() {}
