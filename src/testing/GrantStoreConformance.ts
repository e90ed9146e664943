/**
 * The GrantStore conformance suite: the contracts of the GrantStore and ExecutionStore ports
 * (src/services/ports/GrantStore.ts, src/services/ports/ExecutionStore.ts) as assertions any
 * adapter pair must pass — the folder's (on disk and over the in-memory tree) and the memory's do
 * (test/exec/GrantStore.conformance.test.ts), and a SQL one should:
 *
 *   it.effect("my stores conform", () => GrantStoreConformance.check(myAdapters))
 *   it.effect.prop("my grant events' compare-and-set", { steps: GrantStoreConformance.steps },
 *     ({ steps }) => GrantStoreConformance.checkSteps(myAdapters, steps))
 *
 * `make` builds a fresh, empty pair of stores (in a scope: close it to dispose of a temporary
 * folder). A failure is `ConformanceMismatch` naming what differed.
 */
import * as Effect from "effect/Effect"
import * as fc from "effect/FastCheck"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import { createHash } from "node:crypto"
import {
  type ExecutionContent,
  executionPaths,
  type ExecutionRecord,
  type RunningMarker,
  sealExecution
} from "../domain/Execution.js"
import { type GrantContent, type GrantEvent, sealGrant, type StoredGrant } from "../domain/Grant.js"
import type { ExecutionStoreShape } from "../services/ports/ExecutionStore.js"
import type { GrantStoreShape } from "../services/ports/GrantStore.js"
import { ConformanceMismatch, outcomeFields as outcome, same } from "./Conformance.js"

export { ConformanceMismatch }

/** A fresh pair of stores to check. */
export interface GrantStoresUnderTest {
  readonly grants: GrantStoreShape<unknown>
  readonly executions: ExecutionStoreShape<unknown>
}

export type Make = () => Effect.Effect<GrantStoresUnderTest, unknown, Scope.Scope>

const tagOf = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.map(outcome(effect), (o) => (o as { error?: string }).error ?? "ok")

const stale = (expected: number, actual: number) => ({
  error: "StaleRevision",
  _tag: "StaleRevision",
  expected,
  actual
})

const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex")
const utf8 = (s: string) => new Uint8Array(Buffer.from(s, "utf8"))
/** Bytes as hex, so that a Buffer and a Uint8Array holding the same bytes compare equal. */
const hexOf = (bytes: Option.Option<Uint8Array>) => Option.map(bytes, (b) => Buffer.from(b).toString("hex"))

/** A sealed grant as `grant create` stores one (unsigned: signatures are the logic's). */
export const grantOf = (id: string, task = "task", parent: string | null = null): StoredGrant => {
  const content: GrantContent = {
    id,
    task,
    parent,
    inputs: [{ path: "research/e/data", device: "2049", inode: "131" }],
    work: { path: `research/e/runs/${id}`, device: "2049", inode: "977" },
    protected: [".dossier", "research/e/secret"],
    tools: ["read", "bash"],
    budget: { runs: 3, wallSeconds: 60, cpuSeconds: 30, memoryMiB: 256, outputMiB: 8 },
    deadline: "2030-01-01T00:00:00.000Z",
    network: "offline",
    candidateId: null
  }
  return sealGrant(content)
}

const limits = { wallSeconds: 60, cpuSeconds: 30, memoryMiB: 256, processes: 64, fileMiB: 8 }

/** An in-flight marker as admission writes one. */
export const markerOf = (id: string, grantId = "g1"): RunningMarker => ({
  id,
  grantId,
  grantDigest: "0".repeat(64),
  task: "task",
  candidateId: null,
  argv: ["python3", "run.py", "--seed", "1"],
  startedAt: "2026-01-02T03:04:05.000Z",
  owner: { pid: 4242, startTicks: "123456" },
  limits
})

/** A sealed record as exec writes one (its logs named where the format puts them). */
export const recordOf = (id: string, grantId = "g1", exitCode = 0): ExecutionRecord => {
  const paths = executionPaths(id)
  const { owner: _owner, signature: _signature, ...run } = markerOf(id, grantId)
  const content: ExecutionContent = {
    ...run,
    endedAt: "2026-01-02T03:04:09.500Z",
    status: "exited",
    exitCode,
    signal: null,
    reason: null,
    detail: null,
    cpuSeconds: 1.25,
    maxRssKiB: 20480,
    wallSeconds: 4.5,
    stdout: { path: paths.stdout, bytes: 3, sha256: sha(utf8("ok\n")), truncated: false },
    stderr: { path: paths.stderr, bytes: 0, sha256: sha(new Uint8Array(0)), truncated: false },
    outputs: [{ path: `research/e/runs/${grantId}/out.csv`, bytes: 4, sha256: sha(utf8("1,2\n")) }],
    ignored: [],
    enforcement: { memory: "run" },
    memoryPeakKiB: 20000,
    outputBytes: 4,
    findings: []
  }
  return sealExecution(content)
}

