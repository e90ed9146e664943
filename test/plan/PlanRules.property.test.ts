import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as fc from "effect/FastCheck"
import type { PlanDocument } from "../../src/domain/Plan.js"
import {
  applyCheckpoint,
  checkpointPaths,
  completion,
  newPlan,
  type Observed,
  replaceGoal,
  verify
} from "../../src/domain/PlanRules.js"

const hex = fc.constantFrom("a", "b", "c").map((c) => c.repeat(64))
const srcPath = fc.constantFrom("research/sources/1.md", "research/sources/2.md", "research/sources/3.md")
const outPath = fc.constantFrom("research/results/r1.md", "research/results/r2.md")

const docArb: fc.Arbitrary<PlanDocument> = fc
  .record({
    sources: fc.uniqueArray(
      fc.record({ path: srcPath, origin: fc.constant("https://example.org/o"), bytes: fc.nat(), sha256: hex }),
      {
        selector: (s) => s.path
      }
    ),
    outputs: fc.uniqueArray(
      fc.record({
        path: outPath,
        bytes: fc.nat(),
        sha256: hex,
        dependsOn: fc.uniqueArray(fc.record({ path: srcPath, sha256: hex }), { selector: (d) => d.path, maxLength: 3 })
      }),
      { selector: (o) => o.path }
    ),
    unresolved: fc.array(fc.record({ id: fc.string(), text: fc.string() }), { maxLength: 2 })
  })
  .map((r) => ({ ...newPlan({ goal: "g", limits: [], nextAction: "n" }, "2026-01-01T00:00:00.000Z"), ...r }))

const observedArb: fc.Arbitrary<Observed> = fc.oneof(
  hex.map((sha256) => ({ _tag: "Present" as const, sha256, bytes: 1 })),
  fc.constant({ _tag: "Missing" as const }),
  fc.constant({ _tag: "Unsafe" as const, reason: "symlink" })
)
const obsArb = fc.dictionary(fc.oneof(srcPath, outPath), observedArb).map((d) => new Map(Object.entries(d)))

/** What the files look like when every registered file is exactly as recorded. */
const faithful = (doc: PlanDocument) => {
  const m = new Map<string, Observed>()
  for (const s of doc.sources) m.set(s.path, { _tag: "Present", sha256: s.sha256, bytes: s.bytes })
  for (const o of doc.outputs) m.set(o.path, { _tag: "Present", sha256: o.sha256, bytes: o.bytes })
  return m
}

describe("verification and completion", () => {
  it.prop("no findings exactly when every registered file and dependency matches", [docArb, obsArb], ([doc, obs]) => {
    const v = verify(doc, obs)
    const allMatch = doc.sources.every((s) => {
      const o = obs.get(s.path)
      return o?._tag === "Present" && o.sha256 === s.sha256
    }) &&
      doc.outputs.every((out) => {
        const o = obs.get(out.path)
        return o?._tag === "Present" && o.sha256 === out.sha256 &&
          out.dependsOn.every((d) => {
            const od = obs.get(d.path)
            return od?._tag === "Present" && od.sha256 === d.sha256
          })
      })
    expect(v.findings.length === 0).toBe(allMatch)
    expect(v.state).toBe(allMatch ? "current" : "needs-attention")
  })

  it.prop("a faithful folder verifies unless a dependency was rebound elsewhere", [docArb], ([doc]) => {
    const v = verify(doc, faithful(doc))
    for (const f of v.findings) expect(f.kind).toBe("stale-dependency")
  })

  it.prop(
    "completion is ready only with an output, no findings and nothing unresolved",
    [docArb, obsArb],
    ([doc, obs]) => {
      const v = verify(doc, obs)
      const c = completion(doc, v)
      expect(c.ready).toBe(doc.outputs.length > 0 && v.findings.length === 0 && doc.unresolved.length === 0)
      expect(c.ready).toBe(c.missing.length === 0)
    }
  )

  it.prop("changing any registered byte makes a finding", [docArb.filter((d) => d.sources.length > 0)], ([doc]) => {
    const obs = faithful(doc)
    const first = doc.sources[0]!
    obs.set(first.path, {
      _tag: "Present",
      sha256: first.sha256 === "a".repeat(64) ? "b".repeat(64) : "a".repeat(64),
      bytes: 1
    })
    expect(verify(doc, obs).findings.some((f) => f.kind === "source-changed" && f.path === first.path)).toBe(true)
  })
})

