/**
 * A look before the lock that gets no answer from the store (`StoreUnavailable`, or `LockTimeout`
 * after waiting its whole bound for another writer) is the command's answer: `plan checkpoint`, a
 * goal replacement and the monitor's commands on a subscription or a run do not go on to wait the
 * same bound again under the lock (a shared store's checkpoint behind another session's lock
 * answered after twice the lock wait). In memory: stores whose reads fail, counted.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import { LockTimeout } from "../../src/domain/Errors.js"
import { StoreUnavailable } from "../../src/domain/StoreErrors.js"
import { BaseMemory } from "../../src/layers/Base.js"
import { makeMonitorFilesFolder } from "../../src/layers/folder/MonitorStoreFolder.js"
import { makeMonitorStoreMemory } from "../../src/layers/memory/MonitorStoreMemory.js"
import { makePlanStoreMemory } from "../../src/layers/memory/PlanStoreMemory.js"
import { MonitorFromStore } from "../../src/layers/MonitorLive.js"
import { PlanLive } from "../../src/layers/PlanLive.js"
import { FileStore } from "../../src/services/FileStore.js"
import { Monitor } from "../../src/services/Monitor.js"
import { Plan } from "../../src/services/Plan.js"
import { MonitorFiles, MonitorStore } from "../../src/services/ports/MonitorStore.js"
import { PlanStore } from "../../src/services/ports/PlanStore.js"

/** The plan's services over a store whose every read of the plan fails with `error`; `reads` counts them. */
const unanswering = (error: () => StoreUnavailable | LockTimeout, reads: Ref.Ref<number>) =>
  PlanLive.pipe(
    Layer.provide(Layer.effect(
      PlanStore,
      Effect.map(makePlanStoreMemory(), (store) => ({
        ...store,
        plan: { ...store.plan, get: () => Effect.zipRight(Ref.update(reads, (n) => n + 1), Effect.fail(error())) }
      }))
    )),
    Layer.provideMerge(BaseMemory)
  )

/** The monitor's services over a store whose every read of a subscription or run fails with `error`. */
const unansweringMonitor = (error: () => StoreUnavailable | LockTimeout, reads: Ref.Ref<number>) => {
  const fail = () => Effect.zipRight(Ref.update(reads, (n) => n + 1), Effect.fail(error()))
  return MonitorFromStore.pipe(
    Layer.provide(Layer.effect(
      MonitorStore,
      Effect.map(makeMonitorStoreMemory, (store) => ({
        ...store,
        subscriptions: { ...store.subscriptions, get: fail },
        runs: { ...store.runs, get: fail }
      }))
    )),
    Layer.provide(Layer.effect(MonitorFiles, Effect.map(FileStore, makeMonitorFilesFolder))),
    Layer.provideMerge(BaseMemory)
  )
}

const NOW = new Date("2026-12-08T10:00:00.000Z")

describe("a look before the lock that gets no answer", () => {
  for (
    const error of [
      () => new StoreUnavailable({ reason: "the connection to the server was lost" }),
      () => new LockTimeout({ waitedMs: 10_000 })
    ]
  ) {
    it.effect(`${error()._tag}: plan and monitor commands answer it, asking the store once`, () =>
      Effect.gen(function*() {
        const reads = yield* Ref.make(0)
        const layer = unanswering(error, reads)
        const checkpoint = yield* Effect.flip(Effect.provide(
          Effect.flatMap(
            Plan,
            (p) =>
              p.checkpoint({ completedSteps: [{ id: "s1", summary: "x" }], nextAction: "n" }, { expected: 1, now: NOW })
          ),
          layer
        ))
        expect({ ...checkpoint, tag: checkpoint._tag }).toEqual({ ...error(), tag: error()._tag })
        expect(yield* Ref.get(reads)).toBe(1)
        const replaced = yield* Effect.flip(Effect.provide(
          Effect.flatMap(
            Plan,
            (p) => p.start({ goal: "G2", limits: [], nextAction: "n" }, { replaceGoal: true, expected: 1, now: NOW })
          ),
          layer
        ))
        expect({ ...replaced, tag: replaced._tag }).toEqual({ ...error(), tag: error()._tag })
        expect(yield* Ref.get(reads)).toBe(2)

        const monitorReads = yield* Ref.make(0)
        const monitor = unansweringMonitor(error, monitorReads)
        const status = yield* Effect.flip(Effect.provide(
          Effect.flatMap(
            Monitor,
            (m) =>
              m.setSubscriptionStatus({ subscriptionId: "weekly", expectedRevision: 1, status: "paused" }, { now: NOW })
          ),
          monitor
        ))
        expect({ ...status, tag: status._tag }).toEqual({ ...error(), tag: error()._tag })
        expect(yield* Ref.get(monitorReads)).toBe(1)
        const transition = yield* Effect.flip(Effect.provide(
          Effect.flatMap(
            Monitor,
            (m) => m.transitionRun({ runId: "weekly.w1", expectedRevision: 1, to: "running" }, { now: NOW })
          ),
          monitor
        ))
        expect({ ...transition, tag: transition._tag }).toEqual({ ...error(), tag: error()._tag })
        // The run looked up before the lock, failing: its subscription is not asked, nor the lock taken.
        expect(yield* Ref.get(monitorReads)).toBe(2)
      }))
  }
})