const narrowed = (n: number): GrantEvent => ({
  type: "narrowed",
  at: `2026-01-0${1 + (n % 9)}T00:00:00.000Z`,
  deadline: null,
  budget: { runs: 2 },
  reason: `step ${n}`
})
const revoked: GrantEvent = { type: "revoked", at: "2026-01-05T00:00:00.000Z", reason: null }

const X1 = "x-20260102T030405-0000000a"
const X2 = "x-20260102T030405-0000000b"
const X3 = "x-20260102T030406-00000001"

/** Every assertion of the two contracts, on fresh stores from `make`. */
export const check = (make: Make): Effect.Effect<void, unknown> =>
  Effect.scoped(Effect.gen(function*() {
    // An empty store.
    {
      const { executions, grants } = yield* make()
      yield* same("get of an absent grant", Option.none(), yield* grants.get("g1"))
      yield* same("ids of an empty store", [], yield* grants.ids)
      yield* same("events of an absent grant", { revision: 0, value: [] }, yield* grants.events("g1"))
      yield* same("get of an absent record", Option.none(), yield* executions.get(X1))
      yield* same("has of an absent record", false, yield* executions.has(X1))
      yield* same("record ids of an empty store", [], yield* executions.ids)
      yield* same("markers of an empty store", [], yield* executions.markers)
      yield* same("recover of an empty store", { ok: undefined }, yield* outcome(executions.recover))
    }
    // Grant records: write-once, read back exactly, listed sorted.
    {
      const { grants } = yield* make()
      const g1 = grantOf("g1")
      yield* same("create", { ok: true }, yield* outcome(grants.create(g1)))
      yield* same("get after create", Option.some(g1), yield* grants.get("g1"))
      yield* same("create of the same record again", { ok: false }, yield* outcome(grants.create(g1)))
      yield* same(
        "create of another record under the same id",
        { error: "ConflictingGrant", _tag: "ConflictingGrant", grantId: "g1" },
        yield* outcome(grants.create(grantOf("g1", "another task")))
      )
      yield* same("the record after a refused create", Option.some(g1), yield* grants.get("g1"))
      const child = grantOf("c-2", "task", "g1")
      yield* grants.create(grantOf("b"))
      yield* grants.create(child)
      yield* same("ids, sorted", ["b", "c-2", "g1"], yield* grants.ids)
      yield* same("a child read back", Option.some(child), yield* grants.get("c-2"))
      yield* same("a new grant has no events", { revision: 0, value: [] }, yield* grants.events("c-2"))
    }
    // Grant events: compare-and-set on their count, in order, per grant.
    {
      const { grants } = yield* make()
      yield* grants.create(grantOf("g1"))
      yield* grants.create(grantOf("g2"))
      yield* same("first append", { ok: 1 }, yield* outcome(grants.appendEvent("g1", narrowed(1), 0)))
      yield* same("append naming a stale count", stale(0, 1), yield* outcome(grants.appendEvent("g1", revoked, 0)))
      yield* same("append naming a count ahead", stale(2, 1), yield* outcome(grants.appendEvent("g1", revoked, 2)))
      yield* same("events after refused appends", { revision: 1, value: [narrowed(1)] }, yield* grants.events("g1"))
      yield* same("second append", { ok: 2 }, yield* outcome(grants.appendEvent("g1", revoked, 1)))
      yield* same(
        "events in stored order",
        { revision: 2, value: [narrowed(1), revoked] },
        yield* grants.events("g1")
      )
      yield* same("another grant's events untouched", { revision: 0, value: [] }, yield* grants.events("g2"))
      yield* same("the record untouched by events", Option.some(grantOf("g1")), yield* grants.get("g1"))
    }
    // Execution records: write-once, read back exactly, listed sorted.
    {
      const { executions } = yield* make()
      const r2 = recordOf(X2)
      const r1 = recordOf(X1, "g2", 3)
      yield* same("put", { ok: undefined }, yield* outcome(executions.put(r2)))
      yield* executions.put(r1)
      yield* same("get after put", Option.some(r2), yield* executions.get(X2))
      yield* same("has after put", true, yield* executions.has(X2))
      yield* same("record ids, sorted", [X1, X2], yield* executions.ids)
      yield* same("put of the same record again", { ok: undefined }, yield* outcome(executions.put(r2)))
      yield* same(
        "put of another record under the same id",
        "EditedRetainedFile",
        yield* tagOf(executions.put(recordOf(X2, "g1", 1)))
      )
      yield* same("the record after a refused put", Option.some(r2), yield* executions.get(X2))
      yield* same(
        "a marker is no record",
        [X1, X2],
        yield* Effect.zipRight(executions.admit(markerOf(X3)), executions.ids)
      )
    }
    // Logs: write-once bytes at the path a record names them by.
    {
      const { executions } = yield* make()
      const path = executionPaths(X1).stdout
      const bytes = utf8("line 1\nline \u00e9\n")
      yield* same("logDigest of an absent log", "FileNotFound", yield* tagOf(executions.logDigest(path)))
      yield* same("readLog of an absent log", Option.none(), hexOf(yield* executions.readLog(path)))
      yield* same(
        "putLog",
        { sha256: sha(bytes), bytes: bytes.length, reused: false },
        yield* executions.putLog(path, bytes)
      )
      yield* same("logDigest", { sha256: sha(bytes), bytes: bytes.length }, yield* executions.logDigest(path))
      yield* same(
        "putLog of the same bytes",
        { sha256: sha(bytes), bytes: bytes.length, reused: true },
        yield* executions.putLog(path, bytes)
      )
      yield* same("putLog of other bytes", "EditedRetainedFile", yield* tagOf(executions.putLog(path, utf8("other\n"))))
      yield* same(
        "the log after a refused putLog",
        { sha256: sha(bytes), bytes: bytes.length },
        yield* executions.logDigest(path)
      )
      yield* same("readLog: the bytes kept", hexOf(Option.some(bytes)), hexOf(yield* executions.readLog(path)))
      const empty = executionPaths(X1).stderr
      yield* same(
        "an empty log",
        { sha256: sha(new Uint8Array(0)), bytes: 0, reused: false },
        yield* executions.putLog(empty, new Uint8Array(0))
      )
      yield* same(
        "logDigest of an empty log",
        { sha256: sha(new Uint8Array(0)), bytes: 0 },
        yield* executions.logDigest(empty)
      )
      yield* same("readLog of an empty log", Option.some(""), hexOf(yield* executions.readLog(empty)))
    }
    // Markers: admitted, listed by id, finished; release and recover leave markers alone.
    {
      const { executions } = yield* make()
      const m2 = markerOf(X2)
      const m1: RunningMarker = {
        ...markerOf(X1, "g2"),
        signature: { alg: "HMAC-SHA-256", keyId: "0123456789abcdef", mac: "a".repeat(64) }
      }
      yield* executions.admit(m2)
      yield* executions.admit(m1)
      yield* same("markers, by id", [m1, m2], yield* executions.markers)
      yield* same("release", { ok: undefined }, yield* outcome(executions.release(X1)))
      yield* same("recover with runs in flight", { ok: undefined }, yield* outcome(executions.recover))
      yield* same("markers after release and recover", [m1, m2], yield* executions.markers)
      yield* executions.finish(X1)
      yield* same("markers after finish", [m2], yield* executions.markers)
      yield* same("finish of a finished run", { ok: undefined }, yield* outcome(executions.finish(X1)))
      yield* same("release of a released run", { ok: undefined }, yield* outcome(executions.release(X1)))
      yield* executions.put(recordOf(X2))
      yield* executions.release(X2)
      yield* executions.finish(X2)
      yield* same("no marker once finished", [], yield* executions.markers)
      yield* same("recover with nothing in flight", { ok: undefined }, yield* outcome(executions.recover))
      yield* same("the record stays", [X2], yield* executions.ids)
    }
  }))

