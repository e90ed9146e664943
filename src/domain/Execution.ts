/**
 * Execution evidence: the record of one confined run (`.dossier/executions/<id>.json`), sealed
 * by a receipt digest over its canonical content, and the pure decisions around a run: the
 * sandbox's command line, the limits, which files under the work root a run created or changed,
 * and the journal events that link a run to a candidate.
 *
 * Over 400 lines: the record's schema and the pure decisions over it (limits, changed files,
 * listing bounds, the reservation's size, the link events) change together with the record.
 */
import * as Schema from "effect/Schema"
import { canonicalDigest } from "./Canonical.js"
import { LONE_SURROGATE } from "./Decode.js"
import { UnsafePathReason } from "./Errors.js"
import { Signature } from "./Evidence.js"
import type { Figures, StoredGrant } from "./Grant.js"
import type { AppendInput } from "./Journal.js"
import { isUnder } from "./Paths.js"

export { EXECUTION_ID } from "./Ids.js"

export const LogFile = Schema.Struct({
  path: Schema.String,
  bytes: Schema.Number,
  sha256: Schema.String,
  /** More was written than is retained (at most MAX_LOG_BYTES per stream). */
  truncated: Schema.Boolean
})
export type LogFile = typeof LogFile.Type

export const OutputFile = Schema.Struct({ path: Schema.String, bytes: Schema.Number, sha256: Schema.String })
export type OutputFile = typeof OutputFile.Type

export const KillReason = Schema.Literal(
  "revoked",
  "deadline",
  "budget-narrowed",
  "root-identity-changed",
  "wall-time",
  "cpu-time"
)
export type KillReason = typeof KillReason.Type

/**
 * Why a run whose `dossier exec` lived on was recorded `lost`: `wrapper-ended` (dossier's wrapper,
 * the process between dossier and bubblewrap, ended while the program ran without reporting how
 * the program ended: killed outright, or told to stop by someone else; the program was ended with
 * it, not by itself nor by the watchdog, and its CPU time could not be measured).
 */
export const LostReason = Schema.Literal("wrapper-ended")
export type LostReason = typeof LostReason.Type

/**
 * How a run ended: `exited` (on its own), `killed` (by the watchdog: see `reason`), `cancelled`
 * (its request was cancelled: an MCP `notifications/cancelled`), `interrupted` (dossier was told
 * to stop while it ran: a signal, its standard output closing, the MCP client going away), or
 * `lost` (dossier ended without recording it; found and recorded by a later command).
 */
export const ExecutionStatus = Schema.Literal("exited", "killed", "cancelled", "interrupted", "lost")

/** Why a run was ended on request rather than by the watchdog. */
export interface RunStop {
  readonly status: "cancelled" | "interrupted"
  readonly detail: string
}

/**
 * Something the record could not fully hold, or that happened to the run, said plainly:
 * `outputs-incomplete` (the work root could not be scanned in full: too many entries, a path
 * too long, an unreadable directory; the outputs listed are those that could be scanned),
 * `output-unreadable` (a changed file could not be hashed), `logs-not-kept` (the disk was full:
 * stdout/stderr were kept in part or not at all), `memory-limit` (the kernel ended processes
 * of the run at its memory limit), `setid-cleared` (the run left files with the set-user-ID or
 * set-group-ID bit, which would run as dossier's user outside the sandbox: dossier cleared the
 * bits), `setid-unchecked` (entries of the work root that could not be checked for those bits),
 * `hard-link-outside` (an output has names outside the work root: what the run wrote is there too),
 * `work-folder-marker` (the run left a `.dossier` folder or a `plan.md` with a plan section in its
 * work root, which would make a command run from inside it take that folder for a work folder:
 * dossier renamed them, or says which it could not).
 */
export const RunFinding = Schema.Struct({
  kind: Schema.Literal(
    "outputs-incomplete",
    "output-unreadable",
    "logs-not-kept",
    "memory-limit",
    "setid-cleared",
    "setid-unchecked",
    "work-folder-marker",
    "hard-link-outside"
  ),
  detail: Schema.String
})
export type RunFinding = typeof RunFinding.Type

/**
 * What the command that recorded a run `lost` found of the run's processes on this machine, and
 * did: `killed` (some were still running, its `dossier exec` gone: they were killed, `processes`
 * says how many), `none-found` (nothing of the run was running any more), `unchecked` (the
 * machine's processes could not be read: `detail` says why). Only in `lost` records, and only in
 * those recorded since it existed.
 */
