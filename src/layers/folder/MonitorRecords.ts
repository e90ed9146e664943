/**
 * The folder's monitor records: where they live under `.dossier/monitor/`, how a subscription or
 * a run is read (and its receipt re-verified), written, listed and read in batches, and the
 * work folder's files a record is bound to. Every access goes through the FileStore.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { toBuffer } from "../../domain/Bytes.js"
import { sha256Hex } from "../../domain/Canonical.js"
import { decodeWith, firstIssueReason, parseJson } from "../../domain/Decode.js"
import { CorruptMonitorRecord, ReceiptDigestMismatch } from "../../domain/MonitorErrors.js"
import { MONITOR_DIR, runPath, subscriptionPath } from "../../domain/MonitorLayout.js"
import { timesInRange } from "../../domain/MonitorRules.js"
import { type RunRecord, SubscriptionRecord } from "../../domain/MonitorSchema.js"
import { verifyRunText } from "../../domain/RunScan.js"
import type { FileStoreShape } from "../../services/FileStore.js"
import { listNamesOf, readManyWithOf } from "../FileStoreFallbacks.js"

export {
  MONITOR_DIR,
  REPORTS_FILE,
  runPath,
  RUNS_DIR,
  subscriptionPath,
  SUBSCRIPTIONS_DIR
} from "../../domain/MonitorLayout.js"
/** Derived: what the scans made of each record file, by the SHA-256 of its bytes (src/domain/ScanIndex.ts). */
export const SCAN_INDEX_FILE = `${MONITOR_DIR}/scan.index`

/** The largest file a run is bound to or cites (stage, survey, sources). */
export const FILE_MAX = 16 * 1024 * 1024
/** The largest record file. */
export const RECORD_MAX = 4 * 1024 * 1024

/** A record's stored text; one whose times fall after year 9999 is refused (`timesInRange`). */
export const render = (value: unknown) => Either.map(timesInRange(value), (v) => `${JSON.stringify(v, null, 2)}\n`)

/** A file's bytes as UTF-8 text. */
export const textOf = (bytes: Uint8Array) => toBuffer(bytes).toString("utf8")

const decodeSubscription = decodeWith(SubscriptionRecord)

const isJsonObjectText = (text: string): boolean =>
  Either.match(parseJson(text), {
    onLeft: () => false,
    onRight: (v) => typeof v === "object" && v !== null && !Array.isArray(v)
  })

const parseSubscription = (id: string, path: string, text: string) => {
  const parsed = Either.flatMap(parseJson(text), decodeSubscription)
  if (Either.isLeft(parsed)) {
    return Either.left(new CorruptMonitorRecord({ path, reason: firstIssueReason(parsed.left, "invalid record") }))
  }
  if (parsed.right.id !== id) {
    return Either.left(new CorruptMonitorRecord({ path, reason: "the record names another id" }))
  }
  return Either.right(parsed.right)
}

/** The record access of one store. */
export const makeRecords = (store: FileStoreShape) => {
  const readOptional = (path: string) =>
    store.readText(path, { maxBytes: RECORD_MAX }).pipe(
      Effect.map(Option.some),
      Effect.catchTag("FileNotFound", () => Effect.succeed(Option.none<string>()))
    )

  const findSubscription = (id: string) =>
    Effect.flatMap(readOptional(subscriptionPath(id)), (text) =>
      Option.match(text, {
        onNone: () => Effect.succeed(Option.none<SubscriptionRecord>()),
        onSome: (t) => Effect.map(parseSubscription(id, subscriptionPath(id), t), Option.some)
      }))

  const findRun = (id: string) =>
    Effect.flatMap(readOptional(runPath(id)), (text) =>
      Option.match(text, {
        onNone: () => Effect.succeed(Option.none<RunRecord>()),
        onSome: (t): Effect.Effect<Option.Option<RunRecord>, CorruptMonitorRecord | ReceiptDigestMismatch> => {
          const loaded = verifyRunText(id, t)
          if (loaded._tag === "Ok") return Effect.succeed(Option.some(loaded.run))
          // A file that is not even a JSON object is a corrupt record; a JSON object that is no
          // valid run, or whose receipt does not verify, is a receipt mismatch (fail closed).
          return isJsonObjectText(t)
            ? Effect.fail(new ReceiptDigestMismatch({ runId: id }))
            : Effect.fail(new CorruptMonitorRecord({ path: runPath(id), reason: "not a JSON object" }))
        }
      }))

  /** Replace one record file (a change of one file needs no transaction). */
  const write = (path: string, record: unknown) =>
    Effect.flatMap(render(record), (text) => store.writeAtomic(path, text))

  /** The `.json` files of a directory, sorted by name (each is opened and type-checked when read). */
  const listNames = store.listNames ?? listNamesOf(store)
  const listJson = (dir: string) =>
    Effect.map(
      listNames(dir),
      (names) => names.filter((n) => n.endsWith(".json")).map((name) => ({ name, id: name.slice(0, -5) }))
    )

  /**
   * Read many files and keep only what `use` makes of each (a parsed record, a digest): the
   * store's batch paths when it has them, else file by file. `use` must not keep the bytes.
   */
  const readManyWith = store.readManyWith ?? readManyWithOf(store)
  const readAllWith = <A>(
    paths: ReadonlyArray<string>,
    use: (bytes: Uint8Array, index: number) => A,
    maxBytes: number
  ) => readManyWith(paths, use, { maxBytes })

  /** SHA-256 of a file, or null when it is missing or cannot be read safely (one read, no stream). */
  const digestOrNull = (path: string) =>
    store.read(path, { maxBytes: FILE_MAX }).pipe(
      Effect.map((bytes) => sha256Hex(bytes) as string | null),
      Effect.catchTags({
        FileNotFound: () => Effect.succeed(null),
        UnsafePath: () => Effect.succeed(null),
        LimitExceeded: () => Effect.succeed(null)
      })
    )

  return {
    findSubscription,
    findRun,
    write,
    listJson,
    readAllWith,
    digestOrNull
  }
}

export type Records = ReturnType<typeof makeRecords>
