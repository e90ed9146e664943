/**
 * Exec admission and grant creation look for a work folder's marker below the work root (a
 * `.dossier`, a plan.md with a plan section) before they take the folder's lock: the walk reads
 * every entry (about 1 s per 100,000), and every other writing command would wait for it. Under
 * the lock they look again only at what changed since, so a marker made in between is refused
 * all the same (test/exec/work-folder-marker.test.ts holds the refusal itself). Over a scripted
 * Sandbox: no bubblewrap needed.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import * as path from "node:path"
import { BaseLive } from "../../src/layers/Base.js"
import { ExecFolder } from "../../src/layers/ExecLayer.js"
import { GrantsFolder } from "../../src/layers/GrantsLayer.js"
import { JournalLive } from "../../src/layers/JournalLive.js"
import { WorkTreeLive } from "../../src/layers/WorkTreeLive.js"
import { Exec } from "../../src/services/Exec.js"
import { Grants } from "../../src/services/Grants.js"
import { Lock, type LockShape } from "../../src/services/Lock.js"
import { Sandbox } from "../../src/services/Sandbox.js"
import { WorkTree, type WorkTreeShape } from "../../src/services/WorkTree.js"
import { put, tempWorkdir } from "../support/cli.js"

const NOW = new Date("2026-06-01T00:00:00Z")
const WORK = "research/exp/runs/r1"
const PLAN = "# fake\n<!-- dossier:plan:begin -->\n```json\n{}\n```\n<!-- dossier:plan:end -->\n"

const grant = (id: string) => ({
  id,
  task: `t-${id}`,
  inputs: ["research/exp/data"],
  work: WORK,
  tools: ["read", "bash"],
  budget: { runs: 5, wallSeconds: 60, cpuSeconds: 3, memoryMiB: 64, outputMiB: 1 },
  deadline: "2030-01-01T00:00:00Z"
})

/** What the test sees: whether the lock is held, each walk of the work root and whether it was, a step run as the lock is taken. */
interface Watch {
  held: boolean
  readonly walks: Array<{ readonly held: boolean }>
  atLock: (() => void) | undefined
}

const watchedLock = (w: Watch) =>
  Layer.effect(
    Lock,
    Effect.map(Lock, (inner): LockShape => ({
      withLock: (self, hint) =>
        inner.withLock(
          Effect.suspend(() => {
            const step = w.atLock
            w.atLock = undefined
            step?.()
            w.held = true
            return Effect.ensuring(self, Effect.sync(() => void (w.held = false)))
          }),
          hint
        ),
      withReadLock: inner.withReadLock
    }))
  )

/** WorkTreeLive, recording each whole walk for markers (not the look again a survey answers). */
const watchedTree = (w: Watch) =>
  Layer.effect(
    WorkTree,
    Effect.map(WorkTree, (inner): WorkTreeShape => ({
      ...inner,
      markers: (p) => Effect.suspend(() => (w.walks.push({ held: w.held }), inner.markers(p))),
      surveyMarkers: (p) => Effect.suspend(() => (w.walks.push({ held: w.held }), inner.surveyMarkers(p)))
    }))
  ).pipe(Layer.provide(WorkTreeLive))

const sandbox = Layer.succeed(Sandbox, {
  probe: Effect.void,
  run: () =>
    Effect.succeed({
      exitCode: 0,
      signal: null,
      killed: null,
      stopped: null,
      memory: { enforcement: "process" as const, peakKiB: null, oomKills: 0 },
      cpuSeconds: 0.1,
      maxRssKiB: 1000,
      wallMs: 100,
      stdout: { bytes: Buffer.alloc(0), total: 0 },
      stderr: { bytes: Buffer.alloc(0), total: 0 }
    })
})

const layerFor = (dir: string, w: Watch) =>
  ExecFolder.pipe(
    Layer.provideMerge(Layer.mergeAll(GrantsFolder, JournalLive)),
    Layer.provideMerge(Layer.mergeAll(watchedTree(w), sandbox, watchedLock(w))),
    Layer.provideMerge(BaseLive(dir))
  )

/** Every file and directory below `p` modified long ago: what a walk then finds settled. */
const age = (p: string) => {
  const past = new Date("2026-01-01T00:00:00Z")
  for (const name of fs.readdirSync(p)) {
    const at = path.join(p, name)
    if (fs.lstatSync(at).isDirectory()) age(at)
    fs.utimesSync(at, past, past)
  }
  fs.utimesSync(p, past, past)
}

/** A work folder whose work root holds an old tree (`old/deep`, a plan.md without the plan's marker). */
const folder = () => {
  const dir = tempWorkdir("dossier-markers-")
  put(dir, "research/exp/data/a.txt", "a\n")
  put(dir, `${WORK}/old/deep/notes.txt`, "n\n")
  put(dir, `${WORK}/old/plan.md`, "just notes\n")
  for (let i = 0; i < 20; i++) put(dir, `${WORK}/old/d${i}/f.txt`, "x\n")
  return dir
}

