/**
 * The scan index (src/domain/ScanIndex.ts) never changes an answer: the scans (`next`, `due`,
 * `unresolved-outcomes`) answer exactly as scans from scratch after any sequence of edits to run
 * and subscription files (damaged, restored, removed, swapped) and of damage to the index itself;
 * the codec gives back what it was given and refuses anything it did not write under the same
 * rules; and through the built CLI a tampered record is reported once the index knows its clean
 * bytes.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fc from "effect/FastCheck"
import * as JSONSchema from "effect/JSONSchema"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import * as path from "node:path"
import { sha256Hex } from "../../src/domain/Canonical.js"
import { RunRecord, SubscriptionRecord } from "../../src/domain/Monitor.js"
import { scanRun } from "../../src/domain/RunScan.js"
import {
  decodeScanIndex,
  encodeScanIndex,
  fileDigest,
  isQuietRun,
  runLine,
  type RunScanIndexEntry,
  SCAN_INDEX_VERSION,
  scanStamp
} from "../../src/domain/ScanIndex.js"
import { FileStoreMemory } from "../../src/layers/FileStoreMemory.js"
import { LockMemory } from "../../src/layers/LockMemory.js"
import { makeMonitor, runPath, SCAN_INDEX_FILE, subscriptionPath } from "../../src/layers/MonitorLive.js"
import { FileStore } from "../../src/services/FileStore.js"
import { Lock } from "../../src/services/Lock.js"
import { tempWorkdir } from "../support/cli.js"
import { apply, type Json, mutation, SEED_STAGE, seeds } from "./records.js"
import { at, finishInput, mon, read, runningRun, SOURCE_TEXT, weekWindow } from "./support.js"

const STAMP = scanStamp(process.versions)
const stored = seeds()
const runs = stored.filter((s) => s.schema === "run").map((s) => s.value as { id: string; subscriptionId: string })
const subs = stored.filter((s) => s.schema === "subscription").map((s) => s.value as { id: string })
const text = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`

/** An index entry as plain data (the index answers through getters; compare what they read). */
const plain = ([id, e]: readonly [string, RunScanIndexEntry]) => {
  const r = e.result
  return [
    id,
    e.sha256,
    "_tag" in r ? { ...r } : {
      id: r.id,
      subscriptionId: r.subscriptionId,
      createdAt: r.createdAt,
      status: r.status,
      revision: r.revision,
      target: r.target,
      completion: r.completion,
      unresolved: r.unresolved
    }
  ]
}

/** The index file of these runs and subscriptions, every line made now. */
const encode = (runs: ReadonlyMap<string, RunScanIndexEntry>, subscriptions: ReadonlyMap<string, string>) =>
  encodeScanIndex(STAMP, subscriptions, [...runs.keys()], [...runs].map(([id, e]) => runLine(id, e.sha256, e.result)))

const byId = <A>(a: readonly [string, A], b: readonly [string, A]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)

