/**
 * `dossier init --store`, `dossier store status`, `dossier pull`, `dossier export --to` (loaded
 * lazily). Every copy goes through StoreTransfer (src/layers/StoreTransfer.ts) over the ports;
 * the shared dossier's side of a copy is `pgSide` (src/layers/StoreBinding.ts: the PostgreSQL
 * adapters). The URL a command shows or writes is always the one without its password.
 *
 * Over 400 lines: the four commands share the binding's checks, the transfer report's text and
 * the refusals' mapping, and `export --to`'s target (made, locked, put back on failure) is only
 * its own.
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as fs from "node:fs"
import * as path from "node:path"
import { UsageError } from "../domain/CliErrors.js"
import { IoError, LockTimeout } from "../domain/Errors.js"
import type { StoreBinding } from "../domain/StoreBinding.js"
import { BindingRefused, StoreConflict } from "../domain/StoreErrors.js"
import { DOSSIER_NAME, DOSSIER_NAME_RULE, isMalformed, parseStoreUrl, type StoreUrl } from "../domain/StoreUrl.js"
import { BaseLive } from "../layers/Base.js"
import { readBinding, writeBinding } from "../layers/BindingFile.js"
import { ownerAlive } from "../layers/ExecRecords.js"
import { makeGateAttemptsFolder } from "../layers/folder/GateAttemptsFolder.js"
import { copyAttempts } from "../layers/GateAttemptsTransfer.js"
import { LOCK_FILE } from "../layers/LockLive.js"
import { adoptPlanView, planViewOf } from "../layers/PlanViewFile.js"
import { makeGateAttemptsPostgres } from "../layers/postgres/GateAttemptsPostgres.js"
import { refusedByServer } from "../layers/postgres/PgErrors.js"
import { makePgLock } from "../layers/postgres/PgLock.js"
import { dossierExists } from "../layers/postgres/PgSchema.js"
import type { PgStoreShape } from "../layers/postgres/PgStore.js"
import { stateOf, withStore } from "../layers/StoreBinding.js"
import { pgSide, pullInto, withAttempts } from "../layers/StorePull.js"
import {
  folderSide,
  folderSideHere,
  sameState,
  sideHoldsState,
  type StoreSide,
  transfer,
  type TransferDivergence,
  type TransferReport
} from "../layers/StoreTransfer.js"
import { FileStore } from "../services/FileStore.js"
import { Lock, LOCK_WAIT_MS, type LockShape } from "../services/Lock.js"
import type { GateAttemptsShape } from "../services/ports/GateAttempts.js"
import { Workdir } from "../services/Workdir.js"
import { prepare } from "./init.impl.js"
import { work } from "./Work.js"

const bound = Effect.flatMap(FileStore, readBinding)

/**
 * `withStore` for the command `command` (as typed after `dossier`): a server that refuses the
 * role's privileges, its credentials or names no such database is `BindingRefused`, as in every
 * bound folder's command (`refusedByServer`).
 */
const over = (command: string) =>
<A, E>(
  url: string,
  dossier: string,
  mode: "read" | "write",
  f: Parameters<typeof withStore<A, E>>[3],
  options: Parameters<typeof withStore<A, E>>[4] = {}
) => Effect.mapError(withStore(url, dossier, mode, f, options), refusedByServer(command, dossier))

/**
 * Before `pull` or `export` copies from the shared dossier: one the store does not hold (its name
 * mistyped in the binding, or the dossier removed on the server) has nothing to copy, and a copy
 * of nothing would answer as if this folder's view were the dossier's: `BindingRefused
 * no-dossier`, nothing written (a reader's query: no write is sent).
 */
const dossierHeld = (command: string, dossier: string) => (store: PgStoreShape) =>
  Effect.flatMap(
    store.mapErrors(dossierExists(store.sql, dossier)),
    (exists) => exists ? Effect.void : Effect.fail(new BindingRefused({ command, dossier, reason: "no-dossier" }))
  )

