/** Helpers for the monitor's end-to-end tests: run `dossier monitor …` through the built CLI. */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { CreateDueRunInput, SubscriptionInput, TransitionRunFile } from "../../src/domain/MonitorSchema.js"
import { MonitorLayer } from "../../src/layers/MonitorLayer.js"
import { SCAN_INDEX_FILE } from "../../src/layers/MonitorLive.js"
import { Monitor } from "../../src/services/Monitor.js"
import { type CliResult, put, putInput, runCliAsync } from "../support/cli.js"

let counter = 0

/** Run `dossier monitor <cmd> --input <file> --now <now> --json` with `input` written to a fresh file. */
export const mon = (dir: string, cmd: string, input: unknown, now: string): Promise<CliResult> => {
  const rel = putInput(dir, `m-${process.pid}-${counter++}.json`, input)
  return runCliAsync(["monitor", cmd, "--workdir", dir, "--input", rel, "--now", now, "--json"])
}

/** Run a read-only monitor command (`due`, `unresolved-outcomes`, `show …`) or `next`. */
export const read = (dir: string, args: ReadonlyArray<string>): Promise<CliResult> =>
  runCliAsync([...(args[0] === "next" ? [] : ["monitor"]), ...args, "--workdir", dir, "--json"])

export const sha = (content: string | Uint8Array) => createHash("sha256").update(content).digest("hex")

/** Snapshot every file under .dossier/monitor (path → bytes as text) to prove a refusal changed nothing. */
/**
 * The monitor's state files and their text. The scan index is left out: it is derived (a
 * cache of what scans made of each run file's bytes, rewritten by read-only commands too), and
 * the tests in ./scanIndex.test.ts check that it never changes an answer.
 */
export const monitorState = (dir: string): Record<string, string> => {
  const out: Record<string, string> = {}
  const walk = (rel: string) => {
    const abs = path.join(dir, rel)
    if (!fs.existsSync(abs)) return
    for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
      const r = `${rel}/${e.name}`
      if (e.isDirectory()) walk(r)
      else if (r !== SCAN_INDEX_FILE) out[r] = fs.readFileSync(path.join(dir, r), "utf8")
    }
  }
  walk(".dossier/monitor")
  return out
}

export const SOURCE_TEXT =
  "Sparse attention reduces the quadratic cost of transformers to near linear in sequence length.\n" +
  "A second paragraph notes that block sparsity keeps accuracy within one point on long documents.\n"

/** A literature subscription `id`, anchored at 2026-12-01T09:00 Europe/Berlin, every week. */
export const literature = (id: string, extra: Record<string, unknown> = {}) => ({
  kind: "literature",
  target: "sparse attention for long documents",
  scope: { venues: ["arXiv"], since: "2026" },
  budget: { maxSources: 10, maxMinutes: 20 },
  cadence: { every: 1, unit: "week" },
  timezone: "Europe/Berlin",
  anchor: "2026-12-01T09:00",
  id,
  ...extra
})

/** Window k of `literature(...)` in UTC: 2026-12-01T08:00Z + k weeks (no DST change in Dec/Jan). */
export const weekWindow = (k: number) =>
  new Date(Date.parse("2026-12-01T08:00:00.000Z") + k * 7 * 86_400_000).toISOString()

export const at = (iso: string, plusMs: number) => new Date(Date.parse(iso) + plusMs).toISOString()

/** Create the subscription and a running run for its latest window at `now`; returns the run record. */
export const runningRun = async (dir: string, id: string, now: string, extra: Record<string, unknown> = {}) => {
  const c = await mon(dir, "create-subscription", literature(id, extra), "2026-11-30T10:00:00Z")
  if (c.json?.ok !== true) throw new Error(c.stdout + c.stderr)
  const r = await mon(dir, "create-due-run", { subscriptionId: id }, now)
  if (r.json?.ok !== true) throw new Error(r.stdout + r.stderr)
  const t = await mon(dir, "transition-run", { runId: r.json.run.id, expectedRevision: 1, to: "running" }, now)
  if (t.json?.ok !== true) throw new Error(t.stdout + t.stderr)
  return t.json.run as { id: string; revision: number; receiptDigest: string; subscriptionId: string }
}

/**
 * `runningRun` in the test's process: the Monitor service over the folder (the layer the CLI's
 * monitor commands use), given the same inputs decoded by the same Schemas, without three CLI
 * starts. For tests whose subject is what follows (finish-run, dispositions), not these steps.
 */
export const runningRunInProcess = (dir: string, id: string, now: string, extra: Record<string, unknown> = {}) =>
  Effect.runPromise(
    Effect.gen(function*() {
      const s = yield* Monitor
      const subscription = yield* Schema.decodeUnknown(SubscriptionInput)(literature(id, extra))
      yield* s.createSubscription(subscription, { now: new Date("2026-11-30T10:00:00Z") })
      const due = yield* Schema.decodeUnknown(CreateDueRunInput)({ subscriptionId: id })
      const { run } = yield* s.createDueRun(due, { now: new Date(now) })
      const to = yield* Schema.decodeUnknown(TransitionRunFile)({ runId: run.id, expectedRevision: 1, to: "running" })
      const t = yield* s.transitionRun(to as Parameters<typeof s.transitionRun>[0], { now: new Date(now) })
      return t.run
    }).pipe(Effect.provide(MonitorLayer(dir)))
  )

/** Write a stage file carrying the binding and a source to cite; returns the finish input. */
export const finishInput = (
  dir: string,
  run: { id: string; revision: number; receiptDigest: string },
  outcomes: ReadonlyArray<unknown> = [
    {
      id: "o1",
      label: "new",
      reason: "a new paper on block sparsity",
      citations: [{ path: "research/sources/paper.txt", quote: "block sparsity keeps accuracy within one point" }]
    }
  ]
) => {
  put(dir, "research/sources/paper.txt", SOURCE_TEXT)
  const stage = `# literature stage\nmonitor_binding: run_id=${run.id} task_digest=${run.receiptDigest}\n\nfindings…\n`
  put(dir, `research/results/${run.id}.md`, stage)
  return {
    runId: run.id,
    expectedRevision: run.revision,
    binding: { runId: run.id, taskDigest: run.receiptDigest },
    stage: { path: `research/results/${run.id}.md`, sha256: sha(stage) },
    outcomes
  }
}