describe("scan index codec", () => {
  it("gives back every entry it was given, verified runs and mismatches alike", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(), fc.array(mutation, { maxLength: 2 })), { maxLength: 12 }),
        fc.array(fc.tuple(fc.string(), fc.string())),
        (picks, subShas) => {
          const index = new Map<string, RunScanIndexEntry>()
          picks.forEach(([which, ms], i) => {
            const seed = runs[which % runs.length]!
            let value = seed as unknown as Json
            for (const m of ms) value = apply(value, m)
            const bytes = text(value)
            // Under its own id (verified when undamaged) or another (always a mismatch).
            const id = i % 3 === 0 ? `other.w${i}` : seed.id
            index.set(id, { sha256: fileDigest(Buffer.from(bytes)), result: scanRun(id, bytes) })
          })
          const subscriptions = new Map(subShas.map(([id, s]) => [id, fileDigest(Buffer.from(s))]))
          const back = decodeScanIndex(STAMP, encode(index, subscriptions))
          expect(back).toBeDefined()
          // Lines are sorted by run id.
          expect([...back!.runs.entries()].map(plain)).toStrictEqual([...index.entries()].sort(byId).map(plain))
          expect([...back!.subscriptions.entries()]).toStrictEqual([...subscriptions.entries()])
          // Each run is found by its id and file digest only; a quiet one answers its bindings from its line.
          const lines = back!.runs
          for (const [id, e] of index) {
            const k = lines.find(id, e.sha256)
            expect(k).toBeGreaterThanOrEqual(0)
            expect(lines.find(id, fileDigest(Buffer.from(`other ${e.sha256}`)))).toBe(-1)
            const r = e.result
            // Quiet lines hold what the schema allows (an integer revision, hex digests); anything else is written whole.
            const hex = (d: string | undefined) => d === undefined || /^[0-9a-f]{64}$/.test(d)
            expect(lines.isQuiet(k)).toBe(
              !("_tag" in r) && isQuietRun(r) && Number.isSafeInteger(r.revision) && r.revision >= 0 &&
                hex(r.completion!.stage.sha256) && hex(r.completion!.survey?.sha256)
            )
            if (lines.isQuiet(k) && !("_tag" in r)) {
              expect([lines.stagePath(k), lines.stageSha256(k), lines.surveyPath(k), lines.surveySha256(k)])
                .toStrictEqual([
                  r.completion!.stage.path,
                  r.completion!.stage.sha256,
                  r.completion!.survey?.path ?? null,
                  r.completion!.survey?.sha256 ?? null
                ])
            }
          }
          expect(lines.find("not.a.run", fileDigest(Buffer.from("")))).toBe(-1)
        }
      ),
      { numRuns: 300 }
    )
  })

  it("is ignored when made under other rules, damaged or truncated", () => {
    const index = new Map<string, RunScanIndexEntry>()
    for (const r of runs) {
      const bytes = text(r)
      index.set(r.id, { sha256: fileDigest(Buffer.from(bytes)), result: scanRun(r.id, bytes) })
    }
    const subscriptions = new Map(subs.map((s) => [s.id, fileDigest(Buffer.from(text(s)))]))
    const good = encode(index, subscriptions)
    expect(decodeScanIndex(STAMP, good)?.runs.size).toBe(index.size)
    expect(decodeScanIndex(STAMP, good)?.subscriptions.size).toBe(subscriptions.size)
    expect(decodeScanIndex(scanStamp({ ...process.versions, tz: "1999z" }), good)).toBeUndefined()
    expect(decodeScanIndex(STAMP, good.subarray(0, good.length - 1))).toBeUndefined()
    expect(decodeScanIndex(STAMP, good.subarray(0, good.indexOf(0x0a)))).toBeUndefined()
    expect(decodeScanIndex(STAMP, Buffer.from(""))).toBeUndefined()
    expect(decodeScanIndex(STAMP, Buffer.from("not json\n[]"))).toBeUndefined()
    // Any one byte of the body changed (a revision, a status, a digest): the body's SHA-256 no longer matches.
    const body = good.indexOf(0x0a) + 1
    for (let i = body; i < good.length; i += 97) {
      const bad = Buffer.from(good)
      bad[i] = bad[i] === 0x31 ? 0x32 : 0x31
      expect(decodeScanIndex(STAMP, bad)).toBeUndefined()
    }
  })

  it("names the record schemas it was made for (bump SCAN_INDEX_VERSION when this changes)", () => {
    // A reminder, not a check of behaviour: a change of a stored record's shape must come with a
    // new index version, or indexes written by the old code would be trusted by the new one.
    const fingerprint = sha256Hex(JSON.stringify([JSONSchema.make(RunRecord), JSONSchema.make(SubscriptionRecord)]))
    expect({ version: SCAN_INDEX_VERSION, fingerprint }).toStrictEqual({ version: 3, fingerprint: RECORDS_FINGERPRINT })
  })
})

/** The record schemas' SHA-256 when SCAN_INDEX_VERSION was last set. */
const RECORDS_FINGERPRINT = "3d496539d047a430156fc3cacb8a61f65d060c262dc8c37621bef6adac1413f3"

const op = fc.oneof(
  fc.record({
    kind: fc.constant("damage" as const),
    sub: fc.boolean(),
    run: fc.nat(),
    ms: fc.array(mutation, { minLength: 1, maxLength: 2 })
  }),
  fc.record({
    kind: fc.constantFrom("restore" as const, "remove" as const, "swap" as const),
    sub: fc.boolean(),
    run: fc.nat()
  }),
  fc.record({
    kind: fc.constantFrom("index-garbage" as const, "index-flip" as const, "index-remove" as const),
    at: fc.nat()
  }),
  // The stage file quiet runs are bound to: changed (their bindings no longer hold) or put back.
  fc.record({ kind: fc.constantFrom("stage-edit" as const, "stage-restore" as const) })
)

const stores = Layer.merge(FileStoreMemory, LockMemory)

