/**
 * Ingest over the CaptureStore port, SafeHttp and Lock. The fetch happens outside the lock; the
 * retention (every file, then the capture records) happens inside it, as one `CaptureStore.record`:
 * every target is checked before any is written, so an edited retained file or an unwritable log
 * refuses the whole capture and nothing is stored.
 *
 * A fetch retains three files: the original bytes, the readable copy and a WARC/1.1 record of
 * every hop (made by `WarcWriter`). An import (`ingest --file`) retains the first two from a file
 * of the work folder, recorded `via: "file"`: the agent supplied those bytes, not the fetcher.
 * Nothing here names a file of the store: the folder's are src/layers/folder/CaptureStoreFolder.ts.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import { sha256Hex } from "../domain/Canonical.js"
import { InputTooLarge, UnsafePath } from "../domain/Errors.js"
import {
  type CaptureRecord,
  type CaptureVia,
  checkNotEmpty,
  checkOrigin,
  decodeBody,
  importContentType,
  isWebArchive,
  MAX_IMPORT_BYTES,
  originalPath,
  readablePath,
  warcPath
} from "../domain/IngestContent.js"
import { InvalidUrl, UnsupportedContent } from "../domain/IngestErrors.js"
import {
  type Check,
  invalid,
  optionalInteger,
  optionalNow,
  readArgs,
  readOptions,
  text as requiredText
} from "../domain/Options.js"
import { stateFileAt } from "../domain/Ownership.js"
import type { ContentKind } from "../domain/Readable.js"
import { Ingest, type IngestShape, type RetainedFile } from "../services/Ingest.js"
import { relativeToWorkdir } from "../services/InputFile.js"
import { Lock } from "../services/Lock.js"
import { CaptureStore, WarcWriter } from "../services/ports/CaptureStore.js"
import { SafeHttp } from "../services/SafeHttp.js"
import { Workdir } from "../services/Workdir.js"
import { dateOr } from "./Now.js"
import { spanned } from "./Spans.js"

/**
 * A URL argument: any string, the empty one included, which the URL rules then refuse as
 * `InvalidUrl` (as a dry run and a blank of spaces are); only a value that is not a string is
 * `InvalidInput`.
 */
const urlText: Check<string> = (value, path) =>
  typeof value === "string" ? Either.right(value) : invalid(path, "expected a string")

/** `contentType` when given: any string, the empty one going to the type rules (UnsupportedContent) as a blank one does. */
const contentTypeText: Check<string | undefined> = (value, path) =>
  value === undefined ? Either.right(undefined) : urlText(value, path)

/** A file to retain: where, its digest, its bytes, and how its capture record reads. */
interface Retain extends RetainedFile {
  readonly data: Uint8Array
  readonly kind: CaptureRecord["kind"]
}

/** SHA-256 on libuv's thread pool (WebCrypto), so two large digests run side by side off the main thread. */
const digestOffThread = (bytes: Uint8Array): Effect.Effect<Buffer> =>
  Effect.promise(() => globalThis.crypto.subtle.digest("SHA-256", bytes)).pipe(Effect.map((d) => Buffer.from(d)))

/** The readable-copy extractor (and with it the HTML parser) is loaded at the first capture. */
let readableModule: Promise<typeof import("../domain/Readable.js")> | undefined
const loadReadable = Effect.promise(() => (readableModule ??= import("../domain/Readable.js")))

