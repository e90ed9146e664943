/**
 * Input files named by `--input` (and other JSON files a command reads): inside the work
 * folder, a regular file, at most 64 KiB for `--input`; parsed and validated with a Schema.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FiberRef from "effect/FiberRef"
import * as Option from "effect/Option"
import type * as Schema from "effect/Schema"
import * as fs from "node:fs"
import * as path from "node:path"
import { decodeWith, parseJsonBytes } from "../domain/Decode.js"
import {
  type FileNotFound,
  InputOutsideWorkdir,
  InputTooLarge,
  type InvalidInput,
  IoError,
  type LimitExceeded,
  UnsafePath
} from "../domain/Errors.js"
import { normalizeRelative } from "../domain/Paths.js"
import { DEFAULT_MAX_BYTES, FileStore } from "./FileStore.js"
import { InputKeys, topLevelKeys } from "./InputKeys.js"
import { Workdir } from "./Workdir.js"

export const MAX_INPUT_BYTES = 64 * 1024

export type InputError = InvalidInput | InputTooLarge | InputOutsideWorkdir | FileNotFound | IoError | UnsafePath

const outsideError = (shown: string, flag: string) =>
  Effect.fail(new InputOutsideWorkdir(flag === "--input" ? { path: shown } : { path: shown, flag }))

const exists = (p: string) => {
  try {
    fs.lstatSync(p)
    return true
  } catch {
    return false
  }
}

/**
 * A path that names the work folder itself: a directory where a file is expected, refused like
 * any other (`--research-dir`, a directory, keeps its refusal).
 */
const namesTheFolder = (flag: string) =>
  flag === "--research-dir"
    ? outsideError(".", flag)
    : Effect.fail(new UnsafePath({ path: ".", reason: "not-regular-file" }))

/**
 * Resolve a file path given on the command line to a path relative to the work folder.
 * A relative path is taken from the current directory when it names something there (what a
 * shell's tab completion gives), else from the work folder; an absolute path must point inside
 * it. Anything outside → `InputOutsideWorkdir`, naming the path relative to the work folder
 * (never an absolute path, never only its base name) and the option it came from.
 */
export const relativeToWorkdir = (
  given: string,
  flag = "--input"
): Effect.Effect<string, InputOutsideWorkdir | UnsafePath, Workdir> =>
  Effect.flatMap(Workdir, ({ root }): Effect.Effect<string, InputOutsideWorkdir | UnsafePath> => {
    let rel: string
    const fromCwd = path.isAbsolute(given) ? given : exists(path.resolve(given)) ? path.resolve(given) : undefined
    if (fromCwd !== undefined) {
      let abs = path.resolve(fromCwd)
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
      rel = rel.split(path.sep).join("/")
      if (rel === "") return namesTheFolder(flag)
      if (rel === ".." || rel.startsWith("../") || path.isAbsolute(rel)) {
        return outsideError(path.isAbsolute(rel) ? path.basename(abs) : rel, flag)
      }
    } else {
      rel = given
    }
    const normalized = normalizeRelative(rel)
    return normalized._tag === "Right"
      ? Effect.succeed(normalized.right)
      // A name no file can have is said as such (it is inside the folder, just impossible).
      : normalized.left.reason === "name-too-long"
      ? Effect.fail(normalized.left)
      // `.`, `a/..`: the work folder itself, a directory inside it, not a file outside it.
      : Either.getRight(normalizeRelative(`${rel}/x`)).pipe(Option.contains("x"))
      ? namesTheFolder(flag)
      : outsideError(rel, flag)
  })

/** `--input -`: standard input, read to its end; bytes past `max` are counted, not kept. */
const readStdin = (max: number): Effect.Effect<{ readonly bytes: Uint8Array; readonly total: number }, IoError> =>
  Effect.try({
    try: () => {
      const chunks: Array<Buffer> = []
      let total = 0
      const buffer = Buffer.alloc(64 * 1024)
      for (;;) {
        let n: number
        try {
          n = fs.readSync(0, buffer, 0, buffer.length, null)
        } catch (e) {
          const code = (e as { code?: string }).code
          if (code === "EAGAIN") {
            // A non-blocking pipe with nothing yet: wait a little, without spinning.
            Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5)
            continue
          }
          if (code === "EOF") break
          throw e
        }
        if (n === 0) break
        if (total <= max) chunks.push(Buffer.from(buffer.subarray(0, n)))
        total += n
      }
      return { bytes: Buffer.concat(chunks), total }
    },
    catch: (e) =>
      new IoError({ path: "-", operation: "read", code: String((e as { code?: string }).code ?? "EUNKNOWN") })
  })

/** A JSON file's value, not yet validated. */
const readJsonValue = (rel: string, maxBytes: number) =>
  Effect.gen(function*() {
    const store = yield* FileStore
    const bytes = yield* store.read(rel, { maxBytes })
    return yield* parseJsonBytes(bytes)
  })

/** Read and validate a JSON file the command names (state, research output…), at most 16 MiB. */
export const readJsonFile = <A, I>(
  schema: Schema.Schema<A, I, never>,
  rel: string,
  maxBytes = DEFAULT_MAX_BYTES
): Effect.Effect<A, InvalidInput | FileNotFound | IoError | UnsafePath | LimitExceeded, FileStore> =>
  Effect.flatMap(readJsonValue(rel, maxBytes), decodeWith(schema))

/** Note the input's top-level keys (./InputKeys.ts), then validate it. */
const decodeInput = <A, I>(schema: Schema.Schema<A, I, never>) => (json: unknown) =>
  Effect.zipRight(FiberRef.set(InputKeys, topLevelKeys(json)), decodeWith(schema)(json))

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
      : decodeInput(schema)(given.value)
  }
  if (given === "-") {
    return Effect.gen(function*() {
      const { bytes, total } = yield* readStdin(MAX_INPUT_BYTES)
      if (total > MAX_INPUT_BYTES) return yield* new InputTooLarge({ path: "-", max: MAX_INPUT_BYTES, actual: total })
      const json = yield* parseJsonBytes(bytes)
      return yield* decodeInput(schema)(json)
    })
  }
  return Effect.flatMap(
    relativeToWorkdir(given),
    (rel) =>
      Effect.flatMap(readJsonValue(rel, MAX_INPUT_BYTES), decodeInput(schema)).pipe(
        Effect.catchTag(
          "LimitExceeded",
          (e) => Effect.fail(new InputTooLarge({ path: rel, max: e.max, actual: e.actual }))
        )
      )
  )
}
