/**
 * The server's read-only resources, each read through the FileStore (the same boundary checks
 * as every command: no path outside the folder, no symlink, regular files only):
 * - `dossier://plan`: plan.md;
 * - `dossier://sources/<path>`: a retained file under `research/sources/` (`<path>` below it,
 *   percent-encoded as a URI path);
 * - `dossier://journal/<study>`: the study's journal, `research/<study>/research-events.jsonl`,
 *   read through the Journal service (`Journal.lines`), whatever stores it.
 * The list names the plan (once plan.md is there), every retained file and every study's journal; it is brought up to
 * date before each `resources/list` and after each tool call, and the client is told when it
 * grew (`notifications/resources/list_changed`). Both URI templates are listed too.
 * A URI that names no resource of the folder (another scheme such as `file:///etc/passwd`, a path
 * that leaves research/sources/, a missing file, a symlink, a study without a journal) is the MCP
 * "resource not found" error (-32002, data `{uri}`); a file too large to read is -32602.
 */
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { clipped } from "../domain/Clip.js"
import { checkStudyId, studyPaths } from "../domain/Journal.js"
import { normalizeInArea } from "../domain/Paths.js"
import { SOURCES_AREA } from "../domain/Plan.js"
import type { CommandServices } from "../layers/CommandsLive.js"
import { FileStore } from "../services/FileStore.js"
import { Journal } from "../services/Journal.js"
import { Sources } from "../services/Sources.js"

export const PLAN_URI = "dossier://plan"
export const SOURCES_PREFIX = "dossier://sources/"
export const JOURNAL_PREFIX = "dossier://journal/"

/** MCP's "resource not found" (2025-11-25 and earlier; the 2026-07-28 revision answers -32602). */
export const RESOURCE_NOT_FOUND = -32002
const INVALID_PARAMS = -32602
const INTERNAL_ERROR = -32603

/** Resources larger than this are refused (InvalidParams): a client reads them whole. */
const MAX_RESOURCE_BYTES = 16 * 1024 * 1024

/** A failed read, as the JSON-RPC error to answer. */
export interface ResourceError {
  readonly code: number
  readonly message: string
  readonly data?: { readonly uri: string }
}

export interface Resource {
  readonly uri: string
  readonly name: string
  readonly mimeType: string
  readonly description: string
}

export type ResourceContents =
  | { readonly uri: string; readonly mimeType: string; readonly text: string }
  | { readonly uri: string; readonly mimeType: string; readonly blob: string }

const MIME: Record<string, string> = {
  md: "text/markdown",
  html: "text/html",
  htm: "text/html",
  xhtml: "application/xhtml+xml",
  txt: "text/plain",
  json: "application/json",
  jsonl: "application/jsonl"
}

const mimeOf = (path: string): string =>
  MIME[path.slice(path.lastIndexOf(".") + 1).toLowerCase()] ?? "application/octet-stream"

/** `research/sources/a b/c.md` → `dossier://sources/a%20b/c.md` (each segment percent-encoded). */
export const sourceUri = (path: string): string =>
  `${SOURCES_PREFIX}${path.slice(SOURCES_AREA.length + 1).split("/").map(encodeURIComponent).join("/")}`

/** What an error repeats of the URI asked for: clipped as a refusal's values are (../domain/Clip.ts). */
export const notFound = (uri: string): ResourceError => ({
  code: RESOURCE_NOT_FOUND,
  message: `Resource not found: ${clipped(uri)}`,
  data: { uri: clipped(uri) }
})

/** The path a `dossier://sources/…` URI names, or undefined when it names nothing under research/sources/. */
export const sourcePathOf = (uri: string): string | undefined => {
  if (!uri.startsWith(SOURCES_PREFIX)) return undefined
  const raw = uri.slice(SOURCES_PREFIX.length)
  if (raw.includes("?") || raw.includes("#")) return undefined
  let rest: string
  try {
    rest = raw.split("/").map(decodeURIComponent).join("/")
  } catch {
    return undefined
  }
  return Either.getOrUndefined(normalizeInArea(`${SOURCES_AREA}/${rest}`, SOURCES_AREA))
}

/** Read a file for a resource: text when it is UTF-8, else bytes (base64). */
const contents = (
  uri: string,
  path: string
): Effect.Effect<{ contents: Array<ResourceContents> }, ResourceError, FileStore> =>
  bytesOf(uri, path, Effect.flatMap(FileStore, (store) => store.read(path, { maxBytes: MAX_RESOURCE_BYTES })))