export const makeIngest = Effect.gen(function*() {
  const http = yield* SafeHttp
  const store = yield* CaptureStore
  const warcWriter = yield* WarcWriter
  const lock = yield* Lock
  const workdir = yield* Workdir

  /** The original and its readable copy, named from the page's URL and their own digests. */
  const pageFiles = (
    body: Uint8Array,
    text: string,
    kind: ContentKind,
    pageUrl: string,
    originalSha = sha256Hex(body)
  ) =>
    Effect.map(loadReadable, ({ readableCopyBytes }) => {
      const readable = readableCopyBytes(kind, text, pageUrl)
      const readableSha = sha256Hex(readable)
      const original: Retain = {
        path: originalPath(pageUrl, kind, originalSha),
        sha256: originalSha,
        bytes: body.byteLength,
        data: body,
        kind: "original"
      }
      const source: Retain = {
        path: readablePath(pageUrl, readableSha),
        sha256: readableSha,
        bytes: readable.byteLength,
        data: readable,
        kind: "source"
      }
      return { original, source }
    })

  /**
   * Under the lock: retain the files and record them in one unit of the store (every target
   * checked before any is written). Answers, for each file, whether it was already there with
   * these bytes.
   */
  const retain = (files: ReadonlyArray<Retain>, origin: string, at: string, via: CaptureVia) =>
    lock.withLock(
      Effect.map(
        store.record(
          files,
          files.map((f) => ({
            path: f.path,
            sha256: f.sha256,
            bytes: f.bytes,
            origin,
            fetchedAt: at,
            kind: f.kind,
            via
          }))
        ),
        (stored) => stored.map((r) => r.reused)
      )
    )

  const summary = ({ path, bytes, sha256 }: RetainedFile): RetainedFile => ({ path, bytes, sha256 })

  // Every method checks its arguments first (src/domain/Options.ts): InvalidInput, never a defect.
  const capture: IngestShape["capture"] = (url, given) =>
    Effect.gen(function*() {
      const [checkedUrl, options] = yield* Either.match(
        readArgs(
          urlText(url, "url"),
          readOptions(given, { timeoutSeconds: optionalInteger(1, 120), now: optionalNow })
        ),
        { onLeft: Effect.fail, onRight: Effect.succeed }
      )
      const fetched = yield* http.fetch(
        checkedUrl,
        options.timeoutSeconds === undefined ? {} : { timeoutSeconds: options.timeoutSeconds }
      )
      const fetchedAt = yield* dateOr(options.now)
      // The two large digests (the body: the original's name and the last payload digest; the last
      // response as received: its block digest) side by side on the thread pool; then the WARC's
      // members are gzipped there while the main thread extracts the readable copy.
      const last = fetched.exchanges.length - 1
      const [bodySha, responseSha] = yield* Effect.all([
        digestOffThread(fetched.body),
        digestOffThread(fetched.exchanges[last]!.response)
      ], { concurrency: 2 })
      const exchanges = fetched.exchanges.map((
        x,
        i
      ) => (i === last ? { ...x, payloadSha256: bodySha, responseSha256: responseSha } : x))
      const compressing = yield* warcWriter.start(exchanges)
      const { original, source } = yield* pageFiles(
        fetched.body,
        fetched.text,
        fetched.kind,
        fetched.finalUrl,
        bodySha.toString("hex")
      )
      const warcBytes = yield* compressing
      const warcSha = sha256Hex(warcBytes)
      const warc: Retain = {
        path: warcPath(fetched.finalUrl, warcSha),
        sha256: warcSha,
        bytes: warcBytes.byteLength,
        data: warcBytes,
        kind: "warc"
      }
      const at = fetchedAt.toISOString()
      const [o, s] = yield* retain([original, source, warc], fetched.finalUrl, at, "fetch")
      return {
        network: "checked" as const,
        via: "fetch" as const,
        url: fetched.url,
        finalUrl: fetched.finalUrl,
        redirects: fetched.redirects,
        original: { ...summary(original), contentType: fetched.contentType },
        source: { ...summary(source), origin: fetched.finalUrl },
        warc: summary(warc),
        fetchedAt: at,
        reused: o === true && s === true
      }
    })

  const importFile: IngestShape["importFile"] = (file, givenOrigin, givenOptions) =>
    Effect.gen(function*() {
      const [given, originText, options] = yield* Either.match(
        readArgs(
          requiredText(file, "file"),
          urlText(givenOrigin, "origin"),
          readOptions(givenOptions, { contentType: contentTypeText, now: optionalNow })
        ),
        { onLeft: Effect.fail, onRight: Effect.succeed }
      )
      const origin = yield* Either.match(checkOrigin(originText), { onLeft: Effect.fail, onRight: Effect.succeed })
      // A path outside the folder is the mistake every path option makes: InputOutsideWorkdir,
      // naming the option (as --input, --state and --descriptor do).
      const path = yield* relativeToWorkdir(given, "--file").pipe(Effect.provideService(Workdir, workdir))
      // dossier's own state (under `.dossier/`, `plan.md`, a study's journal, manifest or index)
      // is no page: retained, it would copy the folder's private state (a bound folder's binding
      // among it) into a source that the gate verifies quotes against and a shared store keeps.
      const owner = stateFileAt(path)
      if (owner !== null) return yield* new UnsafePath({ path, reason: owner })
      // The file first, its type second: a missing file, a directory or a link is refused as such
      // (FileNotFound, UnsafePath) whatever its name ends with, never as an unknown extension.
      const body = yield* store.readImport(path, MAX_IMPORT_BYTES).pipe(
        Effect.catchTag("LimitExceeded", (e) => Effect.fail(new InputTooLarge({ path, max: e.max, actual: e.actual })))
      )
      const media = yield* Either.match(importContentType(path, options.contentType), {
        onLeft: Effect.fail,
        onRight: Effect.succeed
      })
      yield* Either.match(checkNotEmpty(body, options.contentType ?? media.essence), {
        onLeft: Effect.fail,
        onRight: Effect.succeed
      })
      const text = yield* Either.match(decodeBody(body, options.contentType ?? media.essence), {
        onLeft: Effect.fail,
        onRight: Effect.succeed
      })
      // A web archive named as a page (`--content-type text/html`, or renamed `.html`) is refused
      // as the `.mhtml` it is: retained, its MIME parts would stand for the page.
      if (isWebArchive(body)) {
        return yield* new UnsupportedContent({
          contentType: (options.contentType ?? media.essence).slice(0, 200),
          detected: "mhtml"
        })
      }
      const importedAt = yield* dateOr(options.now)
      const { original, source } = yield* pageFiles(body, text, media.kind, origin)
      const at = importedAt.toISOString()
      const [o, s] = yield* retain([original, source], origin, at, "file")
      return {
        network: "none" as const,
        via: "file" as const,
        url: originText,
        finalUrl: origin,
        redirects: [],
        file: path,
        original: { ...summary(original), contentType: media.essence },
        source: { ...summary(source), origin },
        warc: null,
        fetchedAt: at,
        reused: o === true && s === true
      }
    })

  const dryRun: IngestShape["dryRun"] = (url) =>
    Effect.map(
      typeof url === "string" ? http.check(url) : Effect.fail(new InvalidUrl({ url: String(url) })),
      (c) => ({ network: "not_checked" as const, url: c.url, host: c.host, literal: c.literal })
    )

  return Ingest.of({ capture, importFile, dryRun })
})

/** Ingest over a CaptureStore and a WarcWriter (the folder's: `IngestFolder`), SafeHttp, Lock and the work folder. */
export const IngestLive: Layer.Layer<Ingest, never, SafeHttp | CaptureStore | WarcWriter | Lock | Workdir> = Layer
  .effect(Ingest, Effect.map(makeIngest, spanned("Ingest")))
