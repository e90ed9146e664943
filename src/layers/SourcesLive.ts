/**
 * Sources over the FileStore, the Plan and the CaptureStore: the files under research/sources/
 * (retained captures and files the agent put there), and follow (origins from the capture log).
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { sha256Hex } from "../domain/Canonical.js"
import { FileNotFound, InvalidInput, UnsafePath } from "../domain/Errors.js"
import { optionalText, readArgs, readOptions, text } from "../domain/Options.js"
import { normalizeInArea } from "../domain/Paths.js"
import { SOURCES_AREA } from "../domain/Plan.js"
import { formatOfPath } from "../domain/Quote.js"
import { excerptPieces, follow } from "../domain/SourceFollow.js"
import { FileStore } from "../services/FileStore.js"
import { Plan } from "../services/Plan.js"
import { CaptureStore } from "../services/ports/CaptureStore.js"
import { HeldContent } from "../services/ports/HeldContent.js"
import {
  type FollowedMatch,
  MAX_LISTED_SOURCES,
  type SkippedSource,
  Sources,
  type SourcesShape
} from "../services/Sources.js"
import { spanned } from "./Spans.js"

/** Files searched without --path: readable copies and text originals (not HTML originals, not WARC). */
const SKIPPED_WITHOUT_PATH = /\.(?:html?|xhtml|warc|gz|bin)$/i

const MAX_FOLLOW_BYTES = 16 * 1024 * 1024

export const FOLLOW_NOTE =
  "Offsets are code points of the file's text (end exclusive); paragraph and section are what a reader sees. registered: the file's current bytes are the ones the plan registered (continuity, not truth)."

/** Added to the note when a match was read from the shared dossier's bytes, not this folder's file. */
export const HELD_NOTE =
  " Some matches were read from the shared dossier's bytes: this folder lacks the file or holds other bytes there (`dossier pull` brings the missing ones; an edited file is kept)."

