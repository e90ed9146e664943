/**
 * PlanStore in the work folder: the plan is plan.md (the user's prose around one marked JSON
 * section, src/domain/PlanMarkdown.ts), written whole and atomically, byte for byte as rendered;
 * the registered files are measured where they are, by streaming hashes.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { StaleRevision } from "../../domain/Errors.js"
import { isUnder } from "../../domain/Paths.js"
import { PLAN_FILE, PLAN_LIMITS, PLAN_MD_MAX_BYTES, SOURCES_AREA } from "../../domain/Plan.js"
import { heldPlanBytes, type ParsedPlanMd, parsePlanBytes, renderPlanBytes } from "../../domain/PlanMarkdown.js"
import { FileStore, type FileStoreShape } from "../../services/FileStore.js"
import type { Lock } from "../../services/Lock.js"
import type { Plan } from "../../services/Plan.js"
import { PLAN_KEY, PlanStore, type PlanStoreError, type PlanStoreShape } from "../../services/ports/PlanStore.js"
import { PlanLive } from "../PlanLive.js"

/**
 * A file the plan names, measured where it is (both adapters: the registered files are the work
 * folder's). A source must not be hard-linked: its second name may be outside the folder.
 */
export const measureRegistered = (store: FileStoreShape) => (path: string) =>
  store.hash(path, { requireSingleLink: isUnder(path, SOURCES_AREA), maxBytes: PLAN_LIMITS.fileBytes })

export const makePlanStoreFolder = Effect.map(FileStore, (store): PlanStoreShape => {
  /** plan.md parsed; no plan.md reads as an empty one. */
  const parsed: Effect.Effect<ParsedPlanMd, PlanStoreError> = store.read(PLAN_FILE, { maxBytes: PLAN_MD_MAX_BYTES })
    .pipe(
      Effect.catchTag("FileNotFound", () => Effect.succeed(new Uint8Array(0))),
      Effect.flatMap((bytes) => Either.match(parsePlanBytes(bytes), { onLeft: Effect.fail, onRight: Effect.succeed }))
    )
  const revisionOf = (p: ParsedPlanMd) => (p._tag === "Section" ? p.document.revision : 0)
  const measure = measureRegistered(store)
  return {
    plan: {
      get: () =>
        Effect.map(parsed, (p) =>
          p._tag === "Section"
            ? Option.some({
              revision: p.document.revision,
              value: { document: p.document, before: p.before, after: p.after }
            })
            : Option.none()),
      put: (_key, value, expected) =>
        Effect.gen(function*() {
          const actual = revisionOf(yield* parsed)
          if (actual !== (expected ?? 0)) return yield* new StaleRevision({ expected: expected ?? 0, actual })
          if (value.document.revision !== actual + 1) {
            return yield* Effect.dieMessage(`PlanStore.put: revision ${value.document.revision} after ${actual}`)
          }
          yield* store.writeAtomic(PLAN_FILE, renderPlanBytes(value.before, value.document, value.after))
          return value.document.revision
        }),
      keys: Effect.map(parsed, (p) => (p._tag === "Section" ? [PLAN_KEY] : []))
    },
    prose: Effect.map(parsed, (p) => (p._tag === "NoSection" ? p.text : "")),
    register: measure,
    observe: measure,
    restore: (held, expected) =>
      Effect.gen(function*() {
        const actual = revisionOf(yield* parsed)
        if (actual !== (expected ?? 0)) return yield* new StaleRevision({ expected: expected ?? 0, actual })
        const bytes = heldPlanBytes(Option.getOrNull(Option.map(held.record, (r) => r.value)), held.prose)
        if (bytes !== null) yield* store.writeAtomic(PLAN_FILE, bytes)
      })
  }
})

/** PlanStore over the work folder's FileStore: plan.md. */
export const PlanStoreFolder: Layer.Layer<PlanStore, never, FileStore> = Layer.effect(PlanStore, makePlanStoreFolder)

/** Plan over the work folder: the plan's logic over `PlanStoreFolder` (needs FileStore and Lock). */
export const PlanFolder: Layer.Layer<Plan, never, FileStore | Lock> = PlanLive.pipe(Layer.provide(PlanStoreFolder))
