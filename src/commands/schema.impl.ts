import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { UsageError } from "../domain/CliErrors.js"
import { schemaDocument, schemaNames } from "./SchemaAnswers.js"
import { work } from "./Work.js"

export const run = (name: Option.Option<string>) =>
  work({
    effect: Effect.gen(function*() {
      if (Option.isNone(name)) return { names: schemaNames() }
      const schema = schemaDocument(name.value)
      if (schema === undefined) {
        // An unknown word on the command line, as an unknown subcommand is (exit 2); the list of
        // names is `dossier schema` itself, shorter than any message that quotes it.
        return yield* new UsageError({
          detail: `unknown schema '${name.value}' for 'dossier schema'; 'dossier schema' lists the names it knows`
        })
      }
      return { name: name.value, schema }
    }),
    layer: Layer.empty,
    human: (r) => ("names" in r ? r.names.join("\n") : JSON.stringify(r.schema, null, 2))
  })
