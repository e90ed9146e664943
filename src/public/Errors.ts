/**
 * `Errors` of the public surface: every refusal a dossier service can answer with, as
 * `Schema.TaggedError` classes in the typed channel (match them with `Effect.catchTags`), the
 * union `DossierError`, and `retryable`: whether the same call may succeed later unchanged
 * (`LockTimeout`, `Timeout`, `DnsFailure`, `ConnectionFailed`, `IoError`, `StoreUnavailable`), read from the same
 * catalogue the CLI renders its `retryable` field from.
 */
import { errorCatalogue, type ErrorInfo, usageInfo } from "../commands/ErrorCatalogue.js"
import type { DossierError, DossierErrorTag } from "../domain/AllErrors.js"
import type { UsageError } from "../domain/CliErrors.js"

export { AllErrors, type DossierError, type DossierErrorTag } from "../domain/AllErrors.js"
export {
  AliasedFile,
  type CommonError,
  CommonErrors,
  EditedRetainedFile,
  type FileError,
  FileNotFound,
  InputOutsideWorkdir,
  InputTooLarge,
  InvalidInput,
  IoError,
  Issue,
  LimitExceeded,
  LockTimeout,
  PathOutsideArea,
  StaleRevision,
  UnsafePath,
  UnsafePathReason
} from "../domain/Errors.js"
export * from "../domain/ExecErrors.js"
export * from "../domain/GateErrors.js"
export * from "../domain/IngestErrors.js"
export * from "../domain/JournalErrors.js"
export * from "../domain/MonitorErrors.js"
export * from "../domain/PlanErrors.js"
export * from "../domain/StoreErrors.js"
/** A call the library refuses before it starts (`DossierPostgres` given a malformed URL or dossier name). */
export { UsageError } from "../domain/CliErrors.js"

const infoOf = (error: DossierError | UsageError | DossierErrorTag | "UsageError"): ErrorInfo => {
  const tag = typeof error === "string" ? error : error._tag
  return tag === "UsageError" ? usageInfo : errorCatalogue[tag]
}

/** Whether a call that failed with this error (or tag) may succeed later unchanged. */
export const retryable = (error: DossierError | UsageError | DossierErrorTag | "UsageError"): boolean =>
  infoOf(error).retryable

/** What to do about an error (the catalogue's hint, as the README's error table shows it). */
export const hint = (error: DossierError | UsageError | DossierErrorTag | "UsageError"): string => infoOf(error).hint
