/**
 * The verified-state reuse behind append (pure parts): `extendReplay` continues a replay only
 * when the new bytes start with exactly the bytes it was made from, and then always equals a
 * full replay; `Projector.pending` checks a batch exactly as applying it would, without
 * changing the projector.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import type { JournalEvent } from "../../src/domain/Journal.js"
import { encodeLine, eventText, extendReplay, type Replay, replay } from "../../src/domain/JournalLines.js"
import { candidatesCreatedBy, project, Projector } from "../../src/domain/JournalProjection.js"
import { eventsArb, legacyArb, toEvents } from "./arbitraries.js"

const enc = new TextEncoder()
const linesOf = (events: ReadonlyArray<JournalEvent>, first = 1) =>
  events.map((e, i) => encodeLine(first + i, eventText(e))).join("")
const concat = (...parts: ReadonlyArray<Uint8Array>) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.byteLength
  }
  return out
}

/** Everything a caller can observe of a replay. */
const observe = (r: Replay) => ({
  events: r.events,
  committedBytes: r.committedBytes,
  tail: r.tail,
  corrupt: r.corrupt,
  head: r.projector.currentHead(),
  projection: r.projector.result(),
  ids: [...r.ids],
  texts: [...r.ids.keys()].map((id) => r.textOf(id))
})

/** A valid journal split in two at a line boundary, plus what may follow. */
const journalArb = fc.tuple(fc.option(legacyArb, { nil: undefined }), eventsArb(24), fc.nat()).map(
  ([legacy, events, cut]) => {
    const all = legacy === undefined ? events : [legacy, ...events]
    const k = all.length === 0 ? 0 : cut % (all.length + 1)
    return { all, k, before: enc.encode(linesOf(all.slice(0, k))), after: enc.encode(linesOf(all.slice(k), k + 1)) }
  }
)

/** What another writer or a person may have done to the file since it was replayed. */
const changeArb = fc.oneof(
  fc.constant({ kind: "append-valid" as const }),
  fc.record({
    kind: fc.constant("append-garbage" as const),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 40 }),
    newline: fc.boolean()
  }),
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("edit-in-place" as const), at: fc.nat(), xor: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant("replace" as const), seed: fc.nat() })
)

