/**
 * The CaptureStore conformance suite: the port's contract (src/services/ports/CaptureStore.ts)
 * as assertions any adapter must pass — the folder's and the memory's do
 * (test/ingest/CaptureStore.conformance.test.ts), and so does PostgreSQL's (test/store/pg.capture.test.ts):
 *
 *   it.effect("my store conforms", () => CaptureStoreConformance.check(myAdapter))
 *
 * `make` builds a fresh, empty store (in a scope: close it to dispose of a temporary folder) with
 * hooks to put a work file (what `readImport` reads; an edit of a retained file) and to read a
 * retained file's bytes back. A failure is `ConformanceMismatch` naming what differed.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import { createHash } from "node:crypto"
import type { CaptureRecord } from "../domain/IngestContent.js"
import type { CaptureStoreShape, RetainFile } from "../services/ports/CaptureStore.js"
import { ConformanceMismatch, outcomeTag as outcome, same } from "./Conformance.js"

export { ConformanceMismatch }

export interface CaptureStoreUnderTest {
  readonly store: CaptureStoreShape
  /** Put bytes at a work-folder path behind the store's back (an import's input, an editor's save). */
  readonly putFile: (path: string, data: string) => Effect.Effect<void, unknown>
  /** The bytes a retained path holds now; None when nothing is there. */
  readonly readFile: (path: string) => Effect.Effect<Option.Option<Uint8Array>, unknown>
}

export type Make = () => Effect.Effect<CaptureStoreUnderTest, unknown, Scope.Scope>

const bytes = (s: string) => new Uint8Array(Buffer.from(s, "utf8"))
const sha = (s: string) => createHash("sha256").update(s, "utf8").digest("hex")
const text = (o: Option.Option<Uint8Array>) => Option.map(o, (b) => Buffer.from(b).toString("utf8"))

const file = (path: string, data: string): RetainFile => ({ path, data: bytes(data) })
const recordOf = (
  path: string,
  data: string,
  kind: CaptureRecord["kind"],
  at: string,
  via: "fetch" | "file" = "fetch"
): CaptureRecord => ({
  path,
  sha256: sha(data),
  bytes: Buffer.byteLength(data),
  origin: "https://example.org/page",
  fetchedAt: at,
  kind,
  via
})

const ORIGINAL = "research/sources/example.org/page.abc.html"
const READABLE = "research/sources/example.org/page.def.md"
const WARC = "research/sources/example.org/page.123.warc.gz"

/** Every assertion of the contract, on fresh stores from `make`. */
export const check = (make: Make): Effect.Effect<void, unknown> =>
  Effect.scoped(Effect.gen(function*() {
    // An empty store: no records; an import of an absent file is FileNotFound.
    {
      const { store } = yield* make()
      yield* same("records of an empty store", [], yield* store.records)
      yield* same(
        "readImport of an absent file",
        { error: "FileNotFound" },
        yield* outcome(store.readImport("page.html", 1024))
      )
    }
    // A capture, the same capture again (reused, recorded again), and an edited target refused whole.
    {
      const { readFile, putFile, store } = yield* make()
      const at1 = "2026-01-01T00:00:00.000Z"
      const files = [file(ORIGINAL, "<p>page</p>"), file(READABLE, "page\n"), file(WARC, "warc bytes")]
      const records1 = [
        recordOf(ORIGINAL, "<p>page</p>", "original", at1),
        recordOf(READABLE, "page\n", "source", at1),
        recordOf(WARC, "warc bytes", "warc", at1)
      ]
      yield* same("a first capture", {
        ok: [
          { path: ORIGINAL, sha256: sha("<p>page</p>"), bytes: 11, reused: false },
          { path: READABLE, sha256: sha("page\n"), bytes: 5, reused: false },
          { path: WARC, sha256: sha("warc bytes"), bytes: 10, reused: false }
        ]
      }, yield* outcome(store.record(files, records1)))
      yield* same("records after a capture", records1, yield* store.records)
      yield* same("a retained file's bytes", Option.some("<p>page</p>"), text(yield* readFile(ORIGINAL)))
      const at2 = "2026-01-02T00:00:00.000Z"
      const records2 = [
        recordOf(ORIGINAL, "<p>page</p>", "original", at2, "file"),
        recordOf(READABLE, "page\n", "source", at2, "file")
      ]
      yield* same("the same bytes again", {
        ok: [
          { path: ORIGINAL, sha256: sha("<p>page</p>"), bytes: 11, reused: true },
          { path: READABLE, sha256: sha("page\n"), bytes: 5, reused: true }
        ]
      }, yield* outcome(store.record(files.slice(0, 2), records2)))
      yield* same("a capture made again is recorded again", [...records1, ...records2], yield* store.records)
      // Someone edits the readable copy: a capture naming it is refused, and stores nothing.
      yield* putFile(READABLE, "edited\n")
      const fresh = "research/sources/example.org/new.999.html"
      const refused = yield* outcome(
        store.record([file(fresh, "new"), file(READABLE, "page\n")], [recordOf(fresh, "new", "original", at2)])
      )
      yield* same("a capture over an edited retained file", { error: "EditedRetainedFile" }, refused)
      yield* same("the refused capture's other file", Option.none(), yield* readFile(fresh))
      yield* same("the refused capture's records", [...records1, ...records2], yield* store.records)
      yield* same("the edited file is not rewritten", Option.some("edited\n"), text(yield* readFile(READABLE)))
    }
    // An import reads a work-folder file, bounded.
    {
      const { putFile, store } = yield* make()
      yield* putFile("saved/page.html", "<html>saved</html>")
      const read = yield* store.readImport("saved/page.html", 1024)
      yield* same("readImport", "<html>saved</html>", Buffer.from(read).toString("utf8"))
      yield* same(
        "readImport over its bound",
        { error: "LimitExceeded" },
        yield* outcome(store.readImport("saved/page.html", 4))
      )
    }
  }))
