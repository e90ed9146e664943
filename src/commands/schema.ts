/** `dossier schema [name]`, declared as data (see src/commands/Spec.ts). */
import { command, type CommandSpec, json } from "./Spec.js"

export const schemaSpecs: ReadonlyArray<CommandSpec> = [
  command({
    path: ["schema"],
    description:
      "Print the JSON Schema of an input file, a command's success output, or the error envelope (`errors`), generated from the Schema values the code validates with. Without a name, list the names.",
    flags: { json },
    args: { name: { name: "name", description: "A schema name; omit it to list the names.", optional: true } },
    run: (v) => import("./schema.impl.js").then((m) => m.run(v.name))
  })
]