/** A study's journal for a resource, read through the Journal service. */
const journalContents = (
  uri: string,
  study: string
): Effect.Effect<{ contents: Array<ResourceContents> }, ResourceError, Journal> =>
  bytesOf(uri, studyPaths(study).journal, Effect.flatMap(Journal, (j) => j.lines(study, MAX_RESOURCE_BYTES)))

const bytesOf = <R>(
  uri: string,
  path: string,
  read: Effect.Effect<Uint8Array, { readonly _tag: string; readonly message: string }, R>
): Effect.Effect<{ contents: Array<ResourceContents> }, ResourceError, R> =>
  read.pipe(
    Effect.map((bytes) => {
      const mimeType = mimeOf(path)
      try {
        const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes)
        return { contents: [{ uri, mimeType, text }] }
      } catch {
        return { contents: [{ uri, mimeType, blob: Buffer.from(bytes).toString("base64") }] }
      }
    }),
    Effect.catchAll((e): Effect.Effect<never, ResourceError> =>
      // Missing, or not a regular file of the folder (a symlink, a special file): no such resource.
      Effect.fail(
        e._tag === "LimitExceeded"
          ? { code: INVALID_PARAMS, message: `${clipped(uri)}: ${e.message}` }
          : e._tag === "IoError"
          ? { code: INTERNAL_ERROR, message: `${clipped(uri)}: the file could not be read` }
          : notFound(uri)
      )
    )
  )

export interface ResourceHandlers {
  /** Every resource there is now. */
  readonly list: Effect.Effect<ReadonlyArray<Resource>>
  readonly templates: ReadonlyArray<
    { readonly uriTemplate: string; readonly name: string; readonly description: string; readonly mimeType?: string }
  >
  readonly read: (uri: string) => Effect.Effect<{ contents: Array<ResourceContents> }, ResourceError>
}

export const resourceHandlers = (services: Context.Context<CommandServices>): ResourceHandlers => {
  const provided = <A>(effect: Effect.Effect<A, ResourceError, CommandServices>) =>
    effect.pipe(
      Effect.provide(services),
      Effect.catchAllDefect(() => Effect.fail<ResourceError>({ code: INTERNAL_ERROR, message: "Internal error" }))
    )

  const read = (uri: string) => {
    if (uri === PLAN_URI) return provided(contents(PLAN_URI, "plan.md"))
    if (uri.startsWith(SOURCES_PREFIX)) {
      const path = sourcePathOf(uri)
      return path === undefined ? Effect.fail(notFound(uri)) : provided(contents(uri, path))
    }
    if (uri.startsWith(JOURNAL_PREFIX)) {
      const study = uri.slice(JOURNAL_PREFIX.length)
      return Either.isLeft(checkStudyId(study)) ? Effect.fail(notFound(uri)) : provided(journalContents(uri, study))
    }
    return Effect.fail(notFound(uri))
  }

  const list: Effect.Effect<ReadonlyArray<Resource>> = Effect.gen(function*() {
    const out: Array<Resource> = []
    // The plan once plan.md is there (before, reading it is "resource not found").
    const plan = yield* Effect.flatMap(FileStore, (store) => store.stat("plan.md"))
    if (Option.isSome(plan) && plan.value.kind === "file") {
      out.push({
        uri: PLAN_URI,
        name: "plan.md",
        mimeType: "text/markdown",
        description: "The work folder's plan (prose and the marked plan section)."
      })
    }
    const sources = yield* Effect.flatMap(Sources, (s) => s.list)
    for (const path of sources) {
      out.push({
        uri: sourceUri(path),
        name: path,
        mimeType: mimeOf(path),
        description: "A retained source (write-once)."
      })
    }
    const studies = yield* Effect.flatMap(Journal, (j) => j.studies)
    for (const row of studies) {
      out.push({
        uri: `${JOURNAL_PREFIX}${row.study}`,
        name: `journal of ${row.study}`,
        mimeType: "application/jsonl",
        description: `research/${row.study}/research-events.jsonl`
      })
    }
    return out
  }).pipe(
    Effect.provide(services),
    Effect.catchAllCause(() =>
      Effect.succeed([{
        uri: PLAN_URI,
        name: "plan.md",
        mimeType: "text/markdown",
        description: "The work folder's plan."
      }])
    )
  )

  return {
    list,
    templates: [
      {
        uriTemplate: `${SOURCES_PREFIX}{+path}`,
        name: "retained source",
        description: "A file retained under research/sources/ (path below it)."
      },
      {
        uriTemplate: `${JOURNAL_PREFIX}{study}`,
        name: "study journal",
        description: "A study's experiment journal (JSON lines), research/<study>/research-events.jsonl.",
        mimeType: "application/jsonl"
      }
    ],
    read
  }
}
