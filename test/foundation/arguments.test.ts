/**
 * One convention for arguments across the library (src/domain/Options.ts): required arguments
 * first, then one options object that may be left out, with plain fields that may be left out.
 * Called from JavaScript (no types to hold the caller), every public service method answers a
 * success or a typed error — never a defect — whether its options are left out, `undefined`, or
 * of the wrong type; and a wrong value is `InvalidInput` naming it.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as fs from "node:fs"
import * as path from "node:path"
import * as lib from "../../src/index.js"
import { DossierLive, Exec, Files, Gate, Ingest, Journal, Monitor, Plan } from "../../src/index.js"
import { CaptureStoreFolder } from "../../src/layers/folder/CaptureStoreFolder.js"
import { SourcesLive } from "../../src/layers/SourcesLive.js"
import { Sources } from "../../src/services/Sources.js"
import { put, tempWorkdir } from "../support/cli.js"

type Call = (services: any) => Effect.Effect<unknown, unknown>

/** Wrong-typed options objects and option values, tried on every method that takes options. */
const WRONG_OPTIONS: ReadonlyArray<unknown> = [
  "yes",
  42,
  true,
  [],
  () => 1,
  // `now` where the options object goes (earlier releases took it positionally): not an empty object.
  new Date("2026-11-30T10:00:00.000Z")
]
const WRONG_VALUES: ReadonlyArray<unknown> = ["x", 3.5, -1, {}, [], new Date(Number.NaN), null]

const layerFor = (dir: string) => {
  const base = DossierLive(dir)
  return Layer.mergeAll(
    base,
    SourcesLive.pipe(Layer.provide(CaptureStoreFolder), Layer.provide(base)),
    Exec.ExecLayer(dir),
    Exec.GrantsLayer(dir)
  )
}

/** What the services are called with: the tags of the public surface. */
const services = Effect.all({
  plan: Plan.Plan,
  journal: Journal.Journal,
  gate: Gate.Gate,
  ingest: Ingest.Ingest,
  grants: Exec.Grants,
  exec: Exec.Exec,
  sources: Sources
})

/** Run a call and tell what it answered: `success`, a failure's tag, or `DEFECT` (with the cause). */
const outcome = (call: Call) =>
  Effect.map(Effect.exit(Effect.flatMap(services, (s) => Effect.suspend(() => call(s)))), (exit) =>
    Exit.isSuccess(exit)
      ? "success"
      : Cause.isFailType(exit.cause) && typeof (exit.cause.error as any)?._tag === "string"
      ? (exit.cause.error as { _tag: string })._tag
      : `DEFECT ${Cause.pretty(exit.cause)}`)

/** An issue path of the InvalidInput a call answers. */
const issuePaths = (call: Call) =>
  Effect.map(
    Effect.exit(Effect.flatMap(services, (s) => Effect.suspend(() => call(s)))),
    (exit) =>
      Exit.isFailure(exit) && Cause.isFailType(exit.cause) && (exit.cause.error as any)?._tag === "InvalidInput"
        ? (exit.cause.error as { issues: ReadonlyArray<{ path: string }> }).issues.map((i) => i.path)
        : []
  )

/**
 * Every public method with options, as `(options) => call`, with a valid option field and the
 * value each of its fields must refuse. The required arguments are valid (or name nothing here).
 */
const WITH_OPTIONS: ReadonlyArray<
  { readonly name: string; readonly call: (o: unknown) => Call; readonly fields: ReadonlyArray<string> }