export const LeftProcesses = Schema.Struct({
  outcome: Schema.Literal("killed", "none-found", "unchecked"),
  processes: Schema.Number,
  detail: Schema.String
})
export type LeftProcesses = typeof LeftProcesses.Type

/** What a run is, known when it starts: shared by its in-flight marker and its record. */
const runFields = {
  id: Schema.String,
  grantId: Schema.String,
  grantDigest: Schema.String,
  task: Schema.String,
  candidateId: Schema.NullOr(Schema.String),
  /**
   * The study whose journal the run was linked to (`exec --study`): `journal inspect --verify` of
   * another study's journal that links it does not take it as evidence. Absent when the run was
   * not linked, and in records made before it existed.
   */
  study: Schema.optionalWith(Schema.String, { exact: true }),
  argv: Schema.Array(Schema.String),
  startedAt: Schema.String
}

export const ExecutionContent = Schema.Struct({
  ...runFields,
  endedAt: Schema.String,
  status: ExecutionStatus,
  exitCode: Schema.NullOr(Schema.Number),
  signal: Schema.NullOr(Schema.String),
  /** Of a `killed` run, why the watchdog ended it; of a `lost` run recorded by its own exec, `LostReason`. */
  reason: Schema.NullOr(Schema.Union(KillReason, LostReason)),
  detail: Schema.NullOr(Schema.String),
  limits: Schema.Struct({
    wallSeconds: Schema.Number,
    cpuSeconds: Schema.Number,
    memoryMiB: Schema.Number,
    processes: Schema.Number,
    fileMiB: Schema.Number
  }),
  cpuSeconds: Schema.NullOr(Schema.Number),
  maxRssKiB: Schema.NullOr(Schema.Number),
  wallSeconds: Schema.Number,
  stdout: LogFile,
  stderr: LogFile,
  outputs: Schema.Array(OutputFile),
  /** Entries under the work root that are not regular files (symlinks, FIFOs…): listed, never followed or read. */
  ignored: Schema.Array(Schema.Struct({ path: Schema.String, kind: Schema.String })),
  /**
   * How the limits were enforced: memory `run` (one memory cgroup holds every process of the run,
   * its /tmp and /dev/shm to `memoryMiB` together) or `process` (each process on its own, by
   * RLIMIT_AS; /tmp and /dev/shm hold half of `memoryMiB` each). Absent in records made before it existed.
   */
  enforcement: Schema.optional(Schema.Struct({ memory: Schema.Literal("run", "process") })),
  /** The most memory the run's processes held at once (the memory cgroup's peak); null when not measured. */
  memoryPeakKiB: Schema.optional(Schema.NullOr(Schema.Number)),
  /**
   * The bytes of every regular file the run created or changed under the work root, listed in
   * `outputs` or not (a record lists at most MAX_LISTED_OUTPUTS): what the run is charged.
   */
  outputBytes: Schema.optional(Schema.Number),
  findings: Schema.optional(Schema.Array(RunFinding)),
  /** Of a `lost` run: what was found of its processes when it was recorded, and what was done. */
  leftProcesses: Schema.optional(LeftProcesses)
})
export type ExecutionContent = typeof ExecutionContent.Type

/** The record: its content, the receipt digest over it, and the signature over that digest (absent in records made before signing). */
export const ExecutionRecord = Schema.Struct({
  ...ExecutionContent.fields,
  receiptDigest: Schema.String,
  signature: Schema.optionalWith(Signature, { exact: true })
})
export type ExecutionRecord = typeof ExecutionRecord.Type

/**
 * Why a file of a record no longer verifies (`exec show --verify`): `content-changed` (it is a
 * regular file whose bytes differ), `missing` (nothing is there), or, when the file cannot be
 * read as the regular file it was, the reason it was refused: `symlink` (it is now a symbolic
 * link, or is reached through one), `not-regular-file` (a directory, FIFO, socket or device now),
 * `hard-link` (it now has more than one name)…
 */
export const VerifyFindingReason = Schema.Literal("content-changed", "missing", ...UnsafePathReason.literals)
  .annotations({
    description: "Why the file does not verify: content-changed, missing, or why it could not be read as the regular " +
      "file it was (symlink: now a symbolic link or reached through one; not-regular-file: a directory, FIFO, socket " +
      "or device now; hard-link: now more than one name; …)."
  })
export type VerifyFindingReason = typeof VerifyFindingReason.Type

