/**
 * The hand-written replay check (`eventProblem`) and the Schemas describe the same language:
 * on valid events, on mutations of them and on arbitrary JSON they always agree.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as fc from "fast-check"
import { checkStudyId, decodeBatch, decodeEvent, decodeEventBySchema, eventProblem, ISO_PATTERN, isIso, validateManifest } from "../../src/domain/Journal.js"
import { anyEventArb } from "./arbitraries.js"

const agree = (value: unknown) => {
  const viaSchema = Either.isRight(decodeEventBySchema(value))
  const viaFast = eventProblem(value) === null
  expect({ value, viaFast }).toEqual({ value, viaFast: viaSchema })
  // decodeEvent (fast path when the fast check passes) gives exactly what the Schema gives.
  expect(decodeEvent(value)).toEqual(decodeEventBySchema(value))
}

/** Mutations: drop a key, add a key, or replace a value somewhere in the event. */
const mutate = (value: unknown, path: ReadonlyArray<string>, how: "drop" | "add" | "replace", junk: unknown): unknown => {
  if (typeof value !== "object" || value === null) return how === "replace" ? junk : value
  const copy: any = Array.isArray(value) ? [...value] : { ...value }
  const keys = Object.keys(copy)
  if (keys.length === 0 || path.length === 0) {
    if (how === "add" && !Array.isArray(copy)) copy["extra"] = junk
    return copy
  }
  const key = keys[path[0]!.length % keys.length]!
  if (path.length === 1) {
    if (how === "drop") delete copy[key]
    else if (how === "add" && !Array.isArray(copy)) copy["extra"] = junk
    else copy[key] = junk
    return copy
  }
  copy[key] = mutate(copy[key], path.slice(1), how, junk)
  return copy
}

describe("event validation", () => {
  it("valid generated events pass both checks", () => {
    fc.assert(fc.property(anyEventArb, (e) => {
      expect(eventProblem(e)).toBeNull()
      expect(Either.isRight(decodeEventBySchema(e))).toBe(true)
    }), { numRuns: 300 })
  })

  it("the fast check agrees with the Schemas on mutated events", () => {
    fc.assert(
      fc.property(
        anyEventArb,
        fc.array(fc.string({ maxLength: 3 }), { minLength: 1, maxLength: 4 }),
        fc.constantFrom("drop" as const, "add" as const, "replace" as const),
        fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom("", "x".repeat(5000), "../up", "/abs", "a//b", 1.5, -1, "2026-13-01T00:00:00Z")),
        (e, path, how, junk) => agree(mutate(JSON.parse(JSON.stringify(e)), path, how, junk))
      ),
      { numRuns: 2000 }
    )
  })

  it("a decoded event is a private copy: changing the input afterwards changes nothing", () => {
    const input = { id: "e1", type: "checkpoint_saved", checkpoint: { summary: "s", nextAction: "n", reviewed: false } }
    const decoded = decodeEvent(input)
    input.checkpoint.summary = ""
    ;(input as Record<string, unknown>)["extra"] = 1
    expect(decoded).toEqual(Either.right({ id: "e1", type: "checkpoint_saved", checkpoint: { summary: "s", nextAction: "n", reviewed: false } }))
    // Values a structured clone cannot copy (functions) or would change (class instances keep
    // their fields) are decided by the Schema, as before.
    const withFunction = { ...input, checkpoint: { summary: "s", nextAction: "n", reviewed: false }, extra: undefined, at: () => "x" }
    expect(decodeEvent(withFunction)).toEqual(decodeEventBySchema(withFunction))
    class Checkpoint {
      constructor(readonly summary: string, readonly nextAction: string, readonly reviewed: boolean) {}
    }
    const withInstance = { id: "e2", type: "checkpoint_saved", checkpoint: new Checkpoint("s", "n", true) }
    expect(decodeEvent(withInstance)).toEqual(decodeEventBySchema(withInstance))
  })

  it("the fast check agrees with the Schemas on arbitrary JSON", () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 3 }), agree), { numRuns: 500 })
  })

  it("issue paths are dotted paths into the batch", () => {
    const r = decodeBatch([
      { id: "ok", type: "checkpoint_saved", checkpoint: { summary: "s", nextAction: "n", reviewed: true } },
      { id: "bad id!", type: "candidate_selected", candidateId: "c", reason: "" }
    ])
    expect(Either.isLeft(r)).toBe(true)
    const paths = Either.isLeft(r) ? r.left.issues.map((i) => i.path).sort() : []
    expect(paths).toEqual(["1.id", "1.reason"])
    const unknownType = decodeBatch({ id: "x", type: "nope" })
    expect(Either.isLeft(unknownType) && unknownType.left.issues[0]!.path).toBe("type")
    expect(Either.isLeft(decodeBatch([]))).toBe(true)
  })
})

