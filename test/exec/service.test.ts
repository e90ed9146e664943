/**
 * The Exec service over a scripted Sandbox (no bubblewrap needed): what it decides from how a run
 * ended, and what it asks the watchdog, independent of the machine's load.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import * as path from "node:path"
import { SandboxUnavailable } from "../../src/domain/ExecErrors.js"
import { BaseLive } from "../../src/layers/Base.js"
import { ExecFolder } from "../../src/layers/ExecLayer.js"
import { GrantsFolder, GrantsLayer } from "../../src/layers/GrantsLayer.js"
import { JournalLive } from "../../src/layers/JournalLive.js"
import { WorkTreeLive } from "../../src/layers/WorkTreeLive.js"
import { Exec } from "../../src/services/Exec.js"
import { Grants } from "../../src/services/Grants.js"
import { type RunUsage, Sandbox, type SandboxOutcome } from "../../src/services/Sandbox.js"
import { put, tempWorkdir } from "../support/cli.js"

const NOW = new Date("2026-06-01T00:00:00Z")

const ended = (over: Partial<SandboxOutcome> = {}): SandboxOutcome => ({
  exitCode: 0,
  signal: null,
  killed: null,
  stopped: null,
  memory: { enforcement: "process", peakKiB: null, oomKills: 0 },
  cpuSeconds: 0.1,
  maxRssKiB: 1000,
  wallMs: 100,
  stdout: { bytes: Buffer.alloc(0), total: 0 },
  stderr: { bytes: Buffer.alloc(0), total: 0 },
  ...over
})

/** A Sandbox that runs `during`, asks the watchdog's check once with `used`, then reports `outcome`. */
const scripted = (outcome: SandboxOutcome, used: RunUsage, asked: Array<unknown>, during: Effect.Effect<void>) =>
  Layer.succeed(Sandbox, {
    probe: Effect.void,
    run: (_request, options) =>
      during.pipe(
        Effect.zipRight(options.check(used)),
        Effect.map((hit) => {
          asked.push(hit)
          return hit === null ? outcome : { ...outcome, killed: hit, exitCode: 143, signal: "SIGTERM" }
        })
      )
  })

const layerFor = (dir: string, sandbox: Layer.Layer<Sandbox>) =>
  ExecFolder.pipe(
    Layer.provideMerge(Layer.mergeAll(GrantsFolder, JournalLive)),
    Layer.provideMerge(Layer.merge(WorkTreeLive, sandbox)),
    Layer.provideMerge(BaseLive(dir))
  )

const grant = {
  id: "g1",
  task: "t",
  inputs: ["research/exp/data"],
  work: "research/exp/runs/r1",
  tools: ["read", "bash"],
  budget: { runs: 5, wallSeconds: 60, cpuSeconds: 3, memoryMiB: 64, outputMiB: 1 },
  deadline: "2030-01-01T00:00:00Z"
}

/** One run of `true` under g1; `narrowDuring` narrows g1 while it runs (from another Grants, as `dossier grant narrow` would). */
const runOnce = (outcome: SandboxOutcome, used: RunUsage, narrowDuring?: object) => {
  const dir = tempWorkdir("dossier-exec-service-")
  put(dir, "research/exp/data/a.txt", "a\n")
  const asked: Array<unknown> = []
  const during = narrowDuring === undefined
    ? Effect.void
    : Effect.flatMap(Grants, (g) => g.narrow("g1", narrowDuring, { now: NOW })).pipe(
      Effect.provide(GrantsLayer(dir)),
      Effect.orDie,
      Effect.asVoid
    )
  return Effect.gen(function*() {
    const grants = yield* Grants
    yield* grants.create(grant, { now: NOW })
    const result = yield* Effect.either((yield* Exec).run("g1", ["true"], { now: NOW }))
    const status = yield* grants.status("g1", { now: NOW })
    return { result, status, asked }
  }).pipe(Effect.provide(layerFor(dir, scripted(outcome, used, asked, during))))
}

