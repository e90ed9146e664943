/**
 * Sides of a transfer (src/layers/StoreTransfer.ts) for tests: a fresh one in memory, and the
 * context of any side, to run the services over it and compare their answers.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import { BaseMemory } from "../layers/Base.js"
import { CaptureStoreMemory } from "../layers/memory/CaptureStoreMemory.js"
import { ExecutionStoreMemory } from "../layers/memory/ExecutionStoreMemory.js"
import { GrantStoreMemory } from "../layers/memory/GrantStoreMemory.js"
import { JournalStoreMemory } from "../layers/memory/JournalStoreMemory.js"
import { MonitorStoreMemory } from "../layers/memory/MonitorStoreMemory.js"
import { PlanStoreMemory } from "../layers/memory/PlanStoreMemory.js"
import { type Ports, sideFrom, type StoreSide } from "../layers/StoreTransfer.js"
import { FileStore } from "../services/FileStore.js"
import { Lock } from "../services/Lock.js"
import { CaptureStore } from "../services/ports/CaptureStore.js"
import { ExecutionStore } from "../services/ports/ExecutionStore.js"
import { GrantStore } from "../services/ports/GrantStore.js"
import { JournalStore } from "../services/ports/JournalStore.js"
import { MonitorStore } from "../services/ports/MonitorStore.js"
import { PlanStore } from "../services/ports/PlanStore.js"

/** The memory adapters of every port a transfer copies (files in the FileStore given). */
const MemoryPorts: Layer.Layer<Ports, never, FileStore> = Layer.mergeAll(
  PlanStoreMemory,
  CaptureStoreMemory,
  JournalStoreMemory,
  MonitorStoreMemory,
  GrantStoreMemory,
  ExecutionStoreMemory
)

/** A fresh side in memory: the memory adapters over one in-memory tree and lock. */
export const memorySide: Effect.Effect<StoreSide, never, Scope.Scope> = sideFrom(
  MemoryPorts.pipe(Layer.provideMerge(BaseMemory))
)

/** The context of a side, to run the services over it (tests compare answers through them). */
export const contextOfSide = (side: StoreSide) =>
  Context.make(PlanStore, side.plan).pipe(
    Context.add(CaptureStore, side.captures),
    Context.add(JournalStore, side.journal),
    Context.add(MonitorStore, side.monitor),
    Context.add(GrantStore, side.grants),
    Context.add(ExecutionStore, side.executions),
    Context.add(FileStore, side.files),
    Context.add(Lock, side.lock)
  )
