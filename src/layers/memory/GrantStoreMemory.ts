/**
 * GrantStore in memory (src/services/ports/GrantStore.ts): the records and their events in a Ref.
 * Nothing is serialized: what is stored is answered as given (a memory store has no damaged record).
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import { isDeepStrictEqual } from "node:util"
import { StaleRevision } from "../../domain/Errors.js"
import { ConflictingGrant } from "../../domain/ExecErrors.js"
import type { GrantEvent, StoredGrant } from "../../domain/Grant.js"
import { GrantStore, type GrantStoreShape } from "../../services/ports/GrantStore.js"

interface State {
  readonly grants: ReadonlyMap<string, StoredGrant>
  readonly events: ReadonlyMap<string, ReadonlyArray<GrantEvent>>
}

/** A fresh, empty memory GrantStore (it never fails: no storage error). */
export const makeGrantStoreMemory: Effect.Effect<GrantStoreShape<never>> = Effect.map(
  Ref.make<State>({ grants: new Map(), events: new Map() }),
  (state): GrantStoreShape<never> => ({
    get: (id) => Effect.map(Ref.get(state), (s) => Option.fromNullable(s.grants.get(id))),
    create: (grant) =>
      Effect.flatten(Ref.modify(state, (s): [Effect.Effect<boolean, ConflictingGrant>, State] => {
        const there = s.grants.get(grant.id)
        if (there === undefined) {
          return [Effect.succeed(true), { ...s, grants: new Map(s.grants).set(grant.id, grant) }]
        }
        return isDeepStrictEqual(there, grant)
          ? [Effect.succeed(false), s]
          : [Effect.fail(new ConflictingGrant({ grantId: grant.id })), s]
      })),
    ids: Effect.map(Ref.get(state), (s) => [...s.grants.keys()].sort()),
    events: (id) =>
      Effect.map(Ref.get(state), (s) => {
        const value = s.events.get(id) ?? []
        return { revision: value.length, value }
      }),
    appendEvent: (id, event, expected) =>
      Effect.flatten(Ref.modify(state, (s): [Effect.Effect<number, StaleRevision>, State] => {
        const stored = s.events.get(id) ?? []
        if (stored.length !== expected) {
          return [Effect.fail(new StaleRevision({ expected, actual: stored.length })), s]
        }
        return [
          Effect.succeed(expected + 1),
          { ...s, events: new Map(s.events).set(id, [...stored, event]) }
        ]
      }))
  })
)

/** GrantStore in memory (a fresh store for each build). */
export const GrantStoreMemory: Layer.Layer<GrantStore> = Layer.effect(GrantStore, makeGrantStoreMemory)
