/**
 * plan.md: user prose around exactly one marked section holding the plan as pretty-printed JSON.
 * Parsing and rendering are pure; the prose before and after the section is kept byte for byte.
 */
import * as Either from "effect/Either"
import { isUtf8 } from "node:buffer"
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
export const parsePlanMd = (text: string): Either.Either<ParsedPlanMd, CorruptPlan> => parseWith(text, (json) => json)

/**
 * Parse plan.md's bytes. The prose around the section belongs to the user in whatever encoding
 * it has: `before`/`after` hold its bytes one character per byte (latin1), so
 * `renderPlanBytes` writes them back byte for byte; only the section itself must be UTF-8.
 */
export const parsePlanBytes = (bytes: Uint8Array): Either.Either<ParsedPlanMd, CorruptPlan> =>
  parseWith(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1"), (json) => {
    const raw = Buffer.from(json, "latin1")
    return isUtf8(raw) ? raw.toString("utf8") : undefined
  })

/** plan.md's bytes from `parsePlanBytes`' prose (one character per byte) and a document. */
export const renderPlanBytes = (before: string, document: PlanDocument, after: string): Uint8Array =>
  Buffer.concat([
    Buffer.from(before, "latin1"),
    Buffer.from(renderSection(document), "utf8"),
    Buffer.from(after, "latin1")
  ])

/**
 * The bytes plan.md holds for what a store holds: the plan record rendered (its prose around the
 * marked section) or, with no plan, the prose kept before any plan (one character per byte); null
 * when there is neither (nothing to write).
 */
export const heldPlanBytes = (
  record: { readonly before: string; readonly document: PlanDocument; readonly after: string } | null,
  prose: string
): Uint8Array | null =>
  record !== null
    ? renderPlanBytes(record.before, record.document, record.after)
    : prose !== ""
    ? Buffer.from(prose, "latin1")
    : null

const parseWith = (
  text: string,
  sectionText: (json: string) => string | undefined
): Either.Either<ParsedPlanMd, CorruptPlan> => {
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
  const section = sectionText(fence[1]!)
  if (section === undefined) return Either.left(new CorruptPlan({ reason: "the section is not valid UTF-8" }))
  let json: unknown
  try {
    json = JSON.parse(section)
  } catch {
    return Either.left(new CorruptPlan({ reason: "the section's JSON does not parse" }))
  }
  return Either.match(decodeDocument(json), {
    onLeft: (invalid) => {
      const first = invalid.issues[0]
      return Either.left(
        new CorruptPlan({
          reason: `the section's JSON is not a valid plan${
            first ? ` (${first.path || "(root)"}: ${first.message})` : ""
          }`
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
