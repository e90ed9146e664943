/**
 * End-to-end attacks on confined execution through the built CLI: each attempt must be refused
 * or contained, and the evidence must say what happened. Skipped (loudly) without bubblewrap.
 *
 * Over 400 lines: one catalogue of attacks, grouped by what they try (reading, writing and links,
 * names, network, limits, roots, the watchdog, evidence), sharing one folder fixture.
 */
import { describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { runCli } from "../support/cli.js"
import { createGrantInProcess } from "./grantInProcess.js"
import {
  childGrant,
  createCandidate,
  D,
  exec,
  execAsync,
  folder,
  ok,
  processesWith,
  put,
  putInput,
  refused,
  sandboxWorks,
  stderrOf,
  stdoutOf,
  waitForFile,
  waitForRunning,
  waitUntil
} from "./support.js"

const sh = (script: string) => ["sh", "-c", script]

/**
 * Attacks that need nothing of their own (a folder, a grant, one run's output) run as parts of one
 * sandboxed program: each part in a subshell, its stdout and stderr headed by its name, so each
 * test asserts on what its own part printed. A sandbox's start is most of an attack's cost.
 */
const inParts = (parts: Record<string, string>) =>
  Object.entries(parts).map(([name, script]) => {
    // The heading's text is not in the program's own command line (which a part may print).
    const heading = `printf '%s %s\\n' '####' ${name}`
    return `${heading}; ${heading} >&2; ( ${script} )`
  }).join("; ")

/** What part `name` of an `inParts` program printed on one stream. */
const partOf = (text: string, name: string) => text.split(`#### ${name}\n`)[1]!.split("#### ")[0]!

/** Memoized: the first test that asks runs it; with `-t`, only the tests that ask do. */
const once = <A>(f: () => A) => {
  let done: { value: A } | undefined
  return () => (done ??= { value: f() }).value
}

/** Kernel settings a run tries to write (those this machine has). */
const SETTINGS = ["kernel/printk_ratelimit_burst", "vm/overcommit_ratio"].filter((s) => fs.existsSync(`/proc/sys/${s}`))

const READING = {
  inputs: [
    "cat /work/research/exp/data/train.csv",
    "cat /work/research/exp/other/secret.txt",
    "cat /work/research/exp/data/holdout/labels.csv",
    "ls -A /work/research/exp/data/holdout",
    "cat /work/research/exp/data/holdout.txt",
    "cat /work/.dossier/grants/g1.json",
    "cat /work/research/st/research-events.jsonl",
    "cat /work/plan.md",
    "sh host-path.sh",
    "ls -A /work; ls -A /work/research; ls -A /work/research/exp",
    // No capability to undo the masks or the read-only binds.
    "umount /work/research/exp/data/holdout; umount -l /work/research/exp/data/holdout.txt; cat /work/research/exp/data/holdout/labels.csv /work/research/exp/data/holdout.txt",
    "mount -o remount,rw,bind /work/research/exp/data && echo bad > /work/research/exp/data/train.csv",
    "echo done"
  ].join("; "),
  escape: [
    "cat ../../other/secret.txt ../../../../plan.md ../../../../../../../../etc/shadow",
    "cat /proc/1/root/work/plan.md /proc/1/root/work/research/exp/other/secret.txt",
    "ls -A /proc/1/root/",
    "echo end"
  ].join("; "),
  mountinfo: "cat /proc/self/mountinfo; sh look.sh",
  etc: ["passwd", "group", "hosts"].map((f) => `echo '== ${f}'; cat /etc/${f}`).join("; ") +
    "; echo '== id'; id -un; whoami; id -gn; echo '== getent'; getent hosts localhost; getent passwd 0" +
    "; echo '== mode'; stat -c '%a %n' /etc/passwd /etc/group /etc/hosts" +
    "; echo '== etc'; ls -A /etc; echo '== host'; uname -n; cat /proc/sys/kernel/hostname; getent hosts \"$(uname -n)\"; echo '== '",
  // Each setting is written back with the value it has: refused now, a no-op on a machine where
  // the write would go through (the code before this test let root's runs set any of them, and
  // kernel.core_pattern or kernel.modprobe name a command the kernel runs as root outside).
  sysctl: [
    ...SETTINGS.map((s) => `v=$(cat /proc/sys/${s}) && printf '%s\\n' "$v" > /proc/sys/${s} && echo WROTE ${s}`),
    "grep -c ' /proc/sys ro,' /proc/self/mountinfo",
    "echo end"
  ].join("; ")
}

/** One folder, one grant, one run of every reading attack; each part's stdout and stderr. */
const reading = once(async () => {
  const dir = folder()
  put(dir, "research/st/research-events.jsonl", "")
  createCandidate(dir, "ev.json")
  await createGrantInProcess(dir)
  // The machine's own path to the folder, from scripts (an argv naming it would be printed back).
  put(dir, "research/exp/runs/r1/host-path.sh", `cat ${dir}/plan.md ${dir}/research/exp/other/secret.txt\n`)
  put(
    dir,
    "research/exp/runs/r1/look.sh",
    `cat ${dir}/research/exp/other/secret.txt ${dir}/plan.md; ls ${dir}; echo end\n`
  )
  const x = exec(dir, "g1", sh(inParts(READING)))
  const out = stdoutOf(dir, x)
  const err = stderrOf(dir, x)
  return {
    dir,
    x,
    out: (name: keyof typeof READING) => partOf(out, name),
    err: (name: keyof typeof READING) => partOf(err, name)
  }
})

describe.skipIf(!sandboxWorks)("confined exec: reading", () => {
  it("sees its input root read-only, and nothing outside the grant, no holdout, no grant record, no journal, no plan", async () => {
    const { dir, x, out: partOut } = await reading()
    const out = partOut("inputs")
    expect(out).toContain("a,b\n1,2\n")
    expect(out).toContain("done")
    for (
      const secret of [
        "OUTSIDE-SECRET",
        "HOLDOUT-LABELS",
        "HOLDOUT-FILE",
        "PLAN-TEXT",
        "candidate_created",
        "\"digest\""
      ]
    ) expect(out).not.toContain(secret)
    // Only the granted roots exist under /work.
    expect(out).toContain("research\nexp\ndata\nruns\n")
    expect(x.status).toBe("exited")
    expect(fs.readFileSync(path.join(dir, "research/exp/data/train.csv"), "utf8")).toBe("a,b\n1,2\n")
  })

  it("cannot escape through .., /proc/1/root or an absolute host path", async () => {
    const { err, out: partOut } = await reading()
    const out = partOut("escape")
    expect(out).not.toContain("OUTSIDE-SECRET")
    expect(out).not.toContain("PLAN-TEXT")
    const listing = out.split("\n").filter((l) => l !== "end" && l !== "")
    // The sandbox's own root: system directories, /proc, /dev, /tmp, /work; no home, root, var or the host's folders.
    for (const host of ["root", "home", "var", "opt"]) expect(listing).not.toContain(host)
    expect(listing).toContain("work")
    expect(err("escape")).toMatch(/No such file/)
  })

  it("may learn where the folder lies from /proc/self/mountinfo, and still cannot open anything there", async () => {
    const { dir, err, out: partOut } = await reading()
    const out = partOut("mountinfo")
    // What docs/exec.md says a run can see: each mount's source path (on its file system) names
    // the folder's location on the machine...
    const work = out.split("\n").find((l) => l.split(" ")[4] === "/work/research/exp/runs/r1")
    expect(work?.split(" ")[3]).toMatch(/\/research\/exp\/runs\/r1$/)
    expect(dir.endsWith(work!.split(" ")[3]!.slice(0, -"/research/exp/runs/r1".length))).toBe(true)
    // ...but nothing at that path exists inside the sandbox.
    expect(out).not.toContain("OUTSIDE-SECRET")
    expect(out).not.toContain("PLAN-TEXT")
    expect(out.trim().split("\n").at(-1)).toBe("end")
    expect(err("mountinfo").match(/No such file/g)).toHaveLength(3)
  })

  it("sees the sandbox's own accounts and hosts in /etc and host name, none of the machine's, and names still resolve", async () => {
    const { err, out: partOut } = await reading()
    const part = (out: string, name: string) => out.split(`== ${name}\n`)[1]!.split("== ")[0]!
    const out = partOut("etc")
    const uid = process.getuid!()
    const gid = process.getgid!()
    // Root, nobody and the running user (named by nothing of the machine's), in uid order.
    const me = uid === 0 ? "root" : uid === 65534 ? "nobody" : "dossier"
    const home = "/work/research/exp/runs/r1"
    const users = new Map([[0, "root:x:0:0:root:/root:/bin/sh"], [
      65534,
      "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin"
    ]])
    users.set(uid, `${me}:x:${uid}:${gid}:${me}:${home}:/bin/sh`)
    const groups = new Map([[0, "root:x:0:"], [65534, "nogroup:x:65534:"]])
    if (!groups.has(gid)) groups.set(gid, `dossier:x:${gid}:`)
    const lines = (m: Map<number, string>) => [...m].sort(([a], [b]) => a - b).map(([, l]) => `${l}\n`).join("")
    expect(part(out, "passwd")).toBe(lines(users))
    expect(part(out, "group")).toBe(lines(groups))
    expect(part(out, "hosts")).toBe("127.0.0.1 localhost\n::1 localhost ip6-localhost ip6-loopback\n")
    // The running user and its group still have names; localhost still resolves.
    const myGroup = groups.get(gid)!.split(":")[0]
    expect(part(out, "id")).toBe(`${me}\n${me}\n${myGroup}\n`)
    expect(part(out, "getent")).toMatch(/^(127\.0\.0\.1|::1)\s+localhost/)
    expect(part(out, "getent")).toContain(`\n${users.get(0)}\n`)
    // Readable by every user, as the machine's are.
    expect(part(out, "mode")).toBe("644 /etc/passwd\n644 /etc/group\n644 /etc/hosts\n")
    // The minimal /etc: those three and the machine's loader, time zone and lookup files.
    const kept = ["ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "localtime", "nsswitch.conf"]
      .filter((f) => fs.existsSync(`/etc/${f}`))
    expect(part(out, "etc").split("\n").filter((l) => l !== "").sort()).toEqual(
      [...kept, "passwd", "group", "hosts"].sort()
    )
    // The host name is not the machine's, and it resolves.
    expect(part(out, "host")).toMatch(/^localhost\nlocalhost\n(127\.0\.0\.1|::1)\s+localhost/)
    expect(err("etc")).toBe("")
  })

  it("cannot change the machine's kernel settings through /proc/sys, even when dossier runs as root", async () => {
    expect(SETTINGS.length).toBeGreaterThan(0)
    const { out: partOut, x } = await reading()
    const out = partOut("sysctl")
    expect(out).toContain("end")
    expect(out).not.toContain("WROTE")
    expect(out).toContain("1\nend")
    expect(x.status).toBe("exited")
  })

  it("refuses roots that would expose protected paths, and paths that escape", () => {
    const dir = folder()
    put(dir, "research/st/notes.txt", "x")
    expect(
      refused(
        dir,
        ["grant", "create", "--input", putInput(dir, "a.json", { ...baseInput(), inputs: ["research/st"] })],
        "ProtectedPathInGrant"
      ).path
    )
      .toBe("research/st/research-events.jsonl")
    expect(
      refused(dir, [
        "grant",
        "create",
        "--input",
        putInput(dir, "b.json", { ...baseInput(), inputs: [".dossier/grants"] })
      ], "ProtectedPathInGrant").path
    ).toBe(".dossier")
    expect(
      refused(dir, [
        "grant",
        "create",
        "--input",
        putInput(dir, "c.json", { ...baseInput(), inputs: ["research/exp/data/holdout"] })
      ], "ProtectedPathInGrant").path
    )
      .toBe("research/exp/data/holdout")
    refused(dir, [
      "grant",
      "create",
      "--input",
      putInput(dir, "d.json", { ...baseInput(), inputs: ["research/../../x"] })
    ], "UnsafePath")
    refused(
      dir,
      ["grant", "create", "--input", putInput(dir, "e.json", { ...baseInput(), work: "/tmp/x" })],
      "UnsafePath"
    )
    fs.symlinkSync(path.join(dir, "research/exp/other"), path.join(dir, "research/exp/link"))
    refused(dir, [
      "grant",
      "create",
      "--input",
      putInput(dir, "f.json", { ...baseInput(), inputs: ["research/exp/link"] })
    ], "UnsafePath")
    expect(fs.existsSync(path.join(dir, ".dossier/grants/g1.json"))).toBe(false)
  })
})

const baseInput = () => ({
  id: "g1",
  task: "task-1",
  inputs: ["research/exp/data"],
  work: "research/exp/runs/r1",
  protected: ["research/exp/data/holdout"],
  tools: ["read", "bash"],
  budget: { runs: 5, wallSeconds: 60, cpuSeconds: 60, memoryMiB: 256, outputMiB: 8 },
  deadline: "2030-01-01T00:00:00Z"
})

/** Writing and linking attacks: one folder, one grant, one run of both (parts as for reading). */
const writing = once(async () => {
  const dir = folder()
  await createGrantInProcess(dir)
  put(dir, "research/exp/runs/r1/mk-host-link.sh", `ln -s ${dir}/research/exp/other/secret.txt host-link\n`)
  const x = exec(
    dir,
    "g1",
    sh(inParts({
      write:
        "echo bad > /work/research/exp/data/train.csv; echo new > /work/research/exp/data/n.txt; echo x > /tmp/t; echo y > /work/y; echo ok > result.txt",
      links: [
        "ln -s /work/research/exp/data/train.csv in-link",
        "ln -s ../../../../plan.md plan-link",
        "sh mk-host-link.sh",
        "ln /work/research/exp/data/train.csv hard",
        "mkfifo fifo",
        "echo real > real.txt"
      ].join("; ")
    }))
  )
  return { dir, x, err: (name: "write" | "links") => partOf(stderrOf(dir, x), name) }
})

describe.skipIf(!sandboxWorks)("confined exec: writing and links", () => {
  it("cannot write into an input root; the work root is the only writable place", async () => {
    const { dir, err, x } = await writing()
    expect(fs.readFileSync(path.join(dir, "research/exp/data/train.csv"), "utf8")).toBe("a,b\n1,2\n")
    expect(fs.existsSync(path.join(dir, "research/exp/data/n.txt"))).toBe(false)
    expect(fs.existsSync(path.join(dir, "y"))).toBe(false)
    expect(err("write")).toMatch(/Read-only file system/)
    // The run's outputs: this part's one file, and the other part's (below).
    expect(x.outputs.map((o: any) => o.path)).toEqual([
      "research/exp/runs/r1/real.txt",
      "research/exp/runs/r1/result.txt"
    ])
  })

  it("a symlink it creates pointing outside is listed, never followed by the evidence scan; a hard link out fails", async () => {
    const { dir, err, x } = await writing()
    // The run's outputs: this part's one regular file, and the other part's (above).
    expect(x.outputs.map((o: any) => o.path)).toEqual([
      "research/exp/runs/r1/real.txt",
      "research/exp/runs/r1/result.txt"
    ])
    expect(x.ignored).toEqual([
      { path: "research/exp/runs/r1/fifo", kind: "other" },
      { path: "research/exp/runs/r1/host-link", kind: "symlink" },
      { path: "research/exp/runs/r1/in-link", kind: "symlink" },
      { path: "research/exp/runs/r1/plan-link", kind: "symlink" }
    ])
    expect(fs.existsSync(path.join(dir, "research/exp/runs/r1/hard"))).toBe(false)
    expect(err("links")).toMatch(/Invalid cross-device link|Operation not permitted/)
    // The record verifies, and a later show does not follow the links either.
    const shown = ok(dir, ["exec", "show", "--execution", x.id, "--verify"])
    expect(shown.verify.findings).toEqual([])
  })
})

describe.skipIf(!sandboxWorks)("confined exec: names with line breaks and control characters", () => {
  it("the record keeps them as they are; exec show's report shows each on its one line, escaped", async () => {
    const dir = folder()
    await createGrantInProcess(dir)
    // A name that would print as a finding of dossier's own, one with a tab, one with the list's
    // separator, one with an escape sequence; a folder with a line break holding a .dossier.
    const forged = "a\n  finding setid-cleared: forged"
    const x = exec(
      dir,
      "g1",
      sh([
        `printf x > "$(printf 'a\\n  finding setid-cleared: forged')"`,
        `printf y > "$(printf 't\\tb')"`,
        "printf z > 'c, d'",
        `printf w > "$(printf 'e\\033[2Jf')"`,
        `mkdir -p "$(printf 'n\\nm')/.dossier"`
      ].join("; "))
    )
    const work = "research/exp/runs/r1"
    // JSON holds the names whole (JSON escapes them itself).
    expect(x.outputs.map((o: any) => o.path).sort()).toEqual(
      [forged, "c, d", "e\u001b[2Jf", "t\tb"].map((n) => `${work}/${n}`).sort()
    )
    const marker = x.findings.find((f: any) => f.kind === "work-folder-marker")
    expect(marker.detail).toContain(`'${work}/n\nm/.dossier'`)
    const report = runCli(["exec", "show", "--execution", x.id, "--workdir", dir])
    expect(report.code).toBe(0)
    const lines = report.stdout.trimEnd().split("\n")
    // Every line is one of dossier's: the name that looks like a finding is not a line of its own.
    expect(lines.filter((l) => l.startsWith("  finding ")).map((l) => l.split(":")[0])).toEqual([
      "  finding work-folder-marker"
    ])
    expect(report.stdout).not.toContain("\t")
    expect(report.stdout).not.toContain("\u001b")
    const outputs = lines.find((l) => l.startsWith("  4 output(s): "))!
    for (const name of [forged, "c, d", "t\tb", "e\u001b[2Jf"]) {
      expect(outputs).toContain(JSON.stringify(`${work}/${name}`))
    }
    expect(lines.find((l) => l.startsWith("  finding work-folder-marker: "))).toContain(`'${work}/n\\nm/.dossier'`)
  })
})

describe.skipIf(!sandboxWorks)("confined exec: hard links placed from outside", () => {
  it("an output that is also a file outside the work root is named by a hard-link-outside finding", async () => {
    const dir = folder()
    await createGrantInProcess(dir)
    // Someone who can write the folder links a file from outside it into the work root.
    const outside = path.join(fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dossier-outside-"))), "f.txt")
    fs.writeFileSync(outside, "OUTSIDE\n")
    fs.mkdirSync(path.join(dir, "research/exp/runs/r1"), { recursive: true })
    fs.linkSync(outside, path.join(dir, "research/exp/runs/r1/linked.txt"))
    put(dir, "research/exp/runs/r1/untouched.txt", "same\n")
    fs.linkSync(
      path.join(dir, "research/exp/runs/r1/untouched.txt"),
      path.join(os.tmpdir(), `dossier-l-${path.basename(dir)}`)
    )
    const x = exec(dir, "g1", sh("echo more >> linked.txt; echo own > own; ln own own2"))
    expect(x.exitCode).toBe(0)
    // The run wrote through the link (it could not have made one itself: a link across mounts is EXDEV).
    expect(fs.readFileSync(outside, "utf8")).toBe("OUTSIDE\nmore\n")
    expect(x.outputs.map((o: any) => o.path)).toEqual([
      "research/exp/runs/r1/linked.txt",
      "research/exp/runs/r1/own",
      "research/exp/runs/r1/own2"
    ])
    // Only the changed file with a name outside is named; links among the run's own outputs are not.
    const found = x.findings.filter((f: { kind: string }) => f.kind === "hard-link-outside")
    expect(found).toHaveLength(1)
    expect(found[0].detail).toContain("1 output(s)")
    expect(found[0].detail).toContain("'research/exp/runs/r1/linked.txt' (2 names, 1 in the work root)")
    expect(found[0].detail).not.toContain("own")
    expect(found[0].detail).not.toContain("untouched")
  })
})

const NETWORK_SECRET = "s3cr3t-from-the-parent-environment"

/**
 * One folder, one grant, one run (parts as for reading) with a secret in dossier's environment: a
 * connection to a server on the machine's loopback, and every process's environment and command line.
 */
const network = once(async () => {
  const dir = folder()
  await createGrantInProcess(dir)
  let connections = 0
  const server = net.createServer((s) => {
    connections++
    s.destroy()
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  const port = (server.address() as net.AddressInfo).port
  try {
    const r = D(dir, [
      "exec",
      "--grant",
      "g1",
      "--",
      "bash",
      "-c",
      inParts({
        loopback:
          `echo hi > /dev/tcp/127.0.0.1/${port} && echo CONNECTED; cat /proc/net/dev | tail -n +3 | cut -d: -f1`,
        environ: "for p in /proc/[0-9]*; do cat $p/environ $p/cmdline 2>/dev/null; echo; done; env; echo end"
      })
    ], { DOSSIER_TEST_SECRET: NETWORK_SECRET })
    const stdout = stdoutOf(dir, r.json.execution)
    // Connections the server accepted while the (synchronous) exec ran are counted once it returns.
    await new Promise((resolve) => setImmediate(resolve))
    return { r, connections, out: (name: "loopback" | "environ") => partOf(stdout, name) }
  } finally {
    server.close()
  }
})

describe.skipIf(!sandboxWorks)("confined exec: network and environment", () => {
  it("cannot reach a server on the machine's loopback; only its own lo exists", async () => {
    const { connections, out } = await network()
    expect(out("loopback")).not.toContain("CONNECTED")
    expect(out("loopback").trim().split("\n").map((l) => l.trim())).toEqual(["lo"])
    expect(connections).toBe(0)
  })

  it("runs with only PATH, HOME, LANG, TZ and DOSSIER_GRANT, in the work root, in a new session", async () => {
    const dir = folder()
    await createGrantInProcess(dir)
    const x = exec(dir, "g1", ["env"])
    expect(stdoutOf(dir, x).trim().split("\n").map((l) => l.split("=")[0]).sort()).toEqual([
      "DOSSIER_GRANT",
      "HOME",
      "LANG",
      "PATH",
      "TZ"
    ])
    expect(stdoutOf(dir, x)).toContain("DOSSIER_GRANT=g1\n")
    const y = exec(dir, "g1", sh("pwd; cat /proc/self/stat | cut -d' ' -f6"))
    const [pwd, session] = stdoutOf(dir, y).trim().split("\n")
    expect(pwd).toBe("/work/research/exp/runs/r1")
    expect(Number(session)).toBeGreaterThan(0)
    // No descriptor but stdin, stdout and stderr reaches the program (ls's own directory handle aside).
    const fds = exec(dir, "g1", ["ls", "/proc/self/fd"])
    expect(stdoutOf(dir, fds).trim().split("\n").map(Number).filter((n) => n > 3)).toEqual([])
  })

  it("a secret in dossier's own environment reaches no process of the run, not even through /proc/<pid>/environ", async () => {
    const { out, r } = await network()
    expect(r.code, r.stderr).toBe(0)
    expect(out("environ")).toContain("DOSSIER_GRANT=g1")
    expect(out("environ").trimEnd().endsWith("end")).toBe(true)
    expect(out("environ")).not.toContain(NETWORK_SECRET)
    expect(out("environ")).not.toContain("DOSSIER_TEST_SECRET")
  })

  it("without bash among the tools nothing runs, whatever program would start the shell", async () => {
    const dir = folder()
    await createGrantInProcess(dir, { tools: ["read", "notebook"] })
    // A copy of a shell under another name, in the work root.
    put(dir, "research/exp/runs/r1/notashell", fs.readFileSync("/bin/sh"))
    fs.chmodSync(path.join(dir, "research/exp/runs/r1/notashell"), 0o755)
    const attempts = [
      ["/bin/sh", "-c", "echo PWNED > pwned.txt"],
      ["/usr/bin/env", "sh", "-c", "echo PWNED > pwned.txt"],
      ["perl", "-e", `exec "/bin/sh", "-c", "echo PWNED > pwned.txt"`],
      ["python3", "-c", "import os; os.system('echo PWNED > pwned.txt')"],
      ["./notashell", "-c", "echo PWNED > pwned.txt"],
      ["true"]
    ]
    for (const argv of attempts) {
      const e = refused(dir, ["exec", "--grant", "g1", "--", ...argv], "GrantWidening")
      expect(e.field, argv.join(" ")).toBe("tools")
      expect(e.detail).toContain("'bash'")
      // The hint says what to do about a run, not only about a child grant or a narrowing.
      expect(e.hint).toContain("a run needs 'bash' among the tools")
    }
    expect(fs.existsSync(path.join(dir, "research/exp/runs/r1/pwned.txt"))).toBe(false)
    // Nothing ran, so nothing was recorded or charged.
    const records = path.join(dir, ".dossier/executions")
    expect(fs.existsSync(records) ? fs.readdirSync(records) : []).toEqual([])
    expect(ok(dir, ["grant", "show", "--grant", "g1"]).remaining.runs).toBe(20)
    // The same programs run under a grant that has bash.
    await createGrantInProcess(
      dir,
      { id: "g2", task: "task-2", work: "research/exp/runs/r2", tools: ["bash"] },
      "g2.json"
    )
    for (const argv of attempts.slice(1, 4)) {
      const x = exec(dir, "g2", argv)
      expect(x.exitCode, argv.join(" ")).toBe(0)
    }
    expect(fs.readFileSync(path.join(dir, "research/exp/runs/r2/pwned.txt"), "utf8")).toBe("PWNED\n")
  })
})

/** Processes a run leaves behind: one folder, one grant, one run (parts as for reading). */
const leftBehind = once(async () => {
  const dir = folder()
  await createGrantInProcess(dir)
  const x = exec(
    dir,
    "g1",
    sh(inParts({
      // Odd durations, so that the processes are found by their argv on the machine.
      daemons: "setsid sleep 4097 & (sleep 4098 &); nohup sleep 4099 >/dev/null 2>&1 & echo started",
      // The counting loop runs in a process its parent left behind (reparented to the namespace's
      // init), which writes down the CPU time it used: the record must count at least that (the
      // parent only sleeps), on a fast machine as on a slow one.
      orphan:
        `(perl -e '$i++ while $i < 2e7; open(F, ">used"); print F ((times)[0] + (times)[1]); close F; rename("used", "done")' &); while [ ! -e done ]; do sleep 0.1; done`
    }))
  )
  return { dir, x, out: (name: "daemons" | "orphan") => partOf(stdoutOf(dir, x), name) }
})

describe.skipIf(!sandboxWorks)("confined exec: limits", () => {
  it("outliving the wall budget: sleep 1000 is killed and recorded", async () => {
    const dir = folder()
    await createGrantInProcess(dir, {
      budget: { runs: 5, wallSeconds: 2, cpuSeconds: 60, memoryMiB: 256, outputMiB: 8 }
    })
    const t0 = Date.now()
    const x = exec(dir, "g1", ["sleep", "1000"])
    expect(x).toMatchObject({ status: "killed", reason: "wall-time", signal: "SIGTERM" })
    // Ended at the 2 s limit: the run's own measure (the wrapper's), at most the limit, the watchdog's
    // half second and the 2 s before SIGKILL, with room for a loaded machine. The CLI's start and
    // its record (seconds on a loaded machine) are not the limit: the whole command only has to end
    // long before the program would have.
    expect(x.wallSeconds).toBeLessThan(8)
    expect(Date.now() - t0).toBeLessThan(120_000)
    expect(processesWith("1000").filter((p) => fs.readFileSync(`/proc/${p}/cmdline`, "utf8").startsWith("sleep")))
      .toEqual([])
    // The wall budget is spent: nothing more runs.
    expect(refused(dir, ["exec", "--grant", "g1", "--", "true"], "BudgetExhausted").resource).toBe("wallSeconds")
  })

  it("a fork bomb stops at the process limit", async () => {
    const dir = folder()
    await createGrantInProcess(dir)
    const x = exec(dir, "g1", [
      "perl",
      "-e",
      "my $n = 0; for (1..600) { my $p = fork(); last unless defined $p; if ($p == 0) { sleep 20; exit 0 } $n++ } print \"$n\\n\"; kill 9, -$$ if 0; exit 0"
    ])
    const forked = Number(stdoutOf(dir, x).trim())
    expect(forked).toBeGreaterThan(10)
    expect(forked).toBeLessThan(256)
    expect(x.limits.processes).toBe(256)
  })

  it("allocating past the memory budget fails inside the sandbox", async () => {
    const dir = folder()
    await createGrantInProcess(dir, {
      budget: { runs: 5, wallSeconds: 60, cpuSeconds: 60, memoryMiB: 64, outputMiB: 8 }
    })
    const x = exec(dir, "g1", ["perl", "-e", "my $x = 'a' x (300 * 1024 * 1024); print length($x), \"\\n\""])
    expect(stdoutOf(dir, x)).not.toContain(String(300 * 1024 * 1024))
    expect(x.exitCode).not.toBe(0)
    expect(x.maxRssKiB).toBeLessThan(64 * 1024)
  })

  it("output beyond the budget is BudgetExceeded, and the run is recorded", async () => {
    const dir = folder()
    await createGrantInProcess(dir, {
      budget: { runs: 5, wallSeconds: 60, cpuSeconds: 60, memoryMiB: 256, outputMiB: 1 }
    })
    const e = refused(dir, [
      "exec",
      "--grant",
      "g1",
      "--",
      "sh",
      "-c",
      "head -c 700000 /dev/zero > a; head -c 700000 /dev/zero > b"
    ], "BudgetExceeded")
    expect(e).toMatchObject({ resource: "outputMiB", actual: 1_400_000 })
    // The figures are bytes: the message says so, not "1400000 of outputMiB".
    expect(e.message).toContain("used 1400000 bytes of output, beyond the 1048576 bytes of output left (outputMiB)")
    const shown = ok(dir, ["exec", "show", "--execution", e.executionId])
    expect(shown.execution.outputs.length).toBe(2)
    expect(refused(dir, ["exec", "--grant", "g1", "--", "true"], "BudgetExhausted").resource).toBe("outputMiB")
  })

  it("nothing it forks outlives the run: a daemon, an orphan and a nohup are gone when exec answers", async () => {
    const { out, x } = await leftBehind()
    expect(x.status).toBe("exited")
    expect(out("daemons")).toBe("started\n")
    expect([...processesWith("4097"), ...processesWith("4098"), ...processesWith("4099")]).toEqual([])
  })

  it("the recorded CPU time is the whole tree's, an orphan's included", async () => {
    const { dir, x } = await leftBehind()
    expect(x.status).toBe("exited")
    const orphan = Number(fs.readFileSync(path.join(dir, "research/exp/runs/r1/done"), "utf8"))
    expect(orphan).toBeGreaterThan(0.1)
    expect(x.cpuSeconds).toBeGreaterThanOrEqual(orphan * 0.95)
  })

  it("a tree of processes that together reach the CPU budget is killed: cpu-time, and the budget is spent", async () => {
    const dir = folder()
    await createGrantInProcess(dir, {
      budget: { runs: 5, wallSeconds: 60, cpuSeconds: 2, memoryMiB: 256, outputMiB: 8 }
    })
    // Four busy loops: each stays under the per-process RLIMIT_CPU of 2 s until the tree has used 2 s.
    const x = exec(dir, "g1", sh("for i in 1 2 3 4; do (while :; do :; done) & done; wait"))
    expect(x).toMatchObject({ status: "killed", reason: "cpu-time", signal: "SIGTERM" })
    expect(x.cpuSeconds).toBeGreaterThanOrEqual(2)
    // Far below the 4 × 2 s the loops would use if each were held only to its own limit.
    expect(x.cpuSeconds).toBeLessThan(5)
    expect(refused(dir, ["exec", "--grant", "g1", "--", "true"], "BudgetExhausted").resource).toBe("cpuSeconds")
  })

  it("a grant with no run left refuses", async () => {
    const dir = folder()
    await createGrantInProcess(dir, {
      budget: { runs: 1, wallSeconds: 60, cpuSeconds: 60, memoryMiB: 256, outputMiB: 8 }
    })
    exec(dir, "g1", ["true"])
    expect(refused(dir, ["exec", "--grant", "g1", "--", "true"], "BudgetExhausted").resource).toBe("runs")
    expect(ok(dir, ["grant", "show", "--grant", "g1"]).state).toBe("exhausted")
  })
})

describe.skipIf(!sandboxWorks)("confined exec: roots and grants", () => {
  it("a root replaced by a symlink (or another directory) between grant and exec is RootIdentityChanged", async () => {
    const dir = folder()
    await createGrantInProcess(dir)
    fs.renameSync(path.join(dir, "research/exp/data"), path.join(dir, "research/exp/data-moved"))
    fs.symlinkSync(path.join(dir, "research/exp/other"), path.join(dir, "research/exp/data"))
    expect(refused(dir, ["exec", "--grant", "g1", "--", "true"], "RootIdentityChanged").path).toBe("research/exp/data")
    fs.unlinkSync(path.join(dir, "research/exp/data"))
    fs.mkdirSync(path.join(dir, "research/exp/data"))
    expect(refused(dir, ["exec", "--grant", "g1", "--", "true"], "RootIdentityChanged").path).toBe("research/exp/data")
    fs.rmdirSync(path.join(dir, "research/exp/data"))
    fs.renameSync(path.join(dir, "research/exp/data-moved"), path.join(dir, "research/exp/data"))
    expect(exec(dir, "g1", ["true"]).status).toBe("exited")
    expect(fs.readdirSync(path.join(dir, ".dossier/executions")).filter((n) => n.endsWith(".json")).length).toBe(1)
  })

  it("without a sandbox nothing runs: SandboxUnavailable, nothing recorded", async () => {
    const dir = folder()
    await createGrantInProcess(dir)
    expect(
      refused(dir, ["exec", "--grant", "g1", "--", "true"], "SandboxUnavailable", { DOSSIER_SANDBOX: "unavailable" })
        .reason
    ).toMatch(/DOSSIER_SANDBOX/)
    expect(fs.existsSync(path.join(dir, ".dossier/executions"))).toBe(false)
  })
})

describe.skipIf(!sandboxWorks)("confined exec: the watchdog", () => {
  it("revoking the grant while it runs kills it within 2 s, recorded killed: revoked", async () => {
    const dir = folder()
    await createGrantInProcess(dir)
    const run = execAsync(dir, "g1", ["sh", "-c", "touch ready && exec sleep 1000"])
    await waitForRunning(dir)
    await waitForFile(path.join(dir, "research/exp/runs/r1/ready"))
    const revoked = ok(dir, ["grant", "revoke", "--grant", "g1", "--reason", "test"])
    const r = await run.done
    expect(r.code).toBe(0)
    expect(r.json.execution).toMatchObject({ status: "killed", reason: "revoked" })
    // Within 2 s of the revocation, between dossier's own time stamps (the revocation's, taken once
    // `grant revoke` has started, and the record's end): the start of either command, seconds on a
    // loaded machine, is not the watchdog's doing.
    const at = revoked.events.find((e: { type: string }) => e.type === "revoked").at
    expect(Date.parse(r.json.execution.endedAt) - Date.parse(at)).toBeLessThan(2500)
    refused(dir, ["exec", "--grant", "g1", "--", "true"], "GrantInactive")
    // `grant revoke` itself kills the run's processes at once (SIGKILL; the run's own watchdog may
    // see the revocation first and send its SIGTERM), and exec's help says so.
    expect(["SIGKILL", "SIGTERM"]).toContain(r.json.execution.signal)
    expect(runCli(["exec", "--help"]).stdout.replace(/\s+/g, " ")).toContain(
      "grant revoke itself also kills it at once with SIGKILL"
    )
  })

  it("revoking an ancestor kills a child's run; narrowing the deadline kills too", async () => {
    const dir = folder()
    await createGrantInProcess(dir)
    ok(dir, [
      "grant",
      "create",
      "--input",
      putInput(
        dir,
        "child.json",
        childGrant({ budget: { runs: 2, wallSeconds: 30, cpuSeconds: 30, memoryMiB: 128, outputMiB: 1 } })
      )
    ])
    const a = execAsync(dir, "g2", ["sleep", "1000"])
    await waitForRunning(dir)
    const revoked = ok(dir, ["grant", "revoke", "--grant", "g1"])
    expect(revoked.revoked).toEqual(["g1", "g2"])
    expect((await a.done).json.execution).toMatchObject({ status: "killed", reason: "revoked" })

    const other = folder()
    await createGrantInProcess(other)
    const b = execAsync(other, "g1", ["sleep", "1000"])
    await waitForRunning(other)
    ok(other, [
      "grant",
      "narrow",
      "--grant",
      "g1",
      "--input",
      putInput(other, "n.json", { deadline: new Date(Date.now() + 1000).toISOString() })
    ])
    expect((await b.done).json.execution).toMatchObject({ status: "killed", reason: "deadline" })
  })

  it("narrowing the CPU budget below what the run used kills it: budget-narrowed", async () => {
    const dir = folder()
    await createGrantInProcess(dir)
    const run = execAsync(dir, "g1", sh("while :; do :; done"))
    await waitForRunning(dir)
    ok(dir, ["grant", "narrow", "--grant", "g1", "--input", putInput(dir, "n.json", { budget: { cpuSeconds: 1 } })])
    const r = await run.done
    expect(r.json.execution).toMatchObject({ status: "killed", reason: "budget-narrowed" })
    expect(r.json.execution.detail).toContain("1 CPU seconds")
    expect(r.json.execution.cpuSeconds).toBeGreaterThanOrEqual(1)
  })

  it("a root replaced while it runs kills it: root-identity-changed", async () => {
    const dir = folder()
    await createGrantInProcess(dir)
    const run = execAsync(dir, "g1", ["sh", "-c", "touch ready && exec sleep 1000"])
    await waitForRunning(dir)
    await waitForFile(path.join(dir, "research/exp/runs/r1/ready"))
    fs.renameSync(path.join(dir, "research/exp/data"), path.join(dir, "research/exp/data-old"))
    fs.mkdirSync(path.join(dir, "research/exp/data"))
    const r = await run.done
    expect(r.json.execution).toMatchObject({ status: "killed", reason: "root-identity-changed" })
    expect(r.json.execution.detail).toContain("research/exp/data")
  })

  it("a root swapped for a link right as the run starts is never what gets mounted", async () => {
    const dir = folder()
    await createGrantInProcess(dir)
    // The program outlives the swap by far (the watchdog looks every half second and ends it then):
    // on a loaded machine the test may see the run start seconds after it did.
    const run = execAsync(dir, "g1", ["sh", "-c", "ls /work/research/exp/data; sleep 30; ls /work/research/exp/data"])
    await waitForRunning(dir)
    fs.renameSync(path.join(dir, "research/exp/data"), path.join(dir, "research/exp/data-old"))
    fs.symlinkSync(path.join(dir, "research/exp/other"), path.join(dir, "research/exp/data"))
    const r = await run.done
    if (r.json.ok) {
      // Seen once in a full run on a loaded machine: the run recorded as exited within a second
      // (the watchdog looks every half second). What the run printed says why, so it is shown.
      const seen = [r.json.execution.stdout, r.json.execution.stderr].map((f: { path: string }) =>
        fs.readFileSync(path.join(dir, f.path), "utf8")
      )
      expect(r.json.execution, JSON.stringify({ execution: r.json.execution, stdout: seen[0], stderr: seen[1] }))
        .toMatchObject({ status: "killed", reason: "root-identity-changed" })
      expect(seen[0]).not.toContain("secret.txt")
    } else {
      // Refused: the swap was seen before the sandbox was set up, or the sandbox failed while
      // being set up (a loaded machine) and nothing ran. Either way no run is left behind.
      if (r.json.error._tag === "SandboxUnavailable") {
        expect(r.json.error.reason).toMatch(/^the sandbox ended before the program started/)
      } else expect(r.json.error).toMatchObject({ _tag: "RootIdentityChanged", path: "research/exp/data" })
      expect(fs.readdirSync(path.join(dir, ".dossier/executions")).filter((n) => n.endsWith(".running.json"))).toEqual(
        []
      )
    }
  })

  it("an exec that dies takes the sandbox with it; the next command records the run as lost", async () => {
    const dir = folder()
    await createGrantInProcess(dir)
    const run = execAsync(dir, "g1", ["sleep", "1234"])
    const id = await waitForRunning(dir)
    await waitUntil("the program runs", () => processesWith("1234").length > 0)
    run.child.kill("SIGKILL")
    await run.done
    // The sandbox goes once the kernel has told bwrap its parent died (a loaded machine takes a while).
    await waitUntil("the sandbox outlived its exec", () => processesWith("1234").length === 0)
    const shown = ok(dir, ["exec", "show", "--execution", id])
    expect(shown.execution).toMatchObject({ id, status: "lost", exitCode: null })
    expect(fs.existsSync(path.join(dir, `.dossier/executions/${id}.running.json`))).toBe(false)
    expect(ok(dir, ["grant", "show", "--grant", "g1"]).remaining.runs).toBe(19)
  })
})

describe.skipIf(!sandboxWorks)("confined exec: evidence", () => {
  it("a tampered record is ExecutionDigestMismatch", async () => {
    const dir = folder()
    await createGrantInProcess(dir)
    const x = exec(dir, "g1", sh("echo 42 > score.txt"))
    const file = path.join(dir, `.dossier/executions/${x.id}.json`)
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(`"exitCode": 0`, `"exitCode": 1`))
    refused(dir, ["exec", "show", "--execution", x.id], "ExecutionDigestMismatch")
    refused(dir, ["exec", "show", "--execution", "x-20260101T000000-00000000"], "ExecutionNotFound")
    const d = D(dir, ["exec", "--grant", "nope", "--", "true"])
    expect(d.json.error._tag).toBe("GrantNotFound")
  })

  it("exec show --verify says why each output no longer verifies: changed, missing, a symlink, not a regular file", async () => {
    const dir = folder()
    await createGrantInProcess(dir)
    const x = exec(dir, "g1", sh("for f in a b c d e; do echo $f > $f.txt; done"))
    const work = path.join(dir, "research/exp/runs/r1")
    fs.writeFileSync(path.join(work, "a.txt"), "A\n")
    fs.rmSync(path.join(work, "b.txt"))
    fs.rmSync(path.join(work, "c.txt"))
    fs.symlinkSync("a.txt", path.join(work, "c.txt"))
    fs.rmSync(path.join(work, "d.txt"))
    fs.mkdirSync(path.join(work, "d.txt"))
    fs.rmSync(path.join(work, "e.txt"))
    spawnSync("mkfifo", [path.join(work, "e.txt")])
    const findings = ok(dir, ["exec", "show", "--execution", x.id, "--verify"]).verify.findings
    const at = (name: string) => findings.find((f: any) => f.path === `research/exp/runs/r1/${name}`)
    expect(at("a.txt")).toMatchObject({ kind: "output-changed", reason: "content-changed", actual: { bytes: 2 } })
    expect(at("b.txt")).toMatchObject({ kind: "output-missing", reason: "missing", actual: null })
    expect(at("c.txt")).toMatchObject({ kind: "output-changed", reason: "symlink", actual: null })
    expect(at("d.txt")).toMatchObject({ kind: "output-changed", reason: "not-regular-file", actual: null })
    expect(at("e.txt")).toMatchObject({ kind: "output-changed", reason: "not-regular-file", actual: null })
    expect(findings).toHaveLength(5)
    // The human report says it too, and the schema of the answer names the field.
    const human = runCli(["exec", "show", "--execution", x.id, "--verify", "--workdir", dir])
    expect(human.stdout).toContain("- output-changed: research/exp/runs/r1/c.txt (symlink)")
    expect(human.stdout).toContain("- output-missing: research/exp/runs/r1/b.txt (missing)")
    const schema = JSON.stringify(JSON.parse(runCli(["schema", "exec-show-output", "--json"]).stdout).schema)
    expect(schema).toContain("\"reason\"")
    expect(schema).toContain("\"content-changed\"")
  })
})
