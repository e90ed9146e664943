/** The Journal service on disk (JournalLayer over BaseLive) and in memory: the `studies` contract and library use. */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { encodeLine, eventText } from "../../src/domain/JournalLines.js"
import { JournalLayer } from "../../src/layers/JournalLayer.js"
import { JournalMemory } from "../../src/layers/JournalMemory.js"
import { DEFAULT_MAX_BYTES } from "../../src/services/FileStore.js"
import { Journal } from "../../src/services/Journal.js"
import { put, tempWorkdir } from "../support/cli.js"

const cand = (id: string, c: string) => ({ id, type: "candidate_created" as const, candidate: { id: c, title: c } })

describe("Journal.studies", () => {
  it.effect("one row per study folder holding a journal, sorted, never failing on damage", () => {
    const dir = tempWorkdir()
    return Effect.gen(function*() {
      const j = yield* Journal
      expect(yield* j.studies).toEqual([])
      yield* j.append("zeta", [cand("c1", "a"), cand("c2", "b")])
      yield* j.append("alpha", cand("c1", "a"))
      yield* j.append("mid", cand("c1", "a"))
      yield* j.append("bad", [cand("c1", "a"), cand("c2", "b")])
      fs.appendFileSync(path.join(dir, "research/mid/research-events.jsonl"), "torn")
      const badFile = path.join(dir, "research/bad/research-events.jsonl")
      fs.writeFileSync(badFile, fs.readFileSync(badFile, "utf8").replace("\"title\":\"b\"", "\"title\":\"B\""))
      // Not studies: reserved folders, folders without a journal, names that are not study ids.
      put(dir, "research/inputs/research-events.jsonl", "x\n")
      put(dir, "research/gate/research-events.jsonl", "x\n")
      fs.mkdirSync(path.join(dir, "research/empty"), { recursive: true })
      put(dir, "research/Upper/research-events.jsonl", "")
      // A symlinked journal is a (corrupt) row, not a failure.
      put(dir, "elsewhere.jsonl", "")
      fs.mkdirSync(path.join(dir, "research/linked"))
      fs.symlinkSync(path.join(dir, "elsewhere.jsonl"), path.join(dir, "research/linked/research-events.jsonl"))
      expect(yield* j.studies).toEqual([
        { study: "alpha", tail: "clean", tailBytes: 0, corruptLine: null, head: { seq: 1, id: "c1" } },
        { study: "bad", tail: "corrupt", tailBytes: 0, corruptLine: 2, head: { seq: 1, id: "c1" } },
        { study: "linked", tail: "corrupt", tailBytes: 0, corruptLine: null, head: null },
        { study: "mid", tail: "unterminated", tailBytes: 4, corruptLine: null, head: { seq: 1, id: "c1" } },
        { study: "zeta", tail: "clean", tailBytes: 0, corruptLine: null, head: { seq: 2, id: "c2" } }
      ])
    }).pipe(Effect.provide(JournalLayer(dir)))
  })
})

describe("Journal in memory", () => {
  it.effect("append, inspect, rebuild, recover-tail and import work on the in-memory layers", () =>
    Effect.gen(function*() {
      const j = yield* Journal
      const r = yield* j.append("s", [cand("c1", "a"), {
        id: "e1",
        type: "evaluation_recorded",
        candidateId: "a",
        evaluation: { evaluatorVersion: "v", metrics: { m: 1 }, decision: "accept" }
      }])
      expect(r).toEqual({ study: "s", appended: ["c1", "e1"], skipped: [], head: { seq: 2, id: "e1" } })
      expect((yield* j.inspect("s")).candidates.map((c) => c.status)).toEqual(["accepted"])
      const b1 = yield* j.rebuild("s")
      const b2 = yield* j.rebuild("s")
      expect(b2).toEqual(b1)
      expect(yield* j.recoverTail("s")).toEqual({ study: "s", recovered: null })
      const imp = yield* Effect.either(j.importLegacy("s"))
      expect(imp._tag === "Left" && imp.left._tag).toBe("InvalidManifest")
      const conflict = yield* Effect.either(j.append("s", cand("c1", "other")))
      expect(conflict._tag === "Left" && conflict.left._tag).toBe("ConflictingEvent")
    }).pipe(Effect.provide(JournalMemory)))
})

describe("large journals", () => {
  it.effect("a time whose UTC form leaves years 0000–9999 is refused at append, never stored to corrupt the journal", () => {
    const dir = tempWorkdir()
    return Effect.gen(function*() {
      const j = yield* Journal
      // The message says why such a time is refused (it is an ISO-8601 instant with an offset).
      for (const at of ["9999-12-31T23:30:00-01:00", "0000-01-01T00:30:00+01:00", "2026-02-30T10:00:00Z"]) {
        const refused = yield* Effect.flip(j.append("edge", { ...cand("c1", "a"), at }))
        expect(refused._tag === "InvalidInput" && refused.issues).toEqual([{
          path: "at",
          message: "a real ISO-8601 instant with Z or an offset whose UTC form is within years 0000-9999"
        }])
      }
      // The last representable minutes on either side still go in and replay.
      yield* j.append("edge", [{ ...cand("c1", "a"), at: "9999-12-31T23:59:00Z" }, {
        ...cand("c2", "b"),
        at: "0000-01-01T00:30:00-01:00"
      }])
      const state = yield* j.inspect("edge")
      expect(state.head).toMatchObject({ seq: 2, id: "c2" })
    }).pipe(Effect.provide(JournalLayer(dir)))
  })

  it.effect("a journal larger than FileStore's 16 MiB default is read whole", () => {
    const dir = tempWorkdir()
    const parts = [
      encodeLine(1, eventText({ id: "c0", type: "candidate_created", candidate: { id: "a", title: "t" } }))
    ]
    const pad = "x".repeat(400)
    for (let i = 1; i < 45_000; i++) {
      parts.push(
        encodeLine(
          i + 1,
          eventText({
            id: `k${i}`,
            type: "checkpoint_saved",
            checkpoint: { summary: pad, nextAction: "n", reviewed: false }
          })
        )
      )
    }
    put(dir, "research/big/research-events.jsonl", parts.join(""))
    expect(fs.statSync(path.join(dir, "research/big/research-events.jsonl")).size).toBeGreaterThan(DEFAULT_MAX_BYTES)
    return Effect.gen(function*() {
      const j = yield* Journal
      const r = yield* j.inspect("big")
      expect(r.events).toBe(parts.length)
      expect(r.head).toEqual({ seq: parts.length, id: `k${parts.length - 1}` })
      expect(
        (yield* j.append("big", {
          id: "last",
          type: "checkpoint_saved",
          checkpoint: { summary: "s", nextAction: "n", reviewed: true }
        })).head.seq
      ).toBe(parts.length + 1)
    }).pipe(Effect.provide(JournalLayer(dir)))
  }, 60_000)
})
