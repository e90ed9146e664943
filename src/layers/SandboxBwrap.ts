/**
 * Sandbox on Linux through bubblewrap. Process tree of a run:
 *
 *   dossier (node) → perl wrapper → bwrap → bwrap's init (PID 1 of the new PID namespace) → perl (closes fds) → env → prlimit → program
 *
 * The wrapper (perl is part of every Debian system) joins the run's pids cgroup when there is one,
 * starts bwrap and waits for it with wait4, which gives the CPU time and maximum resident size of
 * the whole tree (every process of the PID namespace is reaped inside it). When dossier dies (its
 * parent-death signal, SIGTERM, or its report pipe closing) the wrapper SIGKILLs every child it
 * has, reaps them and goes. bwrap gets SIGKILL as its parent-death signal before it is executed
 * (checked against a wrapper already gone), so no moment of bwrap's start-up outlives the wrapper;
 * bwrap's `--die-with-parent` then takes the sandbox down with bwrap. (bwrap sets its own death
 * signal only once it runs: a wrapper killed before that would leave bwrap running the program to
 * its end, unsupervised.) bwrap's namespace init has no parent-death signal until the sandbox is
 * set up: killed during that setup, bwrap leaves its init behind, and the wrapper, a child
 * subreaper, inherits it and kills it with the rest (before, such an init stayed for good,
 * reparented to the machine's init). The wrapper itself killed while dossier lives takes the
 * sandbox with it, but for an init whose setup that cut: a second later dossier ends what is left
 * (the run's cgroups, its id: `endRunLeft`), and a run whose program had started is reported
 * `wrapperEnded` (recorded `lost`, reason `wrapper-ended`), never as the program's own end.
 *
 * Inside the sandbox perl first writes one byte to the start pipe (the sandbox is set up: from
 * here on the run is the program's, see `startFailure`), closes every inherited descriptor above 2
 * (the roots' directory descriptors, from which bwrap mounted them, and the start pipe), then env
 * drops PWD, then prlimit sets the limits.
 *
 * Limits: prlimit sets RLIMIT_CPU, RLIMIT_AS, RLIMIT_NPROC, RLIMIT_FSIZE and no core files inside
 * the sandbox. RLIMIT_CPU binds each process on its own, so the watchdog also sums the CPU time of
 * the whole tree (./ProcessTree.ts) and ends the run when it reaches the budget. RLIMIT_NPROC does not bind processes of the machine's root user, so when dossier
 * runs as root the run also gets a pids cgroup (cgroup v1 `pids` hierarchy, or the root of a
 * cgroup v2 hierarchy with the pids controller); without one, a root run is refused.
 *
 * Over 400 lines: the process tree above is built, limited (cgroup, prlimit, tmpfs caps) and torn
 * down in one place, so no step of the confinement lives apart from the others.
 */
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { RootIdentityChanged, SandboxUnavailable } from "../domain/ExecErrors.js"
import {
  bwrapArgs,
  inSandbox,
  type KillReason,
  MAX_LOG_BYTES,
  type RunStop as Stop,
  sandboxEtc
} from "../domain/Execution.js"
import {
  type Captured,
  Sandbox,
  type SandboxOutcome,
  type SandboxRequest,
  type SandboxShape
} from "../services/Sandbox.js"
import { descendants, signal, treeCpuSeconds } from "./ProcessTree.js"
import {
  discover,
  endRunLeft,
  type LeftProcessesFound,
  type Machine,
  makeRunCgroups,
  memoryUse,
  removeCgroup,
  SYSCALLS
} from "./SandboxMachine.js"

/**
 * The wrapper. Arguments: wait4 and prctl syscall numbers (or -), dossier's pid, the number of
 * cgroup directories to join, those directories, bwrap argv.
 * It is a child subreaper (PR_SET_CHILD_SUBREAPER): bwrap exits as soon as its PID namespace's init
 * reports the program's status, without reaping that init, so the init (and through it every
 * process of the namespace, which it reaps) is reparented here and reaped by the loop after
 * bwrap's own wait4: the sum of all those rusages is the CPU time of the whole tree, and their
 * maximum the largest resident size.
 */
