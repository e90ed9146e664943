/** Demo step of the plan: start, register a bundled source and a result, checkpoint, inspect, edit, inspect. */
import * as fs from "node:fs"
import * as path from "node:path"
import { dossier, say, write } from "./support.js"

export const demoPlan = async (dir: string): Promise<void> => {
  say("A person's notes stay in plan.md; dossier keeps its plan in one marked section below them.")
  write(dir, "plan.md", "# Export migration research\n\nNotes by the owner: keep this text.\n")
  write(
    dir,
    "research/inputs/start.json",
    JSON.stringify({
      goal: "Find out what changes for export clients in Widget Service 4.2",
      limits: ["public release notes only", "no paid sources"],
      nextAction: "read the release notes"
    })
  )
  dossier(
    dir,
    ["plan", "start", "--input", "research/inputs/start.json"],
    (j) => `created: ${j.created}, revision ${j.revision}`
  )

  say("\nThe agent retains a source (the bundled example release notes) and writes a result that uses it.")
  const source = fs.readFileSync(path.resolve("scripts/demo/example-source.md"), "utf8")
  write(dir, "research/sources/example-source.md", source)
  write(
    dir,
    "research/results/summary.md",
    "# Summary\n\nExports become hourly and incremental in 4.2; CSV is deprecated (removal in 5.0).\n"
  )
  write(
    dir,
    "research/inputs/progress.json",
    JSON.stringify({
      completedSteps: [{ summary: "Read the 4.2 release notes", id: "read-notes" }],
      sources: [{
        path: "research/sources/example-source.md",
        // A source's origin is where it came from, an http(s) URL: here a documentation domain
        // standing for the site the bundled example (scripts/demo/example-source.md) imitates.
        origin: "https://releases.example/export/4.2"
      }],
      outputs: [{ path: "research/results/summary.md", dependsOn: ["research/sources/example-source.md"] }],
      nextAction: "check the 5.0 removal date"
    })
  )
  const view = dossier(dir, ["plan", "inspect"], (j) => `revision ${j.revision}`)
  dossier(
    dir,
    ["plan", "checkpoint", "--input", "research/inputs/progress.json", "--expected", String(view.revision)],
    (j) => `revision ${j.revision}`
  )
  dossier(
    dir,
    ["plan", "inspect"],
    (j) =>
      `verification: ${j.verification.state}; completion ready: ${j.completion.ready}; source sha256 ${
        j.sources[0].sha256.slice(0, 12)
      }…`
  )

  say("\nSomeone edits the retained source behind the plan's back:")
  fs.appendFileSync(path.join(dir, "research/sources/example-source.md"), "\nAn unsourced sentence added later.\n")
  dossier(
    dir,
    ["plan", "inspect"],
    (j) =>
      `verification: ${j.verification.state}; findings: ${
        j.verification.findings.map((f: any) => `${f.kind} ${f.path}`).join(", ")
      }`
  )
  say("Restoring the original bytes makes the plan current again (digests prove continuity, not truth):")
  fs.writeFileSync(path.join(dir, "research/sources/example-source.md"), source)
  dossier(dir, ["plan", "inspect"], (j) => `verification: ${j.verification.state}`)
  const text = fs.readFileSync(path.join(dir, "plan.md"), "utf8")
  say(`plan.md still starts with the owner's notes: ${JSON.stringify(text.split("\n")[0])}`)
}
