/**
 * The full @effect/cli application, built from the same command table. Since src/cli/Usage.ts
 * answers help and usage errors itself, it is loaded only for `--completions` (its validation
 * errors are still rendered as `UsageError`, exit 2, also under --json); the property test of the
 * fast path uses it as an independent parser.
 */
import * as Command from "@effect/cli/Command"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as ValidationError from "@effect/cli/ValidationError"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as NodeTerminal from "@effect/platform-node/NodeTerminal"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { format } from "node:util"
import type { CommandSpec } from "../commands/Spec.js"
import { commandOf, runSpec } from "./Build.js"
import { outputFailure, printUsageError } from "./Render.js"
import { allSpecs, groups } from "./Specs.js"

import { VERSION } from "./Usage.js"

export { VERSION }

type AnyCommand = Command.Command<any, any, any, any>

/** Build the root command; `handle` runs a declared command (tests substitute a recorder). */
export const buildRoot = (
  handle: (spec: CommandSpec, values: Record<string, unknown>) => Effect.Effect<void> = runSpec
) => {
  const top: Array<AnyCommand> = []
  for (const g of groups) {
    const subs = allSpecs.filter((s) => s.path.length === 2 && s.path[0] === g.name).map((s) => commandOf(s, handle))
    top.push(
      Command.make(g.name).pipe(
        Command.withDescription(g.description),
        Command.withSubcommands(subs as unknown as [AnyCommand, ...Array<AnyCommand>])
      )
    )
  }
  for (const s of allSpecs.filter((s) => s.path.length === 1)) {
    // A command that also has subcommands (`exec` and `exec show`).
    const subs = groups.some((g) => g.name === s.path[0])
      ? []
      : allSpecs.filter((c) => c.path.length === 2 && c.path[0] === s.path[0]).map((c) => commandOf(c, handle))
    const command = commandOf(s, handle)
    top.push(
      subs.length === 0
        ? command
        : command.pipe(Command.withSubcommands(subs as unknown as [AnyCommand, ...Array<AnyCommand>]))
    )
  }
  return Command.make("dossier").pipe(
    Command.withDescription(
      "Keep agent research in an ordinary folder: a plan with revisions, safely captured sources, results bound to their bytes, an experiment journal, a research gate and subscriptions. Every command accepts --json."
    ),
    Command.withSubcommands(top as unknown as [AnyCommand, ...Array<AnyCommand>])
  )
}

const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, "")

/** Built-in options of @effect/cli that dossier refuses (src/cli/Usage.ts), so no script offers them. */
const REFUSED_BUILT_INS = ["log-level", "wizard"]

/**
 * A completion script without the options dossier refuses: @effect/cli adds `--log-level` and
 * `--wizard` to every command of its scripts. Bash lists them in each `opts="…"` line; zsh gives
 * each its own `'--name[…]' \` line of `_arguments`; fish its own `complete … -l name` line.
 */
export const withoutRefusedBuiltIns = (script: string): string => {
  const names = REFUSED_BUILT_INS.join("|")
  const zshOrFish = new RegExp(`^\\s*(?:'--(?:${names})\\[|complete .* -l (?:${names})(?: |$))`)
  const inOpts = new RegExp(` --(?:${names})(?=[ "])`, "g")
  return script
    .split("\n")
    .filter((line) => !zshOrFish.test(line))
    .map((line) => (/^\s*opts="/.test(line) ? line.replace(inOpts, "") : line))
    .join("\n")
}

/**
 * @effect/cli's bash script finds the command being completed by matching `<command so far>,<word>`
 * against patterns it writes as `dossier,plan,start)`, which the command so far (`dossier__plan`)
 * never matches, and with a dashed name as `recover__tail`, which the word (`recover-tail`) never
 * matches: every subcommand was completed as its group. Rewritten as `dossier__plan,start)` and
 * `dossier__journal,recover-tail)` (dossier's command names have dashes, never underscores).
 */
export const withBashSubcommandsFound = (script: string): string =>
  script.replace(/^(\s+)(dossier(?:,[a-z0-9_-]+)+)\)$/gm, (_line, indent: string, pattern: string) => {
    const parts = pattern.split(",")
    const word = parts.pop()!.replace(/__/g, "-")
    return `${indent}${parts.join("__")},${word})`
  })

/** A completion script of @effect/cli made right for dossier (the two fixes above). */
export const completionScript = (script: string): string => withBashSubcommandsFound(withoutRefusedBuiltIns(script))

/** Run the full CLI on process arguments (with the executable and script first). */
export const runApp = (argv: ReadonlyArray<string>, root = buildRoot()): Effect.Effect<void, unknown> => {
  const wantsJson = argv.slice(2).includes("--json")
  const completing = argv.slice(2).includes("--completions")
  const cli = Command.run(root, { name: "dossier", version: VERSION })
  // @effect/cli prints validation errors through Console.error; they are rendered here instead.
  return Console.consoleWith((console) =>
    Effect.withConsole(cli(argv), {
      ...console,
      // Help text is plain when stdout is not a terminal (agents read it through pipes).
      // Written directly (not through the global console, which ignores write errors), so a failure to
      // write stdout ends as every other one does (exit 74, one line on stderr).
      log: (...args: ReadonlyArray<unknown>) =>
        Effect.sync(() => {
          const plain = process.stdout.isTTY ? args : args.map((a) => (typeof a === "string" ? stripAnsi(a) : a))
          const shown = completing
            ? plain.map((a) => (typeof a === "string" ? completionScript(a) : a))
            : plain
          try {
            process.stdout.write(`${format(...shown)}\n`)
          } catch (e) {
            outputFailure(e)
          }
        }),
      error: () => Effect.void,
      unsafe: { ...console.unsafe, error: () => {} }
    })
  ).pipe(
    Effect.catchIf(ValidationError.isValidationError, (e) =>
      Effect.sync(() => {
        const text = stripAnsi(HelpDoc.toAnsiText(e.error)).trim().replace(/\s+/g, " ")
        printUsageError(wantsJson, text.length > 0 ? text : "Invalid command line; see --help.")
      })),
    Effect.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer, NodeTerminal.layer))
  ) as Effect.Effect<void, unknown>
}