const reportText = (r: TransferReport) =>
  [
    `plan: ${r.plan.revision === null ? "none" : `revision ${r.plan.revision}`}${r.plan.copied ? " (copied)" : ""}`,
    `captures: ${r.captures} record(s); journals: ${
      r.journals.map((j) => `${j.study} +${j.events}`).join(", ") || "nothing new"
    }`,
    `monitor: ${r.subscriptions} subscription(s), ${r.runs} run(s), ${r.reports} report(s)`,
    `grants: ${r.grants} record(s), ${r.grantEvents} event(s); executions: ${r.executions} record(s)`,
    `files: ${r.files.copied} copied, ${r.files.same} already there`,
    ...(r.kept.length === 0 ? [] : [`kept (other bytes there, not overwritten): ${r.kept.join(", ")}`]),
    ...(r.kept.includes("plan.md")
      ? ["plan.md holds edits the store does not: move it aside (or merge the edits into the plan), then pull"]
      : []),
    ...(r.missing.length === 0 ? [] : [`missing at the source: ${r.missing.join(", ")}`]),
    ...(r.skipped.length === 0 ? [] : [`skipped (dossier's own files here, never a record's): ${r.skipped.join(", ")}`])
  ].join("\n")

// -------------------------------------------------------------------------------------------------
// init --store

/** What `init --store` adds to init's answer. */
export interface Bound {
  readonly kind: "postgres"
  readonly url: string
  readonly dossier: string
  /** This folder's state was imported into the new shared dossier. */
  readonly imported: boolean
  /** The shared dossier's state was brought into this (empty) folder. */
  readonly pulled: boolean
}

/** Whether a transfer (a pull) brought anything into the folder. */
const broughtAny = (r: TransferReport) =>
  r.plan.copied || r.captures > 0 || r.journals.length > 0 || r.subscriptions > 0 || r.runs > 0 || r.reports > 0 ||
  r.grants > 0 || r.grantEvents > 0 || r.executions > 0 || r.files.copied > 0

/**
 * A pull (`dossier pull`, `init --store` of a folder bound already) that cannot bring this folder's
 * view up to the dossier: the record of the view that the dossier does not hold, said from the
 * folder's side (the transfer's destination) and the dossier's (its source).
 */
const viewConflict = (dossier: string, d: TransferDivergence) =>
  new StoreConflict({
    dossier,
    part: d.divergence.part,
    key: d.divergence.key,
    reason: d.divergence.reason.replace(/the destination/g, "this folder").replace(/the source/g, "the dossier")
  })

/**
 * Bind the folder: connect (creating the schema and the dossier when new), then import a folder
 * that holds state into a dossier that has none (`StoreConflict` when both hold state, unless the
 * folder holds exactly the dossier's state), or pull a dossier that has state into an empty folder.
 *
 * Stopped at any point (a kill, a fault), it never leaves the dossier's state in an unbound
 * folder, which every later bind would refuse: a pull writes the binding before the view (a pull
 * stopped part way leaves a bound folder whose view is behind, which `init --store` again, `pull`
 * or the next command completes), and an import writes it after its commit (an import stopped
 * before the binding leaves the folder holding exactly the dossier's state, which `init --store`
 * again binds as it is).
 *
 * The whole bind holds the folder's lock, from reading the binding to writing it: two binds of
 * one folder at once (two hosts' `init --store` over a shared disk, a retry while the first still
 * runs) take turns, so the second finds the first's binding (the same: a refresh; another
 * dossier: `bound-elsewhere`) and never imports the folder into a dossier it is not bound to.
 */
