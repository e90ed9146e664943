/**
 * `dossier ingest --file` (built CLI) on what is not a plain file of the work folder: a FIFO, a
 * socket, a file behind a linked folder, a hard link. Each is refused as UnsafePath before a byte
 * is read, and nothing is retained. (Spawns the CLI: not for the in-process list.)
 */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { CLI, leaksNothing, runCli, snapshot, tempWorkdir } from "../support/cli.js"

const PAGE = "<!doctype html><html><body><article><p>A page saved outside the work folder.</p></article></body></html>"
const ORIGIN = ["--origin", "https://example.org/p"]

const refusedReason = (dir: string, file: string): string => {
  const before = snapshot(dir)
  const r = runCli(["ingest", "--file", file, ...ORIGIN, "--json"], { cwd: dir })
  expect(leaksNothing(dir, r)).toBe(true)
  expect(r.code, r.stdout + r.stderr).toBe(1)
  expect(r.json.error._tag).toBe("UnsafePath")
  expect(snapshot(dir)).toEqual(before)
  return r.json.error.reason
}

beforeAll(() => {
  expect(fs.existsSync(CLI)).toBe(true)
})

describe("dossier ingest --file refuses what is not a plain file of the folder", () => {
  it("a FIFO with no writer (an open that waited for one would hang) and a socket", async () => {
    const dir = tempWorkdir("dossier-file-kinds-")
    fs.mkdirSync(path.join(dir, "saved"))
    expect(spawnSync("mkfifo", [path.join(dir, "saved/fifo.html")]).status).toBe(0)
    expect(refusedReason(dir, "saved/fifo.html")).toBe("not-regular-file")
    const server = net.createServer()
    await new Promise<void>((listening) => server.listen(path.join(dir, "saved/socket.html"), listening))
    try {
      expect(refusedReason(dir, "saved/socket.html")).toBe("not-regular-file")
    } finally {
      await new Promise<void>((closed) => server.close(() => closed()))
    }
    expect(fs.existsSync(path.join(dir, "research"))).toBe(false)
  })

  it("a file behind a folder that links outside, and a hard link to a file outside", () => {
    const dir = tempWorkdir("dossier-file-kinds-")
    fs.mkdirSync(path.join(dir, "saved"))
    const outside = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), "dossier-outside-"))
    try {
      fs.writeFileSync(path.join(outside, "page.html"), PAGE)
      fs.symlinkSync(outside, path.join(dir, "saved/out"))
      expect(refusedReason(dir, "saved/out/page.html")).toBe("symlink")
      fs.linkSync(path.join(outside, "page.html"), path.join(dir, "saved/linked.html"))
      expect(refusedReason(dir, "saved/linked.html")).toBe("hard-link")
    } finally {
      fs.rmSync(outside, { recursive: true })
    }
    expect(fs.existsSync(path.join(dir, "research"))).toBe(false)
  })
})
