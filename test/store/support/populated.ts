/** A work folder holding a little of everything, made through the built CLI (test/store's transfer tests). */
import * as fs from "node:fs"
import * as path from "node:path"
import { expect } from "vitest"
import { finishInput, mon, runningRun } from "../../monitor/support.js"
import { copyOfTemplateAsync, put, putInput, runCli } from "../../support/cli.js"

export const NOW = "2026-12-08T10:00:00.000Z"

export const ok = (r: ReturnType<typeof runCli>) => {
  expect(r.json?.ok, r.stdout + r.stderr).toBe(true)
  return r.json
}

/**
 * A folder holding a little of everything, made through the built CLI once per test file (ten
 * CLI starts) and copied for each caller: a fresh folder with the same bytes. It holds no grant
 * (a grant records its folders' inodes, which a copy does not have).
 */
export const populated = (): Promise<string> => copyOfTemplateAsync("populated", build, "dossier-transfer-")

const build = async (dir: string): Promise<void> => {
  ok(runCli(["init", "--workdir", dir, "--json"]))
  put(dir, "plan.md", "# Notes by hand\n\nCaf\u00e9 and prose before the plan.\n")
  ok(runCli([
    "plan",
    "start",
    "--workdir",
    dir,
    "--input",
    putInput(dir, "start.json", { goal: "Compare X and Y", limits: ["public sources"], nextAction: "search" }),
    "--now",
    NOW,
    "--json"
  ]))
  put(
    dir,
    "saved/page.html",
    "<html><head><title>P</title></head><body><main><h1>P</h1><p>The page says X beats Y on long inputs.</p></main></body></html>\n"
  )
  ok(
    runCli([
      "ingest",
      "--file",
      "saved/page.html",
      "--origin",
      "https://example.org/p",
      "--workdir",
      dir,
      "--now",
      NOW,
      "--json"
    ])
  )
  const captured = fs.readFileSync(path.join(dir, ".dossier/captures.jsonl"), "utf8").trim().split("\n").map((l) =>
    JSON.parse(l)
  )
  const source = captured.find((c) => c.kind === "source")!.path as string
  put(dir, "research/results/r.md", "Result: X beats Y.\n")
  ok(runCli([
    "plan",
    "checkpoint",
    "--workdir",
    dir,
    "--input",
    putInput(dir, "cp.json", {
      completedSteps: [{ id: "s1", summary: "read the page" }],
      sources: [{ path: source, origin: "https://example.org/p" }],
      outputs: [{ path: "research/results/r.md", dependsOn: [source] }],
      nextAction: "write"
    }),
    "--expected",
    "1",
    "--now",
    NOW,
    "--json"
  ]))
  put(dir, "research/results/model.bin", new Uint8Array([0, 1, 2, 250, 251, 252]))
  ok(runCli([
    "journal",
    "append",
    "--study",
    "s",
    "--workdir",
    dir,
    "--input",
    putInput(dir, "j.json", [
      { id: "c1", type: "candidate_created", candidate: { id: "cand-a", title: "A" } },
      { id: "a1", type: "artifact_linked", candidateId: "cand-a", artifact: { path: "research/results/model.bin" } },
      {
        id: "e1",
        type: "evaluation_recorded",
        candidateId: "cand-a",
        evaluation: { evaluatorVersion: "v1", metrics: { score: 0.75 }, decision: "accept" }
      }
    ]),
    "--json"
  ]))
  ok(runCli([
    "journal",
    "append",
    "--study",
    "t",
    "--workdir",
    dir,
    "--input",
    putInput(dir, "j2.json", { id: "c1", type: "candidate_created", candidate: { id: "cand-b", title: "B" } }),
    "--json"
  ]))
  const run = await runningRun(dir, "weekly", NOW, { program: "prog" })
  const fin = await mon(dir, "finish-run", finishInput(dir, run), NOW)
  expect(fin.json?.ok, fin.stdout).toBe(true)
}