export const bindFolder = (url: string, dossier: string) =>
  Effect.gen(function*() {
    const parsed = parseStoreUrl(url)
    if (isMalformed(parsed)) return yield* new UsageError({ detail: parsed.malformed })
    if (!DOSSIER_NAME.test(dossier)) {
      return yield* new UsageError({ detail: DOSSIER_NAME_RULE })
    }
    // A plain `dossier exec` whose run is under way in this folder took the lock before its run
    // and takes it again after, to write its record: bound in between, that record would reach
    // the folder only. So the bind waits for such a run to end (the lock let go meanwhile, for the
    // run's record), bounded as any wait for another writer (`LockTimeout`, retryable).
    const lock = yield* Lock
    const started = yield* Clock.currentTimeMillis
    for (;;) {
      const bound = yield* lock.withLock(Effect.scoped(bindLocked(parsed, dossier)))
      if (bound !== RUN_IN_FLIGHT) return bound
      const waited = (yield* Clock.currentTimeMillis) - started
      if (waited >= LOCK_WAIT_MS) return yield* new LockTimeout({ waitedMs: waited })
      yield* Effect.sleep(Duration.millis(RUN_POLL_MS))
    }
  })

/** What `bindLocked` answers, binding nothing, for a folder where a plain `exec` has a run under way. */
const RUN_IN_FLIGHT = Symbol("run in flight")
const RUN_POLL_MS = 200

/** Whether a run of a plain `dossier exec` is under way in the folder `here` (a marker whose process lives). */
const runInFlight = (here: StoreSide) =>
  Effect.map(here.executions.markers, (markers) => markers.some((m) => ownerAlive(m.owner)))

/** `bindFolder` once the URL and name are checked, under the folder's lock. */
const bindLocked = (parsed: StoreUrl, dossier: string) =>
  Effect.gen(function*() {
    const files = yield* FileStore
    const binding: StoreBinding = { kind: "postgres", url: parsed.shown, dossier }
    const existing = yield* readBinding(files)
    const here = yield* folderSideHere
    if (Option.isSome(existing)) {
      if (existing.value.url === binding.url && existing.value.dossier === dossier) {
        // Bound already (perhaps by a bind stopped during its pull): the view brought up to the
        // store, as a reader; a store without this version's schema (a new database named by the
        // same URL, an older schema) is created or migrated first, as the first bind did.
        const refresh = (mode: "read" | "write") =>
          over("init")(parsed.connect, dossier, mode, (store) =>
            store.schemaCurrent
              ? pullInto(store, files, here).pipe(
                Effect.catchTag("TransferDivergence", (d) => Effect.fail(viewConflict(dossier, d)))
              )
              : Effect.succeed(null), { anySchema: true })
        const report = (yield* refresh("read")) ?? (yield* refresh("write"))
        return { ...binding, imported: false, pulled: report !== null && broughtAny(report) } satisfies Bound
      }
      // The command line is well-formed: the folder's binding refuses it (export, then bind the copy).
      return yield* new BindingRefused({ command: "init", dossier: existing.value.dossier, reason: "bound-elsewhere" })
    }
    if (yield* runInFlight(here)) return RUN_IN_FLIGHT
    const holds = yield* sideHoldsState(here)
    const done = yield* over("init")(parsed.connect, dossier, "write", (store) =>
      Effect.gen(function*() {
        const state = yield* stateOf(store)
        const conflict = () => new StoreConflict({ dossier })
        const folderAttempts = makeGateAttemptsFolder(files)
        const storeAttempts = makeGateAttemptsPostgres(store)
        if (holds && state.hasState) {
          // Only a folder holding exactly the dossier's state (an import stopped after its commit,
          // or an export of this dossier) is bound as it is: nothing of either is lost.
          // A side that cannot be read whole (a damaged record) is not the same; the store out of reach is said.
          const same = yield* sameState(here, yield* pgSide(store, files)).pipe(
            Effect.catchIf(
              (e) => e._tag !== "StoreUnavailable" && e._tag !== "LockTimeout",
              () => Effect.succeed(false)
            )
          )
          if (!same) return yield* conflict()
          yield* makePgLock(store).withLock(copyAttempts(folderAttempts, storeAttempts))
          yield* here.lock.withLock(copyAttempts(storeAttempts, folderAttempts))
          // plan.md is the dossier's plan: the view's copy from now on (src/layers/PlanViewFile.ts).
          yield* here.lock.withLock(adoptPlanView(files))
          yield* writeBinding(files, binding)
          return { imported: false, pulled: false }
        }
        if (holds) {
          const to = yield* pgSide(store, files)
          yield* transfer(here, to, "fresh").pipe(Effect.catchTag("TransferDivergence", () => Effect.fail(conflict())))
          // The plan.md imported is the view's copy from now on (src/layers/PlanViewFile.ts).
          yield* here.lock.withLock(adoptPlanView(files))
        } else if (state.hasState) {
          // The binding before the view (see above).
          yield* writeBinding(files, binding)
          const from = yield* pgSide(store, files)
          yield* transfer(from, { ...here, planView: planViewOf(files) }, "fresh").pipe(
            Effect.catchTag("TransferDivergence", () => Effect.fail(conflict()))
          )
        }
        // The gate's attempts logs go with the rest (a log is append-only: only what is missing).
        if (!state.hasState) {
          yield* makePgLock(store).withLock(copyAttempts(folderAttempts, storeAttempts))
        } else {
          yield* here.lock.withLock(copyAttempts(storeAttempts, folderAttempts))
        }
        // An import's binding once its commit is made.
        if (!state.hasState) yield* writeBinding(files, binding)
        return { imported: holds, pulled: !holds && state.hasState }
      }))
    return { ...binding, ...done } satisfies Bound
  })