const Digested = Schema.Struct({ sha256: Schema.String, bytes: Schema.Number })

/** One finding of `exec show --verify`: about the record itself, or about one of its files. */
export const VerifyFinding = Schema.Union(
  Schema.Struct({
    kind: Schema.Literal("execution-tampered", "execution-unsigned", "execution-unverifiable"),
    path: Schema.String,
    detail: Schema.String
  }),
  Schema.Struct({
    kind: Schema.Literal("output-missing", "output-changed", "log-changed"),
    path: Schema.String,
    /** What the record says. */
    expected: Digested,
    /** What the file holds now; null when it is not a regular file that can be read (see `reason`). */
    actual: Schema.NullOr(Digested),
    reason: VerifyFindingReason
  })
)
export type VerifyFinding = typeof VerifyFinding.Type

export const sealExecution = (content: ExecutionContent): ExecutionRecord => ({
  ...content,
  receiptDigest: canonicalDigest(content)
})

export const receiptHolds = (record: ExecutionRecord): boolean => {
  const { receiptDigest, signature: _signature, ...content } = record
  return canonicalDigest(content) === receiptDigest
}

/** The in-flight marker written before a run starts, so a run whose `exec` died is recorded as `lost`. */
export const RunningMarker = Schema.Struct({
  ...runFields,
  owner: Schema.Struct({ pid: Schema.Number, startTicks: Schema.String }),
  limits: ExecutionContent.fields.limits,
  /** Over `markerDigest`: a marker written into the folder by hand never becomes a signed `lost` record. */
  signature: Schema.optionalWith(Signature, { exact: true })
})
export type RunningMarker = typeof RunningMarker.Type

export const markerDigest = (marker: RunningMarker): string => {
  const { signature: _signature, ...content } = marker
  return canonicalDigest(content)
}

export const executionPaths = (id: string) => ({
  record: `.dossier/executions/${id}.json`,
  running: `.dossier/executions/${id}.running.json`,
  /** Disk space held from admission until the record is written: a program that fills the disk cannot make its run unrecordable. */
  reserve: `.dossier/executions/${id}.reserve`,
  stdout: `.dossier/executions/${id}/stdout`,
  stderr: `.dossier/executions/${id}/stderr`
})

/**
 * Bytes reserved for a run's record: enough for a record that lists no output (its argv as the
 * marker holds it, pretty-printed, and at most RESERVED_FINDINGS findings), which is what is
 * written when the full record no longer fits. A multiple of 4 KiB.
 */
export const reserveBytes = (markerText: string, argvLength: number): number =>
  Math.ceil((Buffer.byteLength(markerText) + 8 * argvLength + 64 * 1024) / 4096) * 4096
/** Findings a record written into its reservation keeps at most, and the characters of each detail. */
export const RESERVED_FINDINGS = 20
export const RESERVED_DETAIL_CHARS = 600

/**
 * The record that fits in its reservation when the full one did not (the disk was full): no
 * output or ignored entry listed (their bytes are still charged in `outputBytes`), at most
 * RESERVED_FINDINGS findings of at most RESERVED_DETAIL_CHARS characters each, the last saying so.
 */
export const withoutListing = (content: ExecutionContent): ExecutionContent => {
  const listed = content.outputs.length + content.ignored.length
  const cut = (f: RunFinding): RunFinding =>
    f.detail.length <= RESERVED_DETAIL_CHARS
      ? f
      : { kind: f.kind, detail: `${f.detail.slice(0, RESERVED_DETAIL_CHARS - 1)}…` }
  const findings = (content.findings ?? []).slice(0, RESERVED_FINDINGS - 1).map(cut)
  return {
    ...content,
    outputs: [],
    ignored: [],
    findings: [...findings, {
      kind: "outputs-incomplete",
      detail: `the disk was full: the record lists none of the ${listed} changed entries${
        (content.findings ?? []).length > findings.length
          ? ` and only ${findings.length} of its ${(content.findings ?? []).length} findings`
          : ""
      }; their bytes are charged`
    }]
  }
}

export const MAX_LOG_BYTES = 8 * 1024 * 1024
/** Entries of the work root a scan reads at most (before and after a run). */
export const MAX_WORK_ENTRIES = 100_000
/** Outputs (and ignored entries) a record lists at most, and the most bytes of their paths: a record stays loadable. */
export const MAX_LISTED_OUTPUTS = 10_000
export const MAX_LISTED_PATH_BYTES = 4 * 1024 * 1024

