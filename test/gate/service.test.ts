import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { CUT_MARKER, limitComments } from "../../src/domain/Gate.js"
import { StaleStateFile } from "../../src/domain/GateErrors.js"
import { StoreUnavailable } from "../../src/domain/StoreErrors.js"
import { FileStoreLive } from "../../src/layers/FileStoreLive.js"
import { FileStoreMemory } from "../../src/layers/FileStoreMemory.js"
import { GateAttemptsFolder } from "../../src/layers/folder/GateAttemptsFolder.js"
import { PlanFolder } from "../../src/layers/folder/PlanStoreFolder.js"
import { GateFromStore, GateLive } from "../../src/layers/GateLive.js"
import { GateMemory } from "../../src/layers/GateMemory.js"
import { LockMemory, makeLockMemory } from "../../src/layers/LockMemory.js"
import { FileStore } from "../../src/services/FileStore.js"
import { Gate, type GateRunOptions } from "../../src/services/Gate.js"
import { Lock } from "../../src/services/Lock.js"
import { Plan } from "../../src/services/Plan.js"
import { CaptureStore } from "../../src/services/ports/CaptureStore.js"
import { Workdir } from "../../src/services/Workdir.js"
import { put, tempWorkdir } from "../support/cli.js"
import { closingGapA } from "./support.js"

const sha = (s: string | Buffer) => createHash("sha256").update(s).digest("hex")

const DESCRIPTION = "Customers need a CSV export of every invoice line item with its VAT rate and currency code."

const setup = () => {
  const dir = tempWorkdir("dossier-gate-svc-")
  const state = {
    item: "PROJ-12",
    autopilot: true,
    status: "parked",
    waitingFor: "maturity",
    maturity: { score: 40, threshold: 70, blockers: [{ id: "description_empty", category: "description" }] },
    owner: "runner"
  }
  const stateText = `${JSON.stringify(state, null, 2)}\n`
  put(dir, "run/state.json", stateText)
  put(
    dir,
    "run/descriptor.json",
    JSON.stringify({ item: "PROJ-12", description: DESCRIPTION, comments: [], links: [] })
  )
  put(
    dir,
    "research/gate/research.json",
    JSON.stringify({
      item: "PROJ-12",
      kind: "maturity",
      gaps: [
        {
          id: "description_empty",
          category: "description",
          status: "closed",
          answer: "A CSV export of invoice line items.",
          sources: [{
            label: "item",
            ref: "descriptor:description",
            quote: "every invoice line item with its VAT rate"
          }]
        }
      ]
    })
  )
  return { dir, stateText }
}

const options = (now: Date): GateRunOptions => ({
  researchDir: "research/gate",
  descriptor: "run/descriptor.json",
  attempts: ".dossier/gate/attempted.jsonl",
  recordAttempt: true,
  maxAskRounds: 2,
  unattended: false,
  now
})

/** A Lock that lets a "concurrent writer" replace the state file just before the gate gets the lock. */
const interferingLock = (file: string, content: string) =>
  Layer.effect(
    Lock,
    Effect.map(makeLockMemory, (inner) => ({
      ...inner,
      withLock: <A, E, R>(self: Effect.Effect<A, E, R>) =>
        Effect.zipRight(Effect.sync(() => fs.writeFileSync(file, content)), inner.withLock(self))
    }))
  )

const gateLayer = (dir: string, lock: Layer.Layer<Lock>) =>
  GateLive.pipe(
    Layer.provide(PlanFolder),
    Layer.provide(lock),
    Layer.provide(FileStoreLive),
    Layer.provide(Workdir.live(dir)),
    Layer.orDie
  )

/** A run waiting on maturity (score 20 of 70) with two scope blockers, `a` and `b`. */
const TWO_SCOPE_BLOCKERS = {
  item: "PROJ-12",
  autopilot: true,
  waitingFor: "maturity",
  maturity: { score: 20, threshold: 70, blockers: [{ id: "a", category: "scope" }, { id: "b", category: "scope" }] }
}

