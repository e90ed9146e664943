/**
 * An `init --store` stopped part way (a fault injected into the folder's writes, as a kill there
 * would leave it) never leaves a folder holding the shared dossier's state without its binding:
 * a pull into an empty folder stopped at any of its writes leaves the folder bound (or untouched),
 * an import stopped after its commit leaves the folder holding exactly the dossier's state, and in
 * every case `init --store` run again completes the bind (no `StoreConflict`) with the same
 * answers as the folder the dossier came from; a folder holding other state is still refused
 * (`StoreConflict`). Against the test's own throwaway cluster (skipped
 * with a note without the server binaries).
 */
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { bindFolder } from "../../src/commands/store.impl.js"
import { IoError } from "../../src/domain/Errors.js"
import { EvidenceKeyLive } from "../../src/layers/EvidenceKeyLive.js"
import { FileStoreLive } from "../../src/layers/FileStoreLive.js"
import { LockLive } from "../../src/layers/LockLive.js"
import { FileStore, type FileStoreShape } from "../../src/services/FileStore.js"
import { Workdir } from "../../src/services/Workdir.js"
import { putInput, runCli, runCliAsync, snapshot, tempWorkdir } from "../support/cli.js"
import { adminQuery, pgAvailable, useTestDatabase } from "../support/postgres.js"
import { ok, populated } from "./support/populated.js"

/** A fault in the folder's writes: the `at`-th write (1-based) fails, and every one after it. */
interface Faults {
  at: number
  writes: Array<string>
}

/** The folder's FileStore whose writes go through `faults` (counted, and failed from `faults.at` on). */
const faulty = (files: FileStoreShape, faults: Faults): FileStoreShape => {
  const gate = (kind: string, p: string) =>
    Effect.suspend(() => {
      faults.writes.push(`${kind} ${p}`)
      return faults.writes.length >= faults.at
        ? Effect.fail(new IoError({ path: p, operation: "write (injected fault)", code: "EIO" }))
        : Effect.void
    })
  const { writeRetainedMany, ...rest } = files
  return {
    ...rest,
    writeAtomic: (p, data) => Effect.zipRight(gate("writeAtomic", p), files.writeAtomic(p, data)),
    writeRetained: (p, data) => Effect.zipRight(gate("writeRetained", p), files.writeRetained(p, data)),
    ...(writeRetainedMany === undefined ? {} : {
      writeRetainedMany: (batch) =>
        Effect.zipRight(gate("writeRetainedMany", batch.map((f) => f.path).join(",")), writeRetainedMany(batch))
    }),
    append: (p, data) => Effect.zipRight(gate("append", p), files.append(p, data)),
    truncate: (p, size) => Effect.zipRight(gate("truncate", p), files.truncate(p, size)),
    remove: (p) => Effect.zipRight(gate("remove", p), files.remove(p))
  }
}

/** The work folder `dir` with its FileStore's writes under `faults`. */
const faultyBase = (dir: string, faults: Faults) =>
  Layer.mergeAll(LockLive, EvidenceKeyLive).pipe(
    Layer.provideMerge(Layer.effect(FileStore, Effect.map(FileStore, (files) => faulty(files, faults)))),
    Layer.provideMerge(FileStoreLive),
    Layer.provideMerge(Workdir.live(dir))
  )

/** `bindFolder` in `dir` with the folder's writes failing from the `at`-th on: its exit, and the writes tried. */
const bindWithFault = async (dir: string, url: string, dossier: string, at: number) => {
  const faults: Faults = { at, writes: [] }
  const exit = await Effect.runPromiseExit(Effect.provide(bindFolder(url, dossier), faultyBase(dir, faults)))
  return { exit, writes: faults.writes }
}

/** The read-only answers a folder gives (each its own CLI process). */
const answers = async (dir: string) => {
  const ask = (args: ReadonlyArray<string>) => runCliAsync([...args, "--workdir", dir, "--json"]).then((r) => r.json)
  const [plan, journals, s, monitor] = await Promise.all([
    ask(["plan", "inspect"]),
    ask(["journal", "list"]),
    ask(["journal", "inspect", "--study", "s"]),
    ask(["monitor", "list"])
  ])
  return { plan, journals, s, monitor }
}

const storeFile = (dir: string) => path.join(dir, ".dossier/store.json")

/** A new folder holding only a plan at revision 1 (goal "Theirs"). */
const populatedPlanOnly = () => {
  const dir = tempWorkdir("dossier-bind-theirs-")
  ok(runCli([
    "plan",
    "start",
    "--input",
    putInput(dir, "s.json", { goal: "Theirs", limits: [], nextAction: "n" }),
    "--workdir",
    dir,
    "--json"
  ]))
  return dir
}