/** What a run is charged for output: the recorded total, or the listed outputs of older records. */
export const chargedOutputBytes = (
  r: { readonly outputBytes?: number | undefined; readonly outputs: ReadonlyArray<{ readonly bytes: number }> }
): number => r.outputBytes ?? r.outputs.reduce((n, o) => n + o.bytes, 0)
/** Processes (and threads) a run may have at once. */
export const MAX_PROCESSES = 256

/** The limits of one run from what the grant has left and its deadline. */
export const runLimits = (remaining: Figures, deadline: string, now: Date): ExecutionContent["limits"] => ({
  wallSeconds: Math.max(0, Math.min(remaining.wallSeconds, Math.floor((Date.parse(deadline) - now.getTime()) / 1000))),
  cpuSeconds: Math.max(1, Math.floor(remaining.cpuSeconds)),
  memoryMiB: remaining.memoryMiB,
  processes: MAX_PROCESSES,
  fileMiB: Math.max(1, Math.ceil(remaining.outputMiB))
})

/** What a run used, or what runs before it spent: the figures a narrowing can take away mid-run. */
export interface RunSpend {
  readonly wallSeconds: number
  readonly cpuSeconds: number
}

/**
 * The first budget figure narrowed below what a running run may use: `terms` (the grant now) is
 * smaller than `granted` (at admission) and this run's use has reached the new figure less what
 * runs before it spent. Null when the run may go on.
 */
export const narrowedBeyond = (
  terms: RunSpend,
  granted: RunSpend,
  spentBefore: RunSpend,
  used: RunSpend
): keyof RunSpend | null =>
  (["wallSeconds", "cpuSeconds"] as const).find((f) => terms[f] < granted[f] && used[f] >= terms[f] - spentBefore[f]) ??
    null

/** One entry of a work-root scan (lstat data, never following links). */
export interface TreeEntry {
  readonly path: string
  readonly kind: "file" | "directory" | "symlink" | "other"
  readonly device: string
  readonly inode: string
  readonly size: number
  readonly mtimeNs: string
  readonly ctimeNs: string
  /** How many names the file has (its link count), where the scan knows it. */
  readonly links?: number
}

/** Outputs a `hard-link-outside` finding names at most (the rest are counted). */
const NAMED_LINKS = 10

/**
 * The `hard-link-outside` finding, if any: outputs whose link count is above the names the scan
 * found for them in the work root. The other names are outside it (a link made from outside the
 * sandbox: a run cannot link across its mounts), so the run's writes changed a file there too.
 */
export const outsideLinkFindings = (
  scanned: ReadonlyArray<TreeEntry>,
  outputs: ReadonlyArray<string>
): ReadonlyArray<RunFinding> => {
  const names = new Map<string, number>()
  const byPath = new Map<string, TreeEntry>()
  for (const e of scanned) {
    if (e.kind !== "file") continue
    const id = `${e.device}:${e.inode}`
    names.set(id, (names.get(id) ?? 0) + 1)
    byPath.set(e.path, e)
  }
  const hits: Array<string> = []
  for (const p of outputs) {
    const e = byPath.get(p)
    if (e?.links === undefined) continue
    const found = names.get(`${e.device}:${e.inode}`) ?? 0
    if (e.links > found) hits.push(`'${p}' (${e.links} names, ${found} in the work root)`)
  }
  if (hits.length === 0) return []
  const more = hits.length - NAMED_LINKS
  return [{
    kind: "hard-link-outside",
    detail: `${hits.length} output(s) have names the scan of the work root did not find: hard links from outside ` +
      `it (or beyond what the scan reached), made before the run; what the run wrote to them is there too: ` +
      `${hits.slice(0, NAMED_LINKS).join(", ")}${more > 0 ? ` and ${more} more` : ""}`
  }]
}

/** Paths a `setid-cleared` finding names at most (the rest are counted). */
const NAMED_SETIDS = 10

/**
 * The findings of clearing the set-user-ID and set-group-ID bits after a run, and of renaming what
 * would make a folder of the work root a work folder (`WorkTree.clearSetIds`),
 * or of failing to: none when the work root held no such file and every entry could be checked.
 */
