/**
 * `Gate` of the public surface: research before asking (spec gate.md). `Gate` is the service
 * tag; `GateLive` needs a FileStore, a Lock and Plan; `GateMemory` brings Plan and its own
 * in-memory store and lock (and provides them too, so a test can lay out the run state).
 */
export {
  Gate,
  type GateReadError,
  type GateRecheckError,
  type GateRecheckOptions,
  type GateRecheckResult,
  type GateRunError,
  type GateRunOptions,
  type GateRunResult,
  type GateShape,
  DEFAULT_ATTEMPTS_LOG,
  DEFAULT_MAX_ASK_ROUNDS,
  DEFAULT_RESEARCH_DIR
} from "../services/Gate.js"
export { GateLive } from "../layers/GateLive.js"
export { GateMemory } from "../layers/GateMemory.js"
export {
  AttemptRow,
  ContextDocument,
  Decision,
  DecisionReason,
  Descriptor,
  Finding,
  GapCategory,
  GapKind,
  GAP_CATEGORIES,
  NON_RESEARCHABLE_CATEGORIES,
  RESEARCHABLE_CATEGORIES,
  GateOutput,
  GateRecheckOutput,
  MaturitySnapshot,
  ResearchContext,
  ResearchOutput,
  ResearchRecord,
  ResolvedAnswer,
  RunState
} from "../domain/Gate.js"
export { BlockersRemain, GateErrors, NoVerdict, NotResearchable, StaleStateFile, type GateError } from "../domain/GateErrors.js"
