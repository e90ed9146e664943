/**
 * `Errors` of the public surface: every refusal a dossier service can answer with, as
 * `Schema.TaggedError` classes in the typed channel (match them with `Effect.catchTags`), the
 * union `DossierError`, and `retryable`: whether the same call may succeed later unchanged
 * (`LockTimeout`, `Timeout`, `DnsFailure`, `ConnectionFailed`, `IoError`, `StoreUnavailable`), read from the same
 * catalogue the CLI renders its `retryable` field from.
 */
import { bindingRefusedHints, errorCatalogue, type ErrorInfo, usageInfo } from "../commands/ErrorCatalogue.js"
import type { DossierError, DossierErrorTag } from "../domain/AllErrors.js"
import type { UsageError } from "../domain/CliErrors.js"
import { LASTING_HINT, lastingRefusal } from "../domain/StoreRefusals.js"

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
  RecoveryNeeded,
  StaleRevision,
  UnsafePath,
  UnsafePathReason,
  WorkdirNotFound
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

/**
 * The catalogue's entry for an error or tag; none for anything else a plain-JavaScript caller may
 * pass (another library's error, `undefined`, a name such as "constructor" that every object has).
 */
const infoOf = (error: unknown): ErrorInfo | undefined => {
  const tag = typeof error === "string"
    ? error
    : typeof error === "object" && error !== null && "_tag" in error
    ? error._tag
    : undefined
  if (tag === "UsageError") return usageInfo
  return typeof tag === "string" && Object.hasOwn(errorCatalogue, tag)
    ? errorCatalogue[tag as DossierErrorTag]
    : undefined
}

/**
 * Whether a call that failed with this error (or tag) may succeed later unchanged; `false` for
 * anything that is not one of dossier's errors, and for a `StoreUnavailable` whose `reason` is a
 * refusal that stays (the server refused the credentials, the database, the role's privilege, or
 * asked for a password none was given: src/domain/StoreRefusals.ts).
 */
export const retryable = (error: DossierError | UsageError | DossierErrorTag | "UsageError"): boolean =>
  !lastingRefusal(error) && (infoOf(error)?.retryable ?? false)

/**
 * What to do about an error in a program that embeds the library: the catalogue's hint, in the
 * library's words where the command line's names a command or a flag (a service method or an
 * option instead); `""` for anything that is not one of dossier's errors. A `StoreUnavailable`
 * whose `reason` is a refusal that stays gets a hint that says what to fix, not to try again.
 */
export const hint = (error: DossierError | UsageError | DossierErrorTag | "UsageError"): string => {
  if (lastingRefusal(error)) return LASTING_HINT
  // A BindingRefused says the way out of the reason it carries, not of every reason.
  if (typeof error === "object" && error !== null && error._tag === "BindingRefused") {
    const byReason = bindingRefusedHints[error.reason]
    return byReason.library ?? byReason.hint
  }
  const info = infoOf(error)
  return info?.library ?? info?.hint ?? ""
}