export const setIdFindings = (
  r: {
    readonly cleared: ReadonlyArray<string>
    readonly unnamed: number
    readonly unchecked: number
    readonly markers?: ReadonlyArray<string>
    readonly markersLeft?: ReadonlyArray<string>
    readonly markersUnnamed?: number
  } | {
    readonly failed: string
  }
): ReadonlyArray<RunFinding> => {
  if ("failed" in r) {
    return [{
      kind: "setid-unchecked",
      detail: `the work root could not be checked for set-user-ID or set-group-ID files (${r.failed})`
    }]
  }
  const out: Array<RunFinding> = []
  const n = r.cleared.length + r.unnamed
  if (n > 0) {
    const named = r.cleared.slice(0, NAMED_SETIDS).map((p) => `'${p}'`).join(", ")
    const more = n - Math.min(r.cleared.length, NAMED_SETIDS)
    out.push({
      kind: "setid-cleared",
      detail: `${n} file(s) of the work root had the set-user-ID or set-group-ID bit, which would run them as ` +
        `dossier's user outside the sandbox; the bits were cleared${named === "" ? "" : `: ${named}`}${
          more > 0 ? ` and ${more} more` : ""
        }`
    })
  }
  if (r.unchecked > 0) {
    out.push({
      kind: "setid-unchecked",
      detail: `${r.unchecked} entries of the work root could not be checked for the set-user-ID or set-group-ID bit`
    })
  }
  const markers = r.markers ?? []
  const left = r.markersLeft ?? []
  const m = markers.length + left.length + (r.markersUnnamed ?? 0)
  if (m > 0) {
    const renamed = markers.slice(0, NAMED_SETIDS).join(", ")
    const more = m - left.length - Math.min(markers.length, NAMED_SETIDS)
    const kept = left.slice(0, NAMED_SETIDS).map((p) => `'${p}'`).join(", ")
    out.push({
      kind: "work-folder-marker",
      detail: `the run left ${m} '.dossier' folder(s) or plan.md file(s) with a plan section in its work root, ` +
        `which would make a command run from inside it take that folder for a work folder; ` +
        (markers.length + more > 0
          ? `renamed${renamed === "" ? "" : `: ${renamed}`}${more > 0 ? ` and ${more} more` : ""}`
          : "") +
        (left.length > 0
          ? `${markers.length + more > 0 ? "; " : ""}could not be renamed (remove them): ${kept}${
            left.length > NAMED_SETIDS ? ` and ${left.length - NAMED_SETIDS} more` : ""
          }`
          : "")
    })
  }
  return out
}

/** Regular files created or changed between two scans, and the entries that are not regular files. */
export const changedFiles = (
  before: ReadonlyArray<TreeEntry>,
  after: ReadonlyArray<TreeEntry>
): { readonly files: ReadonlyArray<string>; readonly ignored: ReadonlyArray<{ path: string; kind: string }> } => {
  const old = new Map(before.map((e) => [e.path, e]))
  const files: Array<string> = []
  const ignored: Array<{ path: string; kind: string }> = []
  for (const e of after) {
    if (e.kind === "directory") continue
    const was = old.get(e.path)
    const same = was !== undefined && was.kind === e.kind && was.inode === e.inode && was.device === e.device &&
      was.size === e.size && was.mtimeNs === e.mtimeNs && was.ctimeNs === e.ctimeNs
    if (same) continue
    if (e.kind === "file") files.push(e.path)
    else ignored.push({ path: e.path, kind: e.kind })
  }
  files.sort()
  ignored.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  return { files, ignored }
}

/** The path is the directory or lies below it. */
const within = (path: string, dir: string) => path === dir || isUnder(path, dir)

/** System directories visible read-only inside the sandbox (those that exist on the machine). */
export const SYSTEM_DIRS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"] as const
/**
 * The machine's files of the minimal `/etc`, bound read-only: what the dynamic loader, locale,
 * time zone and name lookup need. The user, group and host lists are the sandbox's own
 * (`sandboxEtc`): the machine's would show its accounts and the hosts of its network.
 */
export const ETC_FILES = [
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/alternatives",
  "/etc/localtime",
  "/etc/nsswitch.conf"
] as const

/** The name of the running user inside the sandbox (unless it is root or nobody): nothing of the machine's. */
export const SANDBOX_USER = "dossier"

/**
 * The sandbox's `/etc/passwd`, `/etc/group` and `/etc/hosts`, written by dossier (never the
 * machine's): root, nobody/nogroup and the running user (`uid`/`gid` as the run sees them, named
 * `SANDBOX_USER`, its home the work root), and only the loopback host names.
 */
