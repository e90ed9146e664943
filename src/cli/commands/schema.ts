import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Effect from "effect/Effect"
import * as Opts from "../Options.js"

const name = Args.text({ name: "name" }).pipe(
  Args.withDescription("A schema name; omit it to list the names."),
  Args.optional
)

export const schemaCommand = Command.make("schema", { name, json: Opts.json }, ({ json, name }) =>
  Effect.promise(() => import("./schema.impl.js")).pipe(Effect.flatMap((m) => m.run(json, name)))
).pipe(
  Command.withDescription(
    "Print the JSON Schema of an input file, a command's success output, or the error envelope (`errors`), generated from the Schema values the code validates with. Without a name, list the names."
  )
)
