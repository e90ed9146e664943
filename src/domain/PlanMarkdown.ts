/**
 * plan.md: user prose around exactly one marked section holding the plan as pretty-printed JSON.
 * Parsing and rendering are pure; the prose before and after the section is kept byte for byte.
 */
import * as Either from "effect/Either"
import { decodeWith } from "./Decode.js"
import { type PlanDocument, PlanDocument as PlanDocumentSchema } from "./Plan.js"
import { CorruptPlan } from "./PlanErrors.js"

export const BEGIN_MARKER = "<!-- dossier:plan:begin -->"
export const END_MARKER = "<!-- dossier:plan:end -->"

export type ParsedPlanMd =
  | { readonly _tag: "NoSection"; readonly text: string }
  | { readonly _tag: "Section"; readonly before: string; readonly after: string; readonly document: PlanDocument }

const count = (text: string, needle: string) => {
  let n = 0
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) n++
  return n
}

const decodeDocument = decodeWith(PlanDocumentSchema)

/** Parse plan.md text. Two sections, an unterminated marker or a bad section → `CorruptPlan`. */
export const parsePlanMd = (text: string): Either.Either<ParsedPlanMd, CorruptPlan> => {
  const begins = count(text, BEGIN_MARKER)
  const ends = count(text, END_MARKER)
  if (begins === 0 && ends === 0) return Either.right({ _tag: "NoSection", text })
  if (begins > 1 || ends > 1) return Either.left(new CorruptPlan({ reason: "more than one plan section" }))
  if (begins !== ends) return Either.left(new CorruptPlan({ reason: "unterminated plan marker" }))
  const b = text.indexOf(BEGIN_MARKER)
  const e = text.indexOf(END_MARKER)
  if (e < b) return Either.left(new CorruptPlan({ reason: "end marker before begin marker" }))
  const before = text.slice(0, b)
  const after = text.slice(e + END_MARKER.length)
  const inner = text.slice(b + BEGIN_MARKER.length, e).trim()
  const fence = /^```json[ \t]*\r?\n([\s\S]*)\r?\n```$/.exec(inner)
  if (fence === null) return Either.left(new CorruptPlan({ reason: "the section does not hold one ```json block" }))
  let json: unknown
  try {
    json = JSON.parse(fence[1]!)
  } catch {
    return Either.left(new CorruptPlan({ reason: "the section's JSON does not parse" }))
  }
  return Either.match(decodeDocument(json), {
    onLeft: (invalid) => {
      const first = invalid.issues[0]
      return Either.left(
        new CorruptPlan({
          reason: `the section's JSON is not a valid plan${first ? ` (${first.path || "(root)"}: ${first.message})` : ""}`
        })
      )
    },
    onRight: (document) => Either.right({ _tag: "Section" as const, before, after, document })
  })
}

/** The marked section for a document (no surrounding newlines). */
export const renderSection = (document: PlanDocument): string =>
  `${BEGIN_MARKER}\n\`\`\`json\n${JSON.stringify(document, null, 2)}\n\`\`\`\n${END_MARKER}`

/** Render plan.md: prose before, the section, prose after — the prose byte for byte. */
export const renderPlanMd = (before: string, document: PlanDocument, after: string): string =>
  `${before}${renderSection(document)}${after}`

/** The prose around a new section appended to a plan.md that has none (after a blank line). */
export const appendPosition = (text: string): { readonly before: string; readonly after: string } => {
  if (text.length === 0) return { before: "", after: "\n" }
  const sep = text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n"
  return { before: `${text}${sep}`, after: "\n" }
}
