/** Small journal events and their committed lines, for the journal's tests. */
import type { JournalEvent } from "../../src/domain/Journal.js"
import { encodeLine, eventText } from "../../src/domain/JournalLines.js"

export const created = (id: string, c: string): JournalEvent => ({
  id,
  type: "candidate_created",
  candidate: { id: c, title: `title ${c}` }
})
export const evaluation = (id: string, c: string, decision: "accept" | "reject" = "accept"): JournalEvent => ({
  id,
  type: "evaluation_recorded",
  candidateId: c,
  evaluation: { evaluatorVersion: "v1", metrics: { m: 1 }, decision }
})
/** The journal lines of `events`, the first at position `first`. */
export const linesOf = (events: ReadonlyArray<JournalEvent>, first = 1) =>
  events.map((e, i) => encodeLine(first + i, eventText(e))).join("")
