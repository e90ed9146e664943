/**
 * FileStoreLive.writeRetainedMany (the batch a capture writes its files with) answers as
 * `writeRetained` file by file would, except that every target is looked at before any is
 * written: one edited or unsafe target refuses the batch with nothing written. Its answers and
 * the folder it leaves agree with `writeRetainedManyOf` over FileStoreMemory (what a store
 * without the fast path gets) on arbitrary batches over arbitrary existing files.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as fc from "fast-check"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { writeRetainedManyOf } from "../../src/layers/FileStoreFallbacks.js"
import { makeFileStoreLive } from "../../src/layers/FileStoreLive.js"
import { FileStoreMemory } from "../../src/layers/FileStoreMemory.js"
import { FileStore, type FileStoreShape } from "../../src/services/FileStore.js"

const withRoot = <A>(f: (root: string) => A): A => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dossier-retainmany-")))
  try {
    return f(root)
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
}

const sha = (b: Uint8Array | string) => createHash("sha256").update(b).digest("hex")

/** Every file under `root` (staging files included: none may be left), as path → hex digest. */
const tree = (root: string): Record<string, string> => {
  const out: Record<string, string> = {}
  const walk = (rel: string) => {
    for (const d of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const p = rel === "" ? d.name : `${rel}/${d.name}`
      if (d.isDirectory()) walk(p)
      else out[p] = sha(fs.readFileSync(path.join(root, p)))
    }
  }
  walk("")
  return out
}

const memoryStore = (): FileStoreShape => Effect.runSync(Effect.provide(FileStore, FileStoreMemory))

/** The outcome as data: the answers, or the refusal's tag and path. */
const outcome = (
  exit: Exit.Exit<ReadonlyArray<{ sha256: string; bytes: number; reused: boolean }>, { _tag: string; path?: string }>
) =>
  Exit.isSuccess(exit)
    ? { ok: exit.value.map((a) => ({ ...a })) }
    : {
      refused: Exit.isFailure(exit) && exit.cause._tag === "Fail"
        ? { tag: exit.cause.error._tag, path: exit.cause.error.path }
        : String(exit.cause)
    }

describe("FileStoreLive.writeRetainedMany", () => {
  it.effect("writes a batch over two directories (a large file hashed off the main thread), then finds it all reused", () =>
    Effect.gen(function*() {
      const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dossier-retainmany-")))
      try {
        const store = makeFileStoreLive(root)
        const big = Buffer.alloc(1024 * 1024 + 7, 0x61)
        const files = [
          { path: "research/sources/a.html", data: big },
          { path: "research/sources/a.md", data: "# A\n" },
          { path: ".dossier/other/x.json", data: "{}\n" },
          { path: "research/sources/a.warc.gz", data: new Uint8Array([1, 2, 3]) }
        ]
        const first = yield* store.writeRetainedMany!(files)
        expect(first).toEqual(
          files.map((f) => ({ sha256: sha(f.data), bytes: Buffer.byteLength(f.data), reused: false }))
        )
        expect(tree(root)).toEqual(Object.fromEntries(files.map((f) => [f.path, sha(f.data)])))
        const again = yield* store.writeRetainedMany!(files)
        expect(again.map((a) => a.reused)).toEqual([true, true, true, true])
        expect(again.map((a) => a.sha256)).toEqual(first.map((a) => a.sha256))
        store.close()
      } finally {
        fs.rmSync(root, { recursive: true, force: true })
      }
    }))

  it("refuses the whole batch, nothing written, when a later target is edited or a symlink", () =>
    withRoot((root) => {
      fs.mkdirSync(path.join(root, "d"))
      fs.writeFileSync(path.join(root, "d/c"), "edited by hand\n")
      fs.symlinkSync(path.join(root, "d/c"), path.join(root, "d/link"))
      const store = makeFileStoreLive(root)
      const before = tree(root)
      const edited = Effect.runSyncExit(store.writeRetainedMany!([
        { path: "d/a", data: "a" },
        { path: "e/b", data: "b" },
        { path: "d/c", data: "c" }
      ]))
      expect(outcome(edited)).toEqual({ refused: { tag: "EditedRetainedFile", path: "d/c" } })
      const linked = Effect.runSyncExit(
        store.writeRetainedMany!([{ path: "d/a", data: "a" }, { path: "d/link", data: "c" }])
      )
      expect(outcome(linked)).toEqual({ refused: { tag: "UnsafePath", path: "d/link" } })
      expect(tree(root)).toEqual(before)
      store.close()
    }))

  it.effect("agrees with writeRetainedManyOf over FileStoreMemory on arbitrary batches and folders", () =>
    Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(
            fc.record({ p: fc.constantFrom("a", "b", "d/c", "d/e/f"), d: fc.constantFrom("x", "y", "") }),
            { selector: (f) => f.p, maxLength: 3 }
          ),
          fc.array(
            fc.record({
              p: fc.constantFrom("a", "b", "d/c", "d/e/f", "g"),
              d: fc.constantFrom("x", "y", "", "z".repeat(70 * 1024))
            }),
            { minLength: 1, maxLength: 4 }
          ),
          async (existing, batch) => {
            const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dossier-retainmany-")))
            try {
              const live = makeFileStoreLive(root)
              const memory = memoryStore()
              for (const f of existing) {
                await Effect.runPromise(live.writeRetained(f.p, f.d))
                await Effect.runPromise(memory.writeRetained(f.p, f.d))
              }
              const files = batch.map((f) => ({ path: f.p, data: f.d }))
              const a = outcome(await Effect.runPromiseExit(live.writeRetainedMany!(files)))
              const b = outcome(await Effect.runPromiseExit(writeRetainedManyOf(memory)(files)))
              expect(a).toEqual(b)
              const expected: Record<string, string> = {}
              for (const p of ["a", "b", "d/c", "d/e/f", "g"]) {
                const got = await Effect.runPromise(Effect.either(memory.read(p)))
                if (got._tag === "Right") expected[p] = sha(got.right)
              }
              expect(tree(root)).toEqual(expected)
              live.close()
            } finally {
              fs.rmSync(root, { recursive: true, force: true })
            }
          }
        ),
        { numRuns: 60 }
      )
    ))
})