/** One append of a compare-and-set sequence: which grant, and which count it names relative to the stored one. */
export type Step = {
  readonly grant: "g1" | "g2"
  readonly names: "current" | "stale" | "ahead"
  readonly event: "narrowed" | "revoked"
}

/** Sequences of 1 to 16 appends. */
export const steps: fc.Arbitrary<ReadonlyArray<Step>> = fc.array(
  fc.record({
    grant: fc.constantFrom("g1", "g2"),
    names: fc.constantFrom("current", "stale", "ahead"),
    event: fc.constantFrom("narrowed", "revoked")
  }),
  { minLength: 1, maxLength: 16 }
) as fc.Arbitrary<ReadonlyArray<Step>>

/**
 * Random appends against a model of compare-and-set on the event count: an append succeeds
 * exactly when it names the stored count, the count then grows by one, a refused append changes
 * nothing; after each, both grants' events read back are the model's.
 */
export const checkSteps = (make: Make, sequence: ReadonlyArray<Step>): Effect.Effect<void, unknown> =>
  Effect.scoped(Effect.gen(function*() {
    const { grants } = yield* make()
    yield* grants.create(grantOf("g1"))
    yield* grants.create(grantOf("g2"))
    const model = new Map<string, Array<GrantEvent>>([["g1", []], ["g2", []]])
    for (const [i, s] of sequence.entries()) {
      const stored = model.get(s.grant)!
      const names = s.names === "current"
        ? stored.length
        : s.names === "stale"
        ? (stored.length > 0 ? stored.length - 1 : stored.length + 2)
        : stored.length + 1
      const event = s.event === "revoked" ? revoked : narrowed(i)
      const answer = yield* outcome(grants.appendEvent(s.grant, event, names))
      if (names === stored.length) {
        yield* same(`step ${i}: append to ${s.grant} naming ${names}`, { ok: stored.length + 1 }, answer)
        stored.push(event)
      } else {
        yield* same(`step ${i}: append to ${s.grant} naming ${names}`, stale(names, stored.length), answer)
      }
      for (const g of ["g1", "g2"]) {
        const value = model.get(g)!
        yield* same(`step ${i}: events of ${g}`, { revision: value.length, value }, yield* grants.events(g))
      }
    }
  }))
