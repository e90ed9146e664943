/**
 * One scripted session of the built CLI (dist/dossier.cjs) with fixed inputs and a fixed clock:
 * the README's quick start, then one of each writing command that runs without the network or a
 * sandbox. test/foundation/replay.test.ts replays it into a fresh folder and compares every
 * file's bytes (and every answer) with the recording in test/fixtures/replay/;
 * `REPLAY_RECORD=1 npx vitest run test/foundation/replay.test.ts` re-records it (only when a
 * change of the folder's bytes is intended: say so in the commit).
 *
 * What is fixed and how:
 * - the clock: every command that takes `--now` gets one of the instants below (`init`, `journal …`
 *   and `source follow` read no clock that reaches the folder);
 * - the evidence key that signs grants: a fixed key in a config directory of the replay's own
 *   (`$XDG_CONFIG_HOME/dossier/evidence.key`), so the signatures are the same on every run;
 * - the environment: no `DOSSIER_*` variable but the config directory; `TZ=UTC`.
 * Not replayed: `exec` (its execution id carries random bytes, and it needs bubblewrap) and
 * `ingest <url>` (the network). Left out of the comparison: `.dossier/lock.sqlite` (SQLite's own
 * file for the folder lock: a page image of SQLite's, holding no record of dossier's).
 * Masked in the comparison (`masked`), each where it stands so that the rest of the bytes still
 * count:
 * - what a grant records of its directories' identity on the file system (`device`, `inode`: new
 *   in every fresh folder) and, computed over those, the grant's `digest` and its signature's
 *   `mac` (in the grant records and the grant commands' answers); the test checks those two apart:
 *   each equals what the grant's content and the fixed key give;
 * - the journal's append index (`.dossier/journal/<study>.append-index.json`) keeps the journal
 *   file's fingerprint to know it is still the file it indexed: its device, inode, mode (the
 *   umask's) and modification and change times are masked, its link count and size compared;
 * - the monitor's scan index (`.dossier/monitor/scan.index`) is stamped with the runtime it was
 *   made by (Node's, the time zone database's and ICU's versions): the stamp is masked.
 *
 * Over 400 lines: one scripted session (`STEPS`), each step relying on what the ones before it
 * wrote, so it is read top to bottom in one place.
 */
import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

const CLI = path.resolve(__dirname, "../../dist/dossier.cjs")

/** Where the recording lives: the folder's files under `folder/`, the answers in `answers.json`. */
export const FIXTURE = path.resolve(__dirname, "../fixtures/replay")

/** Files of the folder that are not compared (see the module's comment). */
export const NOT_COMPARED: ReadonlyArray<string> = [".dossier/lock.sqlite"]

/** The evidence key of the replay (64 hex digits). */
export const KEY = `${"0123456789abcdef".repeat(4)}\n`

/** The grant records: the files whose identity fields `masked` hides. */
export const GRANT_RECORD = /^\.dossier\/grants\/[^/]+\.json$/

/** A grant's directory identities, and the digest and signature over them (grant records, answers). */
const maskGrant = (text: string): string =>
  text
    .replace(/("(?:device|inode)":\s*)"\d+"/g, "$1\"…\"")
    .replace(/("(?:digest|mac)":\s*)"[0-9a-f]{64}"/g, "$1\"…\"")

/**
 * A file's text (or the answers' JSON, `rel` undefined) with the values that depend on the file
 * system's identities or on the runtime replaced by `…` (see the module's comment).
 */
