/**
 * Faults at the boundary (issue 13, items 12 and 13).
 *
 * - A full disk: on a 400 KiB tmpfs, an append that runs out of space leaves the file exactly as
 *   it was (cut back to its size before the batch and fsynced) and answers `IoError` (retryable);
 *   the same call succeeds once there is space. Through the built CLI (`journal append`) and for
 *   FileStore's `append` (the capture log, the gate's attempts log, the monitor's reports log).
 *   Mounting needs root: where it is not permitted the tests are skipped with a printed message.
 * - A retained file deleted and re-created by another process while `writeRetained` looks at it:
 *   every answer is a success or a typed refusal, never a defect.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { makeFileStoreLive } from "../../src/layers/FileStoreLive.js"
import { leaksNothing, putInput, runCli, tempWorkdir } from "../support/cli.js"

let mountPoint: string | undefined
let mountRefusal = ""

beforeAll(() => {
  const dir = tempWorkdir("dossier-tmpfs-")
  const r = spawnSync("mount", ["-t", "tmpfs", "-o", "size=400k", "tmpfs", dir], { encoding: "utf8" })
  if (r.status === 0) mountPoint = dir
  else {
    mountRefusal = (r.stderr || r.error?.message || "mount failed").trim()
    console.log(
      `faults.boundary: the full-disk tests are skipped: mounting a tmpfs is not permitted here (${mountRefusal})`
    )
  }
})

afterAll(() => {
  if (mountPoint !== undefined) spawnSync("umount", ["-l", mountPoint])
})

/** Fill the tmpfs until about `left` bytes are free. */
const fillTo = (dir: string, left: number) => {
  const st = fs.statfsSync(dir)
  const free = st.bavail * st.bsize
  const filler = path.join(dir, "filler")
  fs.writeFileSync(filler, Buffer.alloc(Math.max(0, free - left)))
  return filler
}

describe("a full disk never tears a batch (item 12)", () => {
  it(
    "journal append: ENOSPC leaves the journal byte for byte as before; the same retry succeeds once there is space",
    (ctx) => {
      if (mountPoint === undefined) return ctx.skip()
      const dir = path.join(mountPoint, "journal-work")
      fs.mkdirSync(dir)
      const first = runCli([
        "journal",
        "append",
        "--workdir",
        dir,
        "--study",
        "s",
        "--json",
        "--input",
        putInput(dir, "b0.json", [{ id: "c0", type: "candidate_created", candidate: { id: "k0", title: "T" } }])
      ])
      expect(first.code, first.stdout).toBe(0)
      const journal = path.join(dir, "research/s/research-events.jsonl")
      const before = fs.readFileSync(journal)
      // 20 events of ~3 KB each (the input stays under 64 KiB), with about 24 KB free.
      const batch = Array.from({ length: 20 }, (_, i) => ({
        id: `c${i + 1}`,
        type: "candidate_created",
        candidate: { id: `k${i + 1}`, title: "T", params: { blob: "x".repeat(3000) } }
      }))
      const input = putInput(dir, "b1.json", batch)
      const filler = fillTo(mountPoint, 24 * 1024)
      const full = runCli(["journal", "append", "--workdir", dir, "--study", "s", "--json", "--input", input])
      expect(leaksNothing(dir, full)).toBe(true)
      expect({ code: full.code, error: full.json?.error }).toMatchObject({
        code: 1,
        error: { _tag: "IoError", code: "ENOSPC", retryable: true }
      })
      expect(fs.readFileSync(journal).equals(before)).toBe(true)
      fs.rmSync(filler)
      const again = runCli(["journal", "append", "--workdir", dir, "--study", "s", "--json", "--input", input])
      expect(again.code, again.stdout).toBe(0)
      expect(again.json.appended).toHaveLength(20)
    },
    60_000
  )

  it("FileStore append: a failed append cuts the file back (and removes a file it created)", (ctx) => {
    if (mountPoint === undefined) return ctx.skip()
    const dir = path.join(mountPoint, "append-work")
    fs.mkdirSync(dir)
    const store = makeFileStoreLive(dir)
    expect(Exit.isSuccess(Effect.runSyncExit(store.append(".dossier/captures.jsonl", "{\"line\":1}\n")))).toBe(true)
    const log = path.join(dir, ".dossier/captures.jsonl")
    const before = fs.readFileSync(log)
    const filler = fillTo(mountPoint, 64 * 1024)
    const big = "y".repeat(200 * 1024)
    const failed = Effect.runSyncExit(store.append(".dossier/captures.jsonl", big))
    expect(Exit.isFailure(failed) && failed.cause._tag === "Fail" && failed.cause.error).toMatchObject({
      _tag: "IoError",
      code: "ENOSPC"
    })
    expect(fs.readFileSync(log).equals(before)).toBe(true)
    const fresh = Effect.runSyncExit(store.append(".dossier/gate/attempted.jsonl", big))
    expect(Exit.isFailure(fresh) && fresh.cause._tag === "Fail" && fresh.cause.error).toMatchObject({
      _tag: "IoError",
      code: "ENOSPC"
    })
    expect(fs.existsSync(path.join(dir, ".dossier/gate/attempted.jsonl"))).toBe(false)
    fs.rmSync(filler)
    const retried = Effect.runSyncExit(store.append(".dossier/captures.jsonl", big))
    expect(Exit.isSuccess(retried), String(retried)).toBe(true)
    store.close()
  }, 60_000)
})

