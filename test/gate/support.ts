/** Fixtures for the gate's end-to-end tests: a work folder with a plan, sources and a parked run. */
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { expect } from "vitest"
import { type CliResult, copyOfTemplate, leaksNothing, put, putInput, runCli } from "../support/cli.js"

export const sha = (s: string | Buffer) => createHash("sha256").update(s).digest("hex")

export const SOURCE_TEXT = [
  "# Billing export notes",
  "",
  "The finance team exports invoices at the end of every month.",
  "Each export must contain every invoice line item with its VAT rate and currency code,",
  "and totals are rounded half-up to two decimals.",
  ""
].join("\n")

export const DESCRIPTION =
  "Add a CSV export for invoices. Finance wants one file per month, delivered to the shared drive."

export const NOW = "2026-11-30T10:00:00.000Z"

export interface Folder {
  readonly dir: string
  readonly gate: (args?: ReadonlyArray<string>, env?: Record<string, string>) => CliResult
  readonly state: () => any
  readonly stateBytes: () => Buffer
  readonly writeState: (state: unknown) => void
  readonly writeResearch: (research: unknown) => void
  readonly writeContext: (context: unknown) => void
  readonly writeDescriptor: (descriptor: unknown, name?: string) => string
}

/** Run `dossier <args> --json` in the folder and expect exit 0. */
export const ok = (dir: string, args: ReadonlyArray<string>) => {
  const r = runCli([...args, "--json"], { cwd: dir })
  expect(r.code, r.stdout + r.stderr).toBe(0)
  return r.json
}

/** Register files under research/sources/ through the plan commands. */
export const registerSources = (dir: string, paths: ReadonlyArray<string>) => {
  const inspect = ok(dir, ["plan", "inspect"])
  if (inspect.state === "none") {
    ok(dir, [
      "plan",
      "start",
      "--input",
      putInput(dir, "plan-start.json", { goal: "Ship the invoice export", limits: [], nextAction: "research" })
    ])
  }
  const revision = ok(dir, ["plan", "inspect"]).revision
  ok(dir, [
    "plan",
    "checkpoint",
    "--input",
    putInput(dir, `checkpoint-${revision}.json`, {
      sources: paths.map((p) => ({ path: p, origin: "https://example.test/billing" }))
    }),
    "--expected",
    String(revision)
  ])
}

export const parkedMaturity = (blockers: ReadonlyArray<{ id: string; category?: string }>, extra: object = {}) => ({
  item: "PROJ-12",
  autopilot: true,
  status: "parked",
  waitingFor: "maturity",
  pendingQuestion: null,
  maturity: { score: 40, threshold: 70, blockers, scoredBy: "fetcher" },
  analysis: { openQuestions: [] },
  runner: { session: "s-1", phases: [0] },
  ...extra
})

/**
 * Research that closes `parkedMaturity`'s `scope_unclear` gap with the sources given (each a
 * `{label?, ref, quote}`).
 */
export const closingScopeResearch = (
  answer: string,
  sources: ReadonlyArray<{ readonly label?: string; readonly ref: string; readonly quote: string }>
) => ({
  item: "PROJ-12",
  kind: "maturity",
  gaps: [{ id: "scope_unclear", category: "scope", status: "closed", answer, sources }]
})

/** Research that closes `parkedMaturity`'s gap `a` (answer "x") with these sources. */
export const closingGapA = (sources: ReadonlyArray<{ readonly ref: string; readonly quote: string }>) => ({
  item: "PROJ-12",
  kind: "maturity",
  gaps: [{ id: "a", status: "closed", answer: "x", sources }]
})

/** Research for `parkedMaturity`'s gap `a` that closes it with a quote the source does not hold. */
export const inventedQuoteResearch = closingGapA([
  { ref: "research/sources/billing.md", quote: "not in the source at all, invented" }
])

export const folder = (): Folder => {
  // The plan and the registered source are the same for every test: made through the CLI once per file.
  const dir = copyOfTemplate(
    "gate",
    (template) => {
      put(template, "research/sources/billing.md", SOURCE_TEXT)
      registerSources(template, ["research/sources/billing.md"])
    },
    "dossier-gate-"
  )
  const statePath = path.join(dir, "run/state.json")
  return {
    dir,
    gate: (args = [], env = {}) => {
      const r = runCli(["gate", "--state", "run/state.json", "--now", NOW, ...args, "--json"], { cwd: dir, env })
      expect(leaksNothing(dir, r)).toBe(true)
      return r
    },
    state: () => JSON.parse(fs.readFileSync(statePath, "utf8")),
    stateBytes: () => fs.readFileSync(statePath),
    writeState: (state) => void put(dir, "run/state.json", `${JSON.stringify(state, null, 2)}\n`),
    writeResearch: (research) => void put(dir, "research/gate/research.json", JSON.stringify(research, null, 2)),
    writeContext: (context) => void put(dir, "research/gate/context.json", JSON.stringify(context, null, 2)),
    writeDescriptor: (descriptor, name = "descriptor.json") => {
      put(dir, `run/${name}`, JSON.stringify(descriptor, null, 2))
      return `run/${name}`
    }
  }
}
