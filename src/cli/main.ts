#!/usr/bin/env node
/**
 * Entry point of the `dossier` binary. Command definitions are light (options only); each
 * handler imports its implementation lazily, so a command loads only what it uses.
 */
import * as Command from "@effect/cli/Command"
import * as ValidationError from "@effect/cli/ValidationError"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as NodeTerminal from "@effect/platform-node/NodeTerminal"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { gateCommand } from "./commands/gate.js"
import { ingestCommand } from "./commands/ingest.js"
import { journalCommand } from "./commands/journal.js"
import { monitorCommand, nextCommand } from "./commands/monitor.js"
import { planCommand } from "./commands/plan.js"
import { schemaCommand } from "./commands/schema.js"
import { printDefect, printUsageError } from "./Render.js"

const VERSION = "0.1.0"

const root = Command.make("dossier").pipe(
  Command.withDescription(
    "Keep agent research in an ordinary folder: a plan with revisions, safely captured sources, results bound to their bytes, an experiment journal, a research gate and subscriptions. Every command accepts --json."
  ),
  Command.withSubcommands([planCommand, ingestCommand, journalCommand, gateCommand, monitorCommand, nextCommand, schemaCommand])
)

const cli = Command.run(root, { name: "dossier", version: VERSION })

const argv = process.argv
const wantsJson = argv.slice(2).includes("--json")


const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, "")

/** @effect/cli prints validation errors through Console.error; we render them ourselves. */
const program = Console.consoleWith((console) =>
  Effect.withConsole(cli(argv), { ...console, error: () => Effect.void, unsafe: { ...console.unsafe, error: () => {} } })
).pipe(
  Effect.catchIf(ValidationError.isValidationError, (e) =>
    Effect.promise(() => import("@effect/cli/HelpDoc")).pipe(
      Effect.map((HelpDoc) => {
        const text = stripAnsi(HelpDoc.toAnsiText(e.error)).trim().replace(/\s+/g, " ")
        printUsageError(wantsJson, text.length > 0 ? text : "Invalid command line; see --help.")
      })
    )
  ),
  Effect.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer, NodeTerminal.layer))
)

Effect.runPromiseExit(program).then(
  (exit) => {
    if (exit._tag === "Failure") {
      if (process.env["DOSSIER_DEBUG"] === "1") console.error(exit.cause)
      printDefect(wantsJson)
    }
  },
  () => printDefect(wantsJson)
)
