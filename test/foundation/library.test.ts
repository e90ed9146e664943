/**
 * The built library (dist/lib) is usable from another Effect program, through `import` and
 * `require`: namespaces by area, whole-app layers, nothing internal.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import * as surface from "../../src/index.js"
import { dossierOver, Files, Gate, Ingest, Journal, Monitor, Plan } from "../../src/index.js"
import { putInput, runCli, tempWorkdir } from "../support/cli.js"

const dist = path.resolve(__dirname, "../../dist/lib")

describe("library", () => {
  it.live("import: one namespace per area and DossierLive; an embedding program reads a plan the CLI wrote", () =>
    Effect.gen(function*() {
      const lib: any = yield* Effect.promise(() => import(path.join(dist, "index.mjs")))
      expect(Object.keys(lib).sort()).toEqual([
        "DossierLive",
        "DossierMemory",
        "Errors",
        "Exec",
        "Files",
        "Gate",
        "Ingest",
        "Journal",
        "Monitor",
        "Plan",
        "dossierOver"
      ])
      for (
        const [area, names] of Object.entries({
          Plan: ["Plan", "PlanLive", "PlanMemory", "PlanStartInput", "CorruptPlan"],
          Journal: ["Journal", "JournalLive", "JournalMemory", "JournalEvent"],
          Monitor: ["Monitor", "MonitorLive", "MonitorMemory", "SubscriptionInput", "Scope"],
          Gate: ["Gate", "GateLive", "GateMemory", "Decision", "Finding"],
          Ingest: ["Ingest", "IngestLive", "SafeHttp", "SafeHttpLive", "SafeHttpTest"],
          Files: [
            "FileStore",
            "FileStoreLive",
            "FileStoreMemory",
            "Lock",
            "LockLive",
            "LockMemory",
            "Workdir",
            "BaseLive",
            "BaseMemory"
          ],
          // UsageError: what DossierPostgres (dossier/postgres) answers for a malformed URL or name.
          Errors: ["InvalidInput", "StaleRevision", "LockTimeout", "retryable", "AllErrors", "UsageError"]
        })
      ) {
        for (const name of names) expect(lib[area][name], `${area}.${name}`).toBeDefined()
      }
      // The monitor's earlier names stay as deprecated aliases of the same values.
      expect(lib.Monitor.Scheduler).toBe(lib.Monitor.Monitor)
      expect(lib.Monitor.SchedulerLive).toBe(lib.Monitor.MonitorLive)
      expect(lib.Monitor.SchedulerMemory).toBe(lib.Monitor.MonitorMemory)
      // Internals and test oracles are not exported under any name.
      const all = Object.values(lib).flatMap((v: any) => (typeof v === "object" && v !== null ? Object.keys(v) : []))
      for (
        const internal of [
          "makeTransactions",
          "MonitorIntent",
          "INTENT_FILE",
          "canonicalJsonReference",
          "htmlToMarkdownTree",
          "firstWindowAfterP",
          "eventProblem",
          "Defect"
        ]
      ) {
        expect(all, internal).not.toContain(internal)
      }
      expect(lib.Errors.retryable("LockTimeout")).toBe(true)
      expect(lib.Errors.retryable(new lib.Errors.StaleRevision({ expected: 1, actual: 2 }))).toBe(false)
      // From plain JavaScript, anything that is not one of dossier's errors: not retryable, no hint
      // (before, each threw a TypeError, and "constructor" answered the Object function's fields).
      for (const other of [undefined, null, "Nope", "constructor", "toString", new Error("x"), { _tag: "Other" }, 5]) {
        expect(lib.Errors.retryable(other), String(other)).toBe(false)
        expect(lib.Errors.hint(other), String(other)).toBe("")
      }
      expect(lib.Errors.hint("LockTimeout")).not.toBe("")
      // Every error class a method or layer can fail with is exported by its name, so that a
      // program can test `instanceof` or build one (DossierLive's WorkdirNotFound, the Monitor's
      // RecoveryNeeded were missing).
      for (const error of lib.Errors.AllErrors) {
        expect(lib.Errors[error.name], error.name).toBe(error)
      }

      const dir = tempWorkdir()
      const input = putInput(dir, "s.json", { goal: "embedded", limits: [], nextAction: "n" })
      expect(runCli(["plan", "start", "--workdir", dir, "--input", input, "--json"]).code).toBe(0)
      const view: any = yield* (Effect.flatMap(lib.Plan.Plan, (p: any) =>
        p.inspect).pipe(Effect.provide(lib.DossierLive(dir))) as Effect.Effect<any>)
      expect(view.state).toBe("active")
      expect(view.goal).toBe("embedded")
      // A refusal arrives as a tagged error in the typed channel.
      const stale: any = yield* Effect.flip(
        Effect.flatMap(lib.Plan.Plan, (p: any) =>
          p.checkpoint({}, { expected: 9 })).pipe(Effect.provide(lib.DossierLive(dir))) as Effect.Effect<any, any>
      )
      expect(stale._tag).toBe("StaleRevision")
      expect(Option.isOption(Option.none())).toBe(true)
    }))

  it.live("require: the CommonJS build has the same surface and runs over DossierMemory", () =>
    Effect.gen(function*() {
      const lib = createRequire(__filename)(path.join(dist, "cjs/index.js"))
      expect(Object.keys(lib).sort()).toEqual([
        "DossierLive",
        "DossierMemory",
        "Errors",
        "Exec",
        "Files",
        "Gate",
        "Ingest",
        "Journal",
        "Monitor",
        "Plan",
        "dossierOver"
      ])
      for (const error of lib.Errors.AllErrors) expect(lib.Errors[error.name], error.name).toBe(error)
      const testing = createRequire(__filename)(path.join(dist, "cjs/testing.js"))
      expect(Object.keys(testing.FileStoreConformance)).toContain("check")
      const flow = Effect.flatMap(lib.Journal.Journal as Effect.Effect<any>, (j) =>
        (j.append("s", { id: "c1", type: "candidate_created", candidate: { id: "a", title: "t" } }) as Effect.Effect<
          unknown
        >).pipe(
          Effect.zipRight(j.inspect("s") as Effect.Effect<any>)
        ))
      const result = yield* Effect.provide(flow, lib.DossierMemory as Layer.Layer<never>)
      expect(result.candidates.map((c: any) =>
        c.id
      )).toEqual(["a"])
    }))

  it(
    "importing either build loads no HTML parser, SQLite, HTTP client or CLI package (a flow over DossierMemory runs too)",
    async () => {
      // bench/library-child.mjs imports the build in a fresh process, counts every module loaded
      // (ES loader hook plus require's cache) and runs one flow over the in-memory layers.
      const child = path.resolve(__dirname, "../../bench/library-child.mjs")
      for (const entry of [path.join(dist, "index.mjs"), path.join(dist, "cjs/index.js")]) {
        const out = await new Promise<string>((resolve, reject) =>
          execFile(
            process.execPath,
            [child, entry, "count"],
            (error, stdout, stderr) => (error === null ? resolve(stdout) : reject(new Error(stderr)))
          )
        )
        const counts = JSON.parse(out.trim().split("\n").pop()!) as { heavy: number; modules: number }
        expect({ entry: path.basename(entry), heavy: counts.heavy }).toEqual({ entry: path.basename(entry), heavy: 0 })
      }
    },
    60_000
  )

  it("the README's \"Using dossier from an Effect program\" names every namespace the library exports", () => {
    const readme = fs.readFileSync(path.resolve(__dirname, "../../README.md"), "utf8")
    const list = /One namespace per area \(([^)]*)\)/.exec(readme)?.[1] ?? ""
    const named = [...list.matchAll(/`([A-Za-z]+)`/g)].map((m) => m[1]).sort()
    const exported = Object.entries(surface).filter(([, v]) => typeof v === "object" && !Layer.isLayer(v)).map(([k]) =>
      k
    )
    expect(named).toEqual(exported.sort())
  })

  it("the types of dossier/postgres name only what a program can import (the API report)", () => {
    const report = fs.readFileSync(path.resolve(__dirname, "../../api/dossier.api.md"), "utf8")
    const declared = new Set(
      [...report.matchAll(/^\s*(?:const|type|class|function|interface|namespace) (\w+)/gm)].map((m) => m[1])
    )
    const section = report.slice(report.indexOf("## dossier/postgres"))
    const named = new Set([...section.matchAll(/\b([A-Z]\w*)\b/g)].map((m) => m[1]))
    // Before, DossierPostgres's layer also gave the internal PgStore tag and @effect/sql's SqlClient.
    expect([...named].filter((name) => !declared.has(name) && name !== "Layer")).toEqual([])
  })

  it.effect("each service layer over Files.BaseMemory needs what docs/library.md says (checked by tsc too)", () =>
    Effect.gen(function*() {
      // FileStore | Lock only (Gate also Plan).
      const journal: Layer.Layer<Journal.Journal> = Journal.JournalLive.pipe(Layer.provide(Files.BaseMemory))
      const monitor: Layer.Layer<Monitor.Monitor> = Monitor.MonitorLive.pipe(Layer.provide(Files.BaseMemory))
      const plan: Layer.Layer<Plan.Plan> = Plan.PlanFolder.pipe(Layer.provide(Files.BaseMemory))
      const gate: Layer.Layer<Gate.Gate> = Gate.GateLive.pipe(Layer.provide(plan), Layer.provide(Files.BaseMemory))
      // PlanLive over its port: the folder's PlanStore over the same FileStore.
      const planLive: Layer.Layer<Plan.Plan> = Plan.PlanLive.pipe(
        Layer.provide(Plan.PlanStoreFolder),
        Layer.provideMerge(Files.BaseMemory)
      )
      // Ingest over memory: dossierOver gives it the Workdir BaseMemory lacks.
      const ingest: Layer.Layer<Ingest.Ingest> = dossierOver(Files.BaseMemory)
      const services = yield* Effect.all([Journal.Journal, Monitor.Monitor, Plan.Plan, Gate.Gate, Ingest.Ingest]).pipe(
        Effect.provide(Layer.mergeAll(journal, monitor, gate, ingest, plan))
      )
      expect(services).toHaveLength(5)
      expect((yield* Effect.flatMap(Plan.Plan, (p) => p.inspect).pipe(Effect.provide(planLive))).state).toBe("none")
    }))

  it.effect("a work folder that is not there: WorkdirNotFound says so in words that name no CLI flag", () =>
    Effect.gen(function*() {
      const dir = tempWorkdir()
      fs.writeFileSync(path.join(dir, "file"), "x")
      for (
        const [given, reason] of [
          [path.join(dir, "nope"), "missing"],
          [path.join(dir, "file"), "not-directory"]
        ] as const
      ) {
        for (const layer of [Files.Workdir.live(given), surface.DossierLive(given)]) {
          const error = yield* Effect.flip(Effect.asVoid(Layer.build(layer)).pipe(Effect.scoped))
          expect(error).toMatchObject({ _tag: "WorkdirNotFound", reason })
          expect(error.message).toMatch(/^The work folder (does not exist|is not a directory): /)
          expect(error.message).not.toMatch(/--workdir|DOSSIER_WORKDIR/)
          expect(error.message).not.toContain(dir)
        }
      }
    }))
})
