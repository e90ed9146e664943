/**
 * The top-level keys of the input file a command read (`readInput`, src/services/InputFile.ts),
 * on the fiber that read it. The command line renames a refusal's issue at an option's name to
 * the option (src/cli/OptionNames.ts); an issue at one of these keys is about the file, whose
 * paths stay dotted paths into it, even where a key is spelled as one of the command's options.
 * Its own module, with no import but effect's: the command line's start-up path reads it.
 */
import * as FiberRef from "effect/FiberRef"
import { globalValue } from "effect/GlobalValue"

/** Empty until an input is read; one per process however many bundles load this module. */
export const InputKeys: FiberRef.FiberRef<ReadonlySet<string>> = globalValue(
  Symbol.for("dossier/InputKeys"),
  () => FiberRef.unsafeMake<ReadonlySet<string>>(new Set())
)

/** The top-level keys of an input's JSON value: an object's own keys (an array's are indices, never names). */
export const topLevelKeys = (value: unknown): ReadonlySet<string> =>
  new Set(typeof value === "object" && value !== null && !Array.isArray(value) ? Object.keys(value) : [])