describe("checkpoint rules", () => {
  const base = newPlan({ goal: "g", limits: [], nextAction: "n" }, "2026-01-01T00:00:00.000Z")
  const digest = (p: string) => ({ sha256: (p.length % 2 === 0 ? "a" : "b").repeat(64), bytes: p.length })

  it.prop("step ids are idempotent: applying the same steps twice records them once", [
    fc.array(fc.record({ summary: fc.string(), id: fc.string({ minLength: 1 }) }), { maxLength: 10 })
  ], ([steps]) => {
    const input = { completedSteps: steps }
    const paths = Either.getOrThrow(checkpointPaths(input))
    const once = Either.getOrThrow(applyCheckpoint(base, input, paths, digest, "t"))
    const twice = Either.getOrThrow(applyCheckpoint(once, input, paths, digest, "t"))
    expect(twice.completedSteps).toEqual(once.completedSteps)
    expect(once.completedSteps.length).toBe(new Set(steps.map((s) => s.id)).size)
  })

  it("an output may depend only on registered sources or outputs", () => {
    const input = { outputs: [{ path: "research/results/r.md", dependsOn: ["research/sources/x.md"] }] }
    const r = applyCheckpoint(base, input, Either.getOrThrow(checkpointPaths(input)), digest, "t")
    expect(Either.isLeft(r) && r.left._tag).toBe("UnregisteredDependency")
  })

  it("re-registering a source with other bytes is EditedRetainedFile; with the same bytes a no-op", () => {
    const input = { sources: [{ path: "research/sources/x.md", origin: "https://example.org/o" }] }
    const paths = Either.getOrThrow(checkpointPaths(input))
    const once = Either.getOrThrow(applyCheckpoint(base, input, paths, digest, "t"))
    const same = Either.getOrThrow(applyCheckpoint(once, input, paths, digest, "t"))
    expect(same.sources).toEqual(once.sources)
    const other = applyCheckpoint(once, input, paths, () => ({ sha256: "c".repeat(64), bytes: 1 }), "t")
    expect(Either.isLeft(other) && other.left._tag).toBe("EditedRetainedFile")
  })

  it("paths outside their area are refused", () => {
    expect(
      Either.getLeft(checkpointPaths({ sources: [{ path: "research/results/x", origin: "https://example.org/o" }] }))
        .pipe((o) => o._tag === "Some" && o.value._tag)
    ).toBe("PathOutsideArea")
    expect(
      Either.getLeft(
        checkpointPaths({ sources: [{ path: "research/sources/../../x", origin: "https://example.org/o" }] })
      ).pipe((o) => o._tag === "Some" && o.value._tag)
    ).toBe("PathOutsideArea")
    expect(
      Either.getLeft(checkpointPaths({ sources: [{ path: "../x", origin: "https://example.org/o" }] })).pipe((o) =>
        o._tag === "Some" && o.value._tag
      )
    ).toBe("UnsafePath")
    // An absolute path names the field and never echoes the machine path (issue 13, item 19).
    expect(
      Either.getLeft(checkpointPaths({ sources: [{ path: "/etc/passwd", origin: "https://example.org/o" }] })).pipe((
        o
      ) => o._tag === "Some" && o.value)
    ).toMatchObject({
      _tag: "InvalidInput",
      issues: [{ path: "sources.0.path", message: "an absolute path; paths are relative to the work folder" }]
    })
  })

  it("a plan edited by hand to the largest revision takes no write, instead of one no reader could decode", () => {
    const last = { ...newPlan({ goal: "g", limits: [], nextAction: "n" }, "t"), revision: Number.MAX_SAFE_INTEGER }
    const limit = { _tag: "LimitExceeded", limit: "revision", max: Number.MAX_SAFE_INTEGER }
    expect(
      Either.getLeft(applyCheckpoint(last, {}, { sources: [], outputs: [] }, () => ({ sha256: "", bytes: 0 }), "t"))
    )
      .toMatchObject({ _tag: "Some", value: limit })
    expect(Either.getLeft(replaceGoal(last, { goal: "h", limits: [], nextAction: "n" }, "t")))
      .toMatchObject({ _tag: "Some", value: limit })
    const before = { ...last, revision: Number.MAX_SAFE_INTEGER - 1 }
    const r = applyCheckpoint(before, {}, { sources: [], outputs: [] }, () => ({ sha256: "", bytes: 0 }), "t")
    expect(Either.getOrThrow(r).revision).toBe(Number.MAX_SAFE_INTEGER)
  })

  it("a path that names no file (empty, '.', a NUL) is InvalidInput naming the field, as an absolute one is", () => {
    const cases = [
      [{ sources: [{ path: "", origin: "https://example.org/o" }] }, "sources.0.path"],
      [{ outputs: [{ path: "research/results/r", dependsOn: ["."] }] }, "outputs.0.dependsOn.0"],
      [{ outputs: [{ path: "research/results/r\u0000", dependsOn: [] }] }, "outputs.0.path"]
    ] as const
    for (const [input, field] of cases) {
      expect(Either.getLeft(checkpointPaths(input)).pipe((o) => o._tag === "Some" && o.value), field).toMatchObject({
        _tag: "InvalidInput",
        issues: [{ path: field }]
      })
    }
  })
})
