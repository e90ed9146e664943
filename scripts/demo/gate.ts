/**
 * Demo step of the gate: a parked unattended run with two maturity blockers; research closes
 * one with a real quote from a registered source and tries to close the other with a
 * fabricated quote. The gate closes the first and refuses the second.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { dossier, say, write } from "./support.js"

/** A verbatim passage (≥ 20 characters) of a text: the longest line, cut to at most 80 characters. */
const passageOf = (text: string): string | undefined => {
  const line = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length >= 30)
    .sort((a, b) => b.length - a.length)[0]
  return line === undefined ? undefined : line.slice(0, 80).trim()
}

/** A registered source whose file is still there, with a passage to quote; else register one. */
const pickSource = (dir: string): { path: string; quote: string } => {
  const plan = dossier(
    dir,
    ["plan", "inspect"],
    (j) => `plan: ${j.state ?? "?"}, ${j.sources?.length ?? 0} registered source(s)`
  )
  for (const s of plan.sources ?? []) {
    const file = path.join(dir, s.path)
    if (!fs.existsSync(file)) continue
    const quote = passageOf(fs.readFileSync(file, "utf8"))
    if (quote !== undefined && quote.length >= 20) return { path: s.path, quote }
  }
  say("No usable registered source yet: registering one through the plan.")
  const rel = "research/sources/gate-demo-notes.md"
  write(
    dir,
    rel,
    "# Notes from the billing thread\n\nThe monthly export must contain every invoice line item with its VAT rate and currency code.\n"
  )
  if (plan.state !== "active") {
    write(
      dir,
      "research/inputs/gate-plan-start.json",
      JSON.stringify({ goal: "Ship the invoice export", limits: [], nextAction: "research" })
    )
    dossier(dir, ["plan", "start", "--input", "research/inputs/gate-plan-start.json"])
  }
  const revision = dossier(dir, ["plan", "inspect"], (j) => `revision ${j.revision}`).revision
  write(
    dir,
    "research/inputs/gate-sources.json",
    JSON.stringify({ sources: [{ path: rel, origin: "https://notes.example/invoice-export" }] })
  )
  dossier(dir, ["plan", "checkpoint", "--input", "research/inputs/gate-sources.json", "--expected", String(revision)])
  return { path: rel, quote: "every invoice line item with its VAT rate and currency code" }
}

export const demoGate = async (dir: string): Promise<void> => {
  say("An unattended run (autopilot) is parked on two maturity blockers. Before a person is asked,")
  say("a research session proposes answers with quotes; the gate checks every quote.")
  const source = pickSource(dir)

  write(
    dir,
    "run/state.json",
    `${
      JSON.stringify(
        {
          item: "PROJ-12",
          autopilot: true,
          status: "parked",
          waitingFor: "maturity",
          pendingQuestion: null,
          maturity: {
            score: 40,
            threshold: 70,
            blockers: [
              { id: "scope_unclear", category: "scope" },
              { id: "data_retention", category: "technical" }
            ]
          },
          runner: { session: "demo" }
        },
        null,
        2
      )
    }\n`
  )
  write(
    dir,
    "research/gate/research.json",
    `${
      JSON.stringify(
        {
          item: "PROJ-12",
          kind: "maturity",
          gaps: [
            {
              id: "scope_unclear",
              category: "scope",
              status: "closed",
              answer: "The scope is stated in the captured source.",
              sources: [{ label: "registered source", ref: source.path, quote: source.quote }]
            },
            {
              id: "data_retention",
              category: "technical",
              status: "closed",
              answer: "Exports are kept for ten years.",
              sources: [{
                label: "registered source",
                ref: source.path,
                quote: "exports are retained for exactly ten years in cold storage"
              }]
            }
          ]
        },
        null,
        2
      )
    }\n`
  )
  say(`research.json: 'scope_unclear' quotes "${source.quote}" from ${source.path};`)
  say("'data_retention' cites the same file with a sentence that is not in it.")

  const r = dossier(dir, ["gate", "--state", "run/state.json"], (j) =>
    j.ok
      ? `decision ${j.decision} (${j.reason}); closed: [${j.research.closed.join(", ")}]; candidates: ${
        j.research.candidates
          .map((c: any) => `${c.id} (${c.sources.map((s: any) => s.reason ?? "verified").join(", ")})`)
          .join("; ")
      }`
      : `${j.error._tag}: ${j.error.message}`)
  if (r.ok) {
    const state = JSON.parse(fs.readFileSync(path.join(dir, "run/state.json"), "utf8"))
    say(`The state now waits for a person: waitingFor '${state.waitingFor}', question '${state.pendingQuestion.id}'`)
    say(
      `with rows [${state.pendingQuestion.rows.map((b: any) => b.id).join(", ")}] and options [${
        state.pendingQuestion.options.join(", ")
      }];`
    )
    say(`the keys the gate does not own are kept (runner.session = '${state.runner.session}').`)
    say("The fabricated quote closed nothing: it is shown as a candidate with reason quote-not-found.")
  }
}
