/**
 * The scan index: what the scans made of each monitor record file, keyed by the SHA-256 of the
 * exact bytes it was made from, so that a later scan that reads the same bytes again reuses the
 * answer instead of parsing, checking and digesting the record again.
 *
 * - Runs: the scan's whole answer (./RunScan.ts: verified and the fields the scans use, or a
 *   mismatch).
 * - Subscriptions: that the file passed the whole-record check under its id (the record itself is
 *   still parsed from the file; failures are not kept and are checked again each time).
 *
 * Every scan still reads every file whole and hashes it, so an edit of any byte — by hand, by a
 * tool, by a rollback — is seen by the very next scan. Nothing but content is trusted (no
 * timestamps, sizes or inode numbers).
 *
 * The index is derived state (`.dossier/monitor/scan.index`): a header line with the SHA-256 of
 * the body and a stamp naming the rules that made it (SCAN_INDEX_VERSION and the Node.js,
 * time-zone and ICU versions), then the body. Anything that does not match — another stamp, a
 * damaged or truncated file, a missing one — is ignored whole and rebuilt by the scan: the index
 * can make a scan slower, never different.
 *
 * The body is read as it is stored and never parsed whole (`RunIndex`, ./ScanIndexLines.ts):
 * one line per run, sorted by id, found by id when its file is read, and only the fields a scan
 * asks for are decoded: parsing the whole index into objects that live through the scan would
 * make every `next` pay for every run in memory and garbage collection.
 */
import { toBuffer } from "./Bytes.js"
import { sha256Hex } from "./Canonical.js"
import { FILE_DIGEST_LENGTH, RunIndex, type RunLineSource } from "./ScanIndexLines.js"

export {
  fileDigest,
  isQuietRun,
  RunIndex,
  runLine,
  type RunLineSource,
  type RunScanIndexEntry
} from "./ScanIndexLines.js"

/**
 * Bump whenever what the scans make of a record's bytes changes (the RunRecord or
 * SubscriptionRecord schema, the guards, the receipt digest, the RunScan fields) or the layout of
 * the file changes: an index written under another version is ignored. test/monitor/scanIndex.test.ts
 * pins a fingerprint of both schemas as a reminder.
 */
export const SCAN_INDEX_VERSION = 3
const FORMAT = "dossier-scan-index"

/** The rules an index was made under: this code's version and the runtime's time-zone data. */
export const scanStamp = (versions: { readonly node?: string; readonly tz?: string; readonly icu?: string }): string =>
  `v${SCAN_INDEX_VERSION} node ${versions.node ?? "?"} tz ${versions.tz ?? "?"} icu ${versions.icu ?? "?"}`

export interface ScanIndex {
  readonly runs: RunIndex
  /** By subscription id: the SHA-256 (base64) of a file that passed the whole-record check under that id. */
  readonly subscriptions: ReadonlyMap<string, string>
}

// The file: a header line `{format, stamp, runs, subscriptions, sha256}` (counts, and the
// SHA-256 of the body); then the body: a line with the subscriptions `[[id, sha256]…]`, then one
// line per run (./ScanIndexLines.ts).

const NL = 0x0a
const json = JSON.stringify

/**
 * The index file. `runIds` and `runLines` run in parallel (a number is a line of `from`); they are
 * written sorted by run id, each id once.
 */
export const encodeScanIndex = (
  stamp: string,
  subscriptions: ReadonlyMap<string, string>,
  runIds: ReadonlyArray<string>,
  runLines: ReadonlyArray<RunLineSource>,
  from?: RunIndex
): Buffer => {
  let order = runIds.map((_, i) => i)
  if (!runIds.every((id, i) => i === 0 || runIds[i - 1]! < id)) {
    order = order.sort((a, b) => (runIds[a]! < runIds[b]! ? -1 : runIds[a]! > runIds[b]! ? 1 : 0))
      .filter((k, i, all) => i === 0 || runIds[all[i - 1]!] !== runIds[k])
  }
  const parts: Array<Buffer> = [Buffer.from(`${json([...subscriptions])}\n`)]
  for (const i of order) {
    const src = runLines[i]!
    if (typeof src === "string") parts.push(Buffer.from(src))
    else if (from !== undefined) parts.push(from.lineBytes(src))
    else throw new Error("a reused index line without its index")
  }
  const body = Buffer.concat(parts)
  const header = {
    format: FORMAT,
    stamp,
    runs: order.length,
    subscriptions: subscriptions.size,
    sha256: sha256Hex(body)
  }
  return Buffer.concat([Buffer.from(`${json(header)}\n`), body])
}

/** A file digest as the index stores it (SHA-256 in base64). */
const isFileDigest = (u: unknown): u is string => typeof u === "string" && u.length === FILE_DIGEST_LENGTH

/**
 * The index stored as `bytes`, or undefined when it is not one this code made under `stamp`
 * (another format or stamp, a body whose SHA-256 differs from the header's, another count of
 * lines). Past the body's digest a run line is checked for shape when it is looked up: only this
 * code writes them, and a line that fails is treated as absent.
 */
export const decodeScanIndex = (stamp: string, bytes: Uint8Array): ScanIndex | undefined => {
  const buf = toBuffer(bytes)
  const nl = buf.indexOf(NL)
  if (nl < 0) return undefined
  let header: unknown
  let subs: unknown
  const subsEnd = buf.indexOf(NL, nl + 1)
  try {
    header = JSON.parse(buf.toString("utf8", 0, nl))
    if (!isHeader(header) || header.format !== FORMAT || header.stamp !== stamp || subsEnd < 0) return undefined
    if (sha256Hex(buf.subarray(nl + 1)) !== header.sha256) return undefined
    subs = JSON.parse(buf.toString("utf8", nl + 1, subsEnd))
  } catch {
    return undefined
  }
  if (!Array.isArray(subs) || subs.length !== header.subscriptions) return undefined
  const subscriptions = new Map<string, string>()
  for (const pair of subs) {
    if (
      !Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== "string" || !isFileDigest(pair[1]) ||
      subscriptions.has(pair[0])
    ) {
      return undefined
    }
    subscriptions.set(pair[0], pair[1])
  }
  const n = header.runs
  if (!Number.isSafeInteger(n) || n < 0 || n > buf.length) return undefined
  const starts = new Uint32Array(n + 1)
  let p = subsEnd + 1
  for (let k = 0; k < n; k++) {
    starts[k] = p
    const end = buf.indexOf(NL, p)
    if (end < 0) return undefined
    p = end + 1
  }
  starts[n] = p
  if (p !== buf.length) return undefined
  return { runs: new RunIndex(buf, starts), subscriptions }
}

const isHeader = (
  u: unknown
): u is { format: string; stamp: string; runs: number; subscriptions: number; sha256: string } => {
  if (typeof u !== "object" || u === null) return false
  const h = u as Record<string, unknown>
  return typeof h["format"] === "string" && typeof h["stamp"] === "string" && typeof h["runs"] === "number" &&
    typeof h["subscriptions"] === "number" && typeof h["sha256"] === "string"
}