export const sandboxEtc = (
  user: { readonly uid: number; readonly gid: number; readonly home: string }
): ReadonlyArray<{ readonly path: string; readonly content: string }> => {
  const users = new Map<number, string>([[0, "root:x:0:0:root:/root:/bin/sh"], [
    65534,
    "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin"
  ]])
  const name = user.uid === 0 ? "root" : user.uid === 65534 ? "nobody" : SANDBOX_USER
  users.set(user.uid, `${name}:x:${user.uid}:${user.gid}:${name}:${user.home}:/bin/sh`)
  const groups = new Map<number, string>([[0, "root:x:0:"], [65534, "nogroup:x:65534:"]])
  if (!groups.has(user.gid)) groups.set(user.gid, `${SANDBOX_USER}:x:${user.gid}:`)
  const lines = (m: Map<number, string>) => [...m.entries()].sort(([a], [b]) => a - b).map(([, l]) => `${l}\n`).join("")
  return [
    { path: "/etc/passwd", content: lines(users) },
    { path: "/etc/group", content: lines(groups) },
    { path: "/etc/hosts", content: "127.0.0.1 localhost\n::1 localhost ip6-localhost ip6-loopback\n" }
  ]
}

export interface SandboxPlan {
  /** Absolute path of the work folder on the machine (never printed). */
  readonly root: string
  readonly grant: StoredGrant
  readonly argv: ReadonlyArray<string>
  readonly limits: ExecutionContent["limits"]
  /** For each system directory that exists: whether it is a symlink (and to what). */
  readonly system: ReadonlyArray<{ readonly path: string; readonly link: string | null }>
  readonly etc: ReadonlyArray<string>
  /**
   * The sandbox's own `/etc` files (`sandboxEtc`): each path's content is read by bwrap from the
   * descriptor `fd` (`--ro-bind-data`), which must be open in bwrap.
   */
  readonly etcData?: ReadonlyArray<{ readonly path: string; readonly fd: number }>
  /** The masked paths (below input roots) that exist, and whether each is a directory. */
  readonly masks: ReadonlyArray<{ readonly path: string; readonly directory: boolean }>
  readonly prlimit: string
  /** coreutils' env: drops the PWD that bwrap sets after --chdir, so the environment is exactly the five variables. */
  readonly env: string
  /**
   * Where bwrap takes each root from (by work-folder-relative path): `/proc/self/fd/<n>` of a
   * directory dossier opened and checked against the grant's identity, so a root swapped after
   * the check is never what gets mounted. Roots not listed are taken from their path.
   */
  readonly sources?: Readonly<Record<string, string>>
  /** A command run first inside the sandbox that closes the inherited descriptors above 2, then execs the rest. */
  readonly closer?: ReadonlyArray<string>
  /**
   * The execution id, when the run has one: bwrap's command line (and so its namespace init's)
   * carries it, so the command that records the run `lost` finds what is left of it.
   */
  readonly runId?: string
}

/**
 * Why a key directory (its real path) may not hold the key, or null: inside the work folder (the
 * folder would hold its own key, and the sandbox mounts its roots from it), or inside anything the
 * sandbox shows of the machine (its system directories and the files of its minimal /etc).
 */
export const keyExposure = (keyDir: string, workRoot: string): string | null => {
  if (within(keyDir, workRoot)) return "the key's directory is inside the work folder, which must not hold its own key"
  const shown = [...SYSTEM_DIRS, ...ETC_FILES].find((d) => within(keyDir, d))
  return shown === undefined ? null : `the key's directory is inside ${shown}, which every sandbox shows`
}

/** Where a work-folder-relative path appears inside the sandbox. */
export const inSandbox = (rel: string): string => `/work/${rel}`

/** The sandbox's PATH: where a program named without a slash is looked for. */
export const SANDBOX_PATH = ["/usr/local/bin", "/usr/bin", "/bin"] as const

/**
 * Where the program of a run can be found, seen from inside the sandbox: the places on the machine
 * (a system path, or a path relative to the work folder) that the sandbox shows at the name the
 * program is given by, in the order `execvp` tries them. A name without a slash is looked for on
 * the sandbox's PATH; a relative one is relative to the work root (the current directory there);
 * `/work/<path>` exists only inside a granted root and outside a masked path; `/tmp` is empty at
 * the start and nothing else holds a program. Empty: the program does not exist inside.
 */