/** Ways a marker appears in an old tree between the walk and the lock. */
const between: ReadonlyArray<{ readonly name: string; readonly make: (work: string) => void; readonly path: string }> =
  [
    {
      name: "a .dossier made in an old folder",
      make: (work) => fs.mkdirSync(path.join(work, "old/deep/.dossier")),
      path: `${WORK}/old/deep/.dossier`
    },
    {
      name: "an old plan.md given a plan section in place",
      make: (work) => fs.writeFileSync(path.join(work, "old/plan.md"), PLAN),
      path: `${WORK}/old/plan.md`
    },
    {
      name: "a folder moved in holding one deep down",
      make: (work) => {
        const aside = path.join(work, "../aside")
        fs.mkdirSync(path.join(aside, "a/b/.dossier"), { recursive: true })
        age(aside)
        fs.renameSync(aside, path.join(work, "old/d3/moved"))
      },
      path: `${WORK}/old/d3/moved/a/b/.dossier`
    }
  ]

describe("exec admission walks the work root before the folder's lock", () => {
  it.effect("the walk runs without the lock, and only the look again under it", () => {
    const dir = folder()
    const w: Watch = { held: false, walks: [], atLock: undefined }
    return Effect.gen(function*() {
      yield* (yield* Grants).create(grant("g1"), { now: NOW })
      age(path.join(dir, WORK))
      w.walks.length = 0
      const run = yield* (yield* Exec).run("g1", ["true"], { now: NOW })
      expect(run.execution.status).toBe("exited")
      expect(w.walks.length).toBeGreaterThan(0)
      expect(w.walks.filter((x) => x.held)).toEqual([])
    }).pipe(Effect.provide(layerFor(dir, w)))
  })

  for (const c of between) {
    it.effect(`${c.name} after the walk, before the lock: refused`, () => {
      const dir = folder()
      const w: Watch = { held: false, walks: [], atLock: undefined }
      return Effect.gen(function*() {
        yield* (yield* Grants).create(grant("g1"), { now: NOW })
        age(path.join(dir, WORK))
        // The grant's own lock region is over; exec's admission is the next one taken.
        let walkedBefore = -1
        w.walks.length = 0
        w.atLock = () => {
          walkedBefore = w.walks.length
          c.make(path.join(dir, WORK))
        }
        const refused = yield* Effect.flip((yield* Exec).run("g1", ["true"], { now: NOW }))
        expect(refused).toMatchObject({ _tag: "ProtectedPathInGrant", path: c.path, root: WORK })
        // One walk of each root (the work root and the input root) before the lock, none under it.
        expect(walkedBefore).toBe(1 + grant("g1").inputs.length)
      }).pipe(Effect.provide(layerFor(dir, w)))
    })
  }
})

describe("exec admission walks each input root before the folder's lock", () => {
  it.effect("a .dossier made in an old folder of the input root after the walk, before the lock: refused", () => {
    const dir = folder()
    const INPUT = grant("g1").inputs[0]!
    put(dir, `${INPUT}/old/deep/x.txt`, "x\n")
    const w: Watch = { held: false, walks: [], atLock: undefined }
    return Effect.gen(function*() {
      yield* (yield* Grants).create(grant("g1"), { now: NOW })
      age(path.join(dir, WORK))
      age(path.join(dir, INPUT))
      w.walks.length = 0
      w.atLock = () => fs.mkdirSync(path.join(dir, INPUT, "old/deep/.dossier"))
      const refused = yield* Effect.flip((yield* Exec).run("g1", ["true"], { now: NOW }))
      expect(refused).toMatchObject({ _tag: "ProtectedPathInGrant", path: `${INPUT}/old/deep/.dossier`, root: INPUT })
      expect(w.walks.filter((x) => x.held)).toEqual([])
    }).pipe(Effect.provide(layerFor(dir, w)))
  })
})

describe("grant creation walks an existing work root before the folder's lock", () => {
  it.effect("the walk runs without the lock", () => {
    const dir = folder()
    const w: Watch = { held: false, walks: [], atLock: undefined }
    return Effect.gen(function*() {
      const made = yield* (yield* Grants).create(grant("g1"), { now: NOW })
      expect(made.created).toBe(true)
      expect(w.walks.length).toBeGreaterThan(0)
      expect(w.walks.filter((x) => x.held)).toEqual([])
    }).pipe(Effect.provide(layerFor(dir, w)))
  })

  for (const c of between) {
    it.effect(`${c.name} after the walk, before the lock: refused`, () => {
      const dir = folder()
      age(path.join(dir, WORK))
      let walkedBefore = -1
      const w: Watch = {
        held: false,
        walks: [],
        atLock: () => {
          walkedBefore = w.walks.length
          c.make(path.join(dir, WORK))
        }
      }
      return Effect.gen(function*() {
        const refused = yield* Effect.flip((yield* Grants).create(grant("g1"), { now: NOW }))
        expect(refused).toMatchObject({ _tag: "ProtectedPathInGrant", path: c.path, root: WORK })
        // One walk of each root (the work root and the input root) before the lock, none under it.
        expect(walkedBefore).toBe(1 + grant("g1").inputs.length)
      }).pipe(Effect.provide(layerFor(dir, w)))
    })
  }
})
