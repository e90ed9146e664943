/**
 * The scans' reading of every monitor record, with the scan index (src/domain/ScanIndex.ts)
 * behind one function: `scan(["subscriptions", "runs"])` reads and checks every record file of
 * the sections asked for and answers what it found; the index only saves it the checks of files
 * whose bytes (same SHA-256) it already judged. Reading the index, and publishing it when the
 * scan found something it did not hold, happen inside; a caller never sees it. It is derived
 * state: a failure to write it (a read-only folder, a full disk) only costs the next scan time.
 */
import * as Effect from "effect/Effect"
import { compileGuard } from "../../domain/Guard.js"
import { byCreation } from "../../domain/MonitorLayout.js"
import { SubscriptionRecord } from "../../domain/MonitorSchema.js"
import { isRunMismatch, type RunScan, type RunScanResult, scanRun } from "../../domain/RunScan.js"
import {
  decodeScanIndex,
  encodeScanIndex,
  fileDigest,
  type RunIndex,
  runLine,
  type RunLineSource,
  type ScanIndex,
  scanStamp
} from "../../domain/ScanIndex.js"
import type { FileStoreShape } from "../../services/FileStore.js"
import type { RunsScan, SubscriptionsScan } from "../../services/ports/MonitorStore.js"
import { RECORD_MAX, type Records, RUNS_DIR, SCAN_INDEX_FILE, SUBSCRIPTIONS_DIR, textOf } from "./MonitorRecords.js"

const INDEX_MAX = 256 * 1024 * 1024

/** `Schema.is(SubscriptionRecord, { onExcessProperty: "error" })`, compiled (scans read every subscription). */
const isSubscriptionRecord = compileGuard(SubscriptionRecord)

/** Parsed JSON, or undefined when the text is not JSON. */
const parseOrUndefined = (bytes: Uint8Array): unknown => {
  try {
    return JSON.parse(textOf(bytes))
  } catch {
    return undefined
  }
}

export interface Scanned {
  readonly subscriptions: SubscriptionsScan
  readonly runs: RunsScan
}

export type { RunsScan, SubscriptionsScan }

/**
 * The scan of one store. `useIndex` false checks every record from scratch and leaves the index
 * alone; a scan `readOnly` (a reader without the lock) never publishes it.
 */