export const programPlaces = (
  program: string,
  view: { readonly work: string; readonly inputs: ReadonlyArray<string>; readonly masks: ReadonlyArray<string> }
): ReadonlyArray<{ readonly system: string } | { readonly folder: string }> => {
  if (program === "") return []
  if (!program.includes("/")) return SANDBOX_PATH.map((d) => ({ system: `${d}/${program}` }))
  const abs = posixNormalize(program.startsWith("/") ? program : `${inSandbox(view.work)}/${program}`)
  if (abs.startsWith("/work/")) {
    const rel = abs.slice("/work/".length)
    if (![view.work, ...view.inputs].some((r) => within(rel, r))) return []
    if (view.masks.some((m) => within(rel, m))) return []
    return [{ folder: rel }]
  }
  return SYSTEM_DIRS.some((d) => within(abs, d)) ? [{ system: abs }] : []
}

/** `.` and `..` resolved lexically in an absolute POSIX path (`..` at the top stays at `/`). */
const posixNormalize = (abs: string): string => {
  const out: Array<string> = []
  for (const part of abs.split("/")) {
    if (part === "" || part === ".") continue
    if (part === "..") out.pop()
    else out.push(part)
  }
  return `/${out.join("/")}`
}

/** The most bytes one argument of a program may have: the kernel's MAX_ARG_STRLEN (128 KiB, its NUL included). */
export const MAX_ARGUMENT_BYTES = 128 * 1024 - 1
/**
 * The most the program and its arguments may take together: each argument's bytes, its NUL and its
 * pointer (8 bytes), as the kernel counts them against ARG_MAX. Half of the usual 2 MiB, so that the
 * sandbox's own command line and environment always fit beside it.
 */
export const MAX_ARGV_BYTES = 1024 * 1024

/**
 * Why `argv` cannot be a program's command line, for `InvalidInput` (paths `program.<n>`, or
 * `program` for the whole), or null: an argument holding a NUL byte (it would end the argument)
 * or a lone surrogate (not text: no bytes spell it, and no record can hold it), one over
 * `MAX_ARGUMENT_BYTES`, or all of them over `MAX_ARGV_BYTES`. Checked before anything runs or
 * is charged: the system would refuse to start such a program (`E2BIG`), and nothing it did
 * would be recorded. Only a tool call can give these (a shell's argv holds no NUL, no lone surrogate).
 */
export const argvProblems = (
  argv: ReadonlyArray<string>
): Array<{ readonly path: string; readonly message: string }> => {
  const issues: Array<{ path: string; message: string }> = []
  let total = 0
  argv.forEach((a, i) => {
    const bytes = Buffer.byteLength(a, "utf8")
    total += bytes + 1 + 8
    const path = `program.${i}`
    if (a.includes("\u0000")) {
      issues.push({ path, message: "holds a NUL byte, which no argument of a program can carry" })
    } else if (LONE_SURROGATE.test(a)) {
      issues.push({ path, message: "holds a lone surrogate (\\ud800-\\udfff without its pair), which is not text" })
    } else if (bytes > MAX_ARGUMENT_BYTES) {
      issues.push({
        path,
        message: `is ${bytes} bytes; one argument of a program is at most ${MAX_ARGUMENT_BYTES} (the system's limit)`
      })
    }
  })
  if (total > MAX_ARGV_BYTES) {
    issues.push({
      path: "program",
      message: `the program and its ${
        argv.length - 1
      } arguments take ${total} bytes (8 more per argument); at most ${MAX_ARGV_BYTES} together`
    })
  }
  return issues.slice(0, 20)
}

/** Why a program cannot start inside the sandbox (said in sandbox terms), for `InvalidInput` at `program`. */
export const programMissing = (
  program: string,
  work: string,
  found: "missing" | "directory" | "not-executable"
): string =>
  found === "directory"
    ? `'${program}' is a directory inside the sandbox, not a program`
    : found === "not-executable"
    ? `'${program}' is not executable inside the sandbox (no execute permission)`
    : program.includes("/")
    ? `'${program}' does not exist inside the sandbox: the current directory there is the work root ${
      inSandbox(work)
    }, ` +
      `a file of the folder appears at /work/<path> only inside one of the grant's roots, and nothing else of the folder is there`
    : `'${program}' is not found on the sandbox's PATH (${SANDBOX_PATH.join(":")})`

/**
 * The bubblewrap command line: new user, mount, PID, IPC, UTS, cgroup and network namespaces,
 * no capabilities, system directories and a minimal /etc read-only, a private /tmp, the input
 * roots read-only, masked paths hidden, the work root the only writable place, a cleared
 * environment, a new session, tied to its parent's life; the program runs under prlimit.
 */