describe("Gate service", () => {
  it.effect("StaleRevision when the state file changed between read and write; the other writer's change is kept", () => {
    const { dir, stateText } = setup()
    const file = path.join(dir, "run/state.json")
    const concurrent = `${JSON.stringify({ ...JSON.parse(stateText), status: "cancelled-by-other-writer" }, null, 2)}\n`
    return Effect.gen(function*() {
      const gate = yield* Gate
      const error = yield* Effect.flip(gate.run("run/state.json", options(new Date("2026-11-30T10:00:00Z"))))
      expect(error._tag).toBe("StaleRevision")
      expect(error).toBeInstanceOf(StaleStateFile)
      if (error._tag === "StaleRevision") {
        // The type says which revision kind: the gate's are digests (strings), never numbers.
        const expected: string = error.expected
        const actual: string | null = error.actual
        expect(expected).toBe(sha(stateText))
        expect(actual).toBe(sha(concurrent))
      }
      expect(fs.readFileSync(file, "utf8")).toBe(concurrent)
      // nothing else was written under the lock either
      expect(fs.existsSync(path.join(dir, ".dossier/gate/attempted.jsonl"))).toBe(false)
    }).pipe(Effect.provide(gateLayer(dir, interferingLock(file, concurrent))))
  })

  it.effect("without interference the same call proceeds and writes the state once", () => {
    const { dir } = setup()
    return Effect.gen(function*() {
      const gate = yield* Gate
      const r = yield* gate.run("run/state.json", options(new Date("2026-11-30T10:00:00Z")))
      expect(r.active && r.decision).toBe("proceed")
      const written = JSON.parse(fs.readFileSync(path.join(dir, "run/state.json"), "utf8"))
      expect(written.owner).toBe("runner")
      expect(written.research.closed).toEqual(["description_empty"])
      expect(fs.readFileSync(path.join(dir, ".dossier/gate/attempted.jsonl"), "utf8")).toBe(
        `${
          JSON.stringify({ item: "PROJ-12", at: "2026-11-30T10:00:00.000Z", researchRounds: 1, decision: "proceed" })
        }\n`
      )
    }).pipe(Effect.provide(gateLayer(dir, Layer.effect(Lock, makeLockMemory))))
  })

  it.effect("runs on the in-memory layers: a registered source edited after registration backs nothing", () =>
    Effect.gen(function*() {
      const store = yield* FileStore
      const plan = yield* Plan
      const gate = yield* Gate
      const now = new Date("2026-11-30T10:00:00Z")
      yield* store.writeAtomic("research/sources/a.md", `Notes. ${DESCRIPTION}\n`)
      yield* store.writeAtomic("research/sources/b.md", `Other notes. ${DESCRIPTION}\n`)
      yield* plan.start({ goal: "g", limits: [], nextAction: "n" }, { replaceGoal: false, expected: undefined, now })
      yield* plan.checkpoint(
        {
          sources: [{ path: "research/sources/a.md", origin: "https://example.org/o" }, {
            path: "research/sources/b.md",
            origin: "https://example.org/o"
          }]
        },
        { expected: 1, now }
      )
      yield* store.writeAtomic("research/sources/b.md", `Edited. ${DESCRIPTION}\n`)
      yield* store.writeAtomic("run/state.json", JSON.stringify(TWO_SCOPE_BLOCKERS))
      const quote = "every invoice line item with its VAT rate"
      yield* store.writeAtomic(
        "research/gate/research.json",
        JSON.stringify({
          item: "PROJ-12",
          kind: "maturity",
          gaps: [
            { id: "a", status: "closed", answer: "x", sources: [{ ref: "research/sources/a.md", quote }] },
            { id: "b", status: "closed", answer: "x", sources: [{ ref: "research/sources/b.md", quote }] }
          ]
        })
      )
      const r = yield* gate.run("run/state.json", { ...options(now), descriptor: undefined, recordAttempt: false })
      expect(r.active).toBe(true)
      if (!r.active) return
      expect(r.decision).toBe("ask")
      expect(r.research.closed).toEqual(["a"])
      expect(r.research.candidates[0]!.sources[0]).toMatchObject({ verified: false, reason: "source-changed" })
      expect(r.research.maturityAfter?.score).toBe(60)
      const written = JSON.parse(yield* store.readText("run/state.json"))
      expect(written.pendingQuestion.rows).toEqual([{ id: "b", category: "scope" }])
    }).pipe(Effect.provide(GateMemory)))

  it.effect("a quote reaching into the marker of a cut comment does not verify; the kept words still do", () =>
    Effect.gen(function*() {
      const store = yield* FileStore
      const gate = yield* Gate
      const now = new Date("2026-11-30T10:00:00Z")
      // One comment over the 1500-character limit: kept cut, ending with the marker dossier adds.
      const long = `The totals are rounded half-up to two decimals. ${"More detail follows here. ".repeat(80)}`
      const limited = limitComments([{ id: "c1", text: long }])
      const kept = limited.comments[0]!.text
      expect(limited.truncated).toEqual(["c1"])
      expect(kept.endsWith(CUT_MARKER)).toBe(true)
      // The last character the commenter wrote and the 19 of the marker: 20 characters, one of them quoted.
      const intoMarker = kept.slice(-CUT_MARKER.length - 1)
      expect([...intoMarker].length).toBe(20)
      yield* store.writeAtomic("run/state.json", JSON.stringify(TWO_SCOPE_BLOCKERS))
      yield* store.writeAtomic(
        "run/descriptor.json",
        JSON.stringify({ item: "PROJ-12", description: DESCRIPTION, comments: [{ id: "c1", text: long }], links: [] })
      )
      const ref = "descriptor:comment:c1"
      yield* store.writeAtomic(
        "research/gate/research.json",
        JSON.stringify({
          item: "PROJ-12",
          kind: "maturity",
          gaps: [
            { id: "a", status: "closed", answer: "x", sources: [{ ref, quote: intoMarker }] },
            { id: "b", status: "closed", answer: "x", sources: [{ ref, quote: "rounded half-up to two decimals" }] }
          ]
        })
      )
      const r = yield* gate.run("run/state.json", { ...options(now), recordAttempt: false })
      if (!r.active) throw new Error("the gate is active")
      expect(r.research.closed).toEqual(["b"])
      expect(r.research.candidates.map((c) => [c.id, c.sources[0]?.reason])).toEqual([["a", "quote-not-found"]])
    }).pipe(Effect.provide(GateMemory)))

  it.effect("a capture log the store cannot answer for is StoreUnavailable, never a quietly lost capture origin", () => {
    // A shared dossier's capture log whose server went away between the plan's read and the log's.
    const unreachable = Layer.succeed(CaptureStore, {
      record: () => Effect.fail(new StoreUnavailable({ reason: "connection refused" })),
      records: Effect.fail(new StoreUnavailable({ reason: "connection refused" })),
      readImport: () => Effect.fail(new StoreUnavailable({ reason: "connection refused" }))
    })
    const layer = GateFromStore.pipe(
      Layer.provideMerge(Layer.mergeAll(GateAttemptsFolder, PlanFolder, unreachable)),
      Layer.provideMerge(Layer.merge(FileStoreMemory, LockMemory))
    )
    return Effect.gen(function*() {
      const store = yield* FileStore
      const plan = yield* Plan
      const gate = yield* Gate
      const now = new Date("2026-11-30T10:00:00Z")
      yield* store.writeAtomic("research/sources/a.md", `Notes. ${DESCRIPTION}\n`)
      yield* plan.start({ goal: "g", limits: [], nextAction: "n" }, { replaceGoal: false, expected: undefined, now })
      yield* plan.checkpoint({ sources: [{ path: "research/sources/a.md", origin: "https://example.org/o" }] }, {
        expected: 1,
        now
      })
      const state = JSON.stringify({
        item: "PROJ-12",
        autopilot: true,
        waitingFor: "maturity",
        maturity: { score: 20, threshold: 70, blockers: [{ id: "a", category: "scope" }] }
      })
      yield* store.writeAtomic("run/state.json", state)
      yield* store.writeAtomic(
        "research/gate/research.json",
        JSON.stringify(
          closingGapA([{ ref: "research/sources/a.md", quote: "every invoice line item with its VAT rate" }])
        )
      )
      const error = yield* Effect.flip(gate.run("run/state.json", { ...options(now), descriptor: undefined }))
      expect(error).toMatchObject({ _tag: "StoreUnavailable", reason: "connection refused" })
      expect(yield* store.readText("run/state.json")).toBe(state)
      expect(Option.isNone(yield* store.stat(".dossier/gate/attempted.jsonl"))).toBe(true)
    }).pipe(Effect.provide(layer))
  })
})
