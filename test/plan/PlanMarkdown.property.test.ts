import { describe, expect, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as Either from "effect/Either"
import * as fc from "effect/FastCheck"
import { PlanDocument } from "../../src/domain/Plan.js"
import {
  appendPosition,
  BEGIN_MARKER,
  END_MARKER,
  parsePlanMd,
  renderPlanMd,
  renderSection
} from "../../src/domain/PlanMarkdown.js"

const prose = fc.string({ unit: fc.constantFrom("a", " ", "\n", "#", "`", "<", "!", "-", ">", "é", "\r", "{", "}") })
  .filter(
    (s) => !s.includes(BEGIN_MARKER) && !s.includes(END_MARKER)
  )
const doc = Arbitrary.make(PlanDocument)

describe("plan.md parse/render", () => {
  it.prop("round-trips the document and keeps the prose byte for byte", [prose, doc, prose], ([before, d, after]) => {
    const text = renderPlanMd(before, d, after)
    const parsed = parsePlanMd(text)
    expect(Either.isRight(parsed)).toBe(true)
    if (Either.isRight(parsed) && parsed.right._tag === "Section") {
      expect(parsed.right.before).toBe(before)
      expect(parsed.right.after).toBe(after)
      expect(parsed.right.document).toEqual(d)
      // Rendering again gives the same bytes.
      expect(renderPlanMd(parsed.right.before, parsed.right.document, parsed.right.after)).toBe(text)
    }
  })

  it.prop("a plan appended to any prose keeps the prose as its prefix", [prose, doc], ([text, d]) => {
    const { before, after } = appendPosition(text)
    const out = renderPlanMd(before, d, after)
    expect(out.startsWith(text)).toBe(true)
    expect(Either.isRight(parsePlanMd(out))).toBe(true)
  })

  it.prop("prose without markers has no plan", [prose], ([text]) => {
    const parsed = parsePlanMd(text)
    expect(Either.isRight(parsed) && parsed.right._tag === "NoSection").toBe(true)
  })

  it.prop("two sections are CorruptPlan", [prose, doc], ([text, d]) => {
    const twice = `${text}${renderSection(d)}\n${renderSection(d)}`
    const parsed = parsePlanMd(twice)
    expect(Either.isLeft(parsed) && parsed.left._tag === "CorruptPlan").toBe(true)
  })

  it("unterminated markers, bad JSON and invalid documents are CorruptPlan", () => {
    const cases = [
      `${BEGIN_MARKER}\n\`\`\`json\n{}\n\`\`\`\n`,
      `x\n${END_MARKER}\n`,
      `${BEGIN_MARKER}\n\`\`\`json\n{not json\n\`\`\`\n${END_MARKER}`,
      `${BEGIN_MARKER}\n\`\`\`json\n{"version":1}\n\`\`\`\n${END_MARKER}`,
      `${BEGIN_MARKER}\nno fence\n${END_MARKER}`,
      `${END_MARKER}\n${BEGIN_MARKER}`
    ]
    for (const c of cases) {
      const parsed = parsePlanMd(c)
      expect(Either.isLeft(parsed) ? parsed.left._tag : "parsed").toBe("CorruptPlan")
    }
  })

  it.prop(
    "a section edited to register a path a checkpoint never would is CorruptPlan, naming the field, not the path",
    [
      doc,
      fc.constantFrom(
        "/etc/hostname",
        "research/sources/../../x",
        "plan.md",
        "research/results/a",
        "./research/sources/a",
        "research\\sources\\a",
        ""
      )
    ],
    ([d, bad]) => {
      const edited: PlanDocument = {
        ...d,
        sources: [{ path: bad, origin: "https://example.org/o", bytes: 1, sha256: "0".repeat(64) }, ...d.sources]
      }
      const parsed = parsePlanMd(renderPlanMd("", edited, "\n"))
      expect(Either.isLeft(parsed) ? parsed.left.reason : "parsed").toContain(
        "sources.0.path: expected a normalized path under research/sources/"
      )
      if (bad !== "") expect(Either.isLeft(parsed) && parsed.left.reason).not.toContain(bad)
      const output = parsePlanMd(renderPlanMd("", {
        ...d,
        outputs: [{
          path: "research/results/r.md",
          bytes: 1,
          sha256: "0".repeat(64),
          dependsOn: [{ path: bad, sha256: "0".repeat(64) }]
        }]
      }, "\n"))
      // A dependency may be any registered file, but only as a normalized relative path.
      const normal = bad !== "" && !bad.startsWith("/") && !bad.includes("..") && !bad.includes("\\") &&
        !bad.startsWith("./")
      expect(Either.isRight(output)).toBe(normal)
    }
  )
})