describe("writeRetained on a file another process removes (item 13)", () => {
  it("every answer is a success or a typed refusal while the file is deleted and re-created", async () => {
    const dir = tempWorkdir()
    const target = path.join(dir, "research/sources/page.html")
    fs.mkdirSync(path.dirname(target), { recursive: true })
    const bytes = "<p>retained</p>\n"
    // Another process deletes the file and writes it again, over and over, for a bounded time.
    const churn = spawn(process.execPath, [
      "-e",
      `const fs = require("fs"); const end = Date.now() + 20000; const p = ${JSON.stringify(target)};
       process.on("SIGTERM", () => process.exit(0)); process.stdout.write("ready\\n");
       while (Date.now() < end) { try { fs.unlinkSync(p) } catch {} ; try { fs.writeFileSync(p, ${
        JSON.stringify(bytes)
      }) } catch {} }`
    ], { stdio: ["ignore", "pipe", "inherit"] })
    await new Promise<void>((resolve) => churn.stdout!.once("data", () => resolve()))
    const store = makeFileStoreLive(dir)
    const defects: Array<string> = []
    const tags = new Map<string, number>()
    const deadline = Date.now() + 5000
    try {
      for (let i = 0; i < 3000 && Date.now() < deadline; i++) {
        const r = Effect.runSyncExit(store.writeRetained("research/sources/page.html", bytes))
        const tag = Exit.isSuccess(r)
          ? (r.value.reused ? "reused" : "created")
          : r.cause._tag === "Fail"
          ? `${r.cause.error._tag}${"reason" in r.cause.error ? ` ${r.cause.error.reason}` : ""}`
          : "defect"
        tags.set(tag, (tags.get(tag) ?? 0) + 1)
        if (Exit.isFailure(r) && r.cause._tag !== "Fail") defects.push(String(r.cause))
      }
    } finally {
      churn.kill("SIGTERM")
      store.close()
    }
    expect(defects.slice(0, 3)).toEqual([])
    // The churner writes the same bytes, non-atomically (a partial file reads as an edit), and may
    // replace a file just published (refused, as the name no longer holds what was written).
    for (const tag of tags.keys()) {
      expect(
        ["reused", "created", "IoError", "EditedRetainedFile", "UnsafePath replaced-after-publish"],
        JSON.stringify([...tags])
      ).toContain(tag)
    }
  }, 60_000)
})
