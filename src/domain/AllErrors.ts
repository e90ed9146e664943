/** Every domain error of dossier: the union the CLI renderer matches exhaustively. */
import { CommonErrors, type CommonError } from "./Errors.js"
import { ExecErrors, type ExecError } from "./ExecErrors.js"
import { GateErrors, type GateError } from "./GateErrors.js"
import { IngestErrors, type IngestError } from "./IngestErrors.js"
import { JournalErrors, type JournalError } from "./JournalErrors.js"
import { MonitorErrors, type MonitorError } from "./MonitorErrors.js"
import { PlanErrors, type PlanError } from "./PlanErrors.js"
import { StoreErrors, type StoreError } from "./StoreErrors.js"

export type DossierError = CommonError | PlanError | IngestError | JournalError | GateError | MonitorError | ExecError | StoreError
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
