/**
 * The server's read-only resources, each read through the FileStore (the same boundary checks
 * as every command: no path outside the folder, no symlink, regular files only):
 * - `dossier://plan`: plan.md;
 * - `dossier://sources/<path>`: a retained file under `research/sources/` (`<path>` below it,
 *   percent-encoded as a URI path);
 * - `dossier://journal/<study>`: the study's journal, `research/<study>/research-events.jsonl`.
 * The list names the plan, every retained file and every study's journal; it is brought up to
 * date before each `resources/list` and after each tool call, and the client is told when it
 * grew (`notifications/resources/list_changed`). Both URI templates are listed too.
 */
import * as McpSchema from "@effect/ai/McpSchema"
import type { McpServer } from "@effect/ai/McpServer"
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
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

/** Resources larger than this are refused (InvalidParams): a client reads them whole. */
const MAX_RESOURCE_BYTES = 16 * 1024 * 1024

const MIME: Record<string, string> = {
  md: "text/markdown",
  html: "text/html",
  htm: "text/html",
  xhtml: "application/xhtml+xml",
  txt: "text/plain",
  json: "application/json",
  jsonl: "application/jsonl"
}

const mimeOf = (path: string): string => MIME[path.slice(path.lastIndexOf(".") + 1).toLowerCase()] ?? "application/octet-stream"

/** `research/sources/a b/c.md` → `dossier://sources/a%20b/c.md` (each segment percent-encoded). */
export const sourceUri = (path: string): string =>
  `${SOURCES_PREFIX}${path.slice(SOURCES_AREA.length + 1).split("/").map(encodeURIComponent).join("/")}`

const notFound = (uri: string) => new McpSchema.InvalidParams({ message: `Resource not found: ${uri}` })

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

/** Read a file for a resource: text when it is UTF-8, else bytes (base64 on the wire). */
const contents = (uri: string, path: string) =>
  Effect.flatMap(FileStore, (store) => store.read(path, { maxBytes: MAX_RESOURCE_BYTES })).pipe(
    Effect.map((bytes) => {
      const mimeType = mimeOf(path)
      try {
        const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes)
        return { contents: [{ uri, mimeType, text }] }
      } catch {
        return { contents: [{ uri, mimeType, blob: bytes }] }
      }
    }),
    Effect.catchAll((e) =>
      Effect.fail(e._tag === "FileNotFound" ? notFound(uri) : new McpSchema.InvalidParams({ message: `${uri}: ${e.message}` }))
    )
  )

export const registerResources = (server: McpServer["Type"], services: Context.Context<CommandServices>) => {
  const provided = <A, E>(effect: Effect.Effect<A, E, CommandServices>) =>
    effect.pipe(Effect.provide(services), Effect.catchAllDefect(() => Effect.fail(new McpSchema.InternalError({ message: "Internal error" }))))

  const listed = new Set<string>()
  // A listed resource answers a failed read with InternalError (the only error @effect/ai lets it give).
  const add = (resource: McpSchema.Resource, read: Effect.Effect<typeof McpSchema.ReadResourceResult.Type, McpSchema.InvalidParams | McpSchema.InternalError>) =>
    listed.has(resource.uri)
      ? Effect.void
      : Effect.zipRight(
        Effect.sync(() => listed.add(resource.uri)),
        server.addResource(resource, Effect.mapError(read, (e) => e._tag === "InternalError" ? e : new McpSchema.InternalError({ message: e.message })))
      )

  const readSource = (uri: string) => {
    const path = sourcePathOf(uri)
    return path === undefined ? Effect.fail(notFound(uri)) : provided(contents(uri, path))
  }
  const readJournal = (uri: string) => {
    const study = uri.startsWith(JOURNAL_PREFIX) ? uri.slice(JOURNAL_PREFIX.length) : ""
    return Either.isLeft(checkStudyId(study)) ? Effect.fail(notFound(uri)) : provided(contents(uri, studyPaths(study).journal))
  }

  /** Add what appeared since the last refresh (retained files are write-once: nothing leaves the list). */
  const refresh: Effect.Effect<void> = provided(
    Effect.gen(function*() {
      const sources = yield* Effect.flatMap(Sources, (s) => s.list)
      for (const path of sources) {
        const uri = sourceUri(path)
        yield* add(new McpSchema.Resource({ uri, name: path, mimeType: mimeOf(path), description: "A retained source (write-once)." }), readSource(uri))
      }
      const studies = yield* Effect.flatMap(Journal, (j) => j.studies)
      for (const row of studies) {
        const uri = `${JOURNAL_PREFIX}${row.study}`
        yield* add(
          new McpSchema.Resource({ uri, name: `journal of ${row.study}`, mimeType: "application/jsonl", description: `research/${row.study}/research-events.jsonl` }),
          readJournal(uri)
        )
      }
    })
  ).pipe(Effect.ignore)

  return Effect.gen(function*() {
    yield* add(
      new McpSchema.Resource({ uri: PLAN_URI, name: "plan.md", mimeType: "text/markdown", description: "The work folder's plan (prose and the marked plan section)." }),
      provided(contents(PLAN_URI, "plan.md"))
    )
    yield* server.addResourceTemplate({
      template: new McpSchema.ResourceTemplate({
        uriTemplate: `${SOURCES_PREFIX}{+path}`,
        name: "retained source",
        description: "A file retained under research/sources/ (path below it)."
      }),
      routerPath: `${SOURCES_PREFIX}*`,
      completions: {},
      handle: (uri) => readSource(uri)
    })
    yield* server.addResourceTemplate({
      template: new McpSchema.ResourceTemplate({
        uriTemplate: `${JOURNAL_PREFIX}{study}`,
        name: "study journal",
        description: "A study's experiment journal (JSON lines), research/<study>/research-events.jsonl.",
        mimeType: "application/jsonl"
      }),
      routerPath: `${JOURNAL_PREFIX}*`,
      completions: {},
      handle: (uri) => readJournal(uri)
    })
    yield* refresh
    return refresh
  })
}
