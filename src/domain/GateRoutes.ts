/**
 * Which values of a run state's `waitingFor` the gate routes (./GateDecision.ts `route`): the
 * field's description in `dossier schema run-state` (./Gate.ts) and in `gate --help`
 * (src/commands/gate.ts). A module of its own, importing nothing, so that the command table can
 * name it without loading the gate's Schemas into every command's bundle.
 */
export const WAITING_FOR_ROUTES =
  "\"maturity\" (or status \"halted\" with blockers) routes to maturity; \"question\" with pendingQuestion.stepId \"phase-1/open-questions\" to open-questions; any other value, null or absent is NotResearchable"