describe("extendReplay", () => {
  it("is either refused or equal to a full replay of the new bytes, whatever happened to the file", () => {
    fc.assert(
      fc.property(journalArb, changeArb, ({ all, before, after }, change) => {
        let now: Uint8Array
        switch (change.kind) {
          case "append-valid":
            now = concat(before, after)
            break
          case "append-garbage":
            now = concat(
              before,
              change.bytes.map((b) => (b === 0x0a ? 0x20 : b)),
              change.newline ? enc.encode("\n") : new Uint8Array(0)
            )
            break
          case "truncate":
            now = before.subarray(0, before.byteLength === 0 ? 0 : change.at % before.byteLength)
            break
          case "edit-in-place": {
            now = new Uint8Array(before)
            const i = change.at % Math.max(1, now.byteLength)
            if (now.byteLength > 0) now[i] = now[i]! ^ change.xor
            break
          }
          case "replace":
            now = enc.encode(linesOf([...all].reverse().slice(change.seed % Math.max(1, all.length))))
            break
        }
        const previous = replay(before)
        const extended = extendReplay(previous, now)
        const full = replay(now)
        if (extended === undefined) {
          // Refused only when the old bytes are not a prefix of the new ones.
          const prefix = now.byteLength >= before.byteLength &&
            Buffer.compare(now.subarray(0, before.byteLength), before) === 0
          expect(prefix).toBe(false)
        } else {
          expect(observe(extended)).toEqual(observe(full))
        }
        if (change.kind === "append-valid" || change.kind === "append-garbage") expect(extended).toBeDefined()
        if (change.kind === "edit-in-place" && before.byteLength > 0) expect(extended).toBeUndefined()
      }),
      { numRuns: 400 }
    )
  })

  it("a same-size edit of a committed byte is never taken from the earlier replay", () => {
    const events = toEvents([{ k: "eval", c: "cand-a", decision: "accept", metric: 0.5 }, {
      k: "checkpoint",
      summary: "abc",
      reviewed: false
    }])
    const text = linesOf(events)
    const edited = enc.encode(text.replace("\"summary\":\"abc\"", "\"summary\":\"abd\""))
    expect(edited.byteLength).toBe(enc.encode(text).byteLength)
    const previous = replay(enc.encode(text))
    expect(extendReplay(previous, edited)).toBeUndefined()
    expect(replay(edited).corrupt).toEqual({ line: 3, reason: "the event does not match its digest" })
  })

  it("a replay is extended at most once; a damaged replay is never extended", () => {
    const events = toEvents([{ k: "eval", c: "cand-a", decision: "accept", metric: 0.5 }])
    const bytes = enc.encode(linesOf(events))
    const previous = replay(bytes)
    const once = extendReplay(previous, bytes)
    expect(once).toBeDefined()
    expect(extendReplay(previous, bytes)).toBeUndefined()
    // The extension itself can be extended again.
    const more = enc.encode(
      linesOf(toEvents([{ k: "checkpoint", summary: "s", reviewed: true }], "k"), events.length + 1)
    )
    expect(extendReplay(once!, concat(bytes, more))?.events).toBe(events.length + 1)
    const damaged = replay(concat(bytes, enc.encode("garbage\n")))
    expect(damaged.corrupt?.line).toBe(events.length + 1)
    expect(extendReplay(damaged, concat(bytes, enc.encode("garbage\n")))).toBeUndefined()
  })

  it("an unterminated tail is re-read from the new bytes: it may have been completed or recovered", () => {
    const events = toEvents([{ k: "eval", c: "cand-a", decision: "accept", metric: 0.5 }, {
      k: "checkpoint",
      summary: "s",
      reviewed: false
    }])
    const whole = enc.encode(linesOf(events))
    const lastStart = whole.lastIndexOf(0x0a, whole.byteLength - 2) + 1
    const torn = whole.subarray(0, whole.byteLength - 5)
    const previous = replay(torn)
    expect(previous.tail).toEqual({ state: "unterminated", bytes: torn.byteLength - lastStart })
    const completed = extendReplay(previous, whole)
    expect(completed && observe(completed)).toEqual(observe(replay(whole)))
    const recovered = extendReplay(replay(torn), whole.subarray(0, lastStart))
    expect(recovered && observe(recovered)).toEqual(observe(replay(whole.subarray(0, lastStart))))
  })
})

describe("Projector.pending", () => {
  it("checks a batch as applying it would, and leaves the projector as it was", () => {
    fc.assert(
      fc.property(eventsArb(30), fc.nat(), fc.array(fc.nat(), { maxLength: 4 }), (events, cut, dupes) => {
        const k = events.length === 0 ? 0 : cut % (events.length + 1)
        // The batch: the rest of a valid history, with some of its events duplicated (refusals).
        const rest: Array<JournalEvent> = events.slice(k)
        for (const d of dupes) {
          if (events.length > 0) {
            rest.splice(d % (rest.length + 1), 0, { ...events[d % events.length]!, id: `dup-${d}` })
          }
        }
        const base = new Projector()
        for (const e of events.slice(0, k)) base.apply(e)
        const before = base.result()
        const pending = base.pending()
        let firstProblem: { index: number; problem: unknown } | null = null
        for (let i = 0; i < rest.length; i++) {
          const problem = pending.check(rest[i]!)
          if (problem !== null) {
            firstProblem = { index: i, problem }
            break
          }
          pending.add(rest[i]!)
        }
        const whole = project([...events.slice(0, k), ...rest])
        expect(firstProblem).toEqual(
          whole.problem === null ? null : { index: whole.problem.index - k, problem: whole.problem.problem }
        )
        expect(base.result()).toEqual(before)
      })
    )
  })

  it("names the candidates an event creates", () => {
    fc.assert(fc.property(legacyArb, (e) => {
      expect(candidatesCreatedBy(e)).toEqual(e.type === "legacy_imported" ? e.candidates.map((c) => c.id) : [])
    }))
    expect(candidatesCreatedBy({ id: "c", type: "candidate_created", candidate: { id: "x", title: "t" } })).toEqual([
      "x"
    ])
    expect(
      candidatesCreatedBy({
        id: "k",
        type: "checkpoint_saved",
        checkpoint: { summary: "s", nextAction: "n", reviewed: true }
      })
    ).toEqual([])
  })
})
