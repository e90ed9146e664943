/**
 * StoreTransfer between the memory and folder adapters of the storage ports: a folder made by the
 * built CLI (a plan with prose, a registered capture and output, a journal with an artifact, a
 * finished monitor run with its report and stage file, two grants with events, an execution
 * record with its logs) copied into memory and from there into a second folder. Every answer is
 * compared (plan inspect, journal inspect and lines, monitor list and runs, the capture log,
 * grants and execution records through their ports) on all three, the grant and exec commands'
 * answers between the two folders, and every state file's bytes between the two folders.
 * Then the refusals: a fresh transfer into a destination that holds state, and a refresh over a
 * destination that is ahead or other, write nothing.
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { makeJournalArtifacts } from "../../src/layers/folder/JournalArtifactsFolder.js"
import { makeMonitorFilesFolder } from "../../src/layers/folder/MonitorStoreFolder.js"
import { makeJournal } from "../../src/layers/JournalLive.js"
import { MonitorFromStore } from "../../src/layers/MonitorLive.js"
import { PlanLive } from "../../src/layers/PlanLive.js"
import { folderSide, type StoreSide, transfer } from "../../src/layers/StoreTransfer.js"
import { Monitor } from "../../src/services/Monitor.js"
import { Plan } from "../../src/services/Plan.js"
import { MonitorFiles } from "../../src/services/ports/MonitorStore.js"
import { recordOf } from "../../src/testing/GrantStoreConformance.js"
import { contextOfSide, memorySide } from "../../src/testing/StoreSides.js"
import { put, snapshot, tempWorkdir } from "../support/cli.js"
import { addEvidence, evidenceAnswers, GRANT_ROOTS } from "./support/evidence.js"
import { populated } from "./support/populated.js"

const sha = (s: string | Uint8Array) => createHash("sha256").update(s).digest("hex")

const withSide = <A, E>(side: Effect.Effect<StoreSide, unknown, any>, f: (s: StoreSide) => Effect.Effect<A, E>) =>
  Effect.runPromise(Effect.scoped(Effect.flatMap(side, f)) as Effect.Effect<A, never>)

/** Every answer a side gives through the services, over its ports alone. */
const answers = (side: StoreSide) =>
  Effect.gen(function*() {
    const ctx = contextOfSide(side)
    const services = yield* Layer.build(
      Layer.mergeAll(
        PlanLive,
        MonitorFromStore.pipe(Layer.provide(Layer.succeed(MonitorFiles, makeMonitorFilesFolder(side.files))))
      ).pipe(Layer.provide(Layer.succeedContext(ctx)))
    )
    const journal = makeJournal(side.journal, makeJournalArtifacts(side.files), side.lock, Option.none())
    const plan = yield* Effect.provide(Effect.flatMap(Plan, (p) => p.inspect), services)
    const monitor = yield* Effect.provide(
      Effect.flatMap(Monitor, (m) =>
        Effect.all({
          list: m.list,
          runs: Effect.flatMap(m.list, (l) => Effect.forEach(l.runs, (r) => m.showRun(r.id))),
          subs: Effect.flatMap(m.list, (l) => Effect.forEach(l.subscriptions, (s) => m.showSubscription(s.id))),
          unresolved: m.unresolvedOutcomes
        })),
      services
    )
    const studies = yield* journal.studies
    const journals = yield* Effect.forEach(studies, (row) =>
      Effect.all({
        inspect: journal.inspect(row.study, { verify: true }),
        lines: Effect.map(journal.lines(row.study, 1 << 20), (b) => Buffer.from(b).toString("utf8"))
      }))
    const captures = yield* side.captures.records
    const reports = yield* Effect.forEach(yield* side.monitor.reports.streams, (p) => side.monitor.reports.read(p))
    const grants = yield* Effect.forEach(yield* side.grants.ids, (id) =>
      Effect.all({ record: side.grants.get(id), events: side.grants.events(id) }))
    const executions = yield* Effect.forEach(yield* side.executions.ids, (id) =>
      Effect.flatMap(side.executions.get(id), (record) =>
        Effect.all({
          record: Effect.succeed(record),
          logs: Effect.forEach(
            Option.match(record, { onNone: () => [], onSome: (r) => [r.stdout.path, r.stderr.path] }),
            (p) =>
              Effect.map(
                side.executions.readLog(p),
                Option.map((b) =>
                  sha(b)
                )
              )
          )
        })))
    return { plan, monitor, studies, journals, captures, reports, grants, executions }
  }).pipe(Effect.scoped)