export const WRAPPER = String.raw`
use strict; use Fcntl;
my ($wait4, $prctl, $ppid, $ncg, @cmd) = @ARGV;
my @cgs = splice(@cmd, 0, $ncg);
# dossier is gone (SIGTERM, its parent-death signal, or its end of the report pipe closed): kill
# every child, those reparented here included, and reap them until none is left.
my $gone = sub {
  $SIG{TERM} = $SIG{PIPE} = "IGNORE";
  for (;;) {
    my @mine;
    if (opendir(my $d, "/proc")) {
      for my $p (grep { /^[0-9]+$/ } readdir($d)) {
        open(my $f, "<", "/proc/$p/stat") or next; my $s = <$f>; close($f);
        push @mine, $p if defined $s && $s =~ /.*\) \S+ (\d+) /s && $1 == $$;
      }
      closedir($d);
    }
    kill 9, @mine;
    last if waitpid(-1, 0) == -1;
  }
  exit 125;
};
$SIG{TERM} = $SIG{PIPE} = $gone;
open(my $rep, ">&=", 3) or exit 120;
fcntl($rep, F_SETFD, FD_CLOEXEC);
select((select($rep), $| = 1)[0]);
if ($prctl ne "-") { syscall($prctl + 0, 1, 15); syscall($prctl + 0, 36, 1); }
exit 121 if getppid() != $ppid;
for my $cg (@cgs) { open(my $f, ">", "$cg/cgroup.procs") or exit 122; print $f "$$\n"; close($f) or exit 122; }
my $me = $$;
my $pid = fork(); exit 123 unless defined $pid;
if ($pid == 0) {
  $SIG{TERM} = $SIG{PIPE} = "DEFAULT";
  if ($prctl ne "-") { syscall($prctl + 0, 1, 9); exit 124 if getppid() != $me; }
  exec { $cmd[0] } @cmd; exit 127;
}
print $rep "pid $pid\n";
if ($wait4 ne "-") {
  my $st = "\0" x 8; my $ru = "\0" x 256; my $r;
  do { $r = syscall($wait4 + 0, $pid, $st, 0, $ru) } while ($r == -1);
  my ($status) = unpack("i", $st); my @f = unpack("q18", $ru);
  my $cpu = $f[0] + $f[1] / 1e6 + $f[2] + $f[3] / 1e6; my $rss = $f[4];
  # Every other process that ends up here (ECHILD, 10, when none is left).
  for (;;) {
    my $s2 = "\0" x 8; my $u = "\0" x 256;
    $r = syscall($wait4 + 0, -1, $s2, 0, $u);
    if ($r == -1) { last if $! + 0 == 10; next; }
    my @g = unpack("q18", $u);
    $cpu += $g[0] + $g[1] / 1e6 + $g[2] + $g[3] / 1e6; $rss = $g[4] if $g[4] > $rss;
  }
  print $rep "end $status $cpu $rss\n";
} else {
  waitpid($pid, 0); my $status = $?; 1 while wait() != -1; my @t = times;
  print $rep "end $status " . ($t[2] + $t[3]) . " -1\n";
}
exit 0;
`

const SIGNALS: Record<number, string> = {
  1: "SIGHUP",
  2: "SIGINT",
  6: "SIGABRT",
  9: "SIGKILL",
  11: "SIGSEGV",
  13: "SIGPIPE",
  15: "SIGTERM",
  24: "SIGXCPU",
  25: "SIGXFSZ"
}

const TERM_GRACE_MS = 2000
const WATCH_MS = 500
const MAX_TIMER_MS = 2 ** 31 - 1

/**
 * One output stream of the program: the first MAX_LOG_BYTES are kept for the evidence, and with
 * `echo` every byte is relayed to dossier's own stream. The relay holds at most one chunk: when
 * the echo stream's buffer is full, the program's pipe is paused until it drains, so a slow
 * reader slows the program (its writes block) instead of growing dossier's memory. When the echo
 * stream closes or fails (a reader that went away), relaying stops; the program's output is
 * still read and counted.
 */
