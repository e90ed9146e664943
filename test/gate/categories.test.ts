/**
 * Gap categories are an enumeration, through the built CLI: research never closes acceptance
 * criteria or business rules whatever their spelling — a variant is refused with the allowed
 * values, and a closure recorded for such a blocker is never applied by the recheck.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { runCli } from "../support/cli.js"
import { DESCRIPTION, folder, parkedMaturity } from "./support.js"

const REAL_QUOTE = "every invoice line item with its VAT rate and currency code"
const closing = (id: string, category?: string) => ({
  id,
  ...(category === undefined ? {} : { category }),
  status: "closed",
  answer: "x",
  sources: [{ ref: "research/sources/billing.md", quote: REAL_QUOTE }]
})

describe("gap categories", () => {
  it("a spelling variant in the state is InvalidInput naming the category meant and every allowed one; nothing is written", () => {
    const variants: ReadonlyArray<readonly [string, string]> = [
      ["acceptance_criteria", "acceptance-criteria"],
      ["Acceptance Criteria", "acceptance-criteria"],
      ["acceptanceCriteria", "acceptance-criteria"],
      ["business_rules", "business-rule"],
      ["BusinessRule", "business-rule"]
    ]
    for (const [variant, meant] of variants) {
      const f = folder()
      f.writeState(parkedMaturity([{ id: "ac", category: variant }]))
      f.writeResearch({ item: "PROJ-12", kind: "maturity", gaps: [closing("ac")] })
      const before = f.stateBytes()
      const r = f.gate()
      expect({ code: r.code, tag: r.json.error?._tag }).toEqual({ code: 1, tag: "InvalidInput" })
      const issue = r.json.error.issues.find((i: any) => i.path === "maturity.blockers.0.category")
      expect(issue.message).toContain(`did you mean '${meant}'`)
      expect(issue.message).toContain("allowed: description, scope, technical")
      expect(issue.message).toContain("acceptance-criteria, business-rule")
      expect(f.stateBytes().equals(before)).toBe(true)
    }
    // An open question's category too; and a label that is no category at all.
    const f = folder()
    f.writeState({
      ...parkedMaturity([]),
      waitingFor: "question",
      pendingQuestion: { id: "open-questions", stepId: "phase-1/open-questions" },
      analysis: { openQuestions: [{ id: "q1", text: "?", category: "legal" }] }
    })
    const r = f.gate()
    expect(r.json.error.issues[0]).toMatchObject({ path: "analysis.openQuestions.0.category" })
    expect(r.json.error.issues[0].message).toContain("'legal' is not a category;")
  })

  it("research's own label for an uncategorized blocker: a variant is NoVerdict with the allowed values, the exact one a candidate", () => {
    const f = folder()
    f.writeState(parkedMaturity([{ id: "ac" }]))
    f.writeResearch({ item: "PROJ-12", kind: "maturity", gaps: [closing("ac", "acceptance_criteria")] })
    const before = f.stateBytes()
    const r = f.gate()
    expect({ code: r.code, tag: r.json.error?._tag }).toEqual({ code: 1, tag: "NoVerdict" })
    expect(r.json.error.reason).toContain("did you mean 'acceptance-criteria'")
    expect(f.stateBytes().equals(before)).toBe(true)
    f.writeResearch({ item: "PROJ-12", kind: "maturity", gaps: [closing("ac", "acceptance-criteria")] })
    const exact = f.gate()
    expect(exact.json).toMatchObject({
      decision: "ask",
      research: { closed: [], candidates: [{ id: "ac", reason: "not-researchable" }] }
    })
  })

  it("the recheck never applies a recorded closure of a blocker research may not close", () => {
    const f = folder()
    const descriptor = f.writeDescriptor({ item: "PROJ-12", description: DESCRIPTION, comments: [], links: [] })
    f.writeState(parkedMaturity([{ id: "rounding", category: "technical" }]))
    f.writeResearch({ item: "PROJ-12", kind: "maturity", gaps: [closing("rounding")] })
    expect(f.gate(["--descriptor", descriptor]).json.decision).toBe("proceed")
    // The state edited by hand: the closed blocker is now an acceptance criterion.
    const file = path.join(f.dir, "run/state.json")
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replaceAll("\"technical\"", "\"acceptance-criteria\""))
    const r = f.gate(["--recheck", "--descriptor", descriptor])
    expect({ code: r.code, tag: r.json.error?._tag }).toEqual({ code: 1, tag: "BlockersRemain" })
    expect(r.json.error.blockers).toMatchObject([{
      id: "rounding",
      category: "acceptance-criteria",
      reason: "not-researchable"
    }])
  })

  it("are documented in dossier help gate and in the schemas", () => {
    const help = runCli(["help", "gate"]).stdout.replace(/\s+/g, " ")
    expect(help).toContain(
      "description, scope, technical, dependency, design, data, environment, estimate, other, acceptance-criteria, business-rule"
    )
    for (const name of ["run-state", "research-output"]) {
      const schema = runCli(["schema", name]).stdout
      expect(JSON.parse(schema).$defs.GapCategory.enum).toEqual([
        "description",
        "scope",
        "technical",
        "dependency",
        "design",
        "data",
        "environment",
        "estimate",
        "other",
        "acceptance-criteria",
        "business-rule"
      ])
    }
  })
})
