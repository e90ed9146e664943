/**
 * Grants over the GrantStore and ExecutionStore ports (src/services/ports/), the Lock, and the
 * folder-side WorkTree (the roots' identities) and ExecFiles (the work root's creation). Every
 * write (create, revoke, narrow) runs under the lock across its read → check → write sequence;
 * every command first records as `lost` the runs whose `dossier exec` died.
 *
 * Over 400 lines: the six commands read one snapshot (grants, events, what each has spent, the
 * unreadable records) and share its chain and status helpers inside the layer's one closure.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import type { DossierError } from "../domain/AllErrors.js"
import { normalizeTimestamp } from "../domain/Canonical.js"
import { decodeWith } from "../domain/Decode.js"
import { InvalidInput, type IoError, type UnsafePath } from "../domain/Errors.js"
import {
  ConflictingGrant,
  ExecutionDigestMismatch,
  GrantDigestMismatch,
  GrantInactive,
  GrantNotFound,
  ProtectedPathInGrant
} from "../domain/ExecErrors.js"
import {
  checkContained,
  type CheckedPaths,
  checkNarrowing,
  checkPaths,
  derivedGrantId,
  effectiveDeadline,
  effectiveTerms,
  type GrantContent,
  type GrantEvent,
  GrantInput,
  grantState,
  inheritProtection,
  NarrowInput,
  overlaps,
  remainingBudget,
  type RootIdentity,
  sealGrant,
  type StoredGrant,
  unprotectedSpellings
} from "../domain/Grant.js"
import { checkIdOf, optionalNow, optionalText, readArgs, readOptions } from "../domain/Options.js"
import { normalizeRelative } from "../domain/Paths.js"
import { EvidenceKey } from "../services/EvidenceKey.js"
import { ExecFiles } from "../services/ExecFiles.js"
import { Grants, type GrantsShape, type GrantStatus } from "../services/Grants.js"
import { Lock } from "../services/Lock.js"
import { ExecutionStore } from "../services/ports/ExecutionStore.js"
import { GrantStore } from "../services/ports/GrantStore.js"
import { WorkTree } from "../services/WorkTree.js"
import { makeExecRecords, markersWalkedBefore, ownerAlive, refuseWorkFolderInside } from "./ExecRecords.js"
import { dateOr } from "./Now.js"
import { killSandboxes } from "./ProcessTree.js"
import { spellingFinder } from "./ProtectedSpellings.js"
import { spanned } from "./Spans.js"

const decodeInput = decodeWith(GrantInput)
const decodeNarrow = decodeWith(NarrowInput)
const fromEither = <A, E>(e: Either.Either<A, E>) => Either.match(e, { onLeft: Effect.fail, onRight: Effect.succeed })

export const GrantsLive = Layer.effect(
  Grants,
  Effect.gen(function*() {
    const grantStore = yield* GrantStore
    const folder = yield* ExecFiles
    const lock = yield* Lock
    const tree = yield* WorkTree
    const key = yield* EvidenceKey
    const xs = makeExecRecords(grantStore, yield* ExecutionStore, key, tree.clearSetIds)

    /** Every loadable grant with its events, and the ids of the damaged ones. */
    const snapshot = Effect.gen(function*() {
      const grants = new Map<string, { grant: StoredGrant; events: ReadonlyArray<GrantEvent> }>()
      const damaged: Array<{ id: string; error: string }> = []
      for (const id of yield* grantStore.ids) {
        const g = yield* Effect.either(xs.loadGrant(id))
        if (Either.isLeft(g)) {
          if (g.left._tag === "GrantDigestMismatch" || g.left._tag === "GrantNotFound") {
            damaged.push({ id, error: g.left._tag })
            continue
          }
          return yield* g.left
        }
        grants.set(id, { grant: g.right, events: yield* xs.grantEvents(id) })
      }
      const { byGrant: spent, unreadable } = yield* xs.spentByGrant
      return { grants, damaged, spent, unreadable }
    })
    type Snapshot = Effect.Effect.Success<typeof snapshot>

    /** The grant `id` and its ancestors that can be loaded, nearest first (stops at a cycle or a missing one). */
    const chainOf = (snap: Snapshot, id: string): Array<{ grant: StoredGrant; events: ReadonlyArray<GrantEvent> }> => {
      const out: Array<{ grant: StoredGrant; events: ReadonlyArray<GrantEvent> }> = []
      let next: string | null = id
      while (next !== null) {
        const entry = snap.grants.get(next)
        if (entry === undefined || out.some((c) => c.grant.id === next)) break
        out.push(entry)
        next = entry.grant.parent
      }
      return out
    }

    const statusIn = (snap: Snapshot, id: string, now: Date): Effect.Effect<GrantStatus, DossierError> =>
      Effect.gen(function*() {
        const chain: Array<{ grant: StoredGrant; events: ReadonlyArray<GrantEvent> }> = []
        let next: string | null = id
        while (next !== null) {
          const entry = snap.grants.get(next)
          if (entry === undefined) {
            const missing: string = next
            return yield* (snap.damaged.some((d) => d.id === missing)
              ? new GrantDigestMismatch({ grantId: missing })
              : new GrantNotFound({ grantId: missing }))
          }
          if (chain.some((c) => c.grant.id === next)) break
          chain.push(entry)
          next = entry.grant.parent
        }
        const self = chain[0]!
        const terms = effectiveTerms(self.grant, self.events)
        const children = [...snap.grants.values()].filter((g) => g.grant.parent === id)
        const remaining = remainingBudget(terms.budget, children.map((c) => c.grant.budget), snap.spent.get(id) ?? [])
        return {
          grant: self.grant,
          state: grantState(chain, remaining, now),
          deadline: effectiveDeadline(chain),
          budget: terms.budget,
          remaining,
          events: self.events,
          children: children.map((c) => c.grant.id),
          chain: chain.map((c) => c.grant.id)
        }
      })

    /** A record that does not decode is a run charged to no grant: no run admitted, no child carved. */
    const chargeable = (snap: Snapshot) =>
      snap.unreadable.length === 0
        ? Effect.void
        : Effect.fail(new ExecutionDigestMismatch({ executionId: snap.unreadable[0]! }))

    const fresh = (now: Date) => Effect.zipRight(xs.reapLost(now), snapshot)
    /** For show and list, which only read: reap lost runs only when the lock is held (see Lock.withReadLock). */
    const readSnapshot = (now: Date) => (held: boolean) => held ? fresh(now) : snapshot

    /** The identity of a root; a missing one is `InvalidInput` at its field of the input (`inputs.1`, `work`). */
    const identityOf = (path: string, field: string): Effect.Effect<RootIdentity, DossierError> =>
      tree.identity(path).pipe(
        Effect.catchTag("FileNotFound", () =>
          Effect.fail(
            new InvalidInput({
              issues: [{ path: field, message: `'${path}' is not an existing directory inside the work folder` }]
            })
          ))
      )
    /** The field of the input that names a root (normalized): the first entry of `inputs` that does. */
    const inputField = (input: GrantInput, root: string): string => {
      const i = input.inputs.findIndex((raw) => Either.getOrNull(normalizeRelative(raw)) === root)
      return i < 0 ? "inputs" : `inputs.${i}`
    }

    /** Every protected entry's spellings in the folder are protected too, or InvalidInput names the ones to add. */
    const checkSpellings = (input: GrantInput, paths: CheckedPaths) =>
      Effect.gen(function*() {
        const entries = paths.protected.map((p) => {
          const i = input.protected.findIndex((raw) => Either.getOrNull(normalizeRelative(raw)) === p)
          return { field: i < 0 ? "protected" : `protected.${i}`, path: p }
        })
        // A directory that cannot be listed spells nothing here; a spelling through a symlink is
        // not one of the folder's paths (exec refuses the run that meets it: UnsafePath).
        const find = spellingFinder((dir) => folder.list(dir).pipe(Effect.orElseSucceed(() => [])))
        const spellings = new Map<string, ReadonlyArray<string>>()
        for (const e of entries) {
          const found = yield* find(e.path, paths.inputs)
          spellings.set(e.path, found.filter((s) => !s.throughLink).map((s) => s.path))
        }
        const issues = unprotectedSpellings(entries, spellings)
        if (issues.length > 0) return yield* new InvalidInput({ issues: [...issues] })
      })

    // What can be refused without the grant records is refused before the lock, which would
    // create `.dossier/` in a folder without one.
    const create = (raw: unknown, now: Date) =>
      Effect.gen(function*() {
        const input = yield* fromEither(decodeInput(raw))
        const paths = yield* fromEither(checkPaths(input))
        if (Date.parse(input.deadline) <= now.getTime()) {
          return yield* new InvalidInput({ issues: [{ path: "deadline", message: "the deadline has already passed" }] })
        }
        const inputs: Array<RootIdentity> = []
        for (const p of paths.inputs) inputs.push(yield* identityOf(p, inputField(input, p)))
        yield* checkSpellings(input, paths)
        if (input.parent !== undefined) yield* xs.loadGrant(input.parent)
        // A child is signed here: its parent chain must be authentic, or an unsigned grant written
        // by hand into the folder could be laundered into a signed child.
        if (input.parent !== undefined) yield* xs.requireAuthentic(input.parent)
        // The roots' walks for a work folder's marker, before the lock; looked at again under it.
        const markers = yield* markersWalkedBefore(tree, [paths.work, ...paths.inputs])
        return yield* lock.withLock(createLocked(input, paths, inputs, markers, now))
      })

    const createLocked = (
      input: GrantInput,
      paths: CheckedPaths,
      inputs: ReadonlyArray<RootIdentity>,
      markers: (path: string) => Effect.Effect<ReadonlyArray<string>, IoError | UnsafePath>,
      now: Date
    ) =>
      Effect.gen(function*() {
        const id = input.id ?? derivedGrantId(input)
        const snap = yield* fresh(now)
        // The work root may not exist yet: check what exists of it now, create it last.
        const workNow = yield* Effect.either(tree.identity(paths.work))
        if (Either.isLeft(workNow) && workNow.left._tag !== "FileNotFound") return yield* workNow.left
        const contentWith = (work: RootIdentity): GrantContent => ({
          id,
          task: input.task,
          parent: input.parent ?? null,
          inputs,
          work,
          protected: protectedAll,
          tools: [...new Set(input.tools)],
          budget: input.budget,
          deadline: normalizeTimestamp(input.deadline),
          network: "offline",
          // A child of one candidate's grant is that candidate's unless it says otherwise (refused below).
          candidateId: input.candidateId ??
            (input.parent === undefined ? null : snap.grants.get(input.parent)?.grant.candidateId ?? null)
        })
        // A child hides what every ancestor hides; a root inside an ancestor's protected entry is refused.
        const ancestorChain = input.parent === undefined ? [] : chainOf(snap, input.parent)
        const protectedAll = yield* fromEither(
          inheritProtection(paths, ancestorChain.map((a) => a.grant))
        )
        const existing = snap.grants.get(id)
        if (existing !== undefined || snap.damaged.some((d) => d.id === id)) {
          if (existing === undefined || Either.isLeft(workNow)) return yield* new ConflictingGrant({ grantId: id })
          const same = sealGrant(contentWith(workNow.right)).digest === existing.grant.digest
          if (!same) return yield* new ConflictingGrant({ grantId: id })
          const st = yield* statusIn(snap, id, now)
          return { created: false, grant: { ...existing.grant, state: st.state } }
        }
        let ancestors: ReadonlyArray<string> = []
        if (input.parent !== undefined) {
          yield* chargeable(snap)
          const parent = yield* statusIn(snap, input.parent, now)
          if (parent.state !== "active") {
            return yield* new GrantInactive({ grantId: parent.grant.id, state: parent.state })
          }
          // Containment looks at paths only; the work root's identity is known once it exists.
          const child = contentWith(
            Either.isRight(workNow) ? workNow.right : { path: paths.work, device: "", inode: "" }
          )
          yield* fromEither(
            checkContained(child, { grant: parent.grant, deadline: parent.deadline, remaining: parent.remaining })
          )
          ancestors = parent.chain
        }
        // Another task's active work root is off limits (ancestors excepted: a child lives inside them).
        for (const other of snap.grants.values()) {
          if (other.grant.task === input.task || ancestors.includes(other.grant.id)) continue
          const st = yield* statusIn(snap, other.grant.id, now)
          if (st.state !== "active") continue
          for (const root of [...paths.inputs, paths.work]) {
            if (overlaps(root, other.grant.work.path)) {
              return yield* new ProtectedPathInGrant({ path: other.grant.work.path, root, reason: "other-task-work" })
            }
          }
        }
        if (Either.isRight(workNow)) yield* refuseWorkFolderInside(markers, paths.work)
        // An input root holding another work folder would show the run that folder's records.
        for (const input of paths.inputs) yield* refuseWorkFolderInside(markers, input)
        if (Either.isLeft(workNow)) {
          yield* folder.ensureDir(paths.work)
        }
        const work = yield* identityOf(paths.work, "work")
        const sealed = sealGrant(contentWith(work))
        const stored = { ...sealed, signature: yield* key.sign("grant", sealed.digest) }
        yield* grantStore.create(stored)
        const snapAfter = yield* snapshot
        const st = yield* statusIn(snapAfter, id, now)
        return { created: true, grant: { ...stored, state: st.state } }
      })

    const show = (id: string, now: Date) =>
      lock.withReadLock((held) =>
        Effect.flatMap(
          readSnapshot(now)(held),
          (snap) => Effect.map(statusIn(snap, id, now), (st) => ({ ...st, unreadableExecutions: snap.unreadable }))
        )
      )

    const list = (now: Date) =>
      lock.withReadLock((held) =>
        Effect.gen(function*() {
          const snap = yield* readSnapshot(now)(held)
          const grants = []
          const damaged = [...snap.damaged]
          for (const id of snap.grants.keys()) {
            const st = yield* Effect.either(statusIn(snap, id, now))
            // A grant whose ancestor is damaged or missing has no state: listed with what
            // `grant show` answers for it, never left out.
            if (Either.isLeft(st)) {
              damaged.push({ id, error: st.left._tag })
              continue
            }
            const { grant, events: _e, chain: _c, ...rest } = st.right
            grants.push({ id, task: grant.task, parent: grant.parent, ...rest })
          }
          const sorted = damaged.sort((a, b) => a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
          return { grants, damaged: sorted, unreadableExecutions: snap.unreadable }
        })
      )

    const descendantsOf = (snap: Snapshot, id: string): Array<string> => {
      const out: Array<string> = []
      const queue = [id]
      while (queue.length > 0) {
        const p = queue.shift()!
        for (const g of snap.grants.values()) {
          if (g.grant.parent === p && !out.includes(g.grant.id) && g.grant.id !== id) {
            out.push(g.grant.id)
            queue.push(g.grant.id)
          }
        }
      }
      return out
    }

    // revoke and narrow refuse an unknown grant before taking the lock, which would create
    // `.dossier/` in a folder without one.
    const revoke = (id: string, reason: string | null, now: Date) =>
      Effect.zipRight(
        xs.loadGrant(id),
        lock.withLock(Effect.gen(function*() {
          const snap = yield* fresh(now)
          const before = yield* statusIn(snap, id, now)
          const affected: Array<string> = []
          for (const g of [id, ...descendantsOf(snap, id)]) {
            const st = yield* Effect.either(statusIn(snap, g, now))
            if (Either.isRight(st) && st.right.state !== "revoked") affected.push(g)
          }
          const appended = before.state !== "revoked" || !before.events.some((e) => e.type === "revoked")
          if (appended) {
            yield* grantStore.appendEvent(
              id,
              { type: "revoked", at: now.toISOString(), reason },
              before.events.length
            )
          }
          // A revocation ends the runs in flight of the grant and its descendants at once, whatever
          // the `dossier exec` (or MCP server) that started them is doing; it records them `killed`.
          const ended = new Set([id, ...descendantsOf(snap, id)])
          for (const m of yield* xs.runningMarkers) {
            if (ended.has(m.grantId) && ownerAlive(m.owner)) killSandboxes(m.owner.pid, ended)
          }
          const after = yield* statusIn(yield* snapshot, id, now)
          return { grant: after, appended, revoked: affected }
        }))
      )

    const narrow = (id: string, raw: unknown, now: Date) =>
      Effect.gen(function*() {
        const input = yield* fromEither(decodeNarrow(raw))
        if (input.deadline === undefined && (input.budget === undefined || Object.keys(input.budget).length === 0)) {
          return yield* new InvalidInput({
            issues: [{ path: "", message: "give a deadline or at least one budget figure" }]
          })
        }
        yield* xs.loadGrant(id)
        return yield* lock.withLock(narrowLocked(id, input, now))
      })

    const narrowLocked = (id: string, input: NarrowInput, now: Date) =>
      Effect.gen(function*() {
        const snap = yield* fresh(now)
        const st = yield* statusIn(snap, id, now)
        const own = effectiveTerms(st.grant, st.events)
        yield* fromEither(checkNarrowing(own, input))
        yield* grantStore.appendEvent(id, {
          type: "narrowed",
          at: now.toISOString(),
          deadline: input.deadline === undefined ? null : normalizeTimestamp(input.deadline),
          budget: input.budget ?? {},
          reason: input.reason ?? null
        }, st.events.length)
        return yield* statusIn(yield* snapshot, id, now)
      })

    const status = (id: string, now: Date) =>
      Effect.flatMap(snapshot, (snap) => Effect.tap(statusIn(snap, id, now), () => chargeable(snap)))

    // The public methods: arguments and options checked first (src/domain/Options.ts), a
    // malformed grant id is InvalidInput (src/domain/Ids.ts), `now` defaults to the clock.
    const nowOnly = { now: optionalNow }
    const grantId = (id: unknown) => checkIdOf("grant", id, "grant")
    const call = <A, B>(args: Either.Either<A, InvalidInput>, f: (a: A) => Effect.Effect<B, DossierError>) =>
      Effect.flatMap(fromEither(args), f)
    return spanned("Grants")(
      {
        create: (raw, options) =>
          call(readOptions(options, nowOnly), (o) => Effect.flatMap(dateOr(o.now), (now) => create(raw, now))),
        show: (id, options) =>
          call(
            readArgs(grantId(id), readOptions(options, nowOnly)),
            ([g, o]) => Effect.flatMap(dateOr(o.now), (now) => show(g, now))
          ),
        list: (options) => call(readOptions(options, nowOnly), (o) => Effect.flatMap(dateOr(o.now), list)),
        revoke: (id, options) =>
          call(
            readArgs(grantId(id), readOptions(options, { now: optionalNow, reason: optionalText })),
            ([g, o]) => Effect.flatMap(dateOr(o.now), (now) => revoke(g, o.reason ?? null, now))
          ),
        narrow: (id, raw, options) =>
          call(
            readArgs(grantId(id), readOptions(options, nowOnly)),
            ([g, o]) => Effect.flatMap(dateOr(o.now), (now) => narrow(g, raw, now))
          ),
        status: (id, options) =>
          call(
            readArgs(grantId(id), readOptions(options, nowOnly)),
            ([g, o]) => Effect.flatMap(dateOr(o.now), (now) => status(g, now))
          )
      } satisfies GrantsShape
    )
  })
)
