/**
 * The journal's rules for appending a batch to a stored history, over what a store shows of it
 * (src/services/ports/JournalStore.ts `AppendView`): pure, so that any store can run them inside
 * its unit of atomicity.
 */
import * as Either from "effect/Either"
import { type JournalEvent } from "./Journal.js"
import { ConflictingEvent, UnknownCandidate, UnterminatedTail } from "./JournalErrors.js"
import { eventText, sha256Text } from "./JournalLines.js"
import { candidatesCreatedBy, checkAgainst } from "./JournalProjection.js"

/** An event as a store takes it: id, digest of its canonical text, and the candidate ids it creates. */
export interface BatchEntry {
  readonly id: string
  readonly digest: string
  readonly event: JournalEvent
  readonly claims: ReadonlyArray<string>
}

/** An entry made by `entryOf` also carries its canonical text (what `entryText` reads back). */
interface TextedEntry extends BatchEntry {
  readonly text: string
}

export const entryOf = (event: JournalEvent): BatchEntry => {
  const text = eventText(event)
  const entry: TextedEntry = { id: event.id, digest: sha256Text(text), event, claims: candidatesCreatedBy(event), text }
  return entry
}

/** The canonical text of an entry's event: kept by `entryOf`, computed again for other entries. */
export const entryText = (entry: BatchEntry): string => {
  const text = (entry as Partial<TextedEntry>).text
  return typeof text === "string" ? text : eventText(entry.event)
}

/** What the rules look at of a stored history (a structural `AppendView`). */
export interface HistoryView {
  readonly tail: { readonly state: "clean" | "unterminated"; readonly bytes: number }
  readonly digestOf: (id: string) => string | undefined
  readonly claimed: (name: string) => boolean
}

/**
 * The journal's check of a batch, in batch order: after an unterminated tail nothing is appended;
 * an id stored with the same digest is a retry (skipped), with another digest a conflict; a new
 * event must name known candidates and create new ones (`onDuplicate` says how a candidate
 * created twice is refused). Null: the batch may be stored.
 */
export const checkBatch = <D>(
  entries: ReadonlyArray<BatchEntry>,
  onDuplicate: (index: number, candidateId: string) => D
) =>
(view: HistoryView): UnterminatedTail | ConflictingEvent | UnknownCandidate | D | null => {
  if (view.tail.state === "unterminated") return new UnterminatedTail({ bytes: view.tail.bytes })
  const created = new Set<string>()
  const has = (id: string) => created.has(id) || view.claimed(id)
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!
    const stored = view.digestOf(e.id)
    if (stored !== undefined) {
      if (stored === e.digest) continue
      return new ConflictingEvent({ id: e.id })
    }
    const problem = checkAgainst(has, e.event)
    if (problem !== null) {
      return problem._tag === "unknown-candidate"
        ? new UnknownCandidate({ eventId: e.id, candidateId: problem.candidateId })
        : onDuplicate(i, problem.candidateId)
    }
    for (const c of e.claims) created.add(c)
  }
  return null
}

/**
 * A store's own idempotency over a batch (after `checkBatch`): the entries to store, in order,
 * and the ids already there with the same digest (an id repeated in the batch counts once).
 */
export const splitBatch = <A extends BatchEntry>(
  entries: ReadonlyArray<A>,
  digestOf: (id: string) => string | undefined
): Either.Either<{ readonly fresh: ReadonlyArray<A>; readonly existing: ReadonlyArray<string> }, ConflictingEvent> => {
  const fresh: Array<A> = []
  const existing: Array<string> = []
  const added = new Map<string, string>()
  for (const e of entries) {
    const stored = digestOf(e.id) ?? added.get(e.id)
    if (stored === undefined) {
      fresh.push(e)
      added.set(e.id, e.digest)
    } else if (stored === e.digest) existing.push(e.id)
    else return Either.left(new ConflictingEvent({ id: e.id }))
  }
  return Either.right({ fresh, existing })
}
