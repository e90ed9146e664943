/**
 * FileStoreLive.readManyWith reads every file of a batch into one reused buffer: each `use` call
 * must see exactly that file's bytes (never a previous, larger file's tail), and every file keeps
 * the per-file checks of `read`.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { makeFileStoreLive } from "../../src/layers/FileStoreLive.js"

const withRoot = <A>(f: (root: string) => A): A => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dossier-readmanywith-")))
  try {
    return f(root)
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
}

describe("FileStoreLive.readManyWith", () => {
  it.effect("hands each file's own bytes to use, across sizes that grow and shrink the buffer", () =>
    Effect.sync(() =>
      withRoot((root) => {
        const files: Array<[string, Buffer]> = [
          ["d/big", Buffer.alloc(200 * 1024, 0x61)],
          ["d/small", Buffer.from("xyz")],
          ["d/empty", Buffer.alloc(0)],
          ["d/bigger", Buffer.alloc(300 * 1024, 0x62)],
          ["d/utf8", Buffer.from("é—ü\n", "utf8")]
        ]
        fs.mkdirSync(path.join(root, "d"))
        for (const [p, b] of files) fs.writeFileSync(path.join(root, p), b)
        const store = makeFileStoreLive(root)
        const seen: Array<number> = []
        const out = Effect.runSync(
          store.readManyWith!(files.map(([p]) => p), (bytes, i) => {
            seen.push(i)
            return Buffer.from(bytes).toString("hex")
          })
        )
        expect(seen).toEqual([0, 1, 2, 3, 4])
        expect(out.map((e) => e.error)).toEqual([null, null, null, null, null])
        expect(out.map((e) => e.value)).toEqual(files.map(([, b]) => b.toString("hex")))
        // readMany keeps copies: they stay intact after later files were read.
        const copies = Effect.runSync(store.readMany!(files.map(([p]) => p)))
        expect(copies.map((e) => Buffer.from(e.bytes!).toString("hex"))).toEqual(
          files.map(([, b]) => b.toString("hex"))
        )
      })
    ))

  it.effect("refuses what read refuses, without calling use", () =>
    Effect.sync(() =>
      withRoot((root) => {
        fs.mkdirSync(path.join(root, "d"))
        fs.writeFileSync(path.join(root, "d/ok"), "fine")
        fs.writeFileSync(path.join(root, "d/large"), "0123456789")
        fs.symlinkSync(path.join(root, "d/ok"), path.join(root, "d/link"))
        fs.linkSync(path.join(root, "d/ok"), path.join(root, "d/hard"))
        execFileSync("mkfifo", [path.join(root, "d/fifo")])
        fs.mkdirSync(path.join(root, "d/sub"))
        fs.symlinkSync(path.join(root, "d"), path.join(root, "via"))
        const store = makeFileStoreLive(root)
        const paths = ["d/ok", "d/large", "d/link", "d/hard", "d/fifo", "d/sub", "via/ok", "d/missing", "../escape"]
        const used: Array<number> = []
        const out = Effect.runSync(
          store.readManyWith!(paths, (bytes, i) => {
            used.push(i)
            return Buffer.from(bytes).toString("utf8")
          }, { maxBytes: 5, requireSingleLink: true })
        )
        const summary = out.map((e) =>
          e.error === null ? e.value : `${e.error._tag}${"reason" in e.error ? `:${e.error.reason}` : ""}`
        )
        expect(summary).toEqual([
          "UnsafePath:hard-link", // d/ok now has two links (d/hard)
          "LimitExceeded",
          "UnsafePath:symlink",
          "UnsafePath:hard-link",
          "UnsafePath:not-regular-file",
          "UnsafePath:not-regular-file",
          "UnsafePath:symlink",
          "FileNotFound",
          "UnsafePath:outside-workdir"
        ])
        expect(used).toEqual([])
      })
    ))
})
