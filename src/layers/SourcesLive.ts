/** Sources over the FileStore: the retained files under research/sources/. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { SOURCES_AREA } from "../domain/Plan.js"
import { FileStore } from "../services/FileStore.js"
import { MAX_LISTED_SOURCES, Sources, type SourcesShape } from "../services/Sources.js"

export const makeSources = Effect.gen(function*() {
  const store = yield* FileStore

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

  return { list } satisfies SourcesShape
})

export const SourcesLive: Layer.Layer<Sources, never, FileStore> = Layer.effect(Sources, makeSources)
