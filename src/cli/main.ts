#!/usr/bin/env node
/**
 * Entry point of the `dossier` binary. A well-formed command line is parsed by the small fast
 * path and runs without loading @effect/cli; anything else (help, usage errors, completions)
 * goes to the full @effect/cli application. Implementations load lazily either way.
 */
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { fastParse } from "./FastPath.js"
import { EXIT_OUTPUT_FAILED, outputFailure, printDefect } from "./Render.js"
import { allSpecs } from "./Specs.js"

const wantsJson = process.argv.slice(2).includes("--json")

// A reader that closes the pipe early (`dossier … | head`) is not an error of ours: the answer is
// printed last, after any write has finished, so leave quietly instead of printing a stack trace.
// Any other failure to write stdout ends the process quietly too: one line on stderr, exit 74.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(process.exitCode ?? 0)
  outputFailure(e)
  process.exit(EXIT_OUTPUT_FAILED)
})
process.stderr.on("error", (e: NodeJS.ErrnoException) => {
  // Nowhere left to say anything: leave with the exit code already set.
  process.exit(e.code === "EPIPE" ? process.exitCode ?? 0 : EXIT_OUTPUT_FAILED)
})

const finish = (exit: Exit.Exit<void, unknown>) => {
  if (Exit.isFailure(exit)) {
    if (process.env["DOSSIER_DEBUG"] === "1") console.error(exit.cause)
    printDefect(wantsJson)
  }
}

const fast = fastParse(allSpecs, process.argv.slice(2))
const program = fast !== undefined
  ? fast.spec.run(fast.values).then((effect) => Effect.runPromiseExit(effect))
  : import("./App.js").then((app) => Effect.runPromiseExit(app.runApp(process.argv)))
program.then(finish, () => printDefect(wantsJson))