> = [
  {
    name: "Plan.start",
    call: (o) => (s) => s.plan.start({ goal: "a goal", limits: [], nextAction: "read" }, o),
    fields: ["replaceGoal", "expected", "now"]
  },
  { name: "Plan.checkpoint", call: (o) => (s) => s.plan.checkpoint({}, o), fields: ["expected", "now"] },
  { name: "Journal.inspect", call: (o) => (s) => s.journal.inspect("study-1", o), fields: ["verify"] },
  {
    name: "Gate.run",
    call: (o) => (s) => s.gate.run("run/state.json", o),
    fields: ["researchDir", "descriptor", "attempts", "recordAttempt", "maxAskRounds", "unattended", "now"]
  },
  {
    name: "Gate.recheck",
    call: (o) => (s) => s.gate.recheck("run/state.json", "run/descriptor.json", o),
    fields: ["now"]
  },
  {
    name: "Ingest.capture",
    call: (o) => (s) => s.ingest.capture("http://127.0.0.1:1/page", o),
    fields: ["timeoutSeconds", "now"]
  },
  {
    name: "Ingest.importFile",
    call: (o) => (s) => s.ingest.importFile("saved.html", "https://example.org/page", o),
    fields: ["contentType", "now"]
  },
  {
    name: "Sources.follow",
    call: (o) => (s) => s.sources.follow("an excerpt of at least twenty characters", o),
    fields: ["path"]
  },
  { name: "Grants.create", call: (o) => (s) => s.grants.create({}, o), fields: ["now"] },
  { name: "Grants.show", call: (o) => (s) => s.grants.show("g1", o), fields: ["now"] },
  { name: "Grants.list", call: (o) => (s) => s.grants.list(o), fields: ["now"] },
  { name: "Grants.revoke", call: (o) => (s) => s.grants.revoke("g1", o), fields: ["reason", "now"] },
  {
    name: "Grants.narrow",
    call: (o) => (s) => s.grants.narrow("g1", { deadline: "2099-01-01T00:00:00Z" }, o),
    fields: ["now"]
  },
  { name: "Grants.status", call: (o) => (s) => s.grants.status("g1", o), fields: ["now"] },
  {
    name: "Exec.run",
    call: (o) => (s) => s.exec.run("g1", ["true"], o),
    fields: ["candidateId", "study", "echo", "now"]
  },
  { name: "Exec.show", call: (o) => (s) => s.exec.show("x-20261130T100000-0123abcd", o), fields: ["verify", "now"] }
]

/** Every public method's required arguments, each given a wrong type: InvalidInput (or the tag named). */
const WRONG_REQUIRED: ReadonlyArray<
  { readonly name: string; readonly call: (v: unknown) => Call; readonly tag?: string }
> = [
  { name: "Plan.start input", call: (v) => (s) => s.plan.start(v) },
  { name: "Plan.checkpoint input", call: (v) => (s) => s.plan.checkpoint(v, { expected: 1 }) },
  {
    name: "Journal.append study",
    call: (v) => (s) =>
      s.journal.append(v, { id: "e1", type: "candidate_created", candidate: { id: "c1", title: "t" } })
  },
  { name: "Journal.append input", call: (v) => (s) => s.journal.append("study-1", v) },
  { name: "Journal.inspect study", call: (v) => (s) => s.journal.inspect(v) },
  { name: "Journal.rebuild study", call: (v) => (s) => s.journal.rebuild(v) },
  { name: "Journal.recoverTail study", call: (v) => (s) => s.journal.recoverTail(v) },
  { name: "Journal.importLegacy study", call: (v) => (s) => s.journal.importLegacy(v) },
  { name: "Gate.run state", call: (v) => (s) => s.gate.run(v) },
  { name: "Gate.recheck state", call: (v) => (s) => s.gate.recheck(v, "run/descriptor.json") },
  { name: "Gate.recheck descriptor", call: (v) => (s) => s.gate.recheck("run/state.json", v) },
  { name: "Ingest.capture url", call: (v) => (s) => s.ingest.capture(v) },
  { name: "Ingest.importFile path", call: (v) => (s) => s.ingest.importFile(v, "https://example.org/") },
  { name: "Ingest.importFile origin", call: (v) => (s) => s.ingest.importFile("saved.html", v) },
  { name: "Ingest.dryRun url", call: (v) => (s) => s.ingest.dryRun(v), tag: "InvalidUrl" },
  { name: "Sources.follow excerpt", call: (v) => (s) => s.sources.follow(v) },
  { name: "Grants.create input", call: (v) => (s) => s.grants.create(v) },
  { name: "Grants.show id", call: (v) => (s) => s.grants.show(v) },
  { name: "Grants.revoke id", call: (v) => (s) => s.grants.revoke(v) },
  { name: "Grants.narrow id", call: (v) => (s) => s.grants.narrow(v, { deadline: "2099-01-01T00:00:00Z" }) },
  { name: "Grants.narrow input", call: (v) => (s) => s.grants.narrow("g1", v) },
  { name: "Grants.status id", call: (v) => (s) => s.grants.status(v) },
  { name: "Exec.run grant", call: (v) => (s) => s.exec.run(v, ["true"]) },
  { name: "Exec.run argv", call: (v) => (s) => s.exec.run("g1", v) },
  { name: "Exec.show id", call: (v) => (s) => s.exec.show(v) }
]

