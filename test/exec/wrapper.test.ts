/**
 * The wrapper between dossier and bwrap: when it dies (dossier was killed), whatever it started
 * dies with it at every moment — also before bwrap has set its own parent-death signal, which a
 * loaded machine can delay past the wrapper's end (seen: a killed `dossier exec` whose program
 * went on running, reparented, for its whole duration). Needs perl and prctl (Linux).
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import { describe, expect, it } from "vitest"
import { WRAPPER } from "../../src/layers/SandboxBwrap.js"
import { SYSCALLS } from "../../src/layers/SandboxMachine.js"
import { processesWith } from "./support.js"

const syscalls = SYSCALLS[process.arch]

/** Gone, or a zombie no one reaps yet: `pid` runs nothing any more. */
const isEnded = (pid: number): boolean => {
  try {
    // The state follows the command name in parentheses: `123 (sh) Z …`.
    return fs.readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /s, "").startsWith("Z")
  } catch {
    return true
  }
}

/** Whether `pid` ended within `ms`, looked at every 20 ms. */
const ended = async (pid: number, ms: number): Promise<boolean> => {
  for (const until = Date.now() + ms; Date.now() < until; await new Promise((r) => setTimeout(r, 20))) {
    if (isEnded(pid)) return true
  }
  return isEnded(pid)
}

describe.skipIf(syscalls === undefined)("the run's wrapper", () => {
  it("takes a command still starting (as bwrap is before its own setup) down with it", async () => {
    const [wait4, prctl] = syscalls!
    const needle = `${process.pid}.${Date.now() % 100000}`
    // A command slow to start (bwrap parsing its arguments on a loaded machine), then the program.
    const wrapper = spawn("perl", [
      "-e",
      WRAPPER,
      "--",
      String(wait4),
      String(prctl),
      String(process.pid),
      "0",
      "/bin/sh",
      "-c",
      `sleep 0.6; exec sleep ${needle}`
    ], { stdio: ["ignore", "ignore", "ignore", "pipe"], detached: true })
    const reported = await new Promise<string>((resolve) => {
      let text = ""
      wrapper.stdio[3]!.on("data", (b: Buffer) => {
        text += b.toString()
        if (text.includes("\n")) resolve(text)
      })
    })
    expect(reported).toMatch(/^pid \d+$/m)
    const command = Number(/^pid (\d+)$/m.exec(reported)![1])
    // The wrapper dies while its command is still starting.
    wrapper.kill("SIGKILL")
    // Wait for the command's end (a survivor would exec the needle after its 0.6 s, under the same
    // pid): it ends, and never became the program.
    expect(await ended(command, 20_000)).toBe(true)
    expect(processesWith(needle)).toEqual([])
  })
})

describe.skipIf(syscalls === undefined)("the run's wrapper, when dossier dies", () => {
  it("ends every process below it, one its command left without a parent-death signal included", async () => {
    const [wait4, prctl] = syscalls!
    const needle = `${process.pid}${Date.now() % 100000}1`
    // The command stands for bwrap: it dies with the wrapper (its parent-death signal), but the
    // child it started has none (bwrap's namespace init before its own setup), so that child is
    // left to the wrapper, a child subreaper, or to the machine's init once the wrapper is gone.
    const command = `if (fork() == 0) { exec "sleep", $ENV{NEEDLE}; } sleep 1000;`
    // `sh` stands for dossier: the wrapper's parent, killed outright; `; :` keeps it the parent.
    const dossier = spawn("sh", [
      "-c",
      `perl -e "$W" -- "$1" "$2" $$ 0 /usr/bin/perl -e "$3"; :`,
      "sh",
      String(wait4),
      String(prctl),
      command
    ], { stdio: ["ignore", "ignore", "ignore", "pipe"], env: { ...process.env, W: WRAPPER, NEEDLE: needle } })
    let reported = ""
    dossier.stdio[3]!.on("data", (b: Buffer) => (reported += b.toString()))
    try {
      const deadline = Date.now() + 30_000
      while ((processesWith(needle).length === 0 || reported === "") && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20))
      }
      const left = processesWith(needle)
      expect({ left: left.length, reported }).toEqual({ left: 1, reported: expect.stringMatching(/^pid \d+$/m) })
      // dossier dies: its end of the report pipe closes and the wrapper gets its parent-death signal.
      dossier.stdio[3]!.destroy()
      dossier.kill("SIGKILL")
      expect(await ended(left[0]!, 20_000)).toBe(true)
      expect(processesWith(needle)).toEqual([])
    } finally {
      for (const p of processesWith(needle)) process.kill(p, "SIGKILL")
    }
  })
})
