/**
 * Fault injection: the last append is cut at every byte offset, and garbage tails (with and
 * without a final newline) are injected. At each point the replay rules must hold: a cut never
 * yields a damaged event (only fewer committed events plus an unterminated tail), a terminated
 * garbage line is CorruptJournal at that line, append refuses while a tail is pending, and
 * recover-tail followed by a retry of the same batch lands every event exactly once.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as fc from "fast-check"
import { sha256Hex } from "../../src/domain/Canonical.js"
import type { JournalEvent } from "../../src/domain/Journal.js"
import { encodeLine, eventText, replay } from "../../src/domain/JournalLines.js"
import { makeMemoryFs } from "../../src/layers/FileStoreMemory.js"
import { JournalLive } from "../../src/layers/JournalLive.js"
import { LockMemory } from "../../src/layers/LockMemory.js"
import { FileStore } from "../../src/services/FileStore.js"
import { Journal } from "../../src/services/Journal.js"
import { toEvents } from "./arbitraries.js"

const enc = new TextEncoder()
const JOURNAL = "research/s/research-events.jsonl"

const linesOf = (events: ReadonlyArray<JournalEvent>, first = 1) =>
  events.map((e, i) => encodeLine(first + i, eventText(e))).join("")

const base = toEvents([
  { k: "eval", c: "cand-a", decision: "accept", metric: 0.5 },
  { k: "checkpoint", summary: "first", reviewed: false }
])
const batch: Array<JournalEvent> = [
  ...toEvents(
    [
      { k: "exec", c: "cand-b", runtimeId: "rt-1", status: "done", logRef: "logs/1" },
      { k: "artifact", c: "cand-b", path: "research/results/b.csv", sha256: "ab".repeat(32), bytes: 10 },
      { k: "eval", c: "cand-b", decision: "reject", metric: 0.25 }
    ],
    "b"
  ),
  { id: "b-select", type: "candidate_selected", candidateId: "cand-a", reason: "better — naïve ✓" }
]

const baseBytes = linesOf(base)
const batchBytes = enc.encode(linesOf(batch, base.length + 1))
const boundaries = (() => {
  const out = [0]
  batchBytes.forEach((b, i) => b === 0x0a && out.push(i + 1))
  return out
})()

const cut = (k: number) => {
  const whole = new Uint8Array(enc.encode(baseBytes).byteLength + k)
  whole.set(enc.encode(baseBytes))
  whole.set(batchBytes.subarray(0, k), enc.encode(baseBytes).byteLength)
  return whole
}

describe("replay of a journal cut at every byte offset of the last append", () => {
  it("never yields a damaged event; committed = whole lines, the rest is an unterminated tail", () => {
    for (let k = 0; k <= batchBytes.byteLength; k++) {
      const r = replay(cut(k))
      const whole = boundaries.filter((b) => b <= k)
      const lastBoundary = whole[whole.length - 1]!
      expect(r.corrupt).toBeNull()
      expect(r.events).toBe(base.length + whole.length - 1)
      expect(r.tail).toEqual(
        k === lastBoundary ? { state: "clean", bytes: 0 } : { state: "unterminated", bytes: k - lastBoundary }
      )
      expect(r.projector.currentHead()?.seq).toBe(r.events)
    }
  })

  it("a terminated garbage line is CorruptJournal at its line; without newline it is a tail", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 80 }), (garbage) => {
        const clean = garbage.map((b) => (b === 0x0a ? 0x20 : b))
        const prefix = enc.encode(baseBytes)
        const withNl = new Uint8Array([...prefix, ...clean, 0x0a])
        const r1 = replay(withNl)
        expect(r1.corrupt?.line).toBe(base.length + 1)
        expect(r1.events).toBe(base.length)
        const noNl = new Uint8Array([...prefix, ...clean])
        const r2 = replay(noNl)
        expect(r2.corrupt).toBeNull()
        expect(r2.tail).toEqual({ state: "unterminated", bytes: clean.byteLength })
      })
    )
  })

  it("edits that keep the JSON valid are caught by the position or the digest", () => {
    const text = baseBytes
    const lines = text.split("\n")
    const flipped = lines[0]!.replace("\"p1\"", "\"p2\"")
    expect(replay(enc.encode([flipped, ...lines.slice(1)].join("\n"))).corrupt).toEqual({
      line: 1,
      reason: "the event does not match its digest"
    })
    const swapped = [lines[1], lines[0], ...lines.slice(2)].join("\n")
    expect(replay(enc.encode(swapped)).corrupt?.line).toBe(1)
    const duplicated = [lines[0], lines[0], ...lines.slice(1)].join("\n")
    expect(replay(enc.encode(duplicated)).corrupt?.line).toBe(2)
    const blank = `${text}\n`
    expect(replay(enc.encode(blank)).corrupt?.line).toBe(base.length + 1)
    // A hand-made line with a correct digest but an invalid event is still refused.
    const bad = "{\"id\":\"z\",\"type\":\"checkpoint_saved\",\"checkpoint\":{}}"
    const crafted = `${text}{"seq":${base.length + 1},"sha256":"${sha256Hex(bad)}","event":${bad}}\n`
    expect(replay(enc.encode(crafted)).corrupt?.reason).toMatch(/invalid event/)
    const invalidUtf8 = new Uint8Array([...enc.encode(text), 0xff, 0xfe, 0x0a])
    expect(replay(invalidUtf8).corrupt?.line).toBe(base.length + 1)
  })
})

describe("the service at every cut point", () => {
  const run = <A, E>(effect: Effect.Effect<A, E, Journal | FileStore>, bytes: Uint8Array) => {
    const mem = makeMemoryFs()
    mem.writeRaw(JOURNAL, bytes)
    const layer = JournalLive.pipe(Layer.provideMerge(Layer.succeed(FileStore, mem.store)), Layer.provide(LockMemory))
    return Effect.runSync(Effect.either(Effect.provide(effect, layer)))
  }

  it("append refuses while a tail is pending; recover-tail then the same batch lands every id once", () => {
    for (let k = 0; k <= batchBytes.byteLength; k++) {
      const lastBoundary = boundaries.filter((b) => b <= k).pop()!
      const out = run(
        Effect.gen(function*() {
          const j = yield* Journal
          const store = yield* FileStore
          const first = yield* Effect.either(j.append("s", batch))
          const recovered = yield* j.recoverTail("s")
          const retry = yield* j.append("s", batch)
          const inspected = yield* j.inspect("s")
          const text = new TextDecoder().decode(yield* store.read(JOURNAL))
          const tailFile = recovered.recovered === null ? null : yield* store.read(recovered.recovered.path)
          return { first, recovered, retry, inspected, text, tailFile }
        }),
        cut(k)
      )
      expect(Either.isRight(out)).toBe(true)
      if (Either.isLeft(out)) continue
      const { first, recovered, retry, inspected, text, tailFile } = out.right
      if (k === lastBoundary) {
        expect(Either.isRight(first)).toBe(true)
        expect(recovered.recovered).toBeNull()
      } else {
        expect(Either.isLeft(first) && first.left._tag).toBe("UnterminatedTail")
        expect(recovered.recovered?.bytes).toBe(k - lastBoundary)
        expect(tailFile).toEqual(batchBytes.subarray(lastBoundary, k))
      }
      const committedBefore = boundaries.indexOf(lastBoundary)
      expect(retry.skipped).toEqual(
        k === lastBoundary ? batch.map((e) => e.id) : batch.slice(0, committedBefore).map((e) => e.id)
      )
      expect(inspected.events).toBe(base.length + batch.length)
      expect(inspected.tail).toEqual({ state: "clean" })
      expect(text).toBe(baseBytes + linesOf(batch, base.length + 1))
    }
  })
})