const NOT_A_STRING: ReadonlyArray<unknown> = [undefined, null, 42, {}, [], Symbol.for("x")]
/** For the input documents (objects): `{}` may well be a valid one. */
const NOT_AN_OBJECT: ReadonlyArray<unknown> = [undefined, null, 42, "text", [], Symbol.for("x")]

describe("library arguments: one convention, no defect", () => {
  const dir = tempWorkdir()
  put(dir, "saved.html", "<html><body><p>A saved page with enough words to read.</p></body></html>")
  const layer = layerFor(dir)

  it.live("every method with options: left out, undefined and null are no options; a success or a typed error", () =>
    Effect.gen(function*() {
      for (const m of WITH_OPTIONS) {
        for (const o of [undefined, null, {}]) {
          const r = yield* outcome((
            s
          ) => (o === undefined && m.name !== "Grants.list" ? dropLast(m.call(o))(s) : m.call(o)(s)))
          expect(r, `${m.name}(…, ${String(o)})`).not.toMatch(/^DEFECT/)
          const given = yield* outcome(m.call(o))
          expect(given, `${m.name}(…, ${JSON.stringify(o)})`).not.toMatch(/^DEFECT/)
        }
        const undefinedFields = Object.fromEntries(m.fields.map((f) => [f, undefined]))
        expect(yield* outcome(m.call(undefinedFields)), `${m.name} with every field undefined`).not.toMatch(/^DEFECT/)
      }
    }).pipe(Effect.provide(layer)))

  it.live("a wrong-typed options object, or a wrong-typed field, is InvalidInput naming it", () =>
    Effect.gen(function*() {
      for (const m of WITH_OPTIONS) {
        for (const o of WRONG_OPTIONS) {
          expect(yield* issuePaths(m.call(o)), `${m.name}(…, ${String(o)})`).toContain("options")
        }
        for (const field of m.fields) {
          for (const v of WRONG_VALUES) {
            // A string is a right value for the text fields, as is a null-free object nowhere.
            if (typeof v === "string" && TEXT_FIELDS.has(field)) continue
            const paths = yield* issuePaths(m.call({ [field]: v }))
            expect(paths, `${m.name}(…, {${field}: ${String(v)}})`).toContain(field)
          }
        }
      }
    }).pipe(Effect.provide(layer)))

  it.live("a required argument of the wrong type is a typed refusal naming it, never a defect", () =>
    Effect.gen(function*() {
      for (const m of WRONG_REQUIRED) {
        for (const v of m.name.endsWith(" input") ? NOT_AN_OBJECT : NOT_A_STRING) {
          const r = yield* outcome(m.call(v))
          expect(r, `${m.name} = ${String(v)}`).toBe(m.tag ?? "InvalidInput")
        }
      }
    }).pipe(Effect.provide(layer)))

  it.live("the Monitor's methods take the same options object: a bare Date is InvalidInput at options", () =>
    Effect.gen(function*() {
      const monitor = yield* Monitor.Monitor
      const now = new Date("2026-11-30T10:00:00.000Z") as any
      const subscription = { kind: "literature", target: "t", timezone: "UTC", anchor: "2026-12-01T09:00" } as const
      for (
        const call of [
          () => monitor.due(now),
          () => monitor.facts(now),
          () => monitor.createSubscription(subscription, now)
        ]
      ) {
        expect(yield* issuePaths(call)).toEqual(["options"])
      }
      expect(yield* outcome(() => monitor.due({ now: undefined }))).toBe("success")
    }).pipe(Effect.provide(layer)))

  it.live("docs/library.md's table of options names only methods of services the library exports", () =>
    Effect.gen(function*() {
      const doc = fs.readFileSync(path.resolve(__dirname, "../../docs/library.md"), "utf8")
      const section = doc.slice(doc.indexOf("## Optional arguments"), doc.indexOf("## Errors"))
      const rows = [...section.matchAll(/^\| `([a-z]+)\.([a-zA-Z]+)`(?: \/ `([a-zA-Z]+)`)*/gm)]
      expect(rows.length).toBeGreaterThan(10)
      // Every service tag of the public surface, by its key (`dossier/Plan`…).
      const exported = new Map<string, unknown>()
      for (const area of Object.values(lib)) {
        for (const value of Object.values(area as object)) {
          if (Context.isTag(value)) exported.set(value.key, value)
        }
      }
      for (const [, service, method] of rows) {
        const key = `dossier/${service![0]!.toUpperCase()}${service!.slice(1)}`
        expect(exported.has(key), `${service}.${method}: no exported tag ${key}`).toBe(true)
        // The layer provides every exported service (an unexported one has no key above).
        const impl = yield* (exported.get(key) as Context.Tag<never, Record<string, unknown>>)
        expect(typeof impl[method!], `${service}.${method}`).toBe("function")
      }
    }).pipe(Effect.provide(layer)))

  it.live("FileStore (Files.FileStore): a path that is no string is UnsafePath invalid, never a defect", () =>
    Effect.gen(function*() {
      for (const store of [Files.FileStoreMemory, Files.FileStoreLive.pipe(Layer.provide(Files.Workdir.live(dir)))]) {
        const fs: Record<string, any> = yield* Effect.provide(Files.FileStore, store)
        const calls: ReadonlyArray<[string, (p: unknown) => Effect.Effect<unknown, unknown>]> = [
          ["normalize", (p) => fs.normalize(p)],
          ["stat", (p) => fs.stat(p)],
          ["read", (p) => fs.read(p)],
          ["readText", (p) => fs.readText(p)],
          ["hash", (p) => fs.hash(p)],
          ["writeAtomic", (p) => fs.writeAtomic(p, "x")],
          ["writeRetained", (p) => fs.writeRetained(p, "x")],
          ["append", (p) => fs.append(p, "x")],
          ["truncate", (p) => fs.truncate(p, 0)],
          ["remove", (p) => fs.remove(p)],
          ["list", (p) => fs.list(p)],
          ["ensureDir", (p) => fs.ensureDir(p)]
        ]
        for (const [name, call] of calls) {
          for (const p of [42, undefined, null, {}, [], Symbol.for("x")]) {
            const exit = yield* Effect.exit(Effect.suspend(() => call(p)))
            const error = Exit.isFailure(exit) && Cause.isFailType(exit.cause) ? exit.cause.error as any : null
            expect({ tag: error?._tag, reason: error?.reason }, `${name}(${String(p)})`).toEqual({
              tag: "UnsafePath",
              reason: "invalid"
            })
          }
        }
      }
    }))

  it.live("Journal.lines: a byte limit that is no whole number from 0 is InvalidInput naming it", () =>
    Effect.gen(function*() {
      const journal = yield* Journal.Journal
      yield* journal.append("study-lines", { id: "c1", type: "candidate_created", candidate: { id: "c1", title: "t" } })
      for (const v of [undefined, null, "10", -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, {}, []]) {
        const paths = yield* issuePaths(() => journal.lines("study-lines", v as number))
        expect(paths, `lines(…, ${String(v)})`).toEqual(["maxBytes"])
      }
      expect(yield* issuePaths(() => journal.lines(42 as unknown as string, "x" as unknown as number))).toEqual([
        "study",
        "maxBytes"
      ])
      expect((yield* journal.lines("study-lines", 1_000_000)).length).toBeGreaterThan(0)
      expect(yield* outcome(() => journal.lines("study-lines", 0))).toBe("LimitExceeded")
    }).pipe(Effect.provide(layer)))
})