/** `init --store`: bind first (nothing changes when that is refused), then the folders. */
export const initStore = (workdir: string, url: string, dossier: string) =>
  work({
    effect: Effect.gen(function*() {
      const store = yield* bindFolder(url, dossier)
      const prepared = yield* prepare
      return { ...prepared, store }
    }),
    layer: BaseLive(workdir),
    human: (r) =>
      `bound to dossier '${r.store.dossier}' at ${r.store.url}${
        r.store.imported ? ": this folder's state imported" : r.store.pulled ? ": its state pulled here" : ""
      }${r.created ? `\ncreated ${r.paths.join(", ")}` : ""}`
  })

// -------------------------------------------------------------------------------------------------
// store status

export const status = (o: { readonly workdir: string }) =>
  work({
    effect: Effect.gen(function*() {
      const binding = yield* bound
      if (Option.isNone(binding)) {
        return { bound: false, store: null }
      }
      const b = binding.value
      const state = yield* over("store status")(b.url, b.dossier, "read", stateOf, { anySchema: true })
      return {
        bound: true,
        store: {
          kind: b.kind,
          url: b.url,
          dossier: b.dossier,
          schema: state.schema,
          exists: state.exists,
          reachable: true
        }
      }
    }),
    layer: BaseLive(o.workdir),
    human: (r) =>
      r.store === null
        ? "unbound: this folder is the dossier (dossier init --store <url> --dossier <text> binds it)"
        : `bound to dossier '${r.store.dossier}' at ${r.store.url} (${r.store.kind}); reachable; schema version ${r.store.schema.version} (this dossier knows up to ${r.store.schema.supported})${
          r.store.exists ? "" : "; the dossier does not exist yet"
        }`
  })

// -------------------------------------------------------------------------------------------------
// pull

export const pull = (o: { readonly workdir: string }) =>
  work({
    effect: Effect.gen(function*() {
      const binding = yield* bound
      if (Option.isNone(binding)) {
        return yield* new BindingRefused({ command: "pull", dossier: null, reason: "unbound" })
      }
      const b = binding.value
      const files = yield* FileStore
      const here = yield* folderSideHere
      const report = yield* over("pull")(b.url, b.dossier, "read", (store) =>
        Effect.zipRight(
          dossierHeld("pull", b.dossier)(store),
          pullInto(store, files, here).pipe(
            Effect.catchTag("TransferDivergence", (d) => Effect.fail(viewConflict(b.dossier, d)))
          )
        ))
      return { dossier: b.dossier, transfer: report }
    }).pipe(Effect.scoped),
    layer: BaseLive(o.workdir),
    human: (r) => `pulled dossier '${r.dossier}'\n${reportText(r.transfer)}`
  })

