/**
 * Sources over the FileStore, the Plan and the CaptureStore: the files under research/sources/
 * (retained captures and files the agent put there), and follow (origins from the capture log).
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { sha256Hex } from "../domain/Canonical.js"
import { InvalidInput } from "../domain/Errors.js"
import { optionalText, readArgs, readOptions, text } from "../domain/Options.js"
import { normalizeInArea } from "../domain/Paths.js"
import { SOURCES_AREA } from "../domain/Plan.js"
import { formatOfPath } from "../domain/Quote.js"
import { excerptPieces, follow } from "../domain/SourceFollow.js"
import { FileStore } from "../services/FileStore.js"
import { Plan } from "../services/Plan.js"
import { CaptureStore } from "../services/ports/CaptureStore.js"
import { type FollowedMatch, MAX_LISTED_SOURCES, Sources, type SourcesShape } from "../services/Sources.js"
import { spanned } from "./Spans.js"

/** Files searched without --path: readable copies and text originals (not HTML originals, not WARC). */
const SKIPPED_WITHOUT_PATH = /\.(?:html?|xhtml|warc|gz|bin)$/i

const MAX_FOLLOW_BYTES = 16 * 1024 * 1024

export const FOLLOW_NOTE =
  "Offsets are code points of the file's text (end exclusive); paragraph and section are what a reader sees. registered: the file's current bytes are the ones the plan registered (continuity, not truth)."

export const makeSources = Effect.gen(function*() {
  const store = yield* FileStore
  const plan = yield* Plan
  const captureStore = yield* CaptureStore

  const list: SourcesShape["list"] = Effect.suspend(() => {
    const out: Array<string> = []
    const walk = (dir: string): Effect.Effect<void, Effect.Effect.Error<ReturnType<typeof store.list>>> =>
      Effect.flatMap(store.list(dir), (entries) =>
        Effect.forEach(entries, (e) => {
          if (out.length >= MAX_LISTED_SOURCES) return Effect.void
          const path = `${dir}/${e.name}`
          if (e.kind === "file") return Effect.sync(() => void out.push(path))
          return e.kind === "directory" ? walk(path) : Effect.void
        }, { discard: true }))
    return Effect.map(walk(SOURCES_AREA), () => out.sort())
  })

  const followIn = (excerpt: string, given: Option.Option<string>) =>
    Effect.gen(function*() {
      const pieces = excerptPieces(excerpt)
      if (Either.isLeft(pieces)) return yield* new InvalidInput({ issues: [{ path: "quote", message: pieces.left }] })
      const paths: ReadonlyArray<string> = Option.isSome(given)
        ? [
          yield* Either.match(normalizeInArea(given.value, SOURCES_AREA), {
            onLeft: Effect.fail,
            onRight: Effect.succeed
          })
        ]
        : (yield* list).filter((p) => !SKIPPED_WITHOUT_PATH.test(p))
      const doc = yield* plan.read
      const registry = new Map(
        Option.match(doc, { onNone: () => [], onSome: (d) => d.sources }).map((s) => [s.path, s] as const)
      )
      const captures = new Map((yield* captureStore.records).map((c) => [c.path, c.origin] as const))
      const matches: Array<FollowedMatch> = []
      for (const path of paths) {
        const read = store.read(path, { maxBytes: MAX_FOLLOW_BYTES })
        // Without --path a file that went away or cannot be read is not searched.
        const bytes: Uint8Array | undefined = Option.isSome(given)
          ? yield* read
          : yield* Effect.catchAll(read, () => Effect.succeed(undefined))
        if (bytes === undefined) continue
        let text: string
        try {
          text = new TextDecoder("utf-8", { fatal: true }).decode(bytes)
        } catch {
          if (Option.isSome(given)) {
            return yield* new InvalidInput({ issues: [{ path: "path", message: "not a UTF-8 text file" }] })
          }
          continue
        }
        const found = follow(text, formatOfPath(path), pieces.right)
        if (found.length === 0) continue
        const sha256 = sha256Hex(bytes)
        const reg = registry.get(path)
        const origin = reg?.origin ?? captures.get(path) ?? null
        for (const m of found) matches.push({ path, sha256, registered: reg?.sha256 === sha256, origin, ...m })
      }
      return { matches, note: FOLLOW_NOTE }
    })

  // The public method checks its arguments first (src/domain/Options.ts): InvalidInput, never a defect.
  return {
    list,
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