class Capture {
  private readonly chunks: Array<Buffer> = []
  private kept = 0
  total = 0
  private echo: NodeJS.WritableStream | null
  private readonly gone = () => this.stopEcho()
  constructor(private readonly source: NodeJS.ReadableStream, private readonly stream: NodeJS.WriteStream | null) {
    this.echo = stream !== null && !stream.destroyed && stream.writable ? stream : null
    if (this.echo !== null) {
      this.echo.once("close", this.gone)
      this.echo.once("error", this.gone)
    }
    source.on("data", (b: Buffer) => this.push(b))
  }
  /** The run is over: leave dossier's stream as it was (a long-lived process runs many). */
  dispose() {
    this.stream?.off("close", this.gone)
    this.stream?.off("error", this.gone)
    this.echo = null
  }
  private stopEcho() {
    this.echo = null
    this.source.resume()
  }
  private push(b: Buffer) {
    this.total += b.length
    if (this.kept < MAX_LOG_BYTES) {
      const take = b.subarray(0, MAX_LOG_BYTES - this.kept)
      this.chunks.push(take)
      this.kept += take.length
    }
    const echo = this.echo
    if (echo === null) return
    let full = false
    try {
      full = !echo.write(b)
    } catch {
      // A file as stdout is written synchronously and throws (its own handler reports it).
      return this.stopEcho()
    }
    if (full) {
      this.source.pause()
      echo.once("drain", () => this.source.resume())
    }
  }
  result(): Captured {
    return { bytes: Buffer.concat(this.chunks), total: this.total }
  }
}

/** How a run was ended early: by the watchdog (`killed`), or on request (`cancelled`, `interrupted`). */
export type Ending =
  | { readonly status: "killed"; readonly reason: KillReason; readonly detail: string }
  | { readonly status: Stop["status"]; readonly reason: null; readonly detail: string }

type Reported = Omit<SandboxOutcome, "killed" | "stopped" | "memory"> & {
  /** Why the sandbox ended before its program started (see `startFailure`), or null. */
  readonly notStarted: string | null
}

/** What the wrapper's own exit codes mean: it ended before bwrap was started. */
const WRAPPER_EXITS: Record<number, string> = {
  120: "the wrapper could not open its report pipe",
  121: "dossier was gone before the wrapper began",
  122: "the wrapper could not join the run's cgroup",
  123: "the wrapper could not fork",
  124: "the wrapper was gone before bwrap began",
  125: "the wrapper was told to stop (SIGTERM, or its report pipe closed)"
}

/**
 * Why the sandbox ended before its program started, or null when the program started or dossier
 * ended the run itself (the watchdog or a stop: that run is recorded as such). A sandbox that
 * fails while it is being set up (bwrap says why on stderr and exits 1) or a wrapper that fails
 * before bwrap runs has run nothing: its status must never be recorded as the program's.
 * `wrapperCode` is the wrapper's own exit code when it reported no end (null when it did).
 */
export const startFailure = (r: {
  readonly started: boolean
  readonly endedByDossier: boolean
  readonly wrapperCode: number | null
  readonly exitCode: number | null
  readonly signal: string | null
  readonly stderr: string
}): string | null => {
  if (r.started || r.endedByDossier) return null
  const said = r.stderr.split("\n").map((l) => l.trim()).filter((l) => l.length > 0).at(-1)
  const how = r.wrapperCode !== null && WRAPPER_EXITS[r.wrapperCode] !== undefined
    ? WRAPPER_EXITS[r.wrapperCode]!
    : r.signal !== null
    ? `it ended with ${r.signal}`
    : `exit code ${r.exitCode}`
  const why = said === undefined ? how : `${said.slice(0, 300)}; ${how}`
  return `the sandbox ended before the program started (${why}); nothing ran and no run was charged`
}

