/**
 * The gate's pure core: quote verification, the closure rule, routing and state updates, the
 * descriptor's comment limits, the round ceiling and input refusals.
 *
 * Over 400 lines: one file for src/domain/Gate.ts, as each area's domain module has one; its
 * sections share the fixtures and generators at the top.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as fc from "effect/FastCheck"
import { decodeWith } from "../../src/domain/Decode.js"
import {
  COMMENT_LIMITS,
  CUT_MARKER,
  type GapCategory,
  limitComments,
  type ResearchGap,
  ResearchOutput as ResearchOutputSchema,
  type RunState,
  RunState as RunStateSchema
} from "../../src/domain/Gate.js"
import {
  decide,
  describeWithFindings,
  evaluate,
  nextState,
  recheck,
  rescore,
  researchRecord,
  roundsUsed,
  route,
  type Target
} from "../../src/domain/GateDecision.js"
import { classifyRef, type Evidence, makeVerifier } from "../../src/domain/GateVerify.js"

const TEXT = "The export must include every invoice line item with its VAT rate and currency code."
const GOOD_QUOTE = "every invoice line item with its VAT rate"

const evidence: Evidence = {
  descriptor: {
    description: TEXT,
    comments: new Map([["c1", "We agreed the deadline is the end of the quarter, not the month."]])
  },
  sources: new Map([
    ["research/sources/ok.md", { _tag: "Current", origin: "registered", text: TEXT }],
    ["research/sources/cap.md", { _tag: "Current", origin: "capture", text: TEXT }],
    ["research/sources/edited.md", { _tag: "Changed" }],
    ["research/sources/gone.md", { _tag: "Missing" }]
  ]),
  context: new Map([["https://example.test/page", TEXT]])
}
const verify = makeVerifier(evidence)

const goodRefs = [
  "descriptor:description",
  "research/sources/ok.md",
  "research/sources/cap.md",
  "https://example.test/page"
]
const goodSource = fc.constantFrom(...goodRefs).map((ref) => ({ label: "evidence", ref, quote: GOOD_QUOTE }))
const badSource = fc.oneof(
  fc.constantFrom(...goodRefs).map((ref) => ({ ref, quote: "this sentence appears nowhere in any text" })),
  fc.constantFrom(...goodRefs).map((ref) => ({ ref, quote: "VAT rate" })),
  fc.constantFrom(
    "research/sources/edited.md",
    "research/sources/gone.md",
    "research/sources/unregistered.md",
    "descriptor:comment:zz",
    "https://elsewhere.test/"
  )
    .map((ref) => ({ ref, quote: GOOD_QUOTE }))
)
const category = fc.constantFrom<GapCategory | null>(
  null,
  "description",
  "scope",
  "acceptance-criteria",
  "business-rule",
  "technical"
)
const status = fc.constantFrom("closed" as const, "candidate" as const, "open" as const)
const ids = ["b1", "b2", "b3", "b4"]

const targetsArb: fc.Arbitrary<ReadonlyArray<Target>> = fc
  .uniqueArray(fc.constantFrom(...ids), { minLength: 0, maxLength: 4 })
  .chain((xs) =>
    fc.tuple(...xs.map((id) => category.map((c): Target => ({ id, category: c, row: { id, category: c } }))))
  )

const gapArb = (id: fc.Arbitrary<string>): fc.Arbitrary<ResearchGap> =>
  fc.record({
    id,
    category,
    status,
    answer: fc.constant("an answer"),
    sources: fc.array(fc.oneof(goodSource, badSource), { maxLength: 3 })
  })
const gapsArb = fc.uniqueArray(gapArb(fc.constantFrom(...ids, "x9")), { selector: (g) => g.id, maxLength: 5 })

describe("quote verification", () => {
  it("resolves each kind of ref and gives a reason per failed source", () => {
    expect(verify({ ref: "descriptor:description", quote: GOOD_QUOTE })).toMatchObject({
      verified: true,
      origin: "descriptor"
    })
    expect(verify({ ref: "descriptor:comment:c1", quote: "the deadline is the end of the quarter" })).toMatchObject({
      verified: true,
      origin: "descriptor"
    })
    expect(verify({ ref: "research/sources/ok.md", quote: GOOD_QUOTE })).toMatchObject({
      verified: true,
      origin: "registered"
    })
    expect(verify({ ref: "research/sources/cap.md", quote: GOOD_QUOTE })).toMatchObject({
      verified: true,
      origin: "capture"
    })
    expect(verify({ ref: "https://example.test/page", quote: GOOD_QUOTE })).toMatchObject({
      verified: true,
      origin: "context"
    })
    expect(verify({ ref: "research/sources/ok.md", quote: "not in there at all, certainly" })).toMatchObject({
      verified: false,
      reason: "quote-not-found"
    })
    expect(verify({ ref: "research/sources/ok.md", quote: "VAT rate" })).toMatchObject({
      verified: false,
      reason: "quote-too-short"
    })
    expect(verify({ ref: "research/sources/edited.md", quote: GOOD_QUOTE })).toMatchObject({
      verified: false,
      reason: "source-changed"
    })
    expect(verify({ ref: "research/sources/gone.md", quote: GOOD_QUOTE })).toMatchObject({
      verified: false,
      reason: "source-missing"
    })
    expect(verify({ ref: "research/sources/nope.md", quote: GOOD_QUOTE })).toMatchObject({
      verified: false,
      reason: "source-unknown"
    })
    expect(verify({ ref: "descriptor:comment:deleted", quote: GOOD_QUOTE })).toMatchObject({
      verified: false,
      reason: "source-unknown"
    })
  })

  it("descriptor refs resolve only from the descriptor, never from a context document", () => {
    const v = makeVerifier({
      descriptor: undefined,
      sources: new Map(),
      context: new Map([["descriptor:description", TEXT], ["research/sources/x.md", TEXT]])
    })
    expect(v({ ref: "descriptor:description", quote: GOOD_QUOTE })).toMatchObject({
      verified: false,
      reason: "source-unknown"
    })
    expect(v({ ref: "research/sources/x.md", quote: GOOD_QUOTE })).toMatchObject({
      verified: false,
      reason: "source-unknown"
    })
  })

  it("classifies source paths after normalization", () => {
    expect(classifyRef("research/sources/../sources/a.md")).toEqual({
      _tag: "SourceFile",
      path: "research/sources/a.md"
    })
    expect(classifyRef("https://x.test/research/sources/a")).toEqual({
      _tag: "ContextDocument",
      ref: "https://x.test/research/sources/a"
    })
    expect(classifyRef("descriptor:comment:42")).toEqual({ _tag: "DescriptorComment", id: "42" })
  })
})

describe("quotes that only look like the text", () => {
  // The matcher folds NFC and whitespace only (spec README "Quote matching"); a quote that differs
  // from the text by any other character a person may not see is not the text, and never verifies.
  const text = "Totals are rounded half-up to two decimals, said the finance office's lead."
  const v = makeVerifier({
    descriptor: { description: text, comments: new Map() },
    sources: new Map(),
    context: new Map()
  })
  const check = (quote: string) => v({ ref: "descriptor:description", quote })
  it("NFD and other whitespace still verify", () => {
    expect(check("rounded half-up to two decimals".normalize("NFD"))).toMatchObject({ verified: true })
    expect(check("rounded\u00a0half-up\r\nto two\tdecimals")).toMatchObject({ verified: true })
  })
  it("zero-width characters, soft hyphens, homoglyphs, full-width forms, ligatures, curly quotes and case do not", () => {
    for (
      const quote of [
        "roun\u200bded half-up to two decimals",
        "roun\u00added half-up to two decimals",
        "rounded half-up to two decim\u0430ls",
        "rounded half-up to two decimals\uff0c said",
        "said the \ufb01nance office",
        "Rounded half-up to two decimals",
        "said the finance office\u2019s lead"
      ]
    ) expect(check(quote), quote).toMatchObject({ verified: false, reason: "quote-not-found" })
  })
  it("an empty, one-character or whitespace-only quote is too short; one longer than the text is not found", () => {
    for (const quote of ["", "T", " ".repeat(40)]) {
      expect(check(quote), quote).toMatchObject({ verified: false, reason: "quote-too-short" })
    }
    expect(check(`${text} And more.`)).toMatchObject({ verified: false, reason: "quote-not-found" })
  })
})

describe("closure rule (properties)", () => {
  it.prop(
    "adding a failing source to a gap never closes it",
    [targetsArb, gapsArb, badSource, fc.nat()],
    ([targets, gaps, bad, n]) => {
      if (gaps.length === 0) return true
      const i = n % gaps.length
      const withBad = gaps.map((g, j) => (j === i ? { ...g, sources: [...g.sources, bad] } : g))
      const after = evaluate(targets, withBad, verify)
      const before = evaluate(targets, gaps, verify)
      expect(after.closed).not.toContain(gaps[i]!.id)
      // and nothing else becomes closed
      for (const id of after.closed) expect(before.closed).toContain(id)
      return true
    }
  )

  it.prop("a gap in a non-researchable category is never closed", [targetsArb, gapsArb], ([targets, gaps]) => {
    const e = evaluate(targets, gaps, verify)
    for (const id of e.closed) {
      const t = targets.find((x) => x.id === id)!
      const g = gaps.find((x) => x.id === id)!
      const cat = t.category ?? g.category ?? null
      expect(["acceptance-criteria", "business-rule"]).not.toContain(cat)
    }
    for (const t of targets) {
      if (t.category === "acceptance-criteria" || t.category === "business-rule") expect(e.closed).not.toContain(t.id)
    }
    return true
  })

  it.prop("the state's category wins over research's label", [gapArb(fc.constant("b1"))], ([gap]) => {
    const target: Target = { id: "b1", category: "business-rule", row: { id: "b1" } }
    const e = evaluate([target], [{ ...gap, category: "description", status: "closed" }], verify)
    expect(e.closed).toEqual([])
    expect(e.gaps[0]!.category).toBe("business-rule")
    return true
  })

  it.prop("proceed only when nothing blocking is left", [targetsArb, gapsArb], ([targets, gaps]) => {
    const e = evaluate(targets, gaps, verify)
    const { decision } = decide(e)
    const everyTargetClosed = targets.every((t) => e.closed.includes(t.id))
    expect(decision === "proceed").toBe(everyTargetClosed)
    expect([...e.closed, ...e.open].sort()).toEqual(targets.map((t) => t.id).sort())
    return true
  })

  it.prop(
    "closed means: proposed closed, cites a source, every source verified",
    [targetsArb, gapsArb],
    ([targets, gaps]) => {
      const e = evaluate(targets, gaps, verify)
      for (const g of e.gaps.filter((x) => x.status === "closed")) {
        expect(g.proposed).toBe("closed")
        expect(g.sources.length).toBeGreaterThan(0)
        expect(g.sources.every((s) => s.verified)).toBe(true)
      }
      const targetIds = new Set(targets.map((t) => t.id))
      expect(e.ignored).toEqual(gaps.filter((g) => !targetIds.has(g.id)).map((g) => g.id))
      return true
    }
  )

  it.prop("rescore stays within [score, 100] and reaches 100 only when all closed", [
    fc.integer({ min: 0, max: 100 }),
    fc.integer({ min: 1, max: 10 }),
    fc.nat({ max: 10 })
  ], ([s, n, c]) => {
    const r = rescore(s, n, Math.min(c, n))!
    expect(r).toBeGreaterThanOrEqual(s)
    expect(r).toBeLessThanOrEqual(100)
    if (Math.min(c, n) === 0) expect(r).toBe(s)
    return true
  })
})

describe("routing and state updates", () => {
  const base: RunState = {
    item: "PROJ-12",
    autopilot: true,
    status: "parked",
    waitingFor: "maturity",
    maturity: {
      score: 40,
      threshold: 70,
      blockers: [{ id: "b1", category: "description" }, { id: "b2", category: "acceptance-criteria" }]
    }
  }

  it("routes maturity, halted with blockers, open questions, and refuses the rest", () => {
    expect(route(base)).toEqual(Either.right("maturity"))
    expect(route({ ...base, waitingFor: null, status: "halted" })).toEqual(Either.right("maturity"))
    expect(Either.isLeft(route({ ...base, waitingFor: null, status: "halted", maturity: { blockers: [] } }))).toBe(true)
    expect(route({ ...base, waitingFor: "question", pendingQuestion: { stepId: "phase-1/open-questions" } })).toEqual(
      Either.right("open-questions")
    )
    const refused = route({ ...base, waitingFor: "channels" })
    expect(Either.isLeft(refused) && refused.left._tag === "NotResearchable" && refused.left.waitingFor === "channels")
      .toBe(true)
  })

  it("maturity proceed keeps unknown keys, removes closed blockers, keeps waitingFor maturity", () => {
    const state: RunState = {
      ...base,
      maturity: { ...base.maturity, blockers: [{ id: "b1", category: "description" }] }
    }
    const raw = { ...state, extra: { keep: [1, 2] }, maturity: { ...state.maturity, note: "kept" } }
    const targets: Array<Target> = [{ id: "b1", category: "description", row: { id: "b1", category: "description" } }]
    const e = evaluate(targets, [{
      id: "b1",
      status: "closed",
      answer: "a",
      sources: [{ ref: "descriptor:description", quote: GOOD_QUOTE }]
    }], verify)
    const record = researchRecord(state, e, {
      kind: "maturity",
      dir: "research/gate",
      at: "2026-11-30T10:00:00.000Z",
      round: 1
    })
    const next = nextState(raw, state, record, targets)
    expect(record.decision).toBe("proceed")
    expect(next["extra"]).toEqual({ keep: [1, 2] })
    expect(next["waitingFor"]).toBe("maturity")
    expect(next["maturity"]).toEqual({ score: 100, threshold: 70, blockers: [], note: "kept" })
    expect((next["research"] as { closed: Array<string> }).closed).toEqual(["b1"])
  })

  it("recheck: a finding whose comment was deleted becomes a remaining blocker", () => {
    const closedGaps = [
      {
        id: "b1",
        category: "description",
        proposed: "closed" as const,
        status: "closed" as const,
        answer: "a",
        sources: [{ ref: "descriptor:comment:c1", quote: "the deadline is the end of the quarter", verified: true }]
      }
    ]
    const state: RunState = { item: "PROJ-12", maturity: { score: 100, threshold: 70, blockers: [] } }
    const recorded = {
      closedGaps,
      maturityBefore: { score: 40, threshold: 70, blockers: [{ id: "b1", category: "description" }] }
    }
    const ok = recheck({ state, recorded, verify })
    expect(ok.remaining).toEqual([])
    expect(ok.maturity.score).toBe(100)
    expect(describeWithFindings("Fresh.", ok.findings)).toContain("(descriptor:comment:c1)")
    const gone = recheck({
      state,
      recorded,
      verify: makeVerifier({ ...evidence, descriptor: { description: TEXT, comments: new Map() } })
    })
    expect(gone.remaining).toMatchObject([{
      id: "b1",
      reason: "no-longer-verified",
      sources: [{ verified: false, reason: "source-unknown" }]
    }])
  })
})

describe("descriptor comment limits", () => {
  it("keeps the newest 20", () => {
    const comments = Array.from({ length: 25 }, (_, i) => ({ id: `c${i}`, text: `comment ${i}` }))
    const l = limitComments(comments)
    expect(l.comments.map((c) => c.id)).toEqual(comments.slice(5).map((c) => c.id))
    expect(l.dropped).toBe(5)
    expect(l.total).toBe(25)
  })

  it.prop("each ≤ 1500 characters, ≤ 12000 bytes together, cut ones end with the marker", [
    fc.array(fc.record({ id: fc.uuid(), text: fc.string({ unit: "grapheme", maxLength: 3000 }) }), { maxLength: 30 })
  ], ([comments]) => {
    const l = limitComments(comments)
    let bytes = 0
    for (const c of l.comments) {
      expect([...c.text].length).toBeLessThanOrEqual(COMMENT_LIMITS.chars)
      bytes += Buffer.byteLength(c.text, "utf8")
      const original = comments.find((o) => o.id === c.id)!
      if (l.truncated.includes(c.id)) expect(c.text.endsWith(CUT_MARKER)).toBe(true)
      else expect(c.text).toBe(original.text)
    }
    expect(bytes).toBeLessThanOrEqual(COMMENT_LIMITS.totalBytes)
    expect(l.comments.length).toBeLessThanOrEqual(COMMENT_LIMITS.count)
    return true
  })
})

describe("round ceiling", () => {
  it("sums researchRounds over the whole log for the item; torn lines count nothing", () => {
    const rows = [
      ...Array.from(
        { length: 500 },
        (_, i) => JSON.stringify({ item: i === 3 ? "PROJ-12" : "OTHER", researchRounds: 1 })
      ),
      JSON.stringify({ item: "PROJ-12", researchRounds: 1, decision: "ask" }),
      JSON.stringify({ item: "PROJ-12", status: "awaiting-answer" }),
      "{\"item\":\"PROJ-12\",\"researchRou"
    ]
    expect(roundsUsed(rows.join("\n"), "PROJ-12")).toBe(2)
    expect(roundsUsed("", "PROJ-12")).toBe(0)
  })
})

describe("input refusals name the type expected", () => {
  // A field's description sat on its type, and a type's description is what a refusal names as
  // expected: "Expected The item the run works on (e.g. PROJ-12)., actual """.
  it("a bad item, gap id, source ref or quote is refused without the field's description", () => {
    const state = decodeWith(RunStateSchema)({ item: "" })
    const output = decodeWith(ResearchOutputSchema)({
      item: "PROJ-1",
      kind: "maturity",
      gaps: [{ id: "", status: "open", sources: [{ ref: "", quote: 5 }] }]
    })
    const refusals: ReadonlyArray<
      Either.Either<unknown, { readonly issues: ReadonlyArray<{ readonly message: string }> }>
    > = [state, output]
    for (const r of refusals) {
      if (Either.isRight(r)) throw new Error("decoded")
      for (const issue of r.left.issues) {
        expect(issue.message).not.toMatch(/The item the run works on|A blocker id|descriptor:description|Verbatim text/)
      }
    }
    if (Either.isRight(state)) throw new Error("decoded")
    expect(state.left.issues.map((i) => i.path)).toEqual(["item"])
    expect(state.left.issues[0]!.message).toMatch(/^Expected a string at least 1 character/)
  })
})
