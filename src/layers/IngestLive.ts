/**
 * Ingest on top of SafeHttp, FileStore and Lock. The fetch happens outside the lock; the
 * retention (both files, then one append to `.dossier/captures.jsonl`) happens inside it.
 * Every target (both retained files and the capture log) is checked before any is written, so an
 * edited retained file or an unsafe log refuses the whole capture and nothing is written.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { checkNow } from "../domain/Decode.js"
import { sha256Hex } from "../domain/Canonical.js"
import { EditedRetainedFile, UnsafePath } from "../domain/Errors.js"
import { CAPTURES_LOG, captureLine, originalPath, readablePath } from "../domain/IngestContent.js"
import { FileStore } from "../services/FileStore.js"
import { Ingest, type IngestShape } from "../services/Ingest.js"
import { Lock } from "../services/Lock.js"
import { SafeHttp } from "../services/SafeHttp.js"
import { dateOr } from "./Now.js"

/** The readable-copy extractor (and with it the HTML parser) is loaded at the first capture. */
let readableModule: Promise<typeof import("../domain/Readable.js")> | undefined
const loadReadable = Effect.promise(() => (readableModule ??= import("../domain/Readable.js")))

export const makeIngest = Effect.gen(function*() {
  const http = yield* SafeHttp
  const fs = yield* FileStore
  const lock = yield* Lock

  /** Refuse when a file already at `path` holds other bytes (checked before anything is written). */
  const expectSameOrAbsent = (path: string, sha256: string, bytes: number) =>
    Effect.flatMap(fs.stat(path), (st) =>
      Option.isNone(st)
        ? Effect.void
        : fs.hash(path, { requireSingleLink: true, maxBytes: Number.MAX_SAFE_INTEGER }).pipe(
            Effect.catchTag("FileNotFound", () => Effect.succeed({ sha256, bytes })),
            Effect.flatMap((have) =>
              have.sha256 === sha256 && have.bytes === bytes
                ? Effect.void
                : Effect.fail(new EditedRetainedFile({ path, expected: sha256, actual: have.sha256 }))
            )
          )
    )

  /** Refuse a capture log that could not be appended to (a symlink, hard link or non-regular file), before anything is written. */
  const expectAppendable = (path: string) =>
    Effect.flatMap(fs.stat(path), (st) =>
      Option.isNone(st)
        ? Effect.void
        : st.value.kind === "symlink"
        ? Effect.fail(new UnsafePath({ path, reason: "symlink" }))
        : st.value.kind !== "file"
        ? Effect.fail(new UnsafePath({ path, reason: "not-regular-file" }))
        : st.value.nlink > 1
        ? Effect.fail(new UnsafePath({ path, reason: "hard-link" }))
        : Effect.void)

  const capture: IngestShape["capture"] = (url, options) =>
    Effect.gen(function*() {
      if (options?.now !== undefined) yield* checkNow(options.now)
      const fetched = yield* http.fetch(url, options?.timeoutSeconds === undefined ? {} : { timeoutSeconds: options.timeoutSeconds })
      const fetchedAt = yield* dateOr(options?.now)
      const { readableCopyBytes } = yield* loadReadable
      const readable = readableCopyBytes(fetched.kind, fetched.text, fetched.finalUrl)
      const originalSha = sha256Hex(fetched.body)
      const readableSha = sha256Hex(readable)
      const original = { path: originalPath(fetched.finalUrl, fetched.kind, originalSha), sha256: originalSha, bytes: fetched.body.byteLength }
      const source = { path: readablePath(fetched.finalUrl, readableSha), sha256: readableSha, bytes: readable.byteLength }
      const at = fetchedAt.toISOString()
      const reused = yield* lock.withLock(
        Effect.gen(function*() {
          // Every target checked before any is written: both retained files and the capture log.
          yield* expectSameOrAbsent(original.path, original.sha256, original.bytes)
          yield* expectSameOrAbsent(source.path, source.sha256, source.bytes)
          yield* expectAppendable(CAPTURES_LOG)
          const o = yield* fs.writeRetained(original.path, fetched.body)
          const s = yield* fs.writeRetained(source.path, readable)
          yield* fs.append(
            CAPTURES_LOG,
            captureLine({ ...original, origin: fetched.finalUrl, fetchedAt: at, kind: "original" }) +
              captureLine({ ...source, origin: fetched.finalUrl, fetchedAt: at, kind: "source" })
          )
          return o.reused && s.reused
        })
      )
      return {
        network: "checked" as const,
        url: fetched.url,
        finalUrl: fetched.finalUrl,
        redirects: fetched.redirects,
        original: { ...original, contentType: fetched.contentType },
        source: { ...source, origin: fetched.finalUrl },
        fetchedAt: at,
        reused
      }
    })

  const dryRun: IngestShape["dryRun"] = (url) =>
    Effect.map(http.check(url), (c) => ({ network: "not_checked" as const, url: c.url, host: c.host, literal: c.literal }))

  return Ingest.of({ capture, dryRun })
})

export const IngestLive: Layer.Layer<Ingest, never, SafeHttp | FileStore | Lock> = Layer.effect(Ingest, makeIngest)
