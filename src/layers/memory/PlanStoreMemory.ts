/**
 * PlanStore in memory: the plan record and any prose in a Ref (nothing is rendered or parsed).
 * The registered files are the work folder's, measured through the FileStore it is given
 * (FileStoreMemory in `PlanMemory`), as the folder adapter measures them.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import { StaleRevision } from "../../domain/Errors.js"
import { FileStore } from "../../services/FileStore.js"
import { PLAN_KEY, type PlanRecord, PlanStore, type PlanStoreShape } from "../../services/ports/PlanStore.js"
import type { Versioned } from "../../services/Store.js"
import { measureRegistered } from "../folder/PlanStoreFolder.js"

interface State {
  readonly record: Option.Option<Versioned<PlanRecord>>
  readonly prose: string
}

/** A memory PlanStore; `prose` is text kept before any plan (as a hand-written plan.md would be). */
export const makePlanStoreMemory = (options: { readonly prose?: string } = {}) =>
  Effect.gen(function*() {
    const store = yield* FileStore
    const state = yield* Ref.make<State>({ record: Option.none(), prose: options.prose ?? "" })
    const measure = measureRegistered(store)
    const shape: PlanStoreShape = {
      plan: {
        get: () => Effect.map(Ref.get(state), (s) => s.record),
        put: (_key, value, expected) =>
          Effect.flatten(Ref.modify(state, (s): [Effect.Effect<number, StaleRevision>, State] => {
            const actual = Option.match(s.record, { onNone: () => 0, onSome: (r) => r.revision })
            if (actual !== (expected ?? 0)) {
              return [Effect.fail(new StaleRevision({ expected: expected ?? 0, actual })), s]
            }
            const revision = value.document.revision
            if (revision !== actual + 1) {
              return [Effect.dieMessage(`PlanStore.put: revision ${revision} after ${actual}`), s]
            }
            return [Effect.succeed(revision), { record: Option.some({ revision, value }), prose: "" }]
          })),
        keys: Effect.map(Ref.get(state), (s) => (Option.isSome(s.record) ? [PLAN_KEY] : []))
      },
      prose: Effect.map(Ref.get(state), (s) => (Option.isSome(s.record) ? "" : s.prose)),
      register: measure,
      observe: measure,
      restore: (held, expected) =>
        Effect.flatten(Ref.modify(state, (s): [Effect.Effect<void, StaleRevision>, State] => {
          const actual = Option.match(s.record, { onNone: () => 0, onSome: (r) => r.revision })
          if (actual !== (expected ?? 0)) {
            return [Effect.fail(new StaleRevision({ expected: expected ?? 0, actual })), s]
          }
          return Option.isSome(held.record)
            ? [Effect.void, { record: held.record, prose: "" }]
            : [Effect.void, held.prose === "" ? s : { record: s.record, prose: held.prose }]
        }))
    }
    return shape
  })

/** PlanStore in memory (a fresh record for each build), measuring files through the FileStore. */
export const PlanStoreMemory: Layer.Layer<PlanStore, never, FileStore> = Layer.effect(PlanStore, makePlanStoreMemory())