// -------------------------------------------------------------------------------------------------
// export --to

/** Where a path would be once made: the real path of its deepest existing ancestor, and the rest. */
const wouldBe = (target: string): string => {
  let existing = target
  const rest: Array<string> = []
  while (!fs.existsSync(existing) && path.dirname(existing) !== existing) {
    rest.unshift(path.basename(existing))
    existing = path.dirname(existing)
  }
  return path.join(fs.realpathSync(existing), ...rest)
}

/** Every path under `dir` (relative, `/`), links not followed: what a target held before. */
const entriesUnder = (dir: string): Set<string> => {
  const out = new Set<string>()
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const p = rel === "" ? e.name : `${rel}/${e.name}`
      out.add(p)
      if (e.isDirectory()) walk(p)
    }
  }
  walk("")
  return out
}

/**
 * The folder an export writes into, and the first folder the export made on the way (undefined:
 * the target was there). A failed export puts the file system back as it found it (`undoUnder`,
 * `putBack`): in the target, the entries it added are removed (what was there is left as it
 * was); a folder it made, with the parents it made, is removed once it holds nothing else.
 */
interface Target {
  readonly path: string
  readonly made: string | undefined
  /** What the target held before the export (nothing when it made it). */
  readonly prior: ReadonlySet<string>
}

/** A path as output shows it: relative to the work folder (its real path), with `/`. */
const shownFrom = (home: string, target: string): string => path.relative(home, target).split(path.sep).join("/")

/**
 * The folder `--to` names, made if missing (relative: to the current directory). Neither the work
 * folder nor a folder inside it (a copy there would write into the folder it copies: its write-once
 * sources, its private state), checked before anything is made.
 */
const targetOf = (to: string, root: string) =>
  Effect.gen(function*() {
    const target = path.resolve(process.cwd(), to)
    const home = fs.realpathSync(root)
    // Named as `to` is in the answer: relative to the work folder, never as an absolute path.
    const io = (e: unknown) =>
      new IoError({
        path: shownFrom(home, target),
        operation: "mkdir",
        code: (e as NodeJS.ErrnoException).code ?? "EIO"
      })
    const planned = yield* Effect.try({ try: () => wouldBe(target), catch: io })
    if (planned === root || planned === home) {
      return yield* new UsageError({ detail: "--to names the work folder itself; give another folder" })
    }
    if (planned.startsWith(`${home}${path.sep}`)) {
      return yield* new UsageError({
        detail: "--to names a folder inside the work folder; give a folder outside it"
      })
    }
    return yield* Effect.try({
      // mkdirSync answers the first folder it made (undefined when the target was there).
      try: (): Target => {
        const made = fs.mkdirSync(target, { recursive: true })
        const real = fs.realpathSync(target)
        return { path: real, made, prior: made === undefined ? entriesUnder(real) : new Set<string>() }
      },
      catch: io
    })
  })

/** The destination's lock files, which taking its lock makes: not what an export adds. */
const isLockFile = (p: string) => p === ".dossier" || p.startsWith(`${LOCK_FILE}`)

/**
 * Run `copy` under the destination's lock, and, when it fails, remove what it added there before
 * the lock is released: what the target holds is read once the lock is held, so another export
 * into the same folder at once (which takes turns on that lock) keeps what it wrote, whichever
 * fails. A refusal of the target (`BindingRefused`: it holds state, or is bound) added nothing.
 */