/**
 * The directory that keeps the sandbox out of a root, when bwrap said it could not reach one of
 * the roots it mounts from `/proc/self/fd/<n>` (`fds` lists them in that order; bwrap re-walks the
 * path the link names). dossier as root opens the roots with root's rights; inside its user
 * namespace root keeps rights only over files of the user and group 0 (the only ones mapped there),
 * so a folder inside another user's 0700 home is out of reach. Returns a reason for
 * `SandboxUnavailable` that names the root and the first directory above it that the sandbox's
 * user cannot enter, and says what to do; null when bwrap said something else.
 */
export const unreachableRoot = (
  stderr: string,
  fds: ReadonlyArray<{ readonly path: string; readonly fd: number }>,
  folder: string
): string | null => {
  const m = /Can't find source path \/proc\/self\/fd\/(\d+): Permission denied/.exec(stderr)
  const root = m === null ? undefined : fds.find((f) => f.fd === Number(m[1]))
  if (root === undefined) return null
  let closed: string | null = null
  try {
    const uid = process.getuid?.() ?? -1
    const groups = new Set([process.getgid?.() ?? -1, ...(process.getgroups?.() ?? [])])
    const real = fs.realpathSync(folder)
    const parts = `${real}/${root.path}`.split("/").filter((p) => p !== "")
    for (let i = 0; i < parts.length && closed === null; i++) {
      const dir = `/${parts.slice(0, i).join("/")}`
      const st = fs.statSync(dir)
      const bit = st.uid === uid ? 0o100 : groups.has(st.gid) ? 0o010 : 0o001
      const privileged = uid === 0 && st.uid === 0 && st.gid === 0
      if (!privileged && (st.mode & bit) === 0) {
        // Named relative to the work folder ('..' for the folder above it): no output names a
        // machine path.
        closed =
          `'${path.relative(real, dir) || "."}' (relative to the work folder; owner ${st.uid}, group ${st.gid}, ` +
          `mode ${(st.mode & 0o7777).toString(8).padStart(4, "0")})`
      }
    }
  } catch {
    // named by the root alone
  }
  const who = process.getuid?.() === 0
    ? "dossier runs as root, and root inside the sandbox has no rights over other users' files: it"
    : "the sandbox's user"
  return `the sandbox cannot reach the root '${root.path}': ${who} cannot enter ${
    closed ?? "a directory above it"
  }; give others search permission on that directory (chmod o+x), run dossier as the user who owns ` +
    "the folder, or move the folder where that user can reach it; nothing ran and no run was charged"
}

interface Started {
  readonly done: Promise<Reported>
  readonly terminate: (ending: Ending) => void
  readonly killed: () => (Ending & { signal: string }) | null
  /** CPU seconds the sandbox's processes used so far (0 before bwrap reported its pid). */
  readonly cpuSeconds: () => number
}

/**
 * Open every root of the grant (no link in the last component) and check that it is the directory
 * granted (device and inode): bwrap mounts it from this descriptor, so a swap after the check
 * changes nothing. Returns the descriptors, or the path of the first root that is not the one.
 */
const openRoots = (request: SandboxRequest): { fds: Array<{ path: string; fd: number }> } | { changed: string } => {
  const fds: Array<{ path: string; fd: number }> = []
  for (const r of [...request.grant.inputs, request.grant.work]) {
    let fd: number
    try {
      fd = fs.openSync(
        `${request.root}/${r.path}`,
        fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW
      )
    } catch {
      for (const f of fds) fs.closeSync(f.fd)
      return { changed: r.path }
    }
    const st = fs.fstatSync(fd, { bigint: true })
    fds.push({ path: r.path, fd })
    if (String(st.dev) !== r.device || String(st.ino) !== r.inode) {
      for (const f of fds) fs.closeSync(f.fd)
      return { changed: r.path }
    }
  }
  return { fds }
}

