#!/usr/bin/env node
/**
 * Entry point of the `dossier` binary. A well-formed command line is parsed by the small fast
 * path and runs at once; anything else (help, --version, `--input -`, `--flag=value`, every
 * mistake) goes to src/cli/Usage.ts, which runs it, prints its help or answers a UsageError.
 * Only `--completions` loads the full @effect/cli application. Implementations load lazily.
 */
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import { isBoundFolder, runsOnStore } from "../commands/Cwd.js"
import type { CommandSpec } from "../commands/Spec.js"
import type { AnyWork } from "../commands/Work.js"
import { StoreUnavailable } from "../domain/StoreErrors.js"
import { armPlainFolderGuard, isBoundMeanwhile } from "../layers/PlainFolderGuard.js"
import { inFlight, interruptedExitCode, outputClosed } from "../layers/RunStops.js"
import { commandFirst } from "./Bundles.js"
import { prepareValues } from "./Discover.js"
import { fastParse } from "./FastPath.js"
import { inOptionNames } from "./OptionNames.js"
import { EXIT_OUTPUT_FAILED, outputFailure, printDefect, runWork } from "./Render.js"
import { allSpecs } from "./Specs.js"

/** What a plain folder's command says when the folder was bound while it waited for the lock. */
const BOUND_MEANWHILE_REASON =
  "this folder was bound to a shared dossier while the command waited for its lock, and nothing was written; run it again and it runs over the shared dossier"

// The options every command shares may stand before the command: moved after its words.
const argv = commandFirst(process.argv.slice(2))
const wantsJson = argv.includes("--json")

// A reader that closes the pipe early (`dossier … | head`) is not an error of ours: the answer is
// printed last, after any write has finished, so leave quietly instead of printing a stack trace.
// Any other failure to write stdout ends the process quietly too: one line on stderr, exit 74.
// While `exec` relays a program's output, the run is ended and recorded first (exit 141 then).
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (outputClosed(e.code ?? "error")) return
  if (e.code === "EPIPE") process.exit(interruptedExitCode() ?? process.exitCode ?? 0)
  outputFailure(e)
  process.exit(EXIT_OUTPUT_FAILED)
})
process.stderr.on("error", (e: NodeJS.ErrnoException) => {
  // Nowhere left to say anything: leave with the exit code already set (a run in flight goes on;
  // its stderr is no longer relayed).
  if (inFlight() > 0) return
  process.exit(e.code === "EPIPE" ? interruptedExitCode() ?? process.exitCode ?? 0 : EXIT_OUTPUT_FAILED)
})

const finish = (exit: Exit.Exit<void, unknown>) => {
  if (Exit.isFailure(exit)) {
    if (process.env["DOSSIER_DEBUG"] === "1") console.error(exit.cause)
    printDefect(wantsJson)
  }
  // A run interrupted by a signal or a closed stdout was recorded; the exit code still says so.
  const interrupted = interruptedExitCode()
  if (interrupted !== null) process.exitCode = interrupted
}

/** The work folder a command names (its `workdir` flag, resolved by `prepareValues`). */
const workdirOf = (spec: CommandSpec, values: Record<string, unknown>): string | undefined => {
  const key = Object.keys(spec.flags).find((k) => spec.flags[k]!.kind === "workdir")
  const dir = key === undefined ? undefined : values[key]
  return typeof dir === "string" ? dir : undefined
}

/**
 * In a folder bound to a shared dossier, the command runs over the store (src/commands/Bound.ts).
 * In a plain folder, a folder bound while the command waited for its lock (`init --store` holds
 * it) is found again under the lock (src/layers/PlainFolderGuard.ts): nothing is written in the
 * folder, and the answer is `StoreUnavailable` (retryable: run again, it runs over the store).
 */
const overStore = (spec: CommandSpec, values: Record<string, unknown>, w: AnyWork): Promise<AnyWork> => {
  const dir = workdirOf(spec, values)
  if (dir === undefined || !runsOnStore(spec.path)) return Promise.resolve(w)
  if (!isBoundFolder(dir)) {
    armPlainFolderGuard()
    return Promise.resolve({
      ...w,
      effect: Effect.catchSomeDefect(w.effect, (d) =>
        isBoundMeanwhile(d)
          ? Option.some(Effect.fail(new StoreUnavailable({ reason: BOUND_MEANWHILE_REASON })))
          : Option.none())
    })
  }
  return import("../commands/Bound.js").then((b) => b.boundWork(spec, values, dir, w))
}

const runCommand = (spec: CommandSpec, values: Record<string, unknown>) => {
  const prepared = prepareValues(spec, values)
  return spec.run(prepared)
    .then((w) => overStore(spec, prepared, w))
    .then((w) =>
      Effect.runPromiseExit(
        runWork(values["json"] === true, { ...w, effect: inOptionNames(spec, prepared, w.effect) })
      )
    )
}

const fast = fastParse(allSpecs, argv)
const program = fast !== undefined
  ? runCommand(fast.spec, fast.values)
  : import("./Usage.js").then(({ route }) => {
    const r = route(argv)
    switch (r._tag) {
      case "Run":
        return runCommand(r.spec, r.values)
      case "Delegate":
        return import("./App.js").then((app) => Effect.runPromiseExit(app.runApp(process.argv)))
      default:
        return import("./Answer.js").then(({ answer }) => {
          answer(r, wantsJson)
          return Exit.void
        })
    }
  })
program.then(finish, (e) => {
  if (process.env["DOSSIER_DEBUG"] === "1") console.error(e)
  printDefect(wantsJson)
})
