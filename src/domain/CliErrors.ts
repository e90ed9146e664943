/** Errors that only the command line produces: bad usage (exit 2) and defects (exit 70). */
import * as Schema from "effect/Schema"

export class UsageError extends Schema.TaggedError<UsageError>()("UsageError", {
  detail: Schema.String
}) {
  override get message() {
    return this.detail
  }
}

export class Defect extends Schema.TaggedError<Defect>()("Defect", {}) {
  override get message() {
    return "dossier hit an internal error; this is a bug. Nothing was reported beyond this message."
  }
}