export const bwrapArgs = (plan: SandboxPlan): ReadonlyArray<string> => {
  const g = plan.grant
  // The UTS namespace's host name is the machine's unless given: `localhost`, which the
  // sandbox's own /etc/hosts resolves, so a run learns nothing of the machine's name.
  const a: Array<string> = [
    "--unshare-all",
    "--hostname",
    "localhost",
    "--cap-drop",
    "ALL",
    "--die-with-parent",
    "--new-session",
    "--clearenv"
  ]
  for (const s of plan.system) {
    if (s.link !== null) a.push("--symlink", s.link, s.path)
    else a.push("--ro-bind", s.path, s.path)
  }
  for (const e of plan.etc) a.push("--ro-bind", e, e)
  // Readable by all, as the machine's are (bubblewrap makes them 0600 otherwise).
  for (const d of plan.etcData ?? []) a.push("--perms", "0644", "--ro-bind-data", String(d.fd), d.path)
  // The only writable places besides the work root are /tmp and /dev/shm, each a tmpfs of half
  // the memory budget, so that together they hold no more than the budget (with a memory cgroup
  // their pages also count against the run's memory); the sandbox's root and /dev are read-only
  // once everything is mounted.
  const tmpfsBytes = String(Math.max(4096, Math.floor(plan.limits.memoryMiB * 1024 * 1024 / 2)))
  // /proc/sys read-only: its files are writable by user id 0 without any capability, and bwrap
  // leaves the new /proc's `sys` writable (its directory refuses W_OK, so bwrap takes it for
  // read-only). A program run by root could otherwise set the machine's kernel settings
  // (kernel.core_pattern, kernel.modprobe: a command the kernel runs as root outside the sandbox).
  // The sysctls a process sees follow its own namespaces, so the bound view is the sandbox's.
  a.push(
    "--proc",
    "/proc",
    "--ro-bind",
    "/proc/sys",
    "/proc/sys",
    "--dev",
    "/dev",
    "--size",
    tmpfsBytes,
    "--tmpfs",
    "/tmp",
    "--size",
    tmpfsBytes,
    "--tmpfs",
    "/dev/shm",
    "--remount-ro",
    "/dev",
    "--dir",
    "/work"
  )
  const host = (rel: string) => plan.sources?.[rel] ?? `${plan.root}/${rel}`
  for (const i of g.inputs) a.push("--ro-bind", host(i.path), inSandbox(i.path))
  for (const m of plan.masks) {
    if (m.directory) a.push("--tmpfs", inSandbox(m.path), "--remount-ro", inSandbox(m.path))
    else a.push("--ro-bind", "/dev/null", inSandbox(m.path))
  }
  a.push("--bind", host(g.work.path), inSandbox(g.work.path), "--chdir", inSandbox(g.work.path))
  const env: Array<[string, string]> = [
    ["PATH", "/usr/local/bin:/usr/bin:/bin"],
    ["HOME", inSandbox(g.work.path)],
    ["LANG", "C.UTF-8"],
    ["TZ", "UTC"],
    ["DOSSIER_GRANT", g.id]
  ]
  a.push("--remount-ro", "/")
  for (const [k, v] of env) a.push("--setenv", k, v)
  const l = plan.limits
  a.push("--")
  for (const c of plan.closer ?? []) a.push(c)
  a.push(
    plan.env,
    "-u",
    "PWD",
    plan.prlimit,
    `--cpu=${l.cpuSeconds}`,
    `--as=${l.memoryMiB * 1024 * 1024}`,
    `--nproc=${l.processes}`,
    `--fsize=${l.fileMiB * 1024 * 1024}`,
    "--core=0",
    "--"
  )
  for (const arg of plan.argv) a.push(arg)
  return a
}

/** Stable ids of the journal events that link a run to a candidate (a retry appends nothing new). */
export const linkEvents = (record: ExecutionRecord, candidateId: string): AppendInput => [
  {
    id: `${record.id}:execution`,
    type: "execution_linked" as const,
    at: record.endedAt,
    candidateId,
    execution: { runtimeId: record.id, status: record.status, exitCode: record.exitCode, logRef: record.stdout.path }
  },
  ...record.outputs.map((o, i) => ({
    id: `${record.id}:artifact:${i}`,
    type: "artifact_linked" as const,
    at: record.endedAt,
    candidateId,
    artifact: { path: o.path, sha256: o.sha256, bytes: o.bytes }
  }))
]