describe("Exec over a scripted sandbox", () => {
  it.effect("a run that ended beyond its CPU limit between two checks is recorded, then BudgetExceeded", () =>
    Effect.gen(function*() {
      const { result, status } = yield* runOnce(ended({ cpuSeconds: 4.5 }), { wallSeconds: 0, cpuSeconds: 0 })
      expect(result._tag).toBe("Left")
      if (result._tag !== "Left") return
      expect(result.left).toMatchObject({ _tag: "BudgetExceeded", resource: "cpuSeconds", limit: 3, actual: 4.5 })
      // Recorded and charged: the grant has no CPU second left.
      expect(status.remaining.cpuSeconds).toBe(0)
      expect(status.state).toBe("exhausted")
    }))

  it.effect("within the CPU limit it is an ordinary run", () =>
    Effect.gen(function*() {
      const { result } = yield* runOnce(ended({ cpuSeconds: 2.9 }), { wallSeconds: 0, cpuSeconds: 0 })
      expect(result._tag).toBe("Right")
    }))

  it.effect("the watchdog's check ends a run whose CPU use reached a budget narrowed while it runs, not before", () =>
    Effect.gen(function*() {
      const below = yield* runOnce(ended(), { wallSeconds: 1, cpuSeconds: 0.5 }, { budget: { cpuSeconds: 1 } })
      expect(below.asked).toEqual([null])
      const reached = yield* runOnce(ended(), { wallSeconds: 1, cpuSeconds: 1 }, { budget: { cpuSeconds: 1 } })
      expect(reached.asked).toEqual([{ reason: "budget-narrowed", detail: "grant 'g1' was narrowed to 1 CPU seconds" }])
      expect(reached.result._tag === "Right" && reached.result.right.execution).toMatchObject({
        status: "killed",
        reason: "budget-narrowed"
      })
      const wall = yield* runOnce(ended(), { wallSeconds: 30, cpuSeconds: 0 }, { budget: { wallSeconds: 30 } })
      expect(wall.asked).toEqual([{ reason: "budget-narrowed", detail: "grant 'g1' was narrowed to 30 wall seconds" }])
    }))

  // `grant revoke` ends the sandboxes of the grants it revokes itself (it does not wait for the
  // watchdog): one it ended while the sandbox was being set up is reported by the sandbox as
  // ended before the program started.
  const notStarted = (revokeDuring: boolean) => {
    const dir = tempWorkdir("dossier-exec-service-")
    put(dir, "research/exp/data/a.txt", "a\n")
    const revoke = Effect.flatMap(Grants, (g) => g.revoke("g1", { now: NOW })).pipe(
      Effect.provide(GrantsLayer(dir)),
      Effect.orDie
    )
    const sandbox = Layer.succeed(Sandbox, {
      probe: Effect.void,
      run: () =>
        (revokeDuring ? revoke : Effect.void).pipe(
          Effect.zipRight(
            new SandboxUnavailable({
              reason: "the sandbox ended before the program started (it ended with SIGKILL); nothing ran"
            })
          )
        )
    })
    return Effect.gen(function*() {
      const grants = yield* Grants
      yield* grants.create(grant, { now: NOW })
      const result = yield* Effect.either((yield* Exec).run("g1", ["true"], { now: NOW }))
      const shown = yield* grants.show("g1", { now: NOW })
      const executions = path.join(dir, ".dossier/executions")
      const records = fs.existsSync(executions) ? fs.readdirSync(executions).filter((n) => n.endsWith(".json")) : []
      return { result, shown, records }
    }).pipe(Effect.provide(layerFor(dir, sandbox)))
  }

  it.effect("a sandbox a revocation ended before its program started: GrantInactive (revoked), nothing charged", () =>
    Effect.gen(function*() {
      const { records, result, shown } = yield* notStarted(true)
      expect(Either.isLeft(result) && result.left).toMatchObject({
        _tag: "GrantInactive",
        grantId: "g1",
        state: "revoked"
      })
      expect(records).toEqual([])
      expect(shown.remaining.runs).toBe(5)
      // Without a revocation the sandbox's own answer stands (try again).
      const other = yield* notStarted(false)
      expect(Either.isLeft(other.result) && other.result.left).toMatchObject({ _tag: "SandboxUnavailable" })
    }))
})
