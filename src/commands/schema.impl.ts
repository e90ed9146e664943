import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { InvalidInput } from "../domain/Errors.js"
import { schemaDocument, schemaNames } from "./SchemaAnswers.js"
import { work } from "./Work.js"

export const run = (name: Option.Option<string>) =>
  work({
    effect: Effect.gen(function*() {
      if (Option.isNone(name)) return { names: schemaNames() }
      const schema = schemaDocument(name.value)
      if (schema === undefined) {
        return yield* new InvalidInput({
          issues: [{
            path: "name",
            message: `unknown schema '${name.value}'; known: ${schemaNames().join(", ")}`
          }]
        })
      }
      return { name: name.value, schema }
    }),
    layer: Layer.empty,
    human: (r) => ("names" in r ? r.names.join("\n") : JSON.stringify(r.schema, null, 2))
  })
