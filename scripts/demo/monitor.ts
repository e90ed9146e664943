/**
 * Demo step of the monitor: subscribe, let two windows pass, one coalesced run (a retry answers
 * the same run), finish it with a cited outcome bound to its stage file, decide the outcome.
 */
import { createHash } from "node:crypto"
import { dossier, say, write } from "./support.js"

const sha = (text: string) => createHash("sha256").update(text).digest("hex")

export const demoMonitor = async (dir: string): Promise<void> => {
  say("A weekly literature subscription, in Berlin time, anchored at Tuesday 1 December 2026 09:00 (remind first).")
  write(
    dir,
    "research/inputs/monitor-subscription.json",
    JSON.stringify({
      kind: "literature",
      target: "sparse attention for long documents",
      scope: { venues: ["arXiv", "ACL"] },
      budget: { maxSources: 10, maxMinutes: 20 },
      cadence: { every: 1, unit: "week" },
      timezone: "Europe/Berlin",
      anchor: "2026-12-01T09:00",
      program: "demo-program",
      id: "lit-sparse"
    })
  )
  dossier(
    dir,
    [
      "monitor",
      "create-subscription",
      "--input",
      "research/inputs/monitor-subscription.json",
      "--now",
      "2026-11-30T10:00:00Z"
    ],
    (j) =>
      `created=${j.created} id=${j.subscription.id} nextDueAt=${j.subscription.nextDueAt} mode=${j.subscription.mode}`
  )

  say(
    "\nNo daemon runs. Nine days later two windows (1 Dec and 8 Dec) have started; the next `due` or `next` discovers it."
  )
  const now = "2026-12-10T12:00:00Z"
  dossier(
    dir,
    ["monitor", "due", "--now", now],
    (j) => j.subscriptions.map((s: any) => `${s.id}: due=${s.due} nextDueAt=${s.nextDueAt} mode=${s.mode}`).join("; ")
  )
  dossier(dir, ["next", "--now", now], (j) => j.facts.map((f: any) => f.kind).join(", "))

  say("\nOne run for the latest window; the missed window is coalesced into it, never a backlog.")
  write(dir, "research/inputs/monitor-run.json", JSON.stringify({ subscriptionId: "lit-sparse" }))
  const created = dossier(
    dir,
    ["monitor", "create-due-run", "--input", "research/inputs/monitor-run.json", "--now", now],
    (j) =>
      `created=${j.created} run=${j.run.id} window=${j.run.windowIndex} coalescedWindows=${j.run.coalescedWindows} receiptDigest=${
        j.run.receiptDigest.slice(0, 12)
      }…`
  )
  const run = created.run
  say("A retry after a lost answer gets the same run back:")
  dossier(dir, [
    "monitor",
    "create-due-run",
    "--input",
    "research/inputs/monitor-run.json",
    "--now",
    "2026-12-10T12:05:00Z"
  ], (j) => `created=${j.created} run=${j.run.id}`)

  write(
    dir,
    "research/inputs/monitor-start.json",
    JSON.stringify({ runId: run.id, expectedRevision: 1, to: "running" })
  )
  dossier(
    dir,
    ["monitor", "transition-run", "--input", "research/inputs/monitor-start.json", "--now", now],
    (j) => `run ${j.run.id} is ${j.run.status} (revision ${j.run.revision})`
  )

  say("\nThe agent writes the binding into its literature stage before searching, then records what it found.")
  const source =
    "Block-sparse attention keeps accuracy within one point of dense attention on documents of 64k tokens,\n" +
    "while cutting memory by a factor of eight.\n"
  write(dir, "research/sources/monitor-demo-paper.txt", source)
  const stage =
    `# Literature stage\nmonitor_binding: run_id=${run.id} task_digest=${run.receiptDigest}\n\n- one new paper on block-sparse attention\n`
  const stagePath = `research/results/${run.id}-stage.md`
  write(dir, stagePath, stage)
  write(
    dir,
    "research/inputs/monitor-finish.json",
    JSON.stringify({
      runId: run.id,
      expectedRevision: 2,
      binding: { runId: run.id, taskDigest: run.receiptDigest },
      stage: { path: stagePath, sha256: sha(stage) },
      outcomes: [{
        id: "o1",
        label: "new",
        reason: "A new block-sparse result at 64k tokens.",
        citations: [{
          path: "research/sources/monitor-demo-paper.txt",
          quote: "keeps accuracy within one point of dense attention"
        }]
      }]
    })
  )
  dossier(
    dir,
    ["monitor", "finish-run", "--input", "research/inputs/monitor-finish.json", "--now", "2026-12-10T15:00:00Z"],
    (j) =>
      `run ${j.run.status}; outcomes ${
        j.run.outcomes.map((o: any) => `${o.id}:${o.label}`).join(",")
      }; next due ${j.subscription.nextDueAt}; report line ${j.reported}`
  )
  say("The next window is the first one after the finish (15 Dec), counted from the anchor, not finish + one week.")

  say("\nThe outcome stays a fact until someone decides it:")
  dossier(
    dir,
    ["next", "--now", "2026-12-10T15:00:00Z"],
    (j) => j.facts.map((f: any) => `${f.kind}${f.outcomeId ? ` ${f.runId}/${f.outcomeId}` : ""}`).join(", ")
  )
  write(
    dir,
    "research/inputs/monitor-dispose.json",
    JSON.stringify({ runId: run.id, outcomeId: "o1", disposition: "acknowledged" })
  )
  dossier(dir, [
    "monitor",
    "set-outcome-disposition",
    "--input",
    "research/inputs/monitor-dispose.json",
    "--now",
    "2026-12-10T15:05:00Z"
  ], (j) => `changed=${j.changed} ${j.outcome.id} is ${j.outcome.disposition.value}`)
  dossier(dir, ["monitor", "unresolved-outcomes"], (j) => `unresolved: ${j.count}`)
  dossier(
    dir,
    ["monitor", "show", "--run", run.id],
    (j) => `run ${j.run.id}: ${j.run.status}, completion binding ${j.run.binding}`
  )
}