describe("study ids", () => {
  it("accepts the pattern and refuses reserved names", () => {
    for (const ok of ["a", "s1", "my-study_2.x", "0".repeat(64)]) expect(Either.isRight(checkStudyId(ok))).toBe(true)
    for (const bad of ["", "A", "-a", "a/b", "..", "0".repeat(65), "inputs", "sources", "results", "gate", "a b"]) {
      expect(Either.isLeft(checkStudyId(bad))).toBe(true)
    }
  })
})

describe("manifest v1 validator", () => {
  const good = {
    version: 1,
    study: "s",
    protocolVersion: null,
    candidates: [{ id: "a", status: "accepted", resultPaths: ["research/results/a.csv"] }],
    completed: ["a"],
    selected: "a"
  }
  it("accepts exactly the six fields", () => {
    expect(Either.isRight(validateManifest(good))).toBe(true)
  })
  it("refuses any other shape or an inconsistent manifest", () => {
    const cases: Array<[unknown, string]> = [
      [{ ...good, extra: 1 }, "extra"],
      [{ ...good, version: 2 }, "version"],
      [(({ selected: _s, ...rest }) => rest)(good), "selected"],
      [{ ...good, candidates: [{ id: "a", status: "done", resultPaths: [] }] }, "candidates.0.status"],
      [{ ...good, candidates: [{ id: "a", status: "created", resultPaths: [], note: "x" }] }, "candidates.0.note"],
      [{ ...good, completed: ["b"] }, "completed.0"],
      [{ ...good, selected: "z" }, "selected"],
      [{ ...good, candidates: [...good.candidates, ...good.candidates] }, "candidates.1.id"]
    ]
    for (const [value, path] of cases) {
      const r = validateManifest(value)
      expect(Either.isLeft(r)).toBe(true)
      if (Either.isLeft(r)) expect(r.left.map((i) => i.path)).toContain(path)
    }
  })
})

describe("isIso", () => {
  it("accepts every instant's ISO form, with offsets and fractions", () => {
    fc.assert(
      fc.property(fc.date({ min: new Date("0001-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z"), noInvalidDate: true }), (d) => {
        const s = d.toISOString()
        expect(isIso(s)).toBe(true)
        expect(isIso(s.replace("Z", "+02:00"))).toBe(true)
        expect(isIso(s.slice(0, 19) + "Z")).toBe(true)
        expect(isIso(s.slice(0, 16) + "Z")).toBe(true)
      })
    )
  })
  it("whatever it accepts, Date.parse reads as a valid instant", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{4}-[01]\d-[0-3]\dT[0-2]\d:[0-5]\d(:[0-6]\d(\.\d{1,10})?)?(Z|[+-][0-2]\d:[0-6]\d)$/), (s) => {
        if (isIso(s)) {
          expect(ISO_PATTERN.test(s)).toBe(true)
          expect(Number.isNaN(Date.parse(s))).toBe(false)
        }
      }),
      { numRuns: 2000 }
    )
  })
  it("refuses impossible dates and other forms", () => {
    for (const bad of ["2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T10:00:00", "2026-01-01 10:00:00Z", "2026-01-01T10:00:00.Z", "2026-01-01T10:00:00.1234567890Z", "x"]) {
      expect(isIso(bad)).toBe(false)
    }
    expect(isIso("2024-02-29T00:00:00Z")).toBe(true)
  })
})
