/**
 * Input files named by `--input` (and other JSON files a command reads): inside the work
 * folder, a regular file, at most 64 KiB for `--input`; parsed and validated with a Schema.
 */
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import { decodeWith, parseJson } from "../domain/Decode.js"
import {
  type FileNotFound,
  InputOutsideWorkdir,
  InputTooLarge,
  type InvalidInput,
  type IoError,
  type LimitExceeded,
  type UnsafePath
} from "../domain/Errors.js"
import { normalizeRelative } from "../domain/Paths.js"
import { DEFAULT_MAX_BYTES, FileStore } from "./FileStore.js"
import { Workdir } from "./Workdir.js"
import * as fs from "node:fs"
import * as path from "node:path"

export const MAX_INPUT_BYTES = 64 * 1024

export type InputError = InvalidInput | InputTooLarge | InputOutsideWorkdir | FileNotFound | IoError | UnsafePath

/**
 * Resolve a file path given on the command line to a path relative to the work folder.
 * A relative path is taken relative to the work folder (as in `--input research/inputs/x.json`);
 * an absolute path must point inside it. Anything outside → `InputOutsideWorkdir`.
 */
export const relativeToWorkdir = (given: string): Effect.Effect<string, InputOutsideWorkdir, Workdir> =>
  Effect.flatMap(Workdir, ({ root }) => {
    const outside = () => Effect.fail(new InputOutsideWorkdir({ path: path.basename(given) }))
    let rel: string
    if (path.isAbsolute(given)) {
      let abs = path.resolve(given)
      try {
        // The work folder's root is a real path; resolve links above the file the same way.
        abs = path.join(fs.realpathSync(path.dirname(abs)), path.basename(abs))
      } catch {
        // The parent does not exist: compare the path as given.
      }
      rel = path.relative(root, abs)
      if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return outside()
      rel = rel.split(path.sep).join("/")
    } else {
      rel = given
    }
    const normalized = normalizeRelative(rel)
    return normalized._tag === "Right" ? Effect.succeed(normalized.right) : outside()
  })

/** Read and validate a JSON file the command names (state, research output…), at most 16 MiB. */
export const readJsonFile = <A, I>(
  schema: Schema.Schema<A, I, never>,
  rel: string,
  maxBytes = DEFAULT_MAX_BYTES
): Effect.Effect<A, InvalidInput | FileNotFound | IoError | UnsafePath | LimitExceeded, FileStore> =>
  Effect.gen(function*() {
    const store = yield* FileStore
    const text = yield* store.readText(rel, { maxBytes })
    const json = yield* parseJson(text)
    return yield* decodeWith(schema)(json)
  })

/**
 * An input given inline instead of as a file (the MCP tools' `input` argument): the parsed JSON
 * value. It is held to the same 64 KiB (its JSON text) and validated by the same Schema.
 */
export class InlineInput {
  constructor(readonly value: unknown) {}
}

/** Where a command's input comes from: a file path as given on the command line, or inline. */
export type InputRef = string | InlineInput

/** The name an inline input is reported by (`InputTooLarge.path`). */
export const INLINE_INPUT_NAME = "input"

/**
 * Read and validate an `--input` file (the same as `readJsonFile`, bounded at 64 KiB:
 * `InputTooLarge`), or validate an inline input under the same bound.
 */
export const readInput = <A, I>(
  schema: Schema.Schema<A, I, never>,
  given: InputRef
): Effect.Effect<A, InputError, FileStore | Workdir> => {
  if (given instanceof InlineInput) {
    const bytes = Buffer.byteLength(JSON.stringify(given.value) ?? "", "utf8")
    return bytes > MAX_INPUT_BYTES
      ? Effect.fail(new InputTooLarge({ path: INLINE_INPUT_NAME, max: MAX_INPUT_BYTES, actual: bytes }))
      : decodeWith(schema)(given.value)
  }
  return Effect.flatMap(relativeToWorkdir(given), (rel) =>
    readJsonFile(schema, rel, MAX_INPUT_BYTES).pipe(
      Effect.catchTag("LimitExceeded", (e) => Effect.fail(new InputTooLarge({ path: rel, max: e.max, actual: e.actual })))
    ))
}
