/**
 * The server's read-only resources, each read through the FileStore (the same boundary checks
 * as every command: no path outside the folder, no symlink, regular files only):
 * - `dossier://plan`: plan.md;
 * - `dossier://sources/<path>`: a retained file under `research/sources/` (`<path>` below it,
 *   percent-encoded as a URI path);
 * - `dossier://journal/<study>`: the study's journal, `research/<study>/research-events.jsonl`,
 *   read through the Journal service (`Journal.lines`), whatever stores it.
 * The list names the plan (once plan.md is there), every retained file and every study's journal,
 * and only those a read serves: each file is held to the checks of the read (`servable`: the
 * FileStore read's own `readRefusal` on its lstat — a regular file, no symlink, link count 1, at
 * most 16 MiB — below a parent the boundary lets through), so a hard-linked source, a symlinked
 * journal or a file too large is not offered. It is brought up to date before each
 * `resources/list`, and after a tool call that added a candidate (`candidates`: a new file, a new
 * journal, plan.md), when the client is told if it grew (`notifications/resources/list_changed`).
 * Both URI templates are listed too. At most `MAX_LISTED_SOURCES` retained files are listed; a
 * folder holding more gets a list that says it was cut (`listing`'s `skipped`, as `source follow`
 * names what it did not search).
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
import { normalizeInArea, readRefusal } from "../domain/Paths.js"
import { SOURCES_AREA } from "../domain/Plan.js"
import type { CommandServices } from "../layers/CommandsLive.js"
import { FileStore } from "../services/FileStore.js"
import { Journal } from "../services/Journal.js"
import { MAX_LISTED_SOURCES, type SkippedSource, Sources } from "../services/Sources.js"

export const PLAN_URI = "dossier://plan"
export const SOURCES_PREFIX = "dossier://sources/"
export const JOURNAL_PREFIX = "dossier://journal/"

/** MCP's "resource not found" (2025-11-25 and earlier; the 2026-07-28 revision answers -32602). */
export const RESOURCE_NOT_FOUND = -32002
const INVALID_PARAMS = -32602
const INTERNAL_ERROR = -32603

/** Resources larger than this are refused (InvalidParams): a client reads them whole. */
const MAX_RESOURCE_BYTES = 16 * 1024 * 1024

/** How a resource's file is read (a journal in the folder too: `Journal.lines` reads it so). */
const READ = { requireSingleLink: true, maxBytes: MAX_RESOURCE_BYTES } as const

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
  bytesOf(uri, path, Effect.flatMap(FileStore, (store) => store.read(path, READ)))

/**
 * Whether a read of the file at `path` serves it: it is there (below parents the boundary lets
 * through: `stat` checks them) and its lstat passes the checks the read makes on what it opens
 * (`readRefusal`, the FileStore layers' own). The list offers a file only then.
 */
const servable = (path: string): Effect.Effect<boolean, never, FileStore> =>
  Effect.flatMap(FileStore, (store) => store.stat(path)).pipe(
    Effect.map(Option.exists((entry) => readRefusal(path, entry, READ) === undefined)),
    Effect.orElseSucceed(() => false)
  )

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
        // A leading byte-order mark is kept: it is a code point of the file's text, which the
        // offsets of source_follow and the gate count (src/domain/Quote.ts, withoutBom).
        const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes)
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
  /** Every resource there is now: what a read serves. */
  readonly list: Effect.Effect<ReadonlyArray<Resource>>
  /**
   * `list`, and what it left out: `research/sources` (`LimitExceeded`) when the folder holds more
   * retained files than are listed (`MAX_LISTED_SOURCES`), so a cut list never passes for whole.
   */
  readonly listing: Effect.Effect<
    { readonly resources: ReadonlyArray<Resource>; readonly skipped: ReadonlyArray<SkippedSource> }
  >
  /**
   * The URIs `list` looks at before it holds each file to the read's checks (a superset of its
   * answer, without a `stat` per file): what the server compares after each tool call to learn,
   * cheaply, whether the list may have grown.
   */
  readonly candidates: Effect.Effect<ReadonlySet<string>>
  readonly templates: ReadonlyArray<
    { readonly uriTemplate: string; readonly name: string; readonly description: string; readonly mimeType?: string }
  >
  readonly read: (uri: string) => Effect.Effect<{ contents: Array<ResourceContents> }, ResourceError>
}

