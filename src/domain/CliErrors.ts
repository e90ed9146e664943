/** Errors that only the command line produces: bad usage (exit 2) and defects (exit 70). */
import * as Schema from "effect/Schema"
import { DEFECT_MESSAGE } from "./CliMessages.js"

export class UsageError extends Schema.TaggedError<UsageError>()("UsageError", {
  detail: Schema.String
}) {
  override get message() {
    return this.detail
  }
}

export class Defect extends Schema.TaggedError<Defect>()("Defect", {}) {
  override get message() {
    return DEFECT_MESSAGE
  }
}