/** The text-valued option fields (any string is a value; the method may still refuse its content). */
const TEXT_FIELDS = new Set([
  "researchDir",
  "descriptor",
  "attempts",
  "contentType",
  "path",
  "reason",
  "candidateId",
  "study"
])

/** The same call with its trailing options argument left out entirely (arity, not `undefined`). */
const dropLast = (call: Call): Call => (s) => {
  const proxy = new Proxy(s, {
    get: (target, area: string) =>
      new Proxy(target[area], {
        get: (svc, method: string) =>
          typeof svc[method] === "function"
            ? (...args: Array<unknown>) => (args.length > 0 && args[args.length - 1] === undefined
              ? svc[method](...args.slice(0, -1))
              : svc[method](...args))
            : svc[method]
      })
  })
  return call(proxy)
}

describe("Plan.start: a revision goes only with replaceGoal", () => {
  const start = (input: object, options: object) =>
    Effect.flatMap(Plan.Plan, (p) => Effect.flip(p.start(input as any, options)))
  it.effect("expected (or the input's expectedRevision) without replaceGoal is InvalidInput naming it", () =>
    Effect.gen(function*() {
      const input = { goal: "a goal", limits: [], nextAction: "read" }
      // No plan yet: the revision used to be dropped and the plan created.
      const fresh = yield* start(input, { expected: 5 })
      expect(fresh._tag).toBe("InvalidInput")
      expect((fresh as any).issues).toEqual([{ path: "expected", message: expect.stringContaining("replaceGoal") }])
      const inInput = yield* start({ ...input, expectedRevision: 5 }, {})
      expect((inInput as any).issues.map((i: any) => i.path)).toEqual(["expectedRevision"])
      expect(yield* Effect.flatMap(Plan.Plan, (p) => p.read)).toEqual(Option.none())
      // replaceGoal without a revision: refused, not a silent creation.
      const noRevision = yield* start(input, { replaceGoal: true })
      // Named as the library's option, never as a command-line flag.
      expect((noRevision as any).issues).toEqual([{
        path: "expected",
        message: expect.stringContaining("replaceGoal")
      }])
      expect((noRevision as any).issues[0].message).not.toMatch(/--/)
      expect(yield* Effect.flatMap(Plan.Plan, (p) => p.read)).toEqual(Option.none())
      yield* Effect.flatMap(Plan.Plan, (p) => p.start(input))
      expect((yield* start(input, { replaceGoal: true }))._tag).toBe("InvalidInput")
      // The same goal with the current revision: refused too, not a silent no-op.
      expect((yield* start(input, { expected: 1, replaceGoal: false }))._tag).toBe("InvalidInput")
      const replaced = yield* Effect.flatMap(
        Plan.Plan,
        (p) => p.start({ goal: "another", limits: [], nextAction: "n" }, { expected: 1, replaceGoal: true })
      )
      expect(replaced).toEqual({ revision: 2, created: false, replaced: true })
    }).pipe(Effect.provide(Plan.PlanMemory)))
})