describe.skipIf(!pgAvailable)("an interrupted init --store", () => {
  const db = useTestDatabase()

  it(
    "a pull into an empty folder stopped at any write leaves it bound or untouched; init --store again completes it",
    async () => {
      const a = await populated()
      const want = await answers(a)
      expect(want.plan.ok, JSON.stringify(want.plan)).toBe(true)
      ok(await runCliAsync(["init", "--store", db.url, "--dossier", "pulled", "--workdir", a, "--json"]))

      // The writes of a bind that is not stopped: a pull writes the view, then the binding.
      const clean = await bindWithFault(tempWorkdir("dossier-bind-clean-"), db.url, "pulled", Number.MAX_SAFE_INTEGER)
      expect(Exit.isSuccess(clean.exit), String(clean.exit)).toBe(true)
      const total = clean.writes.length
      expect(total).toBeGreaterThan(3)

      // Stopped at the first write, at one in the middle, at the last.
      for (const at of [...new Set([1, 2, Math.ceil(total / 2), total])]) {
        const dir = tempWorkdir(`dossier-bind-stopped-${at}-`)
        const stopped = await bindWithFault(dir, db.url, "pulled", at)
        expect(Exit.isFailure(stopped.exit), `stopped at write ${at}`).toBe(true)
        // Never the dossier's state without the binding: bound, or nothing written (the lock is not state).
        const files = fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((p) =>
          fs.statSync(path.join(dir, p)).isFile() && !/^\.dossier\/lock\.sqlite/.test(p)
        )
        expect(fs.existsSync(storeFile(dir)) || files.length === 0, `stopped at write ${at}: ${files.join(", ")}`)
          .toBe(true)
        const again = await runCliAsync(["init", "--store", db.url, "--dossier", "pulled", "--workdir", dir, "--json"])
        expect(ok(again).store, `stopped at write ${at}`).toMatchObject({ dossier: "pulled", imported: false })
        expect(await answers(dir), `stopped at write ${at}`).toEqual(want)
      }
    },
    600_000
  )

  it(
    "an import stopped after its commit: init --store again binds the folder, its state in the dossier once",
    async () => {
      const a = await populated()
      const want = await answers(a)
      // Every write to the folder fails: the binding (the import itself writes into the store).
      const stopped = await bindWithFault(a, db.url, "imported", 1)
      expect(Exit.isFailure(stopped.exit)).toBe(true)
      expect(fs.existsSync(storeFile(a))).toBe(false)
      const count = async () =>
        (await adminQuery(db.url, "SELECT count(*)::int AS n FROM dossier.events WHERE dossier = $1", ["imported"]))
          .rows[0]!.n as number
      const events = await count()
      expect(events).toBeGreaterThan(0)

      const again = ok(
        await runCliAsync(["init", "--store", db.url, "--dossier", "imported", "--workdir", a, "--json"])
      )
      expect(again.store).toMatchObject({ dossier: "imported" })
      expect(JSON.parse(fs.readFileSync(storeFile(a), "utf8"))).toMatchObject({ dossier: "imported" })
      expect(await count()).toBe(events)
      expect(await answers(a)).toEqual(want)
      // Another folder bound to it pulls the same state.
      const b = tempWorkdir("dossier-bind-other-")
      ok(await runCliAsync(["init", "--store", db.url, "--dossier", "imported", "--workdir", b, "--json"]))
      expect(await answers(b)).toEqual(want)

      // A folder whose plan is at the dossier's revision with other content is refused, unchanged.
      const mine = tempWorkdir("dossier-bind-mine-")
      ok(
        await runCliAsync([
          "plan",
          "start",
          "--input",
          putInput(mine, "s.json", { goal: "Mine", limits: [], nextAction: "n" }),
          "--workdir",
          mine,
          "--json"
        ])
      )
      const imported = ok(
        await runCliAsync([
          "init",
          "--store",
          db.url,
          "--dossier",
          "theirs",
          "--workdir",
          populatedPlanOnly(),
          "--json"
        ])
      )
      expect(imported.store).toMatchObject({ imported: true })
      const before = snapshot(mine)
      const r = await runCliAsync(["init", "--store", db.url, "--dossier", "theirs", "--workdir", mine, "--json"])
      expect({ code: r.code, tag: r.json?.error?._tag }).toEqual({ code: 1, tag: "StoreConflict" })
      expect(snapshot(mine)).toEqual(before)
    },
    600_000
  )
})