export const makeSources = Effect.gen(function*() {
  const store = yield* FileStore
  const plan = yield* Plan
  const captureStore = yield* CaptureStore
  // A bound folder's store (None in a folder): the bytes its records name, when this folder's differ.
  const held = yield* Effect.serviceOption(HeldContent)

  /** The regular files under research/sources/, and the entries that are not (symlinks, special files). */
  const walkSources = Effect.suspend(() => {
    const files: Array<string> = []
    const unsafe: Array<UnsafePath> = []
    // A file met once MAX_LISTED_SOURCES are listed: the listing is cut off.
    let truncated = false
    const walk = (dir: string): Effect.Effect<void, Effect.Effect.Error<ReturnType<typeof store.list>>> =>
      Effect.flatMap(store.list(dir), (entries) =>
        Effect.forEach(entries, (e) => {
          if (truncated) return Effect.void
          const path = `${dir}/${e.name}`
          if (e.kind === "file") {
            return Effect.sync(() => void (files.length >= MAX_LISTED_SOURCES ? truncated = true : files.push(path)))
          }
          if (e.kind === "directory") return walk(path)
          return Effect.sync(() =>
            void unsafe.push(
              new UnsafePath({ path, reason: e.kind === "symlink" ? "symlink" : "not-regular-file" })
            )
          )
        }, { discard: true }))
    return Effect.map(walk(SOURCES_AREA), () => ({ files: files.sort(), unsafe, truncated }))
  })

  const listing: SourcesShape["listing"] = Effect.map(walkSources, (w) => ({ paths: w.files, truncated: w.truncated }))
  const list: SourcesShape["list"] = Effect.map(listing, (l) => l.paths)

  const followIn = (excerpt: string, given: Option.Option<string>) =>
    Effect.gen(function*() {
      const pieces = excerptPieces(excerpt)
      if (Either.isLeft(pieces)) return yield* new InvalidInput({ issues: [{ path: "quote", message: pieces.left }] })
      const one = Option.isSome(given)
        ? yield* Either.match(normalizeInArea(given.value, SOURCES_AREA), {
          onLeft: Effect.fail,
          onRight: Effect.succeed
        })
        : undefined
      const doc = yield* plan.read
      const registry = new Map(
        Option.match(doc, { onNone: () => [], onSome: (d) => d.sources }).map((s) => [s.path, s] as const)
      )
      const records = yield* captureStore.records
      const captures = new Map(records.map((c) => [c.path, c.origin] as const))
      // The bytes the dossier holds for a path (a retained capture's, else the plan's registration),
      // read from a shared store when this folder lacks them.
      const heldDigest = new Map<string, string>()
      if (Option.isSome(held)) {
        for (const [p, s] of registry) if (p.startsWith(`${SOURCES_AREA}/`)) heldDigest.set(p, s.sha256)
        for (const c of records) if (c.path.startsWith(`${SOURCES_AREA}/`)) heldDigest.set(c.path, c.sha256)
      }
      const walked = one !== undefined ? undefined : yield* walkSources
      const paths: ReadonlyArray<string> = walked === undefined
        ? [one!]
        : [...new Set([...walked.files, ...heldDigest.keys()])].sort().filter((p) => !SKIPPED_WITHOUT_PATH.test(p))
      const matches: Array<FollowedMatch> = []
      // Without --path, a file the search would read but cannot is passed over and named here with
      // the refusal --path would give for it: a skipped source is never hidden.
      const skipped: Array<SkippedSource> = []
      const skip = (path: string, e: { readonly _tag: string; readonly message: string }) =>
        void skipped.push({ path, error: e._tag, message: e.message })
      for (const e of walked?.unsafe ?? []) if (!SKIPPED_WITHOUT_PATH.test(e.path)) skip(e.path, e)
      // More files than are listed: the rest are not searched, and the answer says so (in words
      // true for a tool call and a program too: the path to search, not `--path`).
      if (walked?.truncated === true) {
        skip(SOURCES_AREA, {
          _tag: "LimitExceeded",
          message:
            `Searched only the first ${MAX_LISTED_SOURCES} files under ${SOURCES_AREA}/ (in name order); the others were not searched: name one as the path to search it.`
        })
      }
      let fromStore = false
      for (const path of paths) {
        const read = store.read(path, { maxBytes: MAX_FOLLOW_BYTES }).pipe(
          Effect.map(Option.some),
          Effect.catchTag("FileNotFound", (e) => Option.isSome(held) ? Effect.succeed(Option.none()) : Effect.fail(e))
        )
        // Without --path a file that went away or cannot be read is not searched.
        const local: Option.Option<Uint8Array> | undefined = one !== undefined
          ? yield* read
          : yield* Effect.catchAll(read, (e) => Effect.sync(() => skip(path, e)))
        if (local === undefined) continue
        let bytes = Option.getOrUndefined(local)
        let stored = false
        const digest = heldDigest.get(path)
        if (Option.isSome(held) && digest !== undefined && (bytes === undefined || sha256Hex(bytes) !== digest)) {
          const kept = Option.filter(yield* held.value.get(digest), (b) => sha256Hex(b) === digest)
          if (Option.isSome(kept)) {
            bytes = kept.value
            stored = true
          }
        }
        if (bytes === undefined) {
          // Here only in a bound folder (a folder's missing file failed the read): held by nobody.
          if (one !== undefined) return yield* new FileNotFound({ path })
          continue
        }
        let text: string
        try {
          // A leading byte-order mark is kept: offsets count it (src/domain/Quote.ts, withoutBom).
          text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes)
        } catch {
          if (Option.isSome(given)) {
            return yield* new InvalidInput({ issues: [{ path: "path", message: "not a UTF-8 text file" }] })
          }
          skip(path, { _tag: "InvalidInput", message: `'${path}' is not a UTF-8 text file.` })
          continue
        }
        const found = follow(text, formatOfPath(path), pieces.right)
        if (found.length === 0) continue
        if (stored) fromStore = true
        const sha256 = sha256Hex(bytes)
        const reg = registry.get(path)
        const origin = reg?.origin ?? captures.get(path) ?? null
        for (const m of found) matches.push({ path, sha256, registered: reg?.sha256 === sha256, origin, ...m })
      }
      skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
      return { matches, skipped, note: fromStore ? FOLLOW_NOTE + HELD_NOTE : FOLLOW_NOTE }
    })

  // The public method checks its arguments first (src/domain/Options.ts): InvalidInput, never a defect.
  return {
    list,
    listing,
    follow: (excerpt, options) =>
      Either.match(readArgs(text(excerpt, "quote"), readOptions(options, { path: optionalText })), {
        onLeft: Effect.fail,
        onRight: ([q, o]) => followIn(q, Option.fromNullable(o.path))
      })
  } satisfies SourcesShape
})

export const SourcesLive: Layer.Layer<Sources, never, FileStore | Plan | CaptureStore> = Layer.effect(
  Sources,
  Effect.map(makeSources, spanned("Sources"))
)
