/**
 * A command's work apart from its rendering: an Effect that answers the command's `--json`
 * fields (without `ok`) or fails with a tagged refusal, the layer the CLI provides it with, and
 * the human report. The CLI renders it (`runWork` in ./Render.ts); the MCP server gives the same
 * Effect its own services, built once (src/layers/CommandsLive.ts), and answers the same object.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { DossierError } from "../domain/AllErrors.js"
import { UsageError } from "../domain/CliErrors.js"
import type { CommandServices } from "../layers/CommandsLive.js"

/** What a command can refuse with: a domain error, or a usage error its flags could not express. */
export type CommandFailure = DossierError | UsageError

export interface CommandWork<A extends object, R extends CommandServices> {
  readonly effect: Effect.Effect<A, CommandFailure, R>
  /** The services the CLI builds for this command alone. */
  readonly layer: Layer.Layer<R, CommandFailure>
  readonly human: (a: A) => string
  /** Print nothing on success (`dossier mcp`, whose stdout is the protocol). */
  readonly quiet?: boolean
}

export type AnyWork = CommandWork<any, any>

/**
 * `X` itself when it answers an object, fails only with a `CommandFailure` and needs nothing
 * beyond `CommandServices` (what the MCP server provides); else `never`, a type error.
 */
type Checked<X> = X extends Effect.Effect<infer A, infer E, infer R>
  ? [A] extends [object] ? [E] extends [CommandFailure] ? [R] extends [CommandServices] ? X : never : never : never
  : never

/**
 * Declare a command's work. Generic over the whole Effect type (not its parts), so that the
 * Effect's own inference is not steered by a contextual type.
 */
export const work = <X extends Effect.Effect<any, any, any>>(w: {
  readonly effect: X & Checked<X>
  readonly layer: Layer.Layer<Effect.Effect.Context<X>, CommandFailure>
  readonly human: (a: Effect.Effect.Success<X>) => string
  readonly quiet?: boolean
}): AnyWork => w as unknown as AnyWork

/** The work of a command line its flags could not refuse by themselves (exit 2, `UsageError`). */
export const usageError = (detail: string): AnyWork =>
  work({ effect: Effect.fail(new UsageError({ detail })), layer: Layer.empty, human: () => detail })