const start = (
  m: Machine,
  request: SandboxRequest,
  roots: Array<{ path: string; fd: number }>,
  cgroups: ReadonlyArray<string>,
  echo: boolean
): Started => {
  // In the wrapper (and bwrap) the roots' descriptors are 4, 5, … in this order.
  const sources = Object.fromEntries(roots.map((r, i) => [r.path, `/proc/self/fd/${4 + i}`]))
  const [w4, pr, close] = SYSCALLS[process.arch]!
  // Every descriptor above 2 is closed inside before the program starts: the roots' and any that
  // dossier itself inherited without close-on-exec (Node passes those on to its children). perl
  // without modules: POSIX alone takes longer to load than bwrap takes to start a sandbox.
  // The closer also writes one byte to `startFd` (a pipe to dossier, after the roots): the sign
  // that the sandbox was set up and the program is being started (see `startFailure`).
  const startFd = 4 + roots.length
  // Its first argument is the run's id (or "-"): it marks bwrap's command line, and its namespace
  // init's, as this run's, so that what a run whose exec and wrapper were both killed left is found
  // and ended when the run is recorded lost (./SandboxMachine.ts, `endLostRun`).
  const closer = [
    m.perl,
    "-e",
    `shift @ARGV; if (open(my $s, ">&=", ${startFd})) { syswrite($s, "s") } ` +
    `opendir(my $d, "/proc/self/fd") or exit 126; my @f = grep { /^[0-9]+$/ && $_ > 2 } readdir($d); closedir($d); ` +
    `syscall(${close}, $_ + 0) for @f; exec { $ARGV[0] } @ARGV or exit 127`,
    "--",
    request.runId ?? "-"
  ]
  // The sandbox's own /etc/passwd, group and hosts (never the machine's): bwrap reads each from a
  // pipe after `startFd` (`--ro-bind-data`), which dossier fills and closes right after the spawn.
  const written = sandboxEtc({
    uid: process.getuid?.() ?? 0,
    gid: process.getgid?.() ?? 0,
    home: inSandbox(request.grant.work.path)
  })
  const etcData = written.map((w, i) => ({ path: w.path, fd: startFd + 1 + i }))
  const args = bwrapArgs({
    ...request,
    system: m.system,
    etc: m.etc,
    etcData,
    prlimit: m.prlimit,
    env: m.env,
    sources,
    closer
  })
  let child: ReturnType<typeof spawn>
  try {
    child = spawn(m.perl, [
      "-e",
      WRAPPER,
      "--",
      String(w4),
      String(pr),
      String(process.pid),
      String(cgroups.length),
      ...cgroups,
      m.bwrap,
      ...args
    ], {
      stdio: [
        "ignore",
        "pipe",
        "pipe",
        "pipe",
        ...roots.map((r) => r.fd),
        "pipe",
        ...written.map(() => "pipe" as const)
      ],
      env: {},
      // Its own session: a Ctrl-C meant for dossier reaches dossier, which ends the run and
      // records it; the wrapper still ends the run when dossier dies (PR_SET_PDEATHSIG).
      detached: true
    })
  } finally {
    for (const r of roots) fs.closeSync(r.fd)
  }
  // A few hundred bytes each: the pipes hold them whole. A bwrap that failed before reading them
  // closes its end, and the write's error is only that.
  etcData.forEach((d, i) => {
    const pipe = child.stdio[d.fd] as NodeJS.WritableStream
    pipe.on("error", () => {})
    pipe.end(written[i]!.content)
  })
  const began = Date.now()
  const out = new Capture(child.stdout!, echo ? process.stdout : null)
  const err = new Capture(child.stderr!, echo ? process.stderr : null)
  let report = ""
  let programStarted = false
  ;(child.stdio[startFd] as NodeJS.ReadableStream).once("data", () => (programStarted = true))
  let bwrapPid: number | null = null
  let killed: (Ending & { signal: string }) | null = null
  // How the wrapper ended when it ended without reporting the run's end (null while it has not, or
  // when it did), and what was left of the run then (see `endRunLeft`).
  let wrapperGone: string | null = null
  let left: LeftProcessesFound | null = null
  let leftTimer: NodeJS.Timeout | undefined
  const endLeft = () => (left ??= endRunLeft(cgroups, request.runId ?? null))
  let escalation: NodeJS.Timeout | undefined
  // Set when the run must end before the wrapper has said which pid bwrap has.
  let endWhenKnown = false
  const bwrap = () => {
    if (bwrapPid === null) {
      const m = /^pid (\d+)$/m.exec(report)
      if (m !== null) bwrapPid = Number(m[1])
    }
    return bwrapPid
  }
  // The program and everything it started get SIGTERM; bwrap and the namespace's init are left
  // alone (ending them would SIGKILL the tree at once). After the grace period bwrap and the
  // init get SIGKILL, which ends every process of the PID namespace, one not started yet included.
  const endTree = (b: number) => {
    const tree = descendants(b)
    if (tree.length > 0 && tree.every((d) => d.ppid === b)) {
      // Only the init so far: no program has started to give a grace period to. SIGKILL to the
      // init ends the namespace, and a process it is about to start with it.
      if (killed !== null) killed.signal = "SIGKILL"
      for (const d of tree) signal(d.pid, "SIGKILL")
      return signal(b, "SIGKILL")
    }
    for (const d of tree) if (d.ppid !== b) signal(d.pid, "SIGTERM")
    escalation = setTimeout(() => {
      if (killed !== null) killed.signal = "SIGKILL"
      for (const d of descendants(b)) if (d.ppid === b) signal(d.pid, "SIGKILL")
      signal(b, "SIGKILL")
    }, TERM_GRACE_MS)
  }
  ;(child.stdio[3] as NodeJS.ReadableStream).on("data", (chunk: Buffer) => {
    report += chunk.toString("latin1")
    const b = endWhenKnown ? bwrap() : null
    if (b !== null) {
      endWhenKnown = false
      clearTimeout(escalation)
      endTree(b)
    }
  })
  const terminate = (ending: Ending) => {
    if (killed !== null) return
    killed = { ...ending, signal: "SIGTERM" }
    const b = bwrap()
    if (b !== null) return endTree(b)
    // bwrap is being started: the wrapper reports its pid right after the fork. Killing the
    // wrapper now is no way to end the run: bwrap sets its parent-death signal itself, and one
    // whose parent dies before it does would run the program to its end unsupervised. So the
    // tree is ended once the pid is known; a wrapper that never reports one (it failed before
    // forking) is killed with its process group after the grace period.
    endWhenKnown = true
    escalation = setTimeout(() => {
      if (!endWhenKnown) return
      if (killed !== null) killed.signal = "SIGKILL"
      signal(-child.pid!, "SIGKILL")
    }, TERM_GRACE_MS)
  }
  // Node's timers hold at most 2^31 - 1 ms (a longer delay fires at once); the watchdog loop
  // enforces a wall limit beyond that.
  const wallMs = request.limits.wallSeconds * 1000
  const wall = wallMs <= MAX_TIMER_MS
    ? setTimeout(
      () =>
        terminate({
          status: "killed",
          reason: "wall-time",
          detail: `ran for the ${request.limits.wallSeconds} s allowed`
        }),
      wallMs
    )
    : undefined
  const endLine = /^end (-?\d+) ([0-9.eE+-]+) (-?\d+)$/m
  // The wrapper exits 0 only once it has reported the run's end. Ended otherwise, what it held
  // dies with it (bwrap's parent-death signal, its --die-with-parent, the PID namespace), but for a
  // namespace init whose setup it cut, which holds the run's output pipes and waits for good (and
  // dossier with it): what is still there a second later is ended, in the run's cgroups and by its id.
  child.on("exit", (code, sig) => {
    if ((code === 0 && sig === null) || endLine.test(report)) return
    wrapperGone = sig !== null
      ? `ended by ${sig}`
      : WRAPPER_EXITS[code ?? -1] !== undefined
      ? `exited: ${WRAPPER_EXITS[code!]}`
      : `exited with code ${code}`
    leftTimer = setTimeout(endLeft, 1000)
  })
  const done = new Promise<Reported>((resolve) => {
    child.on("close", (code, sig) => {
      if (wall !== undefined) clearTimeout(wall)
      if (escalation !== undefined) clearTimeout(escalation)
      clearTimeout(leftTimer)
      const end = endLine.exec(report)
      let exitCode: number | null = null
      let signalName: string | null = null
      let cpuSeconds: number | null = null
      let maxRssKiB: number | null = null
      if (end !== null) {
        const status = Number(end[1])
        const termsig = status & 0x7f
        if (termsig === 0) exitCode = (status >> 8) & 0xff
        else signalName = SIGNALS[termsig] ?? `SIG${termsig}`
        cpuSeconds = Math.round(Number(end[2]) * 1000) / 1000
        maxRssKiB = Number(end[3]) < 0 ? null : Number(end[3])
      } else {
        signalName = sig ?? null
        exitCode = code
      }
      out.dispose()
      err.dispose()
      const stderr = err.result()
      // The program ran, dossier did not end it, and its wrapper ended without saying how it did:
      // neither the wrapper's end nor anything else is the program's exit status.
      const wrapperEnded = end === null && programStarted && killed === null && wrapperGone !== null
        ? {
          detail: `dossier's wrapper (the process between dossier and bwrap, pid ${child.pid}) ${wrapperGone} ` +
            "while the program ran, before it reported how the program ended: the program was ended with it, " +
            "not by itself nor by the watchdog, and its CPU time was not measured; charged the wall time it ran " +
            "and its whole CPU limit",
          left: endLeft()
        }
        : null
      if (wrapperEnded !== null) {
        exitCode = null
        signalName = null
      }
      resolve({
        wrapperEnded,
        notStarted: startFailure({
          started: programStarted,
          endedByDossier: killed !== null,
          wrapperCode: end === null ? code : null,
          exitCode,
          signal: signalName,
          stderr: stderr.bytes.toString("utf8")
        }),
        exitCode,
        signal: signalName,
        cpuSeconds,
        maxRssKiB,
        wallMs: Date.now() - began,
        stdout: out.result(),
        stderr
      })
    })
  })
  const cpuSeconds = () => {
    const b = bwrap()
    return b === null ? 0 : treeCpuSeconds(b)
  }
  return { done, terminate, killed: () => killed, cpuSeconds }
}

