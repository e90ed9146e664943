/**
 * Benchmarks of the gate: one gate run (in-process service call) over 32 retained sources of
 * 2 MiB (bench/support.ts `counts`) with 200 citations, against a baseline that reads the same files and runs the same
 * substring searches (the shared quote matcher) without the service.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as fs from "node:fs"
import * as path from "node:path"
import { makeQuoteMatcher } from "../src/domain/Quote.js"
import { GateLive } from "../src/layers/GateLive.js"
import { PlanLayer } from "../src/layers/PlanLayer.js"
import { Gate } from "../src/services/Gate.js"
import { CLI, counts, exec, record, tempDir, timeAsync, timeSync } from "./support.js"

const FILES = counts.gate.files
const FILE_BYTES = counts.gate.fileMiB * 1024 * 1024
const CITATIONS = 200

/** Deterministic prose-like text (a small LCG over a word list). */
const makeText = (seed: number, bytes: number): string => {
  const words = [
    "invoice",
    "ledger",
    "export",
    "currency",
    "rounding",
    "finance",
    "monthly",
    "customer",
    "tax",
    "line",
    "item",
    "report",
    "total",
    "approval",
    "archive",
    "period"
  ]
  let x = seed >>> 0
  const parts: Array<string> = []
  let size = 0
  while (size < bytes) {
    x = (x * 1664525 + 1013904223) >>> 0
    const w = words[x % words.length]!
    const sep = x % 17 === 0 ? ".\n" : " "
    parts.push(w, sep)
    size += w.length + sep.length
  }
  return parts.join("").slice(0, bytes)
}

export const benchGate = async (): Promise<void> => {
  const dir = tempDir("dossier-bench-gate-")
  try {
    const texts: Array<string> = []
    const paths: Array<string> = []
    fs.mkdirSync(path.join(dir, "research/sources"), { recursive: true })
    fs.mkdirSync(path.join(dir, "research/inputs"), { recursive: true })
    for (let i = 0; i < FILES; i++) {
      const rel = `research/sources/source-${String(i).padStart(2, "0")}.md`
      const text = makeText(i + 1, FILE_BYTES)
      fs.writeFileSync(path.join(dir, rel), text)
      texts.push(text)
      paths.push(rel)
    }
    fs.writeFileSync(
      path.join(dir, "research/inputs/start.json"),
      JSON.stringify({ goal: "bench", limits: [], nextAction: "gate" })
    )
    fs.writeFileSync(
      path.join(dir, "research/inputs/cp.json"),
      JSON.stringify({ sources: paths.map((p) => ({ path: p, origin: "https://bench.example/" })) })
    )
    exec(process.execPath, [CLI, "plan", "start", "--input", "research/inputs/start.json", "--json"], dir)
    exec(process.execPath, [
      CLI,
      "plan",
      "checkpoint",
      "--input",
      "research/inputs/cp.json",
      "--expected",
      "1",
      "--json"
    ], dir)

    // 200 citations: 100 open questions with two sources each, quotes taken from the files
    // (the last one a business rule, so the decision stays `ask` and the state stays researchable).
    const citations: Array<{ ref: string; quote: string }> = []
    for (let c = 0; c < CITATIONS; c++) {
      const f = (c * 7) % FILES
      const at = ((c * 104729) % (FILE_BYTES - 200)) + 50
      citations.push({ ref: paths[f]!, quote: texts[f]!.slice(at, at + 60) })
    }
    const questions = Array.from({ length: CITATIONS / 2 }, (_, i) => ({
      id: `q${i}`,
      text: `question ${i}`,
      ...(i === CITATIONS / 2 - 1 ? { category: "business-rule" } : {})
    }))
    const state = {
      item: "BENCH-1",
      autopilot: true,
      status: "parked",
      waitingFor: "question",
      pendingQuestion: { id: "open-questions", stepId: "phase-1/open-questions" },
      analysis: { openQuestions: questions }
    }
    fs.mkdirSync(path.join(dir, "run"), { recursive: true })
    fs.writeFileSync(path.join(dir, "run/state.json"), JSON.stringify(state, null, 2))
    fs.mkdirSync(path.join(dir, "research/gate"), { recursive: true })
    fs.writeFileSync(
      path.join(dir, "research/gate/research.json"),
      JSON.stringify({
        item: "BENCH-1",
        kind: "open-questions",
        gaps: questions.map((q, i) => ({
          id: q.id,
          status: "closed",
          answer: `answer ${i}`,
          sources: [citations[2 * i]!, citations[2 * i + 1]!].map((s) => ({ label: "bench", ...s }))
        }))
      })
    )

    const runtime = ManagedRuntime.make(GateLive.pipe(Layer.provideMerge(PlanLayer(dir)), Layer.orDie))
    const options = {
      researchDir: "research/gate",
      attempts: ".dossier/gate/attempted.jsonl",
      recordAttempt: false,
      maxAskRounds: 2,
      unattended: false,
      now: new Date("2026-11-30T10:00:00Z")
    }
    const once = () => runtime.runPromise(Effect.flatMap(Gate, (g) => g.run("run/state.json", options)))
    const check = await once()
    if (!check.active || check.research.closed.length !== CITATIONS / 2 - 1 || check.decision !== "ask") {
      throw new Error(
        `gate bench: unexpected result ${
          JSON.stringify({ active: check.active, decision: check.active && check.decision })
        }`
      )
    }
    const ms = await timeAsync(counts.gate.runs, once, counts.gate.warmup)

    const baselineMs = timeSync(7, () => {
      const matchers = new Map<string, ReturnType<typeof makeQuoteMatcher>>()
      let found = 0
      for (const c of citations) {
        let m = matchers.get(c.ref)
        if (m === undefined) {
          m = makeQuoteMatcher(fs.readFileSync(path.join(dir, c.ref), "utf8"))
          matchers.set(c.ref, m)
        }
        if (m(c.quote).matched) found++
      }
      if (found !== CITATIONS) throw new Error("baseline: a quote was not found")
    }, counts.gate.warmup)
    record({
      name: `gate run: ${FILES} sources x ${counts.gate.fileMiB} MiB, ${CITATIONS} citations (in-process)`,
      ms,
      baseline: "read files + same quote searches",
      baselineMs,
      target: 2
    })
    await runtime.dispose()
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