export const makeScan = (store: FileStoreShape, records: Records, useIndex: boolean) => {
  const stamp = scanStamp(process.versions)

  /** The scan index as stored, or undefined when it is missing, damaged or made under other rules. */
  const loadIndex: Effect.Effect<ScanIndex | undefined> = store.read(SCAN_INDEX_FILE, { maxBytes: INDEX_MAX }).pipe(
    Effect.map((bytes) => decodeScanIndex(stamp, bytes)),
    Effect.orElseSucceed(() => undefined)
  )

  /**
   * Every subscription file; with the index (`known`: what it held), a file it knows under the
   * same id and SHA-256 is not checked again. `digests`: what the index should hold now.
   */
  const scanSubscriptions = (indexed: boolean, known: ReadonlyMap<string, string> | undefined) =>
    Effect.gen(function*() {
      const entries = yield* records.listJson(SUBSCRIPTIONS_DIR)
      const digests = new Map<string, string>()
      let changed = false
      const read = yield* records.readAllWith(
        entries.map((e) => `${SUBSCRIPTIONS_DIR}/${e.name}`),
        (bytes, i): SubscriptionRecord | null => {
          const id = entries[i]!.id
          const raw = parseOrUndefined(bytes)
          if (!indexed) return isSubscriptionRecord(raw) && raw.id === id ? raw : null
          const sha256 = fileDigest(bytes)
          if (known?.get(id) === sha256) {
            digests.set(id, sha256)
            return raw as SubscriptionRecord
          }
          if (!isSubscriptionRecord(raw) || raw.id !== id) return null
          digests.set(id, sha256)
          changed = true
          return raw
        },
        RECORD_MAX
      )
      if ((known?.size ?? 0) !== digests.size) changed = true
      const subs: Array<SubscriptionRecord> = []
      const brokenIds: Array<string> = []
      for (const [i, r] of read.entries()) {
        if (r.value === null) brokenIds.push(entries[i]!.id)
        else subs.push(r.value)
      }
      const scan: SubscriptionsScan = { subs: subs.sort(byCreation), brokenIds }
      return { scan, digests, changed }
    })

  /**
   * Every run file, verified; unreadable or altered ones are mismatches (never silently skipped).
   * Each file is read whole and checked as soon as it is read, and only what the scans use is
   * kept (RunScan): the parsed record dies young instead of surviving the whole scan. With the
   * index, the check's answer comes from it when the file's bytes are the very bytes it was
   * computed from. `ids` and `lines`: the runs the index should hold now, each a line of the
   * index as it was (a number) or a new one.
   */
  const scanRuns = (indexed: boolean, known: RunIndex | undefined) =>
    Effect.gen(function*() {
      const entries = yield* records.listJson(RUNS_DIR)
      const ids = entries.map((e) => e.id)
      const lines: Array<RunLineSource> = []
      const mismatches: Array<{ runId: string; revision: number | null; at: number }> = []
      const runs: Array<RunScan> = []
      let changed = false
      const take = (r: RunScanResult, at: number) => {
        if (isRunMismatch(r)) mismatches.push({ runId: r.runId, revision: r.revision, at })
        else runs.push(r)
      }
      const read = yield* records.readAllWith(entries.map((e) => `${RUNS_DIR}/${e.name}`), (bytes, i): true => {
        const id = ids[i]!
        if (!indexed) {
          take(scanRun(id, textOf(bytes)), i)
          return true
        }
        const sha256 = fileDigest(bytes)
        const k = known === undefined ? -1 : known.find(id, sha256)
        const r = k < 0 ? undefined : known!.result(k)
        if (r !== undefined) {
          lines[i] = k
          take(r, i)
          return true
        }
        const scanned = scanRun(id, textOf(bytes))
        lines[i] = runLine(id, sha256, scanned)
        changed = true
        take(scanned, i)
        return true
      }, RECORD_MAX)
      // A file that could not be read is a mismatch (and has no line: the next scan reads it again).
      let unread = false
      read.forEach((r, i) => {
        if (r.value === null) {
          mismatches.push({ runId: ids[i]!, revision: null, at: i })
          unread = true
        }
      })
      // In listing order, as every scan reports them.
      if (unread) mismatches.sort((a, b) => a.at - b.at)
      if (unread || (known?.size ?? 0) !== ids.length) changed = true
      const scan: RunsScan = {
        ids,
        mismatches: mismatches.map(({ revision, runId }) => ({ runId, revision })),
        runs: runs.sort(byCreation)
      }
      const held = unread
        ? { ids: ids.filter((_, i) => lines[i] !== undefined), lines: lines.filter((l) => l !== undefined) }
        : { ids, lines }
      return { scan, held, changed }
    })

  /** The index to write: the sections this scan read, and the rest as they were known. */
  const indexToWrite = (
    known: ScanIndex | undefined,
    subscriptions: ReadonlyMap<string, string> | undefined,
    runs: { readonly ids: ReadonlyArray<string>; readonly lines: ReadonlyArray<RunLineSource> } | undefined
  ) => {
    const subs = subscriptions ?? known?.subscriptions ?? new Map<string, string>()
    if (runs !== undefined) return encodeScanIndex(stamp, subs, runs.ids, runs.lines, known?.runs)
    const ids: Array<string> = []
    const lines: Array<number> = []
    for (let k = 0; k < (known?.runs.size ?? 0); k++) {
      const id = known!.runs.runId(k)
      if (id !== undefined) {
        ids.push(id)
        lines.push(k)
      }
    }
    return encodeScanIndex(stamp, subs, ids, lines, known?.runs)
  }

  /**
   * Every record of the sections asked for, checked (subscriptions read first); `fromScratch`
   * checks every file and leaves the index alone.
   */
  const scan = <K extends keyof Scanned>(sections: ReadonlyArray<K>, fromScratch = false, readOnly = false) =>
    Effect.gen(function*() {
      const indexed = useIndex && !fromScratch
      const known = indexed ? yield* loadIndex : undefined
      const subs = sections.includes("subscriptions" as K)
        ? yield* scanSubscriptions(indexed, known?.subscriptions)
        : undefined
      const runs = sections.includes("runs" as K) ? yield* scanRuns(indexed, known?.runs) : undefined
      if (indexed && (subs?.changed === true || runs?.changed === true) && !readOnly) {
        yield* Effect.ignore(store.writeAtomic(SCAN_INDEX_FILE, indexToWrite(known, subs?.digests, runs?.held)))
      }
      return { subscriptions: subs?.scan, runs: runs?.scan } as Pick<Scanned, K>
    })

  return scan
}

export type Scan = ReturnType<typeof makeScan>
