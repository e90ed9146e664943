/**
 * The Live and in-memory FileStore layers pass the exported conformance suite (dossier/testing):
 * the same random operation sequences (including hostile entries: symlinks, hard links, FIFOs)
 * give the same results as on the reference in-memory store.
 */
import { describe, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { makeFileStoreLive } from "../../src/layers/FileStoreLive.js"
import { makeMemoryFs } from "../../src/layers/FileStoreMemory.js"
import { FileStoreConformance } from "../../src/testing.js"

const live = (): FileStoreConformance.StoreUnderTest => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dossier-fsprop-")))
  const at = (rel: string) => path.join(root, rel)
  return {
    store: makeFileStoreLive(root),
    symlink: (p) => fs.symlinkSync("/dev/null", at(p)),
    hardlink: (from, p) => fs.linkSync(at(from), at(p)),
    fifo: (p) => execFileSync("mkfifo", [at(p)]),
    edit: (p, d) => fs.writeFileSync(at(p), d),
    dispose: () => fs.rmSync(root, { recursive: true, force: true })
  }
}

const memory = (): FileStoreConformance.StoreUnderTest => {
  const mem = makeMemoryFs()
  return { store: mem.store, symlink: mem.symlink, hardlink: mem.hardlink, fifo: mem.fifo, edit: mem.writeRaw }
}

describe("FileStore conformance", () => {
  it.effect.prop(
    "FileStoreLive agrees with the reference store",
    { ops: FileStoreConformance.operations },
    ({ ops }) => FileStoreConformance.check(live, ops),
    { fastCheck: { numRuns: 300 } }
  )

  it.effect.prop(
    "FileStoreMemory agrees with the reference store",
    { ops: FileStoreConformance.operations },
    ({ ops }) => FileStoreConformance.check(memory, ops),
    { fastCheck: { numRuns: 100 } }
  )
})
