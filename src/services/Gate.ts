/**
 * Gate: research before asking (spec gate.md). Verifies every quote a research output cites
 * and closes only the gaps it backs; records its verdict in the run state (the only writer of
 * `state.research`), atomically, under the lock, with a compare-and-set on the state file.
 * Layer: `GateLive` (src/layers/GateLive.ts; needs FileStore, Lock and Plan).
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type {
  FileNotFound,
  InputTooLarge,
  InvalidInput,
  IoError,
  LimitExceeded,
  LockTimeout,
  UnsafePath
} from "../domain/Errors.js"
import type {
  Decision,
  DecisionReason,
  GapKind,
  MaturitySnapshot,
  ResearchRecord,
  ResolvedAnswer
} from "../domain/Gate.js"
import type { BlockersRemain, NotResearchable, NoVerdict, StaleStateFile } from "../domain/GateErrors.js"
import type { CorruptPlan } from "../domain/PlanErrors.js"
import type { CorruptCaptureLog, StoreUnavailable } from "../domain/StoreErrors.js"

export const DEFAULT_RESEARCH_DIR = "research/gate"
export const DEFAULT_ATTEMPTS_LOG = ".dossier/gate/attempted.jsonl"
export const DEFAULT_MAX_ASK_ROUNDS = 2
export const MAX_GATE_FILE_BYTES = 16 * 1024 * 1024

/**
 * Options of `Gate.run` (the convention: src/domain/Options.ts): every field may be left out.
 * Paths are relative to the work folder.
 */
export interface GateRunOptions {
  /** The research folder (research.json, context.json); default `research/gate`. */
  readonly researchDir?: string | undefined
  /** The descriptor file (the item as fetched fresh); default: none. */
  readonly descriptor?: string | undefined
  /** The attempts log (JSONL); default `.dossier/gate/attempted.jsonl`. */
  readonly attempts?: string | undefined
  /** Append `{item, at, researchRounds, decision}` to the attempts log (under the lock); default false. */
  readonly recordAttempt?: boolean | undefined
  /** Research rounds allowed per item; default 2. */
  readonly maxAskRounds?: number | undefined
  /** `DOSSIER_UNATTENDED=1` in the caller's environment; default false. */
  readonly unattended?: boolean | undefined
  /** The time to record (default: Effect's Clock). */
  readonly now?: Date | undefined
}

export type GateRunResult =
  | { readonly active: false }
  | {
    readonly active: true
    readonly kind: GapKind
    readonly decision: Decision
    readonly reason: DecisionReason
    readonly researchRounds: 0 | 1
    readonly research: ResearchRecord
    /** With a descriptor, when research was evaluated: what the comment limits kept (as `recheck` says). */
    readonly comments?: GateRecheckResult["comments"]
    readonly note: string
  }

export interface GateRecheckOptions {
  /** The time to record (default: Effect's Clock). */
  readonly now?: Date | undefined
}

export interface GateRecheckResult {
  readonly continue: true
  readonly description: string
  readonly findings: ReadonlyArray<ResolvedAnswer>
  readonly maturity: MaturitySnapshot
  readonly comments: {
    readonly total: number
    readonly used: number
    readonly truncated: ReadonlyArray<string>
    readonly dropped: number
  }
  readonly note: string
}

export type GateReadError =
  | InvalidInput
  | InputTooLarge
  | FileNotFound
  | IoError
  | UnsafePath
  | LimitExceeded
  | CorruptPlan
  | StoreUnavailable
  | CorruptCaptureLog
  | LockTimeout

export type GateRunError =
  | GateReadError
  | LockTimeout
  | StoreUnavailable
  | StaleStateFile
  | NotResearchable
  | NoVerdict

export type GateRecheckError = GateReadError | BlockersRemain

export interface GateShape {
  /**
   * Evaluate the research output of a parked run (`state`: its run state file, relative to the
   * work folder) and record the verdict in its state.
   */
  readonly run: (state: string, options?: GateRunOptions) => Effect.Effect<GateRunResult, GateRunError>
  /** Re-verify the recorded closures against a fresh descriptor file (maturity). Never writes. */
  readonly recheck: (
    state: string,
    descriptor: string,
    options?: GateRecheckOptions
  ) => Effect.Effect<GateRecheckResult, GateRecheckError>
}

export class Gate extends Context.Tag("dossier/Gate")<Gate, GateShape>() {}
