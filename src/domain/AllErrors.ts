/** Every domain error of dossier: the union the CLI renderer matches exhaustively. */
import { type CommonError, CommonErrors } from "./Errors.js"
import { type ExecError, ExecErrors } from "./ExecErrors.js"
import { type GateError, GateErrors } from "./GateErrors.js"
import { type IngestError, IngestErrors } from "./IngestErrors.js"
import { type JournalError, JournalErrors } from "./JournalErrors.js"
import { type MonitorError, MonitorErrors } from "./MonitorErrors.js"
import { type PlanError, PlanErrors } from "./PlanErrors.js"
import { type StoreError, StoreErrors } from "./StoreErrors.js"

export type DossierError =
  | CommonError
  | PlanError
  | IngestError
  | JournalError
  | GateError
  | MonitorError
  | ExecError
  | StoreError
export type DossierErrorTag = DossierError["_tag"]

export const AllErrors = [
  ...CommonErrors,
  ...PlanErrors,
  ...IngestErrors,
  ...JournalErrors,
  ...GateErrors,
  ...MonitorErrors,
  ...ExecErrors,
  ...StoreErrors
] as const