/**
 * A resource the list may name, and the file a read of it opens that the list still has to check
 * (none: read from the store, or checked already).
 */
interface Candidate {
  readonly file: string | undefined
  readonly resource: Resource
}

export interface ResourceOptions {
  /**
   * Whether the journals are files of the folder (`research/<study>/research-events.jsonl`, read
   * through the FileStore), so that the list holds each to the read's checks. False in a folder
   * bound to a shared store, whose journals are the store's rows.
   */
  readonly journalFiles: boolean
}

export const resourceHandlers = (
  services: Context.Context<CommandServices>,
  options: ResourceOptions
): ResourceHandlers => {
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

  // Each part of the list on its own: one that cannot be listed (research/sources/ a symlink, a
  // journal store out of reach) is left out, never the others. Each resource names the file a
  // read of it opens through the FileStore (none: a bound folder's journal, read from the store).
  const part = <E>(effect: Effect.Effect<ReadonlyArray<Candidate>, E, CommandServices>) =>
    effect.pipe(Effect.catchAllCause(() => Effect.succeed<ReadonlyArray<Candidate>>([])))

  // The plan once a read serves plan.md (one file: checked here, so that a candidate too).
  const plan = part(Effect.map(servable("plan.md"), (ok) =>
    ok
      ? [{
        file: undefined,
        resource: {
          uri: PLAN_URI,
          name: "plan.md",
          mimeType: "text/markdown",
          description: "The work folder's plan (prose and the marked plan section)."
        }
      }]
      : []))

  // The retained files, and whether the walk was cut at MAX_LISTED_SOURCES files.
  const sourcesCut = Effect.map(Effect.flatMap(Sources, (s) => s.listing), (l) => ({
    found: l.paths.map((path): Candidate => ({
      file: path,
      resource: {
        uri: sourceUri(path),
        name: path,
        mimeType: mimeOf(path),
        description: "A retained source (write-once)."
      }
    })),
    truncated: l.truncated
  })).pipe(Effect.catchAllCause(() => Effect.succeed({ found: [] as ReadonlyArray<Candidate>, truncated: false })))

  const journals = part(Effect.map(Effect.flatMap(Journal, (j) => j.studies), (rows) =>
    rows.map((row) => ({
      file: options.journalFiles ? studyPaths(row.study).journal : undefined,
      resource: {
        uri: `${JOURNAL_PREFIX}${row.study}`,
        name: `journal of ${row.study}`,
        mimeType: "application/jsonl",
        description: `research/${row.study}/research-events.jsonl`
      }
    }))))

  const allCut = Effect.map(
    Effect.all([plan, sourcesCut, journals]),
    ([p, s, j]) => ({ found: [...p, ...s.found, ...j], truncated: s.truncated })
  )
  const all = Effect.map(allCut, (a) => a.found)

  const listing: ResourceHandlers["listing"] = Effect.flatMap(allCut, ({ found, truncated }) =>
    Effect.map(
      Effect.filterMap(
        found.map((c) =>
          c.file === undefined
            ? Effect.succeed(Option.some(c.resource))
            : Effect.map(servable(c.file), (ok) => (ok ? Option.some(c.resource) : Option.none()))
        ),
        (o) => o
      ),
      (resources) => ({
        resources,
        skipped: truncated
          ? [{
            path: SOURCES_AREA,
            error: "LimitExceeded",
            message:
              `Listed only the first ${MAX_LISTED_SOURCES} files under ${SOURCES_AREA}/ (in name order); the others are not listed: read one by its URI (${SOURCES_PREFIX}{+path}).`
          }]
          : []
      })
    )).pipe(
      Effect.provide(services),
      Effect.catchAllDefect(() => Effect.succeed({ resources: [], skipped: [] }))
    )

  const list: Effect.Effect<ReadonlyArray<Resource>> = Effect.map(listing, (l) => l.resources)

  const candidates: Effect.Effect<ReadonlySet<string>> = Effect.map(
    all,
    (found): ReadonlySet<string> => new Set(found.map((c) => c.resource.uri))
  ).pipe(Effect.provide(services), Effect.catchAllDefect(() => Effect.succeed(new Set<string>())))

  return {
    list,
    listing,
    candidates,
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