export const masked = (text: string, rel?: string): string => {
  if (rel === undefined || GRANT_RECORD.test(rel)) return maskGrant(text)
  if (/^\.dossier\/journal\/[^/]+\.append-index\.json$/.test(rel)) {
    // device:inode:mode:links:size:mtime:ctime
    return text.replace(/("fingerprint":")\d+:\d+:\d+:(\d+):(\d+):[\d.]+:[\d.]+"/g, "$1…:…:…:$2:$3:…:…\"")
  }
  if (rel === ".dossier/monitor/scan.index") return text.replace(/("stamp":")[^"]*"/, "$1…\"")
  return text
}

const T_PLAN = "2026-11-30T10:00:00Z"
const T_CHECKPOINT = "2026-11-30T10:05:00Z"
const T_GATE = "2026-11-30T10:10:00Z"
const T_SUBSCRIBE = "2026-11-30T11:00:00Z"
// The first window of the weekly subscription below starts 2026-12-01T08:00Z (09:00 Berlin).
const T_RUN = "2026-12-01T09:00:00Z"
const T_FINISH = "2026-12-01T09:30:00Z"
const T_GRANT = "2026-12-01T10:00:00Z"

const sha = (s: string | Uint8Array) => createHash("sha256").update(s).digest("hex")

const put = (dir: string, rel: string, content: string) => {
  const p = path.join(dir, rel)
  fs.mkdirSync(path.dirname(p), { recursive: true })
  fs.writeFileSync(p, content)
}

const json = (value: unknown) => `${JSON.stringify(value, null, 1)}\n`

const PAGE = [
  "<!doctype html><html><head><title>Block-sparse attention</title></head><body>",
  "<article><h1>Block-sparse attention for long documents</h1>",
  "<p>Block sparsity keeps accuracy within one point on long documents.</p>",
  "<p>Dense attention grows quadratically with the length of the input.</p></article>",
  "</body></html>",
  ""
].join("\n")

const SOURCE_TEXT = "Sparse attention reduces the quadratic cost of transformers.\n" +
  "A second paragraph notes that block sparsity keeps accuracy within one point on long documents.\n"

/** The answers so far, by step name (a later step's input may quote an earlier answer). */
type Answers = Record<string, any>

interface Step {
  readonly name: string
  /** Files to write before the command (paths relative to the work folder). */
  readonly before?: (answers: Answers) => Readonly<Record<string, string>>
  readonly argv: (answers: Answers) => ReadonlyArray<string>
}

const step = (name: string, argv: Step["argv"] | ReadonlyArray<string>, before?: Step["before"]): Step => ({
  name,
  argv: typeof argv === "function" ? argv : () => argv,
  ...(before === undefined ? {} : { before })
})

const runOf = (a: Answers) => a["monitor create-due-run"].run as { id: string; receiptDigest: string }

export const STEPS: ReadonlyArray<Step> = [
  // The README's quick start (its network-free lines), with a fixed clock.
  step("init", ["init"]),
  step("plan start", ["plan", "start", "--input", "research/inputs/plan.json", "--now", T_PLAN], () => ({
    "research/inputs/plan.json": json({
      goal: "Which sparse attention method suits long documents?",
      limits: ["public sources only"],
      nextAction: "capture two papers"
    })
  })),
  step("plan checkpoint", [
    "plan",
    "checkpoint",
    "--input",
    "research/inputs/progress.json",
    "--expected",
    "1",
    "--now",
    T_CHECKPOINT
  ], () => ({
    "research/sources/notes.txt": "Block sparsity keeps accuracy within one point on long documents.\n",
    "research/results/scores.csv": "method,score\nblock-sparse,0.91\n",
    "research/inputs/progress.json": json({
      completedSteps: [{ id: "read", summary: "read the notes" }],
      sources: [{ path: "research/sources/notes.txt", origin: "https://example.org/notes" }],
      outputs: [{ path: "research/results/scores.csv", dependsOn: ["research/sources/notes.txt"] }],
      nextAction: "compare with dense attention"
    })
  })),
  step(
    "journal append",
    ["journal", "append", "--study", "attention", "--input", "research/inputs/events.json"],
    () => ({
      "research/inputs/events.json": json([
        { id: "c1", type: "candidate_created", candidate: { id: "block-sparse", title: "Block-sparse attention" } },
        {
          id: "a1",
          type: "artifact_linked",
          candidateId: "block-sparse",
          artifact: { path: "research/results/scores.csv" }
        },
        {
          id: "e1",
          type: "evaluation_recorded",
          candidateId: "block-sparse",
          evaluation: { evaluatorVersion: "v1", metrics: { score: 0.91 }, decision: "accept" }
        }
      ])
    })
  ),
  step("gate (quick start: not active)", ["gate", "--state", "research/inputs/state.json", "--now", T_GATE], () => ({
    "research/inputs/state.json": json({ item: "ISSUE-1", status: "waiting", waitingFor: "user" })
  })),
  step("monitor create-subscription", [
    "monitor",
    "create-subscription",
    "--input",
    "research/inputs/subscription.json",
    "--now",
    T_SUBSCRIBE
  ], () => ({
    "research/inputs/subscription.json": json({
      id: "sparse-attention",
      kind: "literature",
      target: "sparse attention for long documents",
      cadence: { every: 1, unit: "week" },
      timezone: "Europe/Berlin",
      anchor: "2026-12-01T09:00"
    })
  })),
  step("monitor create-due-run", ["monitor", "create-due-run", "--subscription", "sparse-attention", "--now", T_RUN]),

  // One of each other writing command.
  step("plan checkpoint (second)", [
    "plan",
    "checkpoint",
    "--input",
    "research/inputs/progress-2.json",
    "--expected",
    "2",
    "--now",
    T_CHECKPOINT
  ], () => ({
    "research/inputs/progress-2.json": json({
      completedSteps: [{ summary: "an unnamed step" }],
      unresolved: [{ id: "u1", text: "dense baseline?" }],
      status: "blocked"
    })
  })),
  step("ingest --file", [
    "ingest",
    "--file",
    "research/inputs/page.html",
    "--origin",
    "https://example.org/block-sparse",
    "--now",
    T_CHECKPOINT
  ], () => ({
    "research/inputs/page.html": PAGE
  })),
  step(
    "source follow",
    (
      a
    ) => [
      "source",
      "follow",
      "--path",
      a["ingest --file"].source.path,
      "--quote",
      "Block sparsity keeps accuracy within one point"
    ]
  ),
  step("journal append (retry)", [
    "journal",
    "append",
    "--study",
    "attention",
    "--input",
    "research/inputs/events.json"
  ]),
  step("journal append (selection)", [
    "journal",
    "append",
    "--study",
    "attention",
    "--input",
    "research/inputs/select.json"
  ], () => ({
    "research/inputs/select.json": json([
      { id: "s1", type: "candidate_selected", candidateId: "block-sparse", reason: "best score" },
      {
        id: "k1",
        type: "checkpoint_saved",
        checkpoint: { summary: "selected", nextAction: "write up", reviewed: true }
      }
    ])
  })),
  step("journal rebuild", ["journal", "rebuild", "--study", "attention"]),
  step("journal recover-tail", ["journal", "recover-tail", "--study", "attention"], () => ({
    // A torn last line (as a crash mid-append leaves), appended to the journal.
    "research/attention/research-events.jsonl": `${
      fs.readFileSync(path.join(currentDir, "research/attention/research-events.jsonl"), "utf8")
    }{"seq":6,"sha256":"ab`
  })),
  step("journal import", ["journal", "import", "--study", "legacy"], () => ({
    "research/legacy/manifest.json": json({
      version: 1,
      study: "legacy",
      protocolVersion: "proto-3",
      candidates: [{ id: "old-a", status: "accepted", resultPaths: ["research/results/scores.csv"] }, {
        id: "old-b",
        status: "rejected",
        resultPaths: []
      }],
      completed: ["old-a"],
      selected: null
    })
  })),
  step("journal rebuild (legacy)", ["journal", "rebuild", "--study", "legacy"]),
  step("gate --record-attempt", ["gate", "--state", "run/state.json", "--record-attempt", "--now", T_GATE], () => ({
    "run/state.json": json({
      item: "PROJ-12",
      autopilot: true,
      status: "parked",
      waitingFor: "maturity",
      pendingQuestion: null,
      maturity: { score: 40, threshold: 70, blockers: [{ id: "a", category: "scope" }], scoredBy: "fetcher" },
      analysis: { openQuestions: [] },
      runner: { session: "s-1", phases: [0] }
    }),
    "research/gate/research.json": json({
      item: "PROJ-12",
      kind: "maturity",
      gaps: [{
        id: "a",
        status: "closed",
        answer: "every line item with VAT rate and currency",
        sources: [{ ref: "research/sources/notes.txt", quote: "Block sparsity keeps accuracy within one point" }]
      }]
    })
  })),
  step("monitor update-subscription", [
    "monitor",
    "update-subscription",
    "--input",
    "research/inputs/update.json",
    "--now",
    T_SUBSCRIBE
  ], () => ({
    "research/inputs/update.json": json({
      subscriptionId: "sparse-attention",
      expectedRevision: 2,
      changes: { budget: { maxSources: 5, maxMinutes: 10 } }
    })
  })),
  step(
    "monitor transition-run",
    (a) => ["monitor", "transition-run", "--run", runOf(a).id, "--expected", "1", "--to", "running", "--now", T_RUN]
  ),
  step(
    "monitor finish-run",
    ["monitor", "finish-run", "--input", "research/inputs/finish.json", "--now", T_FINISH],
    (a) => {
      const run = runOf(a)
      const stage =
        `# literature stage\nmonitor_binding: run_id=${run.id} task_digest=${run.receiptDigest}\n\nfindings\n`
      return {
        "research/sources/paper.txt": SOURCE_TEXT,
        [`research/results/${run.id}.md`]: stage,
        "research/inputs/finish.json": json({
          runId: run.id,
          expectedRevision: 2,
          binding: { runId: run.id, taskDigest: run.receiptDigest },
          stage: { path: `research/results/${run.id}.md`, sha256: sha(stage) },
          outcomes: [{
            id: "o1",
            label: "new",
            reason: "a new paper on block sparsity",
            citations: [{ path: "research/sources/paper.txt", quote: "block sparsity keeps accuracy within one point" }]
          }]
        })
      }
    }
  ),
  step(
    "monitor set-outcome-disposition",
    (
      a
    ) => [
      "monitor",
      "set-outcome-disposition",
      "--run",
      runOf(a).id,
      "--outcome",
      "o1",
      "--disposition",
      "acknowledged",
      "--now",
      T_FINISH
    ]
  ),
  step("monitor set-subscription-status", [
    "monitor",
    "set-subscription-status",
    "--subscription",
    "sparse-attention",
    "--expected",
    "4",
    "--status",
    "paused",
    "--now",
    T_FINISH
  ]),
  step("grant create", ["grant", "create", "--input", "research/inputs/grant.json", "--now", T_GRANT], () => ({
    "research/exp/data/train.csv": "a,b\n1,2\n",
    "research/exp/data/holdout/labels.csv": "HOLDOUT\n",
    "research/inputs/grant.json": json({
      id: "g1",
      task: "task-1",
      inputs: ["research/exp/data"],
      work: "research/exp/runs/r1",
      protected: ["research/exp/data/holdout"],
      tools: ["read", "bash"],
      budget: { runs: 20, wallSeconds: 120, cpuSeconds: 120, memoryMiB: 256, outputMiB: 16 },
      deadline: "2030-01-01T00:00:00Z"
    })
  })),
  step("grant create (child)", ["grant", "create", "--input", "research/inputs/child.json", "--now", T_GRANT], () => ({
    "research/inputs/child.json": json({
      id: "g2",
      task: "task-2",
      parent: "g1",
      inputs: ["research/exp/data"],
      work: "research/exp/runs/r1/child",
      tools: ["bash"],
      budget: { runs: 5, wallSeconds: 60, cpuSeconds: 60, memoryMiB: 128, outputMiB: 4 },
      deadline: "2029-01-01T00:00:00Z"
    })
  })),
  step(
    "grant narrow",
    ["grant", "narrow", "--grant", "g1", "--input", "research/inputs/narrow.json", "--now", T_GRANT],
    () => ({
      "research/inputs/narrow.json": json({ budget: { runs: 10 } })
    })
  ),
  step("grant revoke", ["grant", "revoke", "--grant", "g2", "--reason", "no longer needed", "--now", T_GRANT]),

  // Readers last: whatever they keep (the monitor's scan index) must be the same bytes too.
  step("status", ["status", "--now", T_GRANT]),
  step("next", ["next", "--now", T_GRANT])
]

/** The work folder the current replay writes (read by a step's `before`). */
let currentDir = ""

export interface Replayed {
  /** Each step's answer (the `--json` object) with its exit code, by step. */
  readonly answers: ReadonlyArray<{ readonly step: string; readonly code: number | null; readonly answer: unknown }>
}

/** Replay every step into `dir` (an empty folder); a step that does not exit 0 throws, naming it. */
export const replay = (dir: string): Replayed => {
  currentDir = dir
  const config = fs.mkdtempSync(path.join(os.tmpdir(), "dossier-replay-config-"))
  fs.mkdirSync(path.join(config, "dossier"), { mode: 0o700 })
  fs.writeFileSync(path.join(config, "dossier", "evidence.key"), KEY, { mode: 0o600 })
  const env: Record<string, string> = {
    PATH: process.env["PATH"] ?? "",
    TZ: "UTC",
    XDG_CONFIG_HOME: config,
    HOME: config
  }
  const answers: Answers = {}
  const out: Array<{ step: string; code: number | null; answer: unknown }> = []
  try {
    for (const s of STEPS) {
      for (const [rel, content] of Object.entries(s.before?.(answers) ?? {})) put(dir, rel, content)
      const r = spawnSync(process.execPath, [CLI, ...s.argv(answers), "--workdir", dir, "--json"], {
        cwd: dir,
        env,
        encoding: "utf8"
      })
      if (r.status !== 0) throw new Error(`replay step '${s.name}' exited ${r.status}: ${r.stdout}${r.stderr}`)
      answers[s.name] = JSON.parse(r.stdout)
      out.push({ step: s.name, code: r.status, answer: answers[s.name] })
    }
  } finally {
    fs.rmSync(config, { recursive: true, force: true })
  }
  return { answers: out }
}

/** Every file under `dir` (relative path, `/`-separated) with its bytes, in path order. */
export const filesOf = (dir: string): ReadonlyArray<readonly [string, Buffer]> => {
  const out: Array<readonly [string, Buffer]> = []
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel === "" ? e.name : `${rel}/${e.name}`
      if (e.isDirectory()) walk(r)
      else if (!NOT_COMPARED.includes(r)) out.push([r, fs.readFileSync(path.join(dir, r))])
    }
  }
  walk("")
  return out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
}