const undoUnder = <A, E, R>(target: Target, lock: LockShape, copy: Effect.Effect<A, E, R>) =>
  lock.withLock(Effect.suspend(() => {
    const before = entriesUnder(target.path)
    const undo = Effect.sync(() => {
      for (const p of [...entriesUnder(target.path)].reverse()) {
        if (!before.has(p)) fs.rmSync(path.join(target.path, p), { recursive: true, force: true })
      }
    })
    return Effect.onError(copy, () => Effect.catchAllDefect(undo, () => Effect.void))
  }))

/**
 * After a failed export, once the destination's lock is released: a folder it made (and the
 * parents it made) is removed, and in one that was there, the lock files taking the lock made;
 * both only when the target holds nothing else it did not hold before, so never when another
 * export wrote into it meanwhile.
 */
const putBack = (target: Target) =>
  Effect.catchAllDefect(
    Effect.sync(() => {
      if (!fs.existsSync(target.path)) return
      const added = [...entriesUnder(target.path)].filter((p) => !target.prior.has(p))
      if (!added.every(isLockFile)) return
      if (target.made !== undefined) fs.rmSync(target.made, { recursive: true, force: true })
      else for (const p of added.reverse()) fs.rmSync(path.join(target.path, p), { recursive: true, force: true })
    }),
    () => Effect.void
  )

export const exportTo = (o: { readonly workdir: string; readonly to: string }) => {
  const copyInto = (target: Target, shown: string, binding: Option.Option<StoreBinding>) =>
    Effect.gen(function*() {
      const files = yield* FileStore
      const dest = yield* folderSide(target.path)
      // The command line is well-formed: the folder it names refuses the copy (exit 1).
      const refused = (reason: "target-state" | "target-bound") =>
        new BindingRefused({
          command: "export",
          dossier: Option.isSome(binding) ? binding.value.dossier : null,
          reason,
          target: shown
        })
      const copy = (from: StoreSide) =>
        transfer(from, dest, "fresh").pipe(
          Effect.catchTag("TransferDivergence", () => Effect.fail(refused("target-state")))
        )
      const attemptsInto = (from: GateAttemptsShape) => (r: TransferReport) =>
        Effect.map(
          dest.lock.withLock(copyAttempts(from, makeGateAttemptsFolder(dest.files))),
          (a) => withAttempts(r, a)
        )
      return yield* undoUnder(
        target,
        dest.lock,
        Effect.gen(function*() {
          if (Option.isSome(yield* readBinding(dest.files))) return yield* refused("target-bound")
          return Option.isNone(binding)
            ? yield* Effect.flatMap(
              Effect.flatMap(folderSideHere, copy),
              attemptsInto(makeGateAttemptsFolder(files))
            )
            : yield* over("export")(
              binding.value.url,
              binding.value.dossier,
              "read",
              (store) =>
                Effect.zipRight(
                  dossierHeld("export", binding.value.dossier)(store),
                  Effect.flatMap(
                    Effect.flatMap(pgSide(store, files), copy),
                    attemptsInto(makeGateAttemptsPostgres(store))
                  )
                )
            )
        })
      )
    }).pipe(Effect.scoped)
  return work({
    effect: Effect.gen(function*() {
      const { root } = yield* Workdir
      const binding = yield* Effect.flatMap(FileStore, readBinding)
      const target = yield* targetOf(o.to, root)
      // Never an absolute path in an answer: the folder as seen from the work folder.
      const shown = shownFrom(fs.realpathSync(root), target.path)
      // A failed (or interrupted) export leaves the file system as it found it: what it added to
      // the target is removed under the destination's lock, then a folder it made (or the lock
      // files it made) once the copy's scope has closed (the lock released), if nothing else is
      // left that was not there before.
      const report = yield* Effect.onError(copyInto(target, shown, binding), () => putBack(target))
      return { to: shown, transfer: report }
    }),
    layer: BaseLive(o.workdir),
    human: (r) => `exported to ${r.to}\n${reportText(r.transfer)}`
  })
}
