/**
 * A program that fills the disk holding the folder cannot make its run unrecordable, through the
 * built CLI: the space for the record is reserved when the run is admitted, so the run is recorded
 * as it ended and charged what it used, never `lost`. Needs root (a small tmpfs is mounted).
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { withoutListing } from "../../src/domain/Execution.js"
import { put } from "../support/cli.js"
import { budget, createGrant, D, execAsync, folder, ok, refused, sandboxWorks, waitForRunning } from "./support.js"

/** A folder on an 8 MiB tmpfs of its own, or null (with a note) when one cannot be mounted here. */
const mountPoint = (() => {
  if (!sandboxWorks || process.getuid?.() !== 0) return null
  const at = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dossier-full-")))
  if (spawnSync("mount", ["-t", "tmpfs", "-o", "size=8m", "tmpfs", at]).status !== 0) {
    fs.rmdirSync(at)
    return null
  }
  return at
})()
if (mountPoint === null) console.warn("disk-full: not root or no tmpfs mount here: the full-disk test is skipped")

afterAll(() => {
  if (mountPoint === null) return
  spawnSync("umount", [mountPoint])
  fs.rmSync(mountPoint, { recursive: true, force: true })
})

const executions = (dir: string) => fs.readdirSync(path.join(dir, ".dossier/executions"))

describe.skipIf(mountPoint === null)("a full disk", () => {
  it(
    "a program that fills the disk: the run is recorded as it ended (not lost), what was not kept is said, and the grant goes on",
    () => {
      const dir = path.join(mountPoint!, "folder")
      put(dir, "research/exp/data/train.csv", "a,b\n1,2\n")
      put(dir, "plan.md", "PLAN-TEXT\n")
      // Output MiB well above the disk: the disk, not RLIMIT_FSIZE, stops the program.
      createGrant(dir, { protected: [], budget: budget({ outputMiB: 64 }) })
      const r = D(dir, [
        "exec",
        "--grant",
        "g1",
        "--",
        "sh",
        "-c",
        "echo started; head -c 32M /dev/zero > big; echo status $? >&2; head -c 200000 /dev/zero | tr '\\0' x"
      ])
      expect(r.code).toBe(0)
      const x = r.json.execution
      expect(x).toMatchObject({ status: "exited", exitCode: 0 })
      expect(x.cpuSeconds).not.toBeNull()
      expect(x.wallSeconds).toBeLessThan(60)
      expect(x.findings).toContainEqual({ kind: "logs-not-kept", detail: expect.any(String) })
      // The record on disk is the one answered, signed; no marker, no reservation left.
      const names = executions(dir)
      expect(names.filter((n) => n.endsWith(".running.json") || n.endsWith(".reserve"))).toEqual([])
      const stored = JSON.parse(fs.readFileSync(path.join(dir, ".dossier/executions", `${x.id}.json`), "utf8"))
      expect(stored).toEqual(x)
      expect(stored.signature).toMatchObject({ mac: expect.any(String) })
      expect(ok(dir, ["exec", "show", "--execution", x.id]).authentication.authenticity).toBe("signed")
      // Charged what it used, not its whole limits.
      expect(ok(dir, ["grant", "show", "--grant", "g1"]).remaining.wallSeconds).toBeGreaterThan(60)
      // While the disk is still full, a run is refused before it starts, with nothing charged or left.
      const before = ok(dir, ["grant", "show", "--grant", "g1"]).remaining
      expect(refused(dir, ["exec", "--grant", "g1", "--", "true"], "IoError")).toMatchObject({ code: "ENOSPC" })
      expect(ok(dir, ["grant", "show", "--grant", "g1"]).remaining).toEqual(before)
      expect(executions(dir).sort()).toEqual([x.id, `${x.id}.json`])
      // Once the file is gone, the next run of the grant works and keeps its logs.
      fs.rmSync(path.join(dir, "research/exp/runs/r1/big"))
      const next = ok(dir, ["exec", "--grant", "g1", "--", "sh", "-c", "echo again"]).execution
      expect(next).toMatchObject({ status: "exited", exitCode: 0, findings: [] })
      expect(fs.readFileSync(path.join(dir, next.stdout.path), "utf8")).toBe("again\n")
      expect(executions(dir).filter((n) => n.endsWith(".running.json") || n.endsWith(".reserve"))).toEqual([])
    },
    120_000
  )
})

describe.skipIf(!sandboxWorks)("the record's reservation", () => {
  it(
    "is held while the run is in flight and given back when a dead exec's run is recorded lost, or when no run is in flight",
    async () => {
      const dir = folder()
      createGrant(dir)
      const run = execAsync(dir, "g1", ["sleep", "4321"])
      const id = await waitForRunning(dir)
      const reserve = path.join(dir, `.dossier/executions/${id}.reserve`)
      expect(fs.statSync(reserve).size).toBeGreaterThanOrEqual(64 * 1024)
      run.child.kill("SIGKILL")
      await run.done
      // A reservation left with no run in flight (an exec that died between the two writes of admission).
      const orphan = path.join(dir, ".dossier/executions/x-20260101T000000-0000abcd.reserve")
      fs.writeFileSync(orphan, "x")
      expect(ok(dir, ["exec", "show", "--execution", id]).execution).toMatchObject({ id, status: "lost" })
      expect(executions(dir).filter((n) => n.endsWith(".running.json") || n.endsWith(".reserve"))).toEqual([])
    },
    60_000
  )
})

describe("withoutListing", () => {
  it("lists nothing, keeps the charge, and keeps at most 20 findings of bounded length, the last saying why", () => {
    const content = {
      id: "x-1",
      grantId: "g1",
      grantDigest: "d",
      task: "t",
      candidateId: null,
      argv: ["sh"],
      startedAt: "s",
      endedAt: "e",
      status: "exited" as const,
      exitCode: 0,
      signal: null,
      reason: null,
      detail: null,
      limits: { wallSeconds: 1, cpuSeconds: 1, memoryMiB: 64, processes: 256, fileMiB: 1 },
      cpuSeconds: 0.1,
      maxRssKiB: 1,
      wallSeconds: 1,
      stdout: { path: "o", bytes: 0, sha256: "e", truncated: false },
      stderr: { path: "e", bytes: 0, sha256: "e", truncated: false },
      outputs: [{ path: "a", bytes: 5, sha256: "h" }],
      ignored: [{ path: "b", kind: "symlink" }],
      outputBytes: 5,
      findings: Array.from({ length: 30 }, () => ({ kind: "output-unreadable" as const, detail: "y".repeat(5000) }))
    }
    const c = withoutListing(content)
    expect(c).toMatchObject({ outputs: [], ignored: [], outputBytes: 5, status: "exited" })
    expect(c.findings!.length).toBe(20)
    expect(c.findings!.every((f) => f.detail.length <= 600)).toBe(true)
    expect(c.findings!.at(-1)).toEqual({
      kind: "outputs-incomplete",
      detail: expect.stringContaining("none of the 2 changed entries and only 19 of its 30 findings")
    })
  })
})
