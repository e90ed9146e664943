/**
 * `Gate` of the public surface: research before asking (spec gate.md). `Gate` is the service
 * tag; `GateLive` needs a FileStore, a Lock and Plan; `GateMemory` brings Plan and its own
 * in-memory store and lock (and provides them too, so a test can lay out the run state).
 */
export {
  AttemptRow,
  ContextDocument,
  Decision,
  DecisionReason,
  Descriptor,
  Finding,
  GAP_CATEGORIES,
  GapCategory,
  GapKind,
  GateOutput,
  GateRecheckOutput,
  MaturitySnapshot,
  NON_RESEARCHABLE_CATEGORIES,
  RESEARCHABLE_CATEGORIES,
  ResearchContext,
  ResearchOutput,
  ResearchRecord,
  ResolvedAnswer,
  RunState
} from "../domain/Gate.js"
export {
  BlockersRemain,
  type GateError,
  GateErrors,
  NotResearchable,
  NoVerdict,
  StaleStateFile
} from "../domain/GateErrors.js"
export { GateLive } from "../layers/GateLive.js"
export { GateMemory } from "../layers/GateMemory.js"
export {
  DEFAULT_ATTEMPTS_LOG,
  DEFAULT_MAX_ASK_ROUNDS,
  DEFAULT_RESEARCH_DIR,
  Gate,
  type GateReadError,
  type GateRecheckError,
  type GateRecheckOptions,
  type GateRecheckResult,
  type GateRunError,
  type GateRunOptions,
  type GateRunResult,
  type GateShape
} from "../services/Gate.js"
