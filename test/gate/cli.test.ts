/**
 * `dossier gate` end to end, through the built CLI (npm run build first).
 *
 * Over 400 lines: every gate decision end to end over the one folder fixture of
 * test/gate/support.ts and the quotes above; the maturity cases alone are 400 lines, each a state
 * and a research output written out beside its answer.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterEach, beforeAll, describe, expect, it } from "vitest"
import { put, runCli, runCliAsync } from "../support/cli.js"
import {
  closingGapA,
  DESCRIPTION,
  folder,
  inventedQuoteResearch,
  NOW,
  parkedMaturity,
  registerSources,
  sha,
  SOURCE_TEXT
} from "./support.js"

const REAL_QUOTE = "every invoice line item with its VAT rate and currency code"
const FABRICATED = "the export must be encrypted with the customer's public key"

// The tests run the CLI synchronously; yield to the event loop between tests so the worker's
// messages to vitest are not starved on a busy machine.
afterEach(() => new Promise<void>((resolve) => setTimeout(resolve, 0)))

beforeAll(() => {
  expect(fs.existsSync(path.resolve(__dirname, "../../dist/dossier.cjs"))).toBe(true)
})

describe("gate: activity", () => {
  it("is a no-op in an attended run: nothing read beyond the state, nothing written", () => {
    const f = folder()
    f.writeState({ ...parkedMaturity([{ id: "b1", category: "description" }]), autopilot: false })
    put(f.dir, "research/gate/research.json", "{ not json")
    const before = f.stateBytes()
    const r = f.gate()
    expect(r.code).toBe(0)
    expect(r.json).toEqual({ ok: true, active: false })
    expect(f.stateBytes().equals(before)).toBe(true)
    expect(fs.existsSync(path.join(f.dir, ".dossier/gate/attempted.jsonl"))).toBe(false)
  })

  it("is active with DOSSIER_UNATTENDED=1 even without autopilot", () => {
    const f = folder()
    f.writeState({ ...parkedMaturity([{ id: "b1", category: "description" }]), autopilot: false })
    f.writeResearch({ item: "PROJ-12", kind: "maturity", gaps: [] })
    const r = f.gate([], { DOSSIER_UNATTENDED: "1" })
    expect(r.code).toBe(0)
    expect(r.json).toMatchObject({ ok: true, active: true, kind: "maturity", decision: "ask", researchRounds: 1 })
  })
})

describe("gate: quotes that cross markup", () => {
  it("a sentence copied from a page verifies against the HTML original and the readable copy, with offsets in each file", () => {
    const f = folder()
    const sentence = "Clients must read the migration guide before the removal on June 1."
    const html =
      `<html><body><article><p>Clients must read the <a href="/docs/migration">migration guide</a> before the removal on June&nbsp;1.</p></article></body></html>`
    const md =
      "# Deprecation\n\nClients must read the [migration guide](https://api.example.test/docs/migration) before the removal on June 1.\n"
    put(f.dir, "research/sources/page.html", html)
    put(f.dir, "research/sources/page.md", md)
    registerSources(f.dir, ["research/sources/page.html", "research/sources/page.md"])
    f.writeState(parkedMaturity([{ id: "scope_unclear", category: "scope" }]))
    f.writeResearch({
      item: "PROJ-12",
      kind: "maturity",
      gaps: [{
        id: "scope_unclear",
        category: "scope",
        status: "closed",
        answer: "Migrate before June 1.",
        sources: [{ ref: "research/sources/page.html", quote: sentence }, {
          ref: "research/sources/page.md",
          quote: sentence
        }]
      }]
    })
    const r = f.gate()
    expect(r.code, r.stdout).toBe(0)
    expect(r.json.research.closed).toEqual(["scope_unclear"])
    const [inHtml, inMd] = r.json.research.gaps[0].sources
    expect(inHtml).toMatchObject({ verified: true, origin: "registered" })
    expect(inMd).toMatchObject({ verified: true, origin: "registered" })
    expect(html.slice(inHtml.start, inHtml.end)).toBe(
      `Clients must read the <a href="/docs/migration">migration guide</a> before the removal on June&nbsp;1.`
    )
    expect(md.slice(inMd.start, inMd.end)).toBe(
      "Clients must read the [migration guide](https://api.example.test/docs/migration) before the removal on June 1."
    )
  })
})

describe("gate: imported pages are registered, fetched ones capture", () => {
  it("a page retained by ingest --file verifies as origin registered; a fetch record of the same bytes makes it capture", () => {
    const f = folder()
    const sentence = "Clients must read the migration guide before the removal on June 1."
    put(
      f.dir,
      "saved/page.html",
      `<html><body><article><p>Clients must read the <a href="/docs/migration">migration guide</a> before the removal on June 1.</p></article></body></html>`
    )
    const imported = runCli([
      "ingest",
      "--file",
      "saved/page.html",
      "--origin",
      "https://api.example.test/news",
      "--json"
    ], { cwd: f.dir })
    expect(imported.code, imported.stdout).toBe(0)
    const { original, source } = imported.json
    registerSources(f.dir, [original.path, source.path])
    f.writeState(parkedMaturity([{ id: "scope_unclear", category: "scope" }]))
    f.writeResearch({
      item: "PROJ-12",
      kind: "maturity",
      gaps: [{
        id: "scope_unclear",
        category: "scope",
        status: "closed",
        answer: "Before June 1.",
        sources: [{ ref: original.path, quote: sentence }, { ref: source.path, quote: sentence }]
      }]
    })
    const first = f.gate()
    expect(first.code, first.stdout).toBe(0)
    expect(first.json.research.gaps[0].sources.map((s: any) => [s.verified, s.origin])).toEqual([[true, "registered"], [
      true,
      "registered"
    ]])
    // A record without `via` (as every record was before imports existed) is the fetcher's.
    const log = path.join(f.dir, ".dossier/captures.jsonl")
    fs.appendFileSync(
      log,
      `${
        JSON.stringify({
          path: source.path,
          sha256: source.sha256,
          bytes: source.bytes,
          origin: "https://api.example.test/news",
          fetchedAt: NOW,
          kind: "source"
        })
      }\n`
    )
    f.writeState(parkedMaturity([{ id: "scope_unclear", category: "scope" }]))
    const second = f.gate()
    expect(second.code, second.stdout).toBe(0)
    expect(second.json.research.gaps[0].sources.map((s: any) => s.origin)).toEqual(["registered", "capture"])
  })
})

describe("gate: maturity", () => {
  it("closes a gap backed by a registered source, refuses a fabricated quote, keeps unknown keys, and parks with ask", () => {
    const f = folder()
    f.writeState(
      parkedMaturity([{ id: "scope_unclear", category: "scope" }, { id: "security", category: "technical" }])
    )
    f.writeResearch({
      item: "PROJ-12",
      kind: "maturity",
      gaps: [
        {
          id: "scope_unclear",
          category: "scope",
          status: "closed",
          answer: "Line items with VAT and currency.",
          sources: [{ label: "notes", ref: "research/sources/billing.md", quote: REAL_QUOTE }]
        },
        {
          id: "security",
          category: "technical",
          status: "closed",
          answer: "Encrypt.",
          sources: [{ label: "notes", ref: "research/sources/billing.md", quote: FABRICATED }]
        },
        { id: "not_a_blocker", status: "closed", answer: "?", sources: [] }
      ]
    })
    const r = f.gate()
    expect(r.code).toBe(0)
    expect(r.json).toMatchObject({
      ok: true,
      active: true,
      kind: "maturity",
      decision: "ask",
      reason: "gaps-remain",
      researchRounds: 1
    })
    const research = r.json.research
    expect(research.closed).toEqual(["scope_unclear"])
    expect(research.open).toEqual(["security"])
    expect(research.ignored).toEqual(["not_a_blocker"])
    expect(research.candidates).toEqual([
      {
        id: "security",
        category: "technical",
        reason: "unverified",
        answer: "Encrypt.",
        sources: [{
          label: "notes",
          ref: "research/sources/billing.md",
          quote: FABRICATED,
          verified: false,
          origin: "registered",
          reason: "quote-not-found"
        }]
      }
    ])
    expect(research.gaps[0].sources[0]).toMatchObject({ verified: true, origin: "registered" })
    expect(research.maturityBefore).toMatchObject({ score: 40, threshold: 70 })
    expect(research.maturityAfter).toMatchObject({ score: 70, blockers: [{ id: "security", category: "technical" }] })
    const s = f.state()
    expect(s.runner).toEqual({ session: "s-1", phases: [0] })
    expect(s.maturity).toEqual({
      score: 40,
      threshold: 70,
      blockers: [{ id: "scope_unclear", category: "scope" }, { id: "security", category: "technical" }],
      scoredBy: "fetcher"
    })
    expect(s.waitingFor).toBe("question")
    expect(s.pendingQuestion).toEqual({
      id: "maturity",
      stepId: "phase-0/maturity",
      rows: [{ id: "security", category: "technical" }],
      candidates: research.candidates,
      options: ["fix", "continue", "abort"]
    })
    expect(s.research).toEqual(research)
    expect(s.research.at).toBe(NOW)
  })

  it("proceeds when every blocker is closed: blockers removed, re-scored, waitingFor stays maturity", () => {
    const f = folder()
    const descriptor = f.writeDescriptor({
      item: "PROJ-12",
      description: DESCRIPTION,
      acceptanceCriteria: [],
      comments: [{ id: "101", text: "Totals are rounded half-up to two decimals, as agreed with finance." }],
      links: []
    })
    f.writeState(
      parkedMaturity([{ id: "description_empty", category: "description" }, { id: "rounding", category: "technical" }])
    )
    f.writeResearch({
      item: "PROJ-12",
      kind: "maturity",
      gaps: [
        {
          id: "description_empty",
          status: "closed",
          answer: "Monthly CSV export.",
          sources: [{ label: "item", ref: "descriptor:description", quote: "Finance wants one file per month" }]
        },
        {
          id: "rounding",
          status: "closed",
          answer: "Half-up, two decimals.",
          sources: [{ label: "thread", ref: "descriptor:comment:101", quote: "rounded half-up to two decimals" }, {
            label: "notes",
            ref: "research/sources/billing.md",
            quote: "totals are rounded half-up to two decimals"
          }]
        }
      ]
    })
    const r = f.gate(["--descriptor", descriptor])
    expect(r.code).toBe(0)
    expect(r.json).toMatchObject({ decision: "proceed", reason: "nothing-blocking", researchRounds: 1 })
    expect(r.json.research.gaps[1].sources.map((s: any) => s.origin)).toEqual(["descriptor", "registered"])
    const s = f.state()
    expect(s.waitingFor).toBe("maturity")
    expect(s.pendingQuestion).toBe(null)
    expect(s.status).toBe("parked")
    expect(s.maturity).toEqual({ score: 100, threshold: 70, blockers: [], scoredBy: "fetcher" })
    expect(s.research.resolved.map((x: any) => x.id)).toEqual(["description_empty", "rounding"])
  })

  it("descriptor refs do not verify without --descriptor (source-unknown)", () => {
    const f = folder()
    f.writeState(parkedMaturity([{ id: "description_empty", category: "description" }]))
    f.writeResearch({
      item: "PROJ-12",
      kind: "maturity",
      gaps: [{
        id: "description_empty",
        status: "closed",
        answer: "x",
        sources: [{ label: "item", ref: "descriptor:description", quote: "Finance wants one file per month" }]
      }]
    })
    const r = f.gate()
    expect(r.json.decision).toBe("ask")
    expect(r.json.research.candidates[0].sources[0]).toMatchObject({ verified: false, reason: "source-unknown" })
  })

  it("a retained source edited after registration backs nothing (source-changed)", () => {
    const f = folder()
    fs.chmodSync(path.join(f.dir, "research/sources/billing.md"), 0o644)
    fs.writeFileSync(path.join(f.dir, "research/sources/billing.md"), `${SOURCE_TEXT}Edited later: ${REAL_QUOTE}.\n`)
    f.writeState(parkedMaturity([{ id: "scope_unclear", category: "scope" }]))
    f.writeResearch({
      item: "PROJ-12",
      kind: "maturity",
      gaps: [{
        id: "scope_unclear",
        status: "closed",
        answer: "x",
        sources: [{ label: "notes", ref: "research/sources/billing.md", quote: REAL_QUOTE }]
      }]
    })
    const r = f.gate()
    expect(r.json.decision).toBe("ask")
    expect(r.json.research.closed).toEqual([])
    expect(r.json.research.candidates[0]).toMatchObject({
      reason: "unverified",
      sources: [{ verified: false, reason: "source-changed" }]
    })
  })

  it("an unregistered file under research/sources/ does not verify (source-unknown)", () => {
    const f = folder()
    put(f.dir, "research/sources/unregistered.md", SOURCE_TEXT)
    f.writeState(parkedMaturity([{ id: "scope_unclear", category: "scope" }]))
    f.writeResearch({
      item: "PROJ-12",
      kind: "maturity",
      gaps: [{
        id: "scope_unclear",
        status: "closed",
        answer: "x",
        sources: [{ ref: "research/sources/unregistered.md", quote: REAL_QUOTE }]
      }]
    })
    const r = f.gate()
    expect(r.json.research.candidates[0].sources[0]).toMatchObject({ verified: false, reason: "source-unknown" })
  })

  it("reports origin capture when .dossier/captures.jsonl records the registered bytes", () => {
    const f = folder()
    put(f.dir, "research/sources/captured.md", `Captured page.\n${SOURCE_TEXT}`)
    registerSources(f.dir, ["research/sources/captured.md"])
    const bytes = fs.readFileSync(path.join(f.dir, "research/sources/captured.md"))
    put(
      f.dir,
      ".dossier/captures.jsonl",
      `${
        JSON.stringify({
          path: "research/sources/captured.md",
          sha256: sha(bytes),
          bytes: bytes.length,
          origin: "https://example.test/billing",
          fetchedAt: NOW,
          kind: "source"
        })
      }\n` +
        `${
          JSON.stringify({
            path: "research/sources/billing.md",
            sha256: "0".repeat(64),
            bytes: 1,
            origin: "https://example.test/x",
            fetchedAt: NOW,
            kind: "source"
          })
        }\n`
    )
    f.writeState(parkedMaturity([{ id: "a", category: "scope" }, { id: "b", category: "scope" }]))
    f.writeResearch({
      item: "PROJ-12",
      kind: "maturity",
      gaps: [
        {
          id: "a",
          status: "closed",
          answer: "x",
          sources: [{ ref: "research/sources/captured.md", quote: REAL_QUOTE }]
        },
        { id: "b", status: "closed", answer: "x", sources: [{ ref: "research/sources/billing.md", quote: REAL_QUOTE }] }
      ]
    })
    const r = f.gate()
    expect(r.json.decision).toBe("proceed")
    expect(r.json.research.gaps.map((g: any) => g.sources[0].origin)).toEqual(["capture", "registered"])
  })

  it("still recognises a capture recorded past the first 16 MiB of a long capture log", () => {
    const f = folder()
    put(f.dir, "research/sources/captured.md", `Captured page.\n${SOURCE_TEXT}`)
    registerSources(f.dir, ["research/sources/captured.md"])
    const bytes = fs.readFileSync(path.join(f.dir, "research/sources/captured.md"))
    const filler = `${
      JSON.stringify({
        path: "research/sources/other.md",
        sha256: "1".repeat(64),
        bytes: 1,
        origin: "https://example.test/o",
        fetchedAt: NOW,
        kind: "source"
      })
    }\n`
    const log = filler.repeat(Math.ceil((17 * 1024 * 1024) / filler.length)) +
      `${
        JSON.stringify({
          path: "research/sources/captured.md",
          sha256: sha(bytes),
          bytes: bytes.length,
          origin: "https://example.test/billing",
          fetchedAt: NOW,
          kind: "source"
        })
      }\n`
    put(f.dir, ".dossier/captures.jsonl", log)
    f.writeState(parkedMaturity([{ id: "a", category: "scope" }]))
    f.writeResearch(closingGapA([{ ref: "research/sources/captured.md", quote: REAL_QUOTE }]))
    const r = f.gate()
    expect(r.json.research.gaps[0].sources[0].origin).toBe("capture")
  })

  it("verifies context documents with origin context, and refuses too-short quotes", () => {
    const f = folder()
    f.writeState(parkedMaturity([{ id: "a", category: "scope" }, { id: "b", category: "scope" }]))
    f.writeContext({
      documents: [{
        ref: "https://wiki.example.test/billing",
        text: "The  export\n runs nightly at 02:00 UTC on the reporting replica."
      }]
    })
    f.writeResearch({
      item: "PROJ-12",
      kind: "maturity",
      gaps: [
        {
          id: "a",
          status: "closed",
          answer: "nightly",
          sources: [{ ref: "https://wiki.example.test/billing", quote: "The export runs nightly at 02:00 UTC" }]
        },
        {
          id: "b",
          status: "closed",
          answer: "nightly",
          sources: [{ ref: "https://wiki.example.test/billing", quote: "runs nightly" }]
        }
      ]
    })
    const r = f.gate()
    expect(r.json.research.gaps[0].sources[0]).toMatchObject({ verified: true, origin: "context" })
    expect(r.json.research.candidates[0]).toMatchObject({
      id: "b",
      sources: [{ verified: false, reason: "quote-too-short" }]
    })
  })

  it("never closes acceptance criteria or business rules, whatever research labels them", () => {
    const f = folder()
    f.writeState(
      parkedMaturity([{ id: "ac_missing", category: "acceptance-criteria" }, { id: "rule", category: "business-rule" }])
    )
    f.writeResearch({
      item: "PROJ-12",
      kind: "maturity",
      gaps: [
        {
          id: "ac_missing",
          category: "description",
          status: "closed",
          answer: "x",
          sources: [{ ref: "research/sources/billing.md", quote: REAL_QUOTE }]
        },
        {
          id: "rule",
          category: "business-rule",
          status: "closed",
          answer: "x",
          sources: [{ ref: "research/sources/billing.md", quote: REAL_QUOTE }]
        }
      ]
    })
    const r = f.gate()
    expect(r.json.decision).toBe("ask")
    expect(r.json.research.closed).toEqual([])
    expect(r.json.research.candidates.map((c: any) => [c.id, c.category, c.reason, c.sources[0].verified])).toEqual([
      ["ac_missing", "acceptance-criteria", "not-researchable", true],
      ["rule", "business-rule", "not-researchable", true]
    ])
  })

  it("routes a halted run that still carries blockers", () => {
    const f = folder()
    f.writeState({ ...parkedMaturity([{ id: "a", category: "scope" }]), status: "halted", waitingFor: null })
    f.writeResearch({
      item: "PROJ-12",
      kind: "maturity",
      gaps: [{
        id: "a",
        status: "closed",
        answer: "x",
        sources: [{ ref: "research/sources/billing.md", quote: REAL_QUOTE }]
      }]
    })
    const r = f.gate()
    expect(r.json).toMatchObject({ kind: "maturity", decision: "proceed" })
    expect(f.state().waitingFor).toBe("maturity")
  })

  it("cuts descriptor comments to their limits: a quote from a cut part does not verify", () => {
    const f = folder()
    const long = `${"x".repeat(1490)} the decisive sentence is here at the end of a long comment.`
    const descriptor = f.writeDescriptor({
      item: "PROJ-12",
      description: DESCRIPTION,
      comments: [{ id: "7", text: long }],
      links: []
    })
    f.writeState(parkedMaturity([{ id: "a", category: "scope" }]))
    f.writeResearch({
      item: "PROJ-12",
      kind: "maturity",
      gaps: [{
        id: "a",
        status: "closed",
        answer: "x",
        sources: [{ ref: "descriptor:comment:7", quote: "the decisive sentence is here at the end" }]
      }]
    })
    const r = f.gate(["--descriptor", descriptor])
    expect(r.json.research.candidates[0].sources[0]).toMatchObject({ verified: false, reason: "quote-not-found" })
  })

  it("says what the comment limits cut and dropped, in the answer and in the human report", () => {
    const f = folder()
    const comments = [
      { id: "old", text: "The oldest comment says the invoices are sent every month." },
      ...Array.from({ length: 20 }, (_, i) => ({ id: `c${i + 1}`, text: `Comment ${i + 1}.` })),
      { id: "7", text: `${"x".repeat(1490)} the decisive sentence is here at the end of a long comment.` }
    ]
    const descriptor = f.writeDescriptor({ item: "PROJ-12", description: DESCRIPTION, comments, links: [] })
    const park = () => {
      f.writeState(parkedMaturity([{ id: "a", category: "scope" }]))
      f.writeResearch(closingGapA([{ ref: "descriptor:comment:old", quote: "the invoices are sent every month" }]))
    }
    park()
    const r = f.gate(["--descriptor", descriptor])
    expect(r.json.research.candidates[0].sources[0]).toMatchObject({ verified: false, reason: "source-unknown" })
    expect(r.json.comments).toEqual({ total: 22, used: 20, truncated: ["7"], dropped: 2 })
    park()
    const human = runCli(["gate", "--state", "run/state.json", "--descriptor", descriptor], { cwd: f.dir })
    expect(human.code, human.stderr).toBe(0)
    expect(human.stdout).toContain("descriptor comments: 20 of 22 used; cut: 7; dropped: 2")
    // Without --descriptor the answer has nothing to say about comments.
    park()
    expect(f.gate().json).not.toHaveProperty("comments")
  })
})

describe("gate: open questions", () => {
  const parkedQuestions = () => ({
    item: "PROJ-12",
    autopilot: true,
    status: "parked",
    currentPhase: 1,
    waitingFor: "question",
    pendingQuestion: { id: "open-questions", stepId: "phase-1/open-questions", rows: [] },
    analysis: {
      openQuestions: [
        { id: "q1", text: "Which VAT data goes in the export?" },
        { id: "q2", text: "Who approves the format?", category: "business-rule" }
      ],
      plan: ["keep me"]
    }
  })

  it("proceed: closed rows removed, waiting cleared, in_progress, gate pass, answers in resolved", () => {
    const f = folder()
    f.writeState({
      ...parkedQuestions(),
      analysis: { ...parkedQuestions().analysis, openQuestions: [parkedQuestions().analysis.openQuestions[0]] }
    })
    f.writeResearch({
      item: "PROJ-12",
      kind: "open-questions",
      gaps: [{
        id: "q1",
        status: "closed",
        answer: "Rate and currency per line.",
        sources: [{ label: "notes", ref: "research/sources/billing.md", quote: REAL_QUOTE }]
      }]
    })
    const r = f.gate()
    expect(r.json).toMatchObject({ kind: "open-questions", decision: "proceed", researchRounds: 1 })
    const s = f.state()
    expect(s.analysis).toEqual({ openQuestions: [], plan: ["keep me"], openQuestionsGate: "pass" })
    expect(s.waitingFor).toBe(null)
    expect(s.pendingQuestion).toBe(null)
    expect(s.status).toBe("in_progress")
    expect(s.currentPhase).toBe(1)
    expect(s.research.resolved).toEqual([
      {
        id: "q1",
        category: null,
        answer: "Rate and currency per line.",
        sources: [{
          label: "notes",
          ref: "research/sources/billing.md",
          quote: REAL_QUOTE,
          verified: true,
          origin: "registered",
          start: SOURCE_TEXT.indexOf(REAL_QUOTE),
          end: SOURCE_TEXT.indexOf(REAL_QUOTE) + REAL_QUOTE.length
        }]
      }
    ])
  })

  it("ask: rows still open and candidates, with the open-questions options", () => {
    const f = folder()
    f.writeState(parkedQuestions())
    f.writeResearch({
      item: "PROJ-12",
      kind: "open-questions",
      gaps: [
        {
          id: "q1",
          status: "closed",
          answer: "Rate and currency.",
          sources: [{ ref: "research/sources/billing.md", quote: REAL_QUOTE }]
        },
        {
          id: "q2",
          status: "closed",
          answer: "Finance.",
          sources: [{ ref: "research/sources/billing.md", quote: "The finance team exports invoices" }]
        }
      ]
    })
    const r = f.gate()
    expect(r.json.decision).toBe("ask")
    const s = f.state()
    expect(s.pendingQuestion).toMatchObject({
      id: "open-questions",
      stepId: "phase-1/open-questions",
      rows: [{ id: "q2" }],
      options: ["ask-now", "assume", "abort"]
    })
    expect(s.pendingQuestion.candidates).toMatchObject([{
      id: "q2",
      category: "business-rule",
      reason: "not-researchable"
    }])
    expect(s.analysis.openQuestions).toHaveLength(2)
    expect(s.status).toBe("parked")
  })
})

describe("gate: refusals change nothing", () => {
  it("NotResearchable for a wait that is a person's call", () => {
    const f = folder()
    f.writeState({
      ...parkedMaturity([]),
      waitingFor: "question",
      pendingQuestion: { id: "channels", stepId: "phase-4/channels" }
    })
    const before = f.stateBytes()
    const r = f.gate()
    expect(r.code).toBe(1)
    expect(r.json.error).toMatchObject({ _tag: "NotResearchable", waitingFor: "question", retryable: false })
    expect(f.stateBytes().equals(before)).toBe(true)
  })

  it("NotResearchable for a run that waits for nothing does not send it to a person", () => {
    const f = folder()
    // What an open-questions proceed leaves: the run resumed, waiting for nothing.
    f.writeState({ ...parkedMaturity([]), status: "in_progress", waitingFor: null, pendingQuestion: null })
    const r = f.gate()
    expect(r.code).toBe(1)
    expect(r.json.error).toMatchObject({ _tag: "NotResearchable", waitingFor: null })
    expect(r.json.error.message).toContain("not waiting")
    expect(r.json.error.message).not.toContain("a person must answer")
  })

  it("says which waitingFor values route, in the run-state schema and gate --help, as routing does", () => {
    const f = folder()
    const field = runCli(["schema", "run-state", "--json"], { cwd: f.dir }).json.schema.properties.waitingFor
    const help = runCli(["gate", "--help"], { cwd: f.dir }).stdout.replace(/\s+/g, " ")
    for (const said of [field.description as string, help]) {
      expect(said).toContain("\"maturity\" (or status \"halted\" with blockers) routes to maturity")
      expect(said).toContain("\"question\" with pendingQuestion.stepId \"phase-1/open-questions\" to open-questions")
      expect(said).toContain("any other value, null or absent is NotResearchable")
    }
    // Any other value is refused, as said.
    f.writeState({ ...parkedMaturity([]), waitingFor: "review" })
    expect(f.gate().json.error).toMatchObject({ _tag: "NotResearchable", waitingFor: "review" })
  })

  it("NoVerdict for a missing, invalid or stale research output", () => {
    const f = folder()
    f.writeState(parkedMaturity([{ id: "a", category: "scope" }]))
    const before = f.stateBytes()
    const missing = f.gate()
    expect(missing.code).toBe(1)
    expect(missing.json.error).toMatchObject({ _tag: "NoVerdict" })
    expect(missing.json.error.reason).toContain("research/gate/research.json")

    const gap = {
      id: "a",
      status: "closed",
      answer: "x",
      sources: [{ ref: "research/sources/billing.md", quote: REAL_QUOTE }]
    }
    f.writeResearch({ item: "PROJ-11", kind: "maturity", gaps: [gap] })
    const staleItem = f.gate()
    expect(staleItem.json.error).toMatchObject({ _tag: "NoVerdict" })
    expect(staleItem.json.error.reason).toContain("PROJ-11")

    f.writeResearch({ item: "PROJ-12", kind: "open-questions", gaps: [gap] })
    expect(f.gate().json.error).toMatchObject({ _tag: "NoVerdict" })

    f.writeResearch({ item: "PROJ-12", kind: "maturity", gaps: [{ ...gap, extra: true }] })
    const invalid = f.gate()
    expect(invalid.json.error._tag).toBe("NoVerdict")
    expect(invalid.json.error.reason).toContain("gaps.0")

    f.writeResearch({ item: "PROJ-12", kind: "maturity", gaps: [gap, gap] })
    expect(f.gate().json.error._tag).toBe("NoVerdict")

    expect(f.stateBytes().equals(before)).toBe(true)
  })

  it("InvalidInput for a state that is not a run state; InputOutsideWorkdir for a state outside", () => {
    const f = folder()
    put(f.dir, "run/state.json", JSON.stringify({ autopilot: true }))
    const r = f.gate()
    expect(r.code).toBe(1)
    expect(r.json.error).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "item" }] })
    const outside = runCli(["gate", "--state", "../elsewhere.json", "--json"], { cwd: f.dir })
    expect(outside.code).toBe(1)
    expect(outside.json.error._tag).toBe("InputOutsideWorkdir")
  })

  it("InputTooLarge for a state over 16 MiB", () => {
    const f = folder()
    put(f.dir, "run/state.json", `{"item":"PROJ-12","pad":"${"x".repeat(16 * 1024 * 1024)}"}`)
    const r = f.gate()
    expect(r.code).toBe(1)
    expect(r.json.error).toMatchObject({ _tag: "InputTooLarge", path: "run/state.json", max: 16 * 1024 * 1024 })
    // The hint gives the gate's own limit, not only an --input file's 64 KiB.
    expect(r.json.error.hint).toMatch(/16 MiB[^;]*the gate's state/)
  })

  it("usage errors exit 2: --recheck without --descriptor, a bad --max-ask-rounds, an unknown flag", () => {
    const f = folder()
    f.writeState(parkedMaturity([]))
    const recheck = f.gate(["--recheck"])
    expect(recheck.code).toBe(2)
    // the refusal names the flag as --help does
    expect(recheck.json.error.message).toBe("--recheck needs --descriptor <path>")
    expect(runCli(["gate", "--help"]).stdout).toContain("--descriptor <path>")
    // a recheck reads the folder the state records and writes nothing: a run's flags are refused, not ignored
    const descriptor = f.writeDescriptor({ item: "PROJ-12", description: DESCRIPTION })
    const before = f.stateBytes()
    for (
      const flags of [
        ["--record-attempt"],
        ["--research-dir", "research/other"],
        ["--attempts", "run/log.jsonl"],
        ["--max-ask-rounds", "2"]
      ]
    ) {
      const r = f.gate(["--recheck", "--descriptor", descriptor, ...flags])
      expect(r.code, r.stdout).toBe(2)
      expect(r.json.error._tag).toBe("UsageError")
      expect(r.json.error.message).toContain(`${flags[0]} would be ignored`)
    }
    expect(f.stateBytes().equals(before)).toBe(true)
    expect(fs.existsSync(path.join(f.dir, ".dossier/gate/attempted.jsonl"))).toBe(false)
    const bad = f.gate(["--max-ask-rounds", "abc"])
    expect(bad.code).toBe(2)
    expect(bad.json.error._tag).toBe("UsageError")
    expect(f.gate(["--no-such-flag"]).code).toBe(2)
  })
})

describe("gate: concurrent runs", () => {
  it("two gates on one state: exactly one records its verdict, the other is refused", async () => {
    const f = folder()
    f.writeState(parkedMaturity([{ id: "a", category: "scope" }, { id: "b", category: "scope" }]))
    f.writeResearch({
      item: "PROJ-12",
      kind: "maturity",
      gaps: [{
        id: "a",
        status: "closed",
        answer: "x",
        sources: [{ ref: "research/sources/billing.md", quote: REAL_QUOTE }]
      }]
    })
    const args = ["gate", "--state", "run/state.json", "--record-attempt", "--now", NOW, "--json"]
    const results = await Promise.all([runCliAsync(args, { cwd: f.dir }), runCliAsync(args, { cwd: f.dir })])
    const codes = results.map((r) => r.code).sort()
    expect(codes).toEqual([0, 1])
    const refused = results.find((r) => r.code === 1)!
    expect(["StaleRevision", "NotResearchable"]).toContain(refused.json.error._tag)
    expect(f.state().research.closed).toEqual(["a"])
    const log = fs.readFileSync(path.join(f.dir, ".dossier/gate/attempted.jsonl"), "utf8").trim().split("\n")
    expect(log).toHaveLength(1)
  })
})

describe("gate: round ceiling", () => {
  it("counts researchRounds over the whole attempts log; at the ceiling nothing is evaluated", () => {
    const f = folder()
    f.writeState(parkedMaturity([{ id: "a", category: "scope" }]))
    put(f.dir, "research/gate/research.json", "not even json")
    const rows = [
      { item: "PROJ-12", at: "2026-11-01T00:00:00Z", researchRounds: 1, decision: "ask" },
      ...Array.from({ length: 300 }, (_, i) => ({ item: `OTHER-${i}`, at: NOW, researchRounds: 1, decision: "ask" })),
      { item: "PROJ-12", at: "2026-11-20T00:00:00Z", researchRounds: 1, decision: "ask" }
    ]
    put(f.dir, "runner/attempted.jsonl", rows.map((r) => JSON.stringify(r)).join("\n") + "\n")
    const r = f.gate(["--attempts", "runner/attempted.jsonl"])
    expect(r.code).toBe(0)
    expect(r.json).toMatchObject({ active: true, decision: "ask", reason: "maxAskRounds", researchRounds: 0 })
    expect(f.state().pendingQuestion).toMatchObject({
      id: "maturity",
      rows: [{ id: "a", category: "scope" }],
      candidates: []
    })

    // the ask parked the run for a person: the same state is no longer researchable
    expect(f.gate(["--attempts", "runner/attempted.jsonl"]).json.error).toMatchObject({
      _tag: "NotResearchable",
      waitingFor: "question"
    })
    f.writeState(parkedMaturity([{ id: "a", category: "scope" }]))
    const raised = f.gate(["--attempts", "runner/attempted.jsonl", "--max-ask-rounds", "3"])
    expect(raised.json.error._tag).toBe("NoVerdict")
  })

  it("--record-attempt appends the row under the lock; the third round hits the default ceiling", () => {
    const f = folder()
    const research = inventedQuoteResearch
    const log = path.join(f.dir, ".dossier/gate/attempted.jsonl")
    for (let round = 1; round <= 2; round++) {
      f.writeState(parkedMaturity([{ id: "a", category: "scope" }]))
      f.writeResearch(research)
      const r = f.gate(["--record-attempt"])
      expect(r.json).toMatchObject({ decision: "ask", reason: "gaps-remain", researchRounds: 1 })
      expect(r.json.research.round).toBe(round)
    }
    expect(fs.readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l))).toEqual([
      { item: "PROJ-12", at: NOW, researchRounds: 1, decision: "ask" },
      { item: "PROJ-12", at: NOW, researchRounds: 1, decision: "ask" }
    ])
    f.writeState(parkedMaturity([{ id: "a", category: "scope" }]))
    const third = f.gate(["--record-attempt"])
    expect(third.json).toMatchObject({ decision: "ask", reason: "maxAskRounds", researchRounds: 0 })
    expect(fs.readFileSync(log, "utf8").trim().split("\n")).toHaveLength(3)
    // without --record-attempt nothing is appended
    f.gate()
    expect(fs.readFileSync(log, "utf8").trim().split("\n")).toHaveLength(3)
  })
})

describe("gate --recheck", () => {
  const proceedWithComment = () => {
    const f = folder()
    const descriptor = f.writeDescriptor({
      item: "PROJ-12",
      description: DESCRIPTION,
      comments: [{ id: "101", text: "Totals are rounded half-up to two decimals, as agreed with finance." }],
      links: []
    })
    f.writeState(parkedMaturity([{ id: "rounding", category: "technical" }, { id: "format", category: "scope" }]))
    f.writeResearch({
      item: "PROJ-12",
      kind: "maturity",
      gaps: [
        {
          id: "rounding",
          status: "closed",
          answer: "Half-up, two decimals.",
          sources: [{ label: "thread", ref: "descriptor:comment:101", quote: "rounded half-up to two decimals" }]
        },
        {
          id: "format",
          status: "closed",
          answer: "CSV, monthly.",
          sources: [{ label: "notes", ref: "research/sources/billing.md", quote: REAL_QUOTE }]
        }
      ]
    })
    const r = f.gate(["--descriptor", descriptor])
    expect(r.json.decision).toBe("proceed")
    return f
  }

  it("exit 0 with the fresh description and the verified findings appended", () => {
    const f = proceedWithComment()
    const fresh = f.writeDescriptor({
      item: "PROJ-12",
      description: "Add a CSV export for invoices (updated).",
      comments: [{ id: "99", text: "new" }, {
        id: "101",
        text: "Totals are rounded half-up to two decimals, as agreed with finance."
      }],
      links: []
    }, "fresh.json")
    const before = f.stateBytes()
    const r = f.gate(["--recheck", "--descriptor", fresh])
    expect(r.code).toBe(0)
    expect(r.json).toMatchObject({ ok: true, continue: true, maturity: { score: 100, blockers: [] } })
    expect(r.json.description.startsWith("Add a CSV export for invoices (updated).")).toBe(true)
    expect(r.json.description).toContain("rounding")
    expect(r.json.description).toContain("(descriptor:comment:101)")
    expect(r.json.description).toContain("(research/sources/billing.md)")
    expect(f.stateBytes().equals(before)).toBe(true)
  })

  it("a comment deleted since the research no longer backs its gap: BlockersRemain, exit 1", () => {
    const f = proceedWithComment()
    const fresh = f.writeDescriptor(
      { item: "PROJ-12", description: DESCRIPTION, comments: [], links: [] },
      "fresh.json"
    )
    const r = f.gate(["--recheck", "--descriptor", fresh])
    expect(r.code).toBe(1)
    expect(r.json.error._tag).toBe("BlockersRemain")
    expect(r.json.error.blockers).toEqual([
      {
        id: "rounding",
        category: "technical",
        reason: "no-longer-verified",
        sources: [{
          label: "thread",
          ref: "descriptor:comment:101",
          quote: "rounded half-up to two decimals",
          verified: false,
          reason: "source-unknown"
        }]
      }
    ])
  })

  it("a gate run retried after a proceed keeps the recorded closures, so the recheck still sees them", () => {
    const f = proceedWithComment()
    const before = f.stateBytes()
    put(f.dir, "runner/attempted.jsonl", `${JSON.stringify({ item: "PROJ-12", at: NOW, researchRounds: 2 })}\n`)
    // A retry of the same call (its answer was lost), at the round ceiling too: nothing is left
    // to research, so it answers proceed again and writes nothing to the state.
    for (const args of [[], ["--attempts", "runner/attempted.jsonl", "--record-attempt"]]) {
      const again = f.gate(args)
      expect(again.code, again.stdout).toBe(0)
      expect(again.json).toMatchObject({ decision: "proceed", reason: "nothing-blocking", researchRounds: 0 })
      expect(again.json.research.closed).toEqual(["rounding", "format"])
      expect(f.stateBytes().equals(before)).toBe(true)
    }
    const rows = fs.readFileSync(path.join(f.dir, "runner/attempted.jsonl"), "utf8").trim().split("\n")
    expect(JSON.parse(rows[1]!)).toEqual({ item: "PROJ-12", at: NOW, researchRounds: 0, decision: "proceed" })
    // the comment deleted since the research is still caught
    const fresh = f.writeDescriptor(
      { item: "PROJ-12", description: DESCRIPTION, comments: [], links: [] },
      "fresh.json"
    )
    const r = f.gate(["--recheck", "--descriptor", fresh])
    expect(r.code, r.stdout).toBe(1)
    expect(r.json.error).toMatchObject({
      _tag: "BlockersRemain",
      blockers: [{ id: "rounding", reason: "no-longer-verified" }]
    })
  })

  it("blockers never closed remain", () => {
    const f = folder()
    f.writeState(parkedMaturity([{ id: "a", category: "scope" }]))
    const fresh = f.writeDescriptor({ item: "PROJ-12", description: DESCRIPTION }, "fresh.json")
    const r = f.gate(["--recheck", "--descriptor", fresh])
    expect(r.code).toBe(1)
    expect(r.json.error).toMatchObject({ _tag: "BlockersRemain", blockers: [{ id: "a", category: "scope" }] })
  })

  it("refuses a descriptor of another item", () => {
    const f = proceedWithComment()
    const fresh = f.writeDescriptor({ item: "PROJ-13", description: DESCRIPTION }, "fresh.json")
    const r = f.gate(["--recheck", "--descriptor", fresh])
    expect(r.json.error).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "item" }] })
  })
})

describe("gate: human output", () => {
  it("prints a short report without --json", () => {
    const f = folder()
    f.writeState(parkedMaturity([{ id: "a", category: "scope" }]))
    f.writeResearch({
      item: "PROJ-12",
      kind: "maturity",
      gaps: [{
        id: "a",
        status: "closed",
        answer: "x",
        sources: [{ ref: "research/sources/billing.md", quote: REAL_QUOTE }]
      }]
    })
    const r = runCli(["gate", "--state", "run/state.json"], { cwd: f.dir })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain("proceed")
    expect(r.stdout).toContain("closed: a")
    expect(r.json).toBe(undefined)
  })

  it("names each quote that did not verify, its source, why, and what happens next", () => {
    const f = folder()
    f.writeState(parkedMaturity([{ id: "a", category: "scope" }, { id: "b", category: "scope" }]))
    f.writeResearch({
      item: "PROJ-12",
      kind: "maturity",
      gaps: [
        {
          id: "a",
          status: "closed",
          answer: "x",
          // Two quotes of one source: only the invented one failed, and the report must say which.
          sources: [{ ref: "research/sources/billing.md", quote: REAL_QUOTE }, {
            ref: "research/sources/billing.md",
            quote: FABRICATED
          }]
        },
        { id: "b", status: "closed", answer: "y", sources: [{ ref: "research/sources/billing.md", quote: "VAT rate" }] }
      ]
    })
    const r = runCli(["gate", "--state", "run/state.json"], { cwd: f.dir })
    expect(r.code, r.stderr).toBe(0)
    const lines = r.stdout.split("\n")
    const failed = lines.filter((l) => l.trimStart().startsWith("- "))
    expect(failed).toHaveLength(2)
    expect(failed[0]).toContain(`a: research/sources/billing.md "${FABRICATED}": quote-not-found — `)
    expect(failed[0]).toContain("quote the passage verbatim")
    expect(failed[1]).toContain(`b: research/sources/billing.md "VAT rate": quote-too-short — `)
    expect(r.stdout).not.toContain(`"${REAL_QUOTE}"`)
    expect(r.stdout).toContain("next: the run stays parked for a person")
  })
})