/**
 * The CPU seconds to record: the wrapper's count of the tree, or what the watchdog saw the tree
 * use when that is more (rounded to milliseconds as the wrapper's is; null when neither counted).
 */
export const recordedCpuSeconds = (reported: number | null, seen: number): number | null => {
  const s = Math.round(seen * 1000) / 1000
  if (reported === null) return s > 0 ? s : null
  return Math.max(reported, s)
}

export const SandboxBwrap = Layer.effect(
  Sandbox,
  Effect.gen(function*() {
    const machine = yield* Effect.cached(
      Effect.suspend(() => {
        const m = discover()
        return typeof m === "string" ? Effect.fail(new SandboxUnavailable({ reason: m })) : Effect.succeed(m)
      })
    )
    const probe: SandboxShape["probe"] = Effect.asVoid(machine)

    /**
     * Run the program. Safe to run uninterruptibly (Exec does, so that an interrupted run is still
     * recorded): `options.stop` completing ends the run (`cancelled` or `interrupted`), and the
     * answer comes once every process of the sandbox is gone.
     */
    const run: SandboxShape["run"] = (request, options) =>
      Effect.gen(function*() {
        const m = yield* machine
        const cgroups = yield* Effect.try({
          try: () => makeRunCgroups(m, request.limits.processes, request.limits.memoryMiB),
          catch: (e) =>
            new SandboxUnavailable({
              reason: `could not create a pids cgroup (${(e as NodeJS.ErrnoException).code ?? "error"})`
            })
        })
        const removeCgroups = Effect.forEach(cgroups.join, removeCgroup, { discard: true, concurrency: "unbounded" })
        const roots = openRoots(request)
        if ("changed" in roots) {
          yield* removeCgroups
          return yield* new RootIdentityChanged({ grantId: request.grant.id, path: roots.changed })
        }
        const started = yield* Effect.sync(() => start(m, request, roots.fds, cgroups.join, options.echo))
        const began = Date.now()
        // The most CPU time the watchdog saw the tree use: a lower bound of what it used, kept
        // because the wrapper's own count can miss what processes killed with it had used. It is
        // sampled until the tree is gone, so the grace period between SIGTERM and SIGKILL is counted.
        let seenCpuSeconds = 0
        const sample = () => {
          const cpuSeconds = started.cpuSeconds()
          seenCpuSeconds = Math.max(seenCpuSeconds, cpuSeconds)
          return cpuSeconds
        }
        const end = (ending: Ending) => Effect.sync(() => started.terminate(ending))
        const watchdog = Effect.gen(function*() {
          for (;;) {
            yield* Effect.sleep(WATCH_MS)
            const cpuSeconds = sample()
            if (started.killed() !== null) continue
            if (Date.now() - began >= request.limits.wallSeconds * 1000) {
              yield* end({
                status: "killed",
                reason: "wall-time",
                detail: `ran for the ${request.limits.wallSeconds} s allowed`
              })
            } else if (cpuSeconds >= request.limits.cpuSeconds) {
              yield* end({
                status: "killed",
                reason: "cpu-time",
                detail: `the process tree used the ${request.limits.cpuSeconds} CPU seconds allowed`
              })
            } else {
              const hit = yield* options.check({ wallSeconds: (Date.now() - began) / 1000, cpuSeconds })
              if (hit !== null && started.killed() === null) {
                yield* end({ status: "killed", reason: hit.reason, detail: hit.detail })
              }
            }
          }
        })
        // Both run in their own interruptible fibers, whatever the caller's region.
        const fibers = [
          yield* Effect.fork(Effect.interruptible(watchdog)),
          ...(options.stop === undefined
            ? []
            : [
              yield* Effect.fork(Effect.interruptible(Effect.flatMap(options.stop, (s) => end({ ...s, reason: null }))))
            ])
        ]
        const { notStarted, ...reported } = yield* Effect.promise(() => started.done)
        yield* Effect.forEach(fibers, Fiber.interrupt, { discard: true })
        const memory = cgroups.memory === null ? null : memoryUse(cgroups.memory)
        // Empty now; the kernel frees a cgroup asynchronously, so its removal (retried) is left off
        // the answer's path (a cgroup left by a process that died is removed by the next run).
        yield* Effect.forkDaemon(removeCgroups)
        if (notStarted !== null) {
          const unreachable = unreachableRoot(
            reported.stderr.bytes.toString("utf8"),
            [...request.grant.inputs, request.grant.work].map((r, i) => ({ path: r.path, fd: 4 + i })),
            request.root
          )
          return yield* new SandboxUnavailable({ reason: unreachable ?? notStarted })
        }
        const outcome = {
          ...reported,
          // What the watchdog saw is only a lower bound of what a run whose wrapper ended used.
          cpuSeconds: reported.wrapperEnded !== null ? null : recordedCpuSeconds(reported.cpuSeconds, seenCpuSeconds),
          memory: {
            enforcement: cgroups.memory === null ? "process" as const : "run" as const,
            peakKiB: memory?.peakKiB ?? null,
            oomKills: memory?.oomKills ?? 0
          }
        }
        const k = started.killed()
        const stopped: SandboxOutcome["stopped"] = k !== null && k.status !== "killed"
          ? { status: k.status, detail: k.detail }
          : null
        const killed: SandboxOutcome["killed"] = k !== null && k.status === "killed"
          ? { reason: k.reason, detail: k.detail }
          : null
        const cpuLimitHit = k === null && outcome.cpuSeconds !== null &&
          outcome.cpuSeconds >= request.limits.cpuSeconds * 0.9 &&
          (outcome.exitCode === 137 || outcome.exitCode === 152)
        if (cpuLimitHit) {
          return {
            ...outcome,
            killed: {
              reason: "cpu-time" as const,
              detail: `used the ${request.limits.cpuSeconds} CPU seconds allowed`
            },
            stopped: null,
            signal: outcome.exitCode === 137 ? "SIGKILL" : "SIGXCPU"
          }
        }
        return {
          ...outcome,
          killed,
          stopped,
          signal: k !== null && outcome.signal === null ? k.signal : outcome.signal
        }
      })

    return { probe, run }
  })
)
