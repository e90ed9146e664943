/**
 * A confined program runs as dossier's user, so a file it marks set-user-ID or set-group-ID in its
 * work root would run as that user on the machine, outside the sandbox (the mount inside is
 * nosuid, the folder outside is not). dossier clears those bits once the run is over, before the
 * record is written, and the record says so. Through the built CLI; skipped without bubblewrap.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { runCli } from "../support/cli.js"
import { createGrant, exec, execAsync, folder, ok, put, sandboxWorks, waitForFile, waitForRunning } from "./support.js"

const modeOf = (p: string) => fs.lstatSync(p).mode & 0o7777

describe.skipIf(!sandboxWorks)("set-user-ID and set-group-ID files a run leaves", () => {
  it("lose those bits after the run, at any depth and under any name; the record says so", () => {
    const dir = folder()
    createGrant(dir)
    // A set-user-ID file outside the work root, which a link left by the run names: never followed.
    const outside = put(dir, "research/exp/data/tool", "#!/bin/sh\n")
    fs.chmodSync(outside, 0o4755)
    put(dir, "research/exp/runs/r1/mk-host-link.sh", `ln -s ${outside} host-link\n`)
    const odd = "$(printf 'odd\\377')"
    const x = exec(dir, "g1", [
      "sh",
      "-c",
      [
        "cp /bin/sh suid && chmod 4755 suid",
        "cp /bin/sh sgid && chmod 2711 sgid",
        "mkdir -p deep/a/b/c && cp /bin/sh deep/a/b/c/both && chmod 6700 deep/a/b/c/both",
        `mkdir ${odd} && cp /bin/sh ${odd}/hidden && chmod 4111 ${odd}/hidden`,
        "cp /bin/sh plain && chmod 0755 plain",
        "mkdir shared && chmod 2775 shared",
        "sh mk-host-link.sh"
      ].join(" && ")
    ])
    expect(x.status).toBe("exited")
    expect(x.exitCode).toBe(0)
    const work = path.join(dir, "research/exp/runs/r1")
    expect(modeOf(path.join(work, "suid"))).toBe(0o755)
    expect(modeOf(path.join(work, "sgid"))).toBe(0o711)
    expect(modeOf(path.join(work, "deep/a/b/c/both"))).toBe(0o700)
    const oddDir = fs.readdirSync(work, { encoding: "buffer" }).find((n) => n.toString("latin1").startsWith("odd"))!
    expect(modeOf(Buffer.concat([Buffer.from(`${work}/`), oddDir, Buffer.from("/hidden")]) as unknown as string))
      .toBe(0o111)
    // What had no such bit, a directory's set-group-ID (files made there take its group) and the
    // file behind the link keep their modes.
    expect(modeOf(path.join(work, "plain"))).toBe(0o755)
    expect(modeOf(path.join(work, "shared"))).toBe(0o2775)
    expect(modeOf(outside)).toBe(0o4755)
    const cleared = x.findings.filter((f: { kind: string }) => f.kind === "setid-cleared")
    expect(cleared).toHaveLength(1)
    expect(cleared[0].detail).toContain("4 file(s)")
    for (const p of ["deep/a/b/c/both", "sgid", "suid"]) {
      expect(cleared[0].detail).toContain(`'research/exp/runs/r1/${p}'`)
    }
    expect(cleared[0].detail).toContain("and 1 more")
    expect(x.findings.filter((f: { kind: string }) => f.kind === "setid-unchecked")).toEqual([])
  })

  it("a run whose exec died loses them when it is recorded lost, by grant show as by exec", async () => {
    const dir = folder()
    createGrant(dir)
    const work = path.join(dir, "research/exp/runs/r1")
    const run = execAsync(dir, "g1", ["sh", "-c", "cp /bin/sh suid && chmod 4755 suid && touch ready && sleep 1235"])
    const id = await waitForRunning(dir)
    await waitForFile(path.join(work, "ready"))
    expect(modeOf(path.join(work, "suid"))).toBe(0o4755)
    run.child.kill("SIGKILL")
    await run.done
    ok(dir, ["grant", "show", "--grant", "g1"])
    expect(modeOf(path.join(work, "suid"))).toBe(0o755)
    const lost = ok(dir, ["exec", "show", "--execution", id]).execution
    expect(lost.status).toBe("lost")
    expect(lost.findings.map((f: { kind: string }) => f.kind)).toEqual(["setid-cleared"])
    expect(lost.findings[0].detail).toContain("'research/exp/runs/r1/suid'")
  })

  it("a person sees the record's findings: exec and exec show without --json print them", () => {
    const dir = folder()
    createGrant(dir)
    const r = runCli(["exec", "--grant", "g1", "--workdir", dir, "--", "sh", "-c", "cp /bin/sh s && chmod 4755 s"])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/finding setid-cleared: 1 file\(s\) .*'research\/exp\/runs\/r1\/s'/)
    const id = /Execution (x-[0-9T-]+-[0-9a-f]+)/.exec(r.stdout)![1]!
    const shown = runCli(["exec", "show", "--execution", id, "--workdir", dir])
    expect(shown.code).toBe(0)
    expect(shown.stdout).toContain("finding setid-cleared: 1 file(s)")
  })

  it("a run that leaves none has no such finding", () => {
    const dir = folder()
    createGrant(dir)
    const x = exec(dir, "g1", ["sh", "-c", "cp /bin/sh plain && chmod 0755 plain"])
    expect((x.findings ?? []).filter((f: { kind: string }) => f.kind.startsWith("setid"))).toEqual([])
  })
})
