/** The error envelope schema (`dossier schema errors`), generated from the error classes. */
import * as Schema from "effect/Schema"
import { AllErrors } from "../../domain/AllErrors.js"
import { Defect, UsageError } from "../../domain/CliErrors.js"

// Named by the class's identifier: two classes may share a tag (StaleRevision and StaleStateFile).
const envelopeOf = (
  cls: { readonly fields: Schema.Struct.Fields; readonly _tag: string; readonly identifier: string }
) =>
  Schema.Struct({
    ok: Schema.Literal(false),
    error: Schema.Struct({
      ...cls.fields,
      _tag: Schema.Literal(cls._tag),
      message: Schema.String,
      retryable: Schema.Boolean,
      hint: Schema.String.annotations({
        description:
          "What to do about it: the error catalogue's hint for the tag (the line a refusal without --json ends with)."
      })
    })
  }).annotations({ identifier: cls.identifier })

export const errorsSchema = () =>
  Schema.Union(
    ...[...AllErrors, UsageError, Defect].map((cls) =>
      envelopeOf(
        cls as unknown as { readonly fields: Schema.Struct.Fields; readonly _tag: string; readonly identifier: string }
      )
    )
  )
