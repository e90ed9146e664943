/**
 * A sandbox that fails while it is being set up has run nothing: the run is refused
 * (`SandboxUnavailable`, nothing recorded or charged), never recorded as the program's exit.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { sealGrant } from "../../src/domain/Grant.js"
import { SandboxBwrap, startFailure } from "../../src/layers/SandboxBwrap.js"
import { Sandbox, type SandboxRequest } from "../../src/services/Sandbox.js"
import { runCli } from "../support/cli.js"
import { createGrant, ok, put, refused, sandboxWorks } from "./support.js"

const identity = (root: string, rel: string) => {
  const st = fs.statSync(path.join(root, rel), { bigint: true })
  return { path: rel, device: String(st.dev), inode: String(st.ino) }
}

const request = (masks: SandboxRequest["masks"]): SandboxRequest => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dossier-start-")))
  fs.mkdirSync(path.join(root, "data"))
  fs.writeFileSync(path.join(root, "data/train.csv"), "a,b\n")
  fs.mkdirSync(path.join(root, "work"))
  const grant = sealGrant({
    id: "g1",
    task: "t",
    parent: null,
    inputs: [identity(root, "data")],
    work: identity(root, "work"),
    protected: [],
    tools: ["bash"],
    budget: { runs: 1, wallSeconds: 30, cpuSeconds: 30, memoryMiB: 256, outputMiB: 4 },
    deadline: "2030-01-01T00:00:00Z",
    network: "offline",
    candidateId: null
  })
  return {
    root,
    grant,
    argv: ["sh", "-c", "echo ran > ran.txt; echo said; exit 1"],
    limits: { wallSeconds: 30, cpuSeconds: 30, memoryMiB: 256, processes: 64, fileMiB: 4 },
    masks
  }
}

const run = (r: SandboxRequest) =>
  Effect.flatMap(Sandbox, (s) => s.run(r, { echo: false, check: () => Effect.succeed(null) })).pipe(
    Effect.provide(SandboxBwrap)
  )

describe.skipIf(!sandboxWorks)("a sandbox that never started its program", () => {
  it.effect("a mount bwrap cannot make refuses the run; the program never ran", () =>
    Effect.gen(function*() {
      // A mask for a file the read-only input does not hold: bwrap cannot make its mount point.
      const r = request([{ path: "data/absent.txt", directory: false }])
      const e = yield* Effect.flip(run(r))
      expect(e._tag).toBe("SandboxUnavailable")
      expect(e._tag === "SandboxUnavailable" && e.reason).toMatch(
        /^the sandbox ended before the program started \(bwrap: .+; exit code 1\)/
      )
      expect(fs.existsSync(path.join(r.root, "work/ran.txt"))).toBe(false)
    }))

  it.effect("a program that started and failed is the program's exit, with its output", () =>
    Effect.gen(function*() {
      const r = request([])
      const o = yield* run(r)
      expect({ exitCode: o.exitCode, stdout: o.stdout.bytes.toString() }).toEqual({ exitCode: 1, stdout: "said\n" })
      expect(fs.readFileSync(path.join(r.root, "work/ran.txt"), "utf8")).toBe("ran\n")
    }))
})

describe("startFailure", () => {
  const base = { started: false, endedByDossier: false, wrapperCode: null, exitCode: 1, signal: null, stderr: "" }
  it("is null once the program started, or when dossier ended the run itself", () => {
    expect(startFailure({ ...base, started: true })).toBeNull()
    expect(startFailure({ ...base, endedByDossier: true })).toBeNull()
  })
  it("says what the sandbox said last, and how it ended", () => {
    expect(startFailure({ ...base, stderr: "\nbwrap: Can't mount proc on /newroot/proc: Device or resource busy\n\n" }))
      .toBe(
        "the sandbox ended before the program started (bwrap: Can't mount proc on /newroot/proc: Device or resource busy; exit code 1); nothing ran and no run was charged"
      )
    expect(startFailure({ ...base, wrapperCode: 122, exitCode: 122 })).toContain("could not join the run's cgroup")
    expect(startFailure({ ...base, exitCode: null, signal: "SIGKILL" })).toContain("it ended with SIGKILL")
  })
})

// dossier as root opens the roots with root's rights, but root inside the sandbox's user namespace
// has none over other users' files: a folder inside another user's 0700 home cannot be mounted.
// Before, the refusal was bwrap's own words ("Can't find source path /proc/self/fd/4: Permission
// denied") with a hint to install bubblewrap and try again, which cannot help.
describe.skipIf(!sandboxWorks || process.getuid?.() !== 0)("a folder the sandbox's user cannot reach", () => {
  it("is refused before the program starts, naming the root and the directory to open, nothing charged", () => {
    const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dossier-home-")))
    const dir = path.join(home, "proj")
    put(dir, "research/exp/data/train.csv", "a,b\n")
    put(dir, "plan.md", "PLAN\n")
    fs.chownSync(home, 65534, 65534)
    fs.chmodSync(home, 0o700)
    try {
      createGrant(dir)
      const e = refused(dir, ["exec", "--grant", "g1", "--", "true"], "SandboxUnavailable")
      expect(e.reason).toContain("the sandbox cannot reach the root 'research/exp/data'")
      expect(e.reason).toContain("cannot enter '..' (relative to the work folder; owner 65534, group 65534, mode 0700)")
      expect(e.reason).toContain("nothing ran and no run was charged")
      expect(e.hint).toContain("the sandbox cannot reach the root")
      expect(e.hint).not.toMatch(/^Install/)
      expect(ok(dir, ["grant", "show", "--grant", "g1"]).remaining.runs).toBe(20)
      expect(fs.readdirSync(path.join(dir, ".dossier/executions")).filter((n) => n.endsWith(".json"))).toEqual([])
      // The human report says the same on stderr, exit 1.
      const human = runCli(["exec", "--grant", "g1", "--workdir", dir, "--", "true"])
      expect(human.code).toBe(1)
      expect(human.stderr).toContain("the sandbox cannot reach the root 'research/exp/data'")
      // What it says to do works.
      fs.chmodSync(home, 0o701)
      expect(ok(dir, ["exec", "--grant", "g1", "--", "true"]).execution).toMatchObject({
        status: "exited",
        exitCode: 0
      })
    } finally {
      fs.chmodSync(home, 0o755)
    }
  })
})
