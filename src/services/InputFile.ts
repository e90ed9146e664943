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
      rel = path.relative(root, abs)
      // A path that names the work folder as spelled is taken as it is: a symlink inside the
      // folder is then refused by the FileStore, never resolved here. Otherwise the path may
      // reach the folder through links above it (the root is a real path): resolve those.
      if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) {
        try {
          abs = path.join(fs.realpathSync(path.dirname(abs)), path.basename(abs))
        } catch {
          // The parent does not exist: compare the path as given.
        }
        rel = path.relative(root, abs)
      }
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

/** Read and validate an `--input` file: the same as `readJsonFile`, bounded at 64 KiB (`InputTooLarge`). */
export const readInput = <A, I>(
  schema: Schema.Schema<A, I, never>,
  given: string
): Effect.Effect<A, InputError, FileStore | Workdir> =>
  Effect.flatMap(relativeToWorkdir(given), (rel) =>
    readJsonFile(schema, rel, MAX_INPUT_BYTES).pipe(
      Effect.catchTag("LimitExceeded", (e) => Effect.fail(new InputTooLarge({ path: rel, max: e.max, actual: e.actual })))
    ))
