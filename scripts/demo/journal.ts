/**
 * Demo step of the journal: append a small batch (a candidate, an evaluation, a selection, a
 * checkpoint), inspect, simulate a torn tail, see append refuse, recover the tail, append
 * again, rebuild the manifest.
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { dossier, say, write } from "./support.js"

export const demoJournal = async (dir: string): Promise<void> => {
  const study = "export-latency"
  const result = "research/results/latency-hourly.csv"
  const csv = "run,p50_ms,p95_ms\n1,120,340\n2,118,332\n"
  write(dir, result, csv)
  const sha256 = createHash("sha256").update(csv).digest("hex")

  say("The agent records a round of its experiment as one batch of events with stable ids.")
  write(
    dir,
    "research/inputs/round-1.json",
    JSON.stringify(
      [
        {
          id: "r1-create-hourly",
          type: "candidate_created",
          candidate: { id: "hourly", title: "Hourly incremental export", protocolVersion: "p1" }
        },
        {
          id: "r1-artifact",
          type: "artifact_linked",
          candidateId: "hourly",
          artifact: { path: result, sha256, bytes: Buffer.byteLength(csv) }
        },
        {
          id: "r1-eval",
          type: "evaluation_recorded",
          at: "2026-11-30T10:00:00Z",
          candidateId: "hourly",
          evaluation: { evaluatorVersion: "latency-eval-1", metrics: { p95_ms: 336 }, decision: "accept" }
        },
        { id: "r1-select", type: "candidate_selected", candidateId: "hourly", reason: "p95 under the 400 ms budget" },
        {
          id: "r1-checkpoint",
          type: "checkpoint_saved",
          checkpoint: { summary: "round 1 done", nextAction: "try a daily variant", reviewed: true }
        }
      ],
      null,
      2
    )
  )
  dossier(
    dir,
    ["journal", "append", "--study", study, "--input", "research/inputs/round-1.json"],
    (j) => `appended ${j.appended.length}, skipped ${j.skipped.length}, head #${j.head.seq} ${j.head.id}`
  )
  say("\nA retry after a lost acknowledgement is harmless: every id is already there with the same content.")
  dossier(
    dir,
    ["journal", "append", "--study", study, "--input", "research/inputs/round-1.json"],
    (j) => `appended ${j.appended.length}, skipped ${j.skipped.length}`
  )
  dossier(
    dir,
    ["journal", "inspect", "--study", study, "--verify"],
    (j) =>
      `${j.events} events; ${
        j.candidates.map((c: any) => `${c.id}: ${c.status}`).join(", ")
      }; selected ${j.selected?.candidateId}; ` +
      `checkpoint "${j.checkpoint?.summary}"; artifact findings: ${j.verify.findings.length}`
  )

  say("\nA crash in the middle of a write leaves a torn last line (simulated here).")
  const journal = path.join(dir, "research", study, "research-events.jsonl")
  fs.appendFileSync(journal, "{\"seq\":6,\"sha256\":\"3f1c")
  dossier(
    dir,
    ["journal", "inspect", "--study", study],
    (j) => `tail: ${JSON.stringify(j.tail)}; committed events: ${j.events}`
  )
  write(
    dir,
    "research/inputs/round-2.json",
    JSON.stringify([
      {
        id: "r2-create-daily",
        type: "candidate_created",
        candidate: { id: "daily", title: "Daily full export", protocolVersion: "p1" }
      },
      {
        id: "r2-eval",
        type: "evaluation_recorded",
        candidateId: "daily",
        evaluation: { evaluatorVersion: "latency-eval-1", metrics: { p95_ms: 910 }, decision: "reject" }
      }
    ])
  )
  dossier(
    dir,
    ["journal", "append", "--study", study, "--input", "research/inputs/round-2.json"],
    (j) => `${j.error._tag}: ${j.error.message}`,
    1
  )
  dossier(
    dir,
    ["journal", "recover-tail", "--study", study],
    (j) => `kept ${j.recovered.bytes} bytes in ${j.recovered.path.replace(/tail-(.{12}).*\.bin/, "tail-$1….bin")}`
  )
  dossier(
    dir,
    ["journal", "append", "--study", study, "--input", "research/inputs/round-2.json"],
    (j) => `appended ${j.appended.join(", ")}; head #${j.head.seq}`
  )

  say(
    "\nmanifest.json is a projection for old readers, rebuilt from the journal (byte-identical when nothing changed)."
  )
  const first = dossier(
    dir,
    ["journal", "rebuild", "--study", study],
    (j) => `manifest sha256 ${j.manifest.sha256.slice(0, 12)}…, ${j.events} events`
  )
  const again = dossier(
    dir,
    ["journal", "rebuild", "--study", study],
    (j) => `manifest sha256 ${j.manifest.sha256.slice(0, 12)}…`
  )
  say(`  identical: ${first.manifest.sha256 === again.manifest.sha256}`)
  say(
    fs.readFileSync(path.join(dir, "research", study, "manifest.json"), "utf8").trimEnd().split("\n").map((l) =>
      `  ${l}`
    ).join("\n")
  )
}