/** The state files of a folder: everything but the lock, derived indexes and the CLI's input files. */
const stateFiles = (dir: string) => {
  const all = snapshot(dir)
  return Object.fromEntries(
    Object.entries(all).filter(([p]) =>
      !p.startsWith("research/inputs/") && !p.startsWith("saved/") && p !== ".dossier/lock.sqlite" &&
      !p.startsWith(GRANT_ROOTS) &&
      !p.startsWith(".dossier/journal/") && p !== ".dossier/monitor/scan.index" && p !== ".dossier/.gitignore"
    )
  )
}

describe("StoreTransfer: folder → memory → folder", () => {
  let dir: string
  let execution: string
  beforeAll(async () => {
    expect(fs.existsSync(path.resolve(__dirname, "../../dist/dossier.cjs"))).toBe(true)
    dir = await populated()
    execution = await addEvidence(dir)
  }, 120_000)

  it("gives the same answers on every side and the same bytes in both folders", async () => {
    const copy = tempWorkdir("dossier-transfer-copy-")
    const result = await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const folder = yield* folderSide(dir)
      const memory = yield* memorySide
      const second = yield* folderSide(copy)
      const toMemory = yield* transfer(folder, memory, "fresh")
      const toFolder = yield* transfer(memory, second, "fresh")
      return {
        toMemory,
        toFolder,
        folder: yield* answers(folder),
        memory: yield* answers(memory),
        second: yield* answers(second)
      }
    })))
    // What was copied: the plan at its revision, 4 capture records, 2 journals, the monitor's records.
    expect(result.toMemory.plan).toEqual({ revision: 2, copied: true })
    expect(result.toMemory.journals).toEqual([{ study: "s", events: 3 }, { study: "t", events: 1 }])
    expect(result.toMemory.subscriptions).toBe(1)
    expect(result.toMemory.runs).toBe(1)
    expect(result.toMemory.reports).toBe(1)
    expect({
      grants: result.toMemory.grants,
      grantEvents: result.toMemory.grantEvents,
      executions: result.toMemory.executions
    }).toEqual({ grants: 2, grantEvents: 2, executions: 1 })
    expect(result.toMemory.captures).toBeGreaterThan(0)
    expect(result.toMemory.kept).toEqual([])
    expect(result.toMemory.missing).toEqual([])
    expect(result.toFolder).toEqual(result.toMemory)

    expect(result.folder.plan).toMatchObject({ revision: 2, verification: { state: "current", findings: [] } })
    expect(result.folder.journals).toHaveLength(2)
    expect(result.folder.monitor.runs).toHaveLength(1)
    expect(result.folder.reports.flat()).toHaveLength(1)
    expect(result.folder.grants.map((g) => g.events.value.map((e) => e.type))).toEqual([["narrowed"], ["revoked"]])
    expect(result.folder.executions).toHaveLength(1)
    expect(result.folder.executions[0]!.logs.every(Option.isSome)).toBe(true)
    expect(result.memory).toEqual(result.folder)
    expect(result.second).toEqual(result.folder)

    const before = stateFiles(dir)
    expect(Object.keys(before)).toEqual(expect.arrayContaining([
      "plan.md",
      ".dossier/captures.jsonl",
      "research/s/research-events.jsonl",
      "research/t/research-events.jsonl",
      ".dossier/monitor/reports.jsonl",
      "research/results/model.bin",
      "research/results/r.md",
      ".dossier/grants/g1.json",
      ".dossier/grants/g1.events.jsonl",
      ".dossier/grants/g2.events.jsonl",
      `.dossier/executions/${execution}.json`,
      `.dossier/executions/${execution}/stdout`,
      `.dossier/executions/${execution}/stderr`
    ]))
    expect(stateFiles(copy)).toEqual(before)
    // The grant and exec commands answer the same in the copy (the roots are this host's: made again here).
    fs.cpSync(path.join(dir, GRANT_ROOTS), path.join(copy, GRANT_ROOTS), { recursive: true })
    const evidence = evidenceAnswers(dir, execution)
    expect([evidence.list.ok, evidence.g1.ok, evidence.g2.ok, evidence.execution.ok]).toEqual([true, true, true, true])
    expect(evidenceAnswers(copy, execution)).toEqual(evidence)
    expect(fs.readFileSync(path.join(copy, "plan.md"), "latin1")).toContain("Caf\u00c3\u00a9 and prose")
  }, 60_000)

  it("refuses a fresh copy into a destination that holds state, and writes nothing", async () => {
    const other = await (async () => {
      const d = tempWorkdir("dossier-transfer-other-")
      put(d, "plan.md", "# Someone else's notes\n")
      return d
    })()
    const before = snapshot(other)
    const r = await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const folder = yield* folderSide(dir)
      const target = yield* folderSide(other)
      return yield* Effect.either(transfer(folder, target, "fresh"))
    })))
    expect(Either.isLeft(r) ? r.left : null).toMatchObject({ _tag: "TransferDivergence", divergence: { part: "plan" } })
    const after = snapshot(other)
    delete (after as Record<string, string>)[".dossier/lock.sqlite"]
    expect(after).toEqual(before)
  })

  it("refreshes an earlier copy with what it lacks, and refuses one that is ahead", async () => {
    const r = await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const folder = yield* folderSide(dir)
      const memory = yield* memorySide
      yield* transfer(folder, memory, "fresh")
      // The copy again: nothing to do.
      const again = yield* transfer(folder, memory, "refresh")
      // One more event in the source: the copy gets only it.
      yield* Effect.provide(
        Effect.flatMap(
          Effect.succeed(makeJournal(folder.journal, makeJournalArtifacts(folder.files), folder.lock, Option.none())),
          (j) =>
            j.append("t", { id: "c2", type: "candidate_created", candidate: { id: "cand-c", title: "C" } } as never)
        ),
        Layer.empty
      )
      const more = yield* transfer(folder, memory, "refresh")
      // The copy is now ahead of a fresh memory copy of… nothing: the other way is a divergence.
      const empty = yield* memorySide
      const back = yield* Effect.either(transfer(empty, memory, "refresh"))
      return { again, more, back }
    })))
    expect(r.again.plan.copied).toBe(false)
    expect(r.again.journals).toEqual([])
    expect(
      r.again.captures + r.again.runs + r.again.subscriptions + r.again.reports + r.again.grants +
        r.again.grantEvents + r.again.executions
    ).toBe(0)
    expect(r.more.journals).toEqual([{ study: "t", events: 1 }])
    expect(Either.isLeft(r.back)).toBe(true)
  })

  it("copies only the parts asked for, through a side that loaded only their adapters", async () => {
    const plainPlan = { plan: true, captures: false, journals: false, monitor: false, grants: false, executions: false }
    const r = await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const folder = yield* folderSide(dir)
      const copy = yield* memorySide
      const partial = yield* folderSide(dir, plainPlan)
      // The other ports of the partial side were not loaded: any use of them is a defect.
      const unloaded = yield* Effect.exit(Effect.suspend(() => partial.journal.studies))
      const report = yield* transfer(partial, copy, "fresh", plainPlan)
      const full = yield* transfer(folder, copy, "refresh")
      return { unloaded, report, full, plan: yield* copy.plan.plan.get("plan") }
    })))
    expect(r.unloaded._tag === "Failure" && Cause.isDie(r.unloaded.cause)).toBe(true)
    expect(r.report.plan.copied).toBe(true)
    expect(Option.isSome(r.plan)).toBe(true)
    expect({ journals: r.report.journals, captures: r.report.captures, grants: r.report.grants }).toEqual({
      journals: [],
      captures: 0,
      grants: 0
    })
    // The rest comes with a transfer of every part; the plan is already there.
    expect(r.full.plan.copied).toBe(false)
    expect(r.full.journals.length).toBeGreaterThan(0)
    expect(r.full.grants).toBeGreaterThan(0)
  })

  it("refreshes grant events and execution records a copy lacks, and refuses a copy whose grant or record is other", async () => {
    const extra = recordOf("x-20261208T110000-0000000b", "g1")
    const r = await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const folder = yield* folderSide(dir)
      const source = yield* memorySide
      yield* transfer(folder, source, "fresh")
      const copy = yield* memorySide
      yield* transfer(source, copy, "fresh")
      // The source gets an event and a record the copy lacks: a refresh copies just those.
      const g1 = yield* source.grants.events("g1")
      yield* source.grants.appendEvent(
        "g1",
        { type: "revoked", at: "2026-12-08T11:00:00.000Z", reason: null },
        g1.revision
      )
      yield* source.executions.put(extra)
      yield* source.executions.putLog(extra.stdout.path, new TextEncoder().encode("ok\n"))
      yield* source.executions.putLog(extra.stderr.path, new Uint8Array(0))
      const more = yield* transfer(source, copy, "refresh")
      const copied = {
        events: yield* copy.grants.events("g1"),
        record: yield* copy.executions.get(extra.id),
        log: Option.map(yield* copy.executions.readLog(extra.stdout.path), (b) => Buffer.from(b).toString("utf8"))
      }
      // The copy's g2 gets an event the source does not have: a divergence.
      yield* copy.grants.appendEvent("g2", { type: "revoked", at: "2026-12-08T12:00:00.000Z", reason: "mine" }, 1)
      const grantAhead = yield* Effect.either(transfer(source, copy, "refresh"))
      // Another record under one of the source's ids.
      const other = yield* memorySide
      yield* other.executions.put(recordOf(extra.id, "g2"))
      const otherRecord = yield* Effect.either(transfer(source, other, "refresh"))
      return { more, copied, grantAhead, otherRecord, source: yield* source.grants.events("g1") }
    })))
    expect({
      grants: r.more.grants,
      grantEvents: r.more.grantEvents,
      executions: r.more.executions,
      files: r.more.files.copied
    }).toEqual({ grants: 0, grantEvents: 1, executions: 1, files: 2 })
    expect(r.copied.events).toEqual(r.source)
    expect(r.copied.record).toEqual(Option.some(extra))
    expect(r.copied.log).toEqual(Option.some("ok\n"))
    expect(Either.isLeft(r.grantAhead) ? r.grantAhead.left : r.grantAhead).toMatchObject({
      _tag: "TransferDivergence",
      divergence: { part: "grant", key: "g2" }
    })
    expect(Either.isLeft(r.otherRecord) ? r.otherRecord.left : r.otherRecord).toMatchObject({
      _tag: "TransferDivergence",
      divergence: { part: "execution", key: extra.id }
    })
  })

  it("keeps a destination file that holds other bytes, and says so", async () => {
    const copy = tempWorkdir("dossier-transfer-kept-")
    put(copy, "research/results/r.md", "someone's own result\n")
    const r = await withSide(
      folderSide(dir),
      (folder) => Effect.scoped(Effect.flatMap(folderSide(copy), (second) => transfer(folder, second, "fresh")))
    )
    expect(r.kept).toEqual(["research/results/r.md"])
    expect(fs.readFileSync(path.join(copy, "research/results/r.md"), "utf8")).toBe("someone's own result\n")
    expect(sha(fs.readFileSync(path.join(copy, "research/results/model.bin")))).toBe(
      sha(fs.readFileSync(path.join(dir, "research/results/model.bin")))
    )
  })
})