describe("scans with the scan index", () => {
  it.effect.prop(
    "answer as a scan from scratch after any edits of runs and of the index",
    [fc.array(op, { minLength: 1, maxLength: 8 })],
    ([ops]) =>
      Effect.gen(function*() {
        const store = yield* FileStore
        const lock = yield* Lock
        const indexed = yield* makeMonitor(store, lock.withLock)
        const scratch = yield* makeMonitor(store, lock.withLock, {}, { scanIndex: false })
        for (const s of subs) yield* store.writeAtomic(subscriptionPath(s.id), text(s))
        for (const r of runs) yield* store.writeAtomic(runPath(r.id), text(r))
        yield* store.writeAtomic("research/sources/p.txt", SOURCE_TEXT)
        yield* store.writeAtomic(SEED_STAGE.path, SEED_STAGE.text)
        const now = new Date("2026-03-01T00:00:00Z")
        const same = Effect.gen(function*() {
          const [a, b] = [yield* indexed.facts({ now }), yield* scratch.facts({ now })]
          assert.deepStrictEqual(a, b)
          assert.deepStrictEqual(yield* indexed.unresolvedOutcomes, yield* scratch.unresolvedOutcomes)
          assert.deepStrictEqual(yield* Effect.either(indexed.due({ now })), yield* Effect.either(scratch.due({ now })))
        })
        yield* same
        for (const o of ops) {
          if ("run" in o) {
            const records: ReadonlyArray<{ id: string }> = o.sub ? subs : runs
            const r = records[o.run % records.length]!
            const file = o.sub ? subscriptionPath(r.id) : runPath(r.id)
            if (o.kind === "damage") {
              let value = r as unknown as Json
              for (const m of o.ms) value = apply(value, m)
              yield* store.writeAtomic(file, text(value))
            } else if (o.kind === "restore") yield* store.writeAtomic(file, text(r))
            else if (o.kind === "remove") yield* Effect.ignore(store.remove(file))
            else yield* store.writeAtomic(file, text(records[(o.run + 1) % records.length]!))
          } else if (o.kind === "stage-edit" || o.kind === "stage-restore") {
            yield* store.writeAtomic(
              SEED_STAGE.path,
              o.kind === "stage-edit" ? `${SEED_STAGE.text}edited\n` : SEED_STAGE.text
            )
          } else if ("at" in o) {
            const current = yield* Effect.either(store.read(SCAN_INDEX_FILE))
            if (o.kind === "index-remove") yield* Effect.ignore(store.remove(SCAN_INDEX_FILE))
            else if (o.kind === "index-garbage") yield* store.writeAtomic(SCAN_INDEX_FILE, "{}\n[]")
            else if (current._tag === "Right" && current.right.length > 0) {
              const bad = Buffer.from(current.right)
              const i = o.at % bad.length
              bad[i] = bad[i]! ^ 0x01
              yield* store.writeAtomic(SCAN_INDEX_FILE, bad)
            }
          }
          yield* same
        }
      }).pipe(Effect.provide(stores)),
    { fastCheck: { numRuns: 60 } }
  )
})

describe("scan index through the CLI", () => {
  it("a record tampered with after the index knew its clean bytes is still reported", async () => {
    const dir = tempWorkdir()
    const t0 = at(weekWindow(0), 1000)
    const run = await runningRun(dir, "lit", t0)
    const finished = await mon(dir, "finish-run", finishInput(dir, run), t0)
    expect(finished.json.ok).toBe(true)
    const next = async () => (await read(dir, ["next", "--now", at(weekWindow(1), 1000)])).json
    const clean = await next()
    const indexFile = path.join(dir, SCAN_INDEX_FILE)
    expect(fs.existsSync(indexFile)).toBe(true)
    expect(clean.facts.some((f: any) => f.kind === "receipt-mismatch")).toBe(false)

    // The same number of bytes, one frozen letter changed: only the content can tell.
    const file = path.join(dir, runPath(run.id))
    const original = fs.readFileSync(file, "utf8")
    const tampered = original.replace("\"target\": \"s", "\"target\": \"S")
    expect(tampered).not.toBe(original)
    expect(tampered.length).toBe(original.length)
    fs.writeFileSync(file, tampered)
    const after = await next()
    expect(after.facts.filter((f: any) => f.kind === "receipt-mismatch").map((f: any) => f.runId)).toStrictEqual([
      run.id
    ])
    // Put back, the run is verified again, and the index serves it.
    fs.writeFileSync(file, original)
    expect(await next()).toStrictEqual(clean)

    // The same for a subscription: a same-size edit that breaks the record is a broken link, and `due` reports it damaged.
    const subFile = path.join(dir, subscriptionPath("lit"))
    const subText = fs.readFileSync(subFile, "utf8")
    const badSub = subText.replace("\"mode\": \"remind\"", "\"mode\": \"remine\"")
    expect(badSub.length).toBe(subText.length)
    expect(badSub).not.toBe(subText)
    fs.writeFileSync(subFile, badSub)
    expect((await next()).facts.filter((f: any) => f.kind === "broken-link").map((f: any) => f.missing)).toContain(
      subscriptionPath("lit")
    )
    expect((await read(dir, ["due", "--now", at(weekWindow(1), 1000)])).json.damaged).toEqual([{
      id: "lit",
      damaged: "not a valid subscription record"
    }])
    fs.writeFileSync(subFile, subText)
    expect(await next()).toStrictEqual(clean)

    // A damaged index, or one that is not a file, changes nothing but the time taken.
    fs.writeFileSync(indexFile, "garbage")
    expect(await next()).toStrictEqual(clean)
    expect(fs.readFileSync(indexFile, "utf8").startsWith("{\"format\":\"dossier-scan-index\"")).toBe(true)
    fs.rmSync(indexFile)
    fs.mkdirSync(indexFile)
    expect(await next()).toStrictEqual(clean)
    fs.writeFileSync(file, tampered)
    expect((await next()).facts.filter((f: any) => f.kind === "receipt-mismatch").length).toBe(1)
  })
})
