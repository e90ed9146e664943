/**
 * Property: over random grant trees built with the same checks `grant create` applies (path
 * rules, containment in the parent, inherited protection), no path is visible to a descendant
 * that an ancestor hides. Pure: `visibleIn` is the model of the sandbox's mounts.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as fc from "effect/FastCheck"
import {
  checkContained,
  checkPaths,
  type Figures,
  type GrantInput,
  inheritProtection,
  reservedRoot,
  sealGrant,
  type StoredGrant,
  visibleIn,
  within
} from "../../src/domain/Grant.js"

/** A small tree of folders, so that random picks nest, overlap and coincide often. */
const DIRS = [
  "research/exp/data",
  "research/exp/data/holdout",
  "research/exp/data/holdout/a",
  "research/exp/data/train",
  "research/exp/data/train/x",
  "research/exp/runs",
  "research/exp/runs/r1",
  "research/exp/runs/r1/c",
  "research/exp/runs/r1/c/d",
  "research/exp/runs/r2"
]
const PROBES = [...DIRS, ...DIRS.map((d) => `${d}/file.txt`)]

const BUDGET = { runs: 100, wallSeconds: 100, cpuSeconds: 100, memoryMiB: 64, outputMiB: 100 }
const REMAINING: Figures = BUDGET

const identity = (path: string) => ({ path, device: "1", inode: path })

/** What `grant create` decides for one input, given its ancestors (nearest first): the stored grant, or refused. */
const create = (input: GrantInput, ancestors: ReadonlyArray<StoredGrant>): StoredGrant | null => {
  const paths = checkPaths(input)
  if (Either.isLeft(paths)) return null
  const content = {
    id: input.id!,
    task: input.task,
    parent: input.parent ?? null,
    inputs: paths.right.inputs.map(identity),
    work: identity(paths.right.work),
    protected: paths.right.protected,
    tools: [...input.tools],
    budget: input.budget,
    deadline: input.deadline,
    network: "offline" as const,
    candidateId: null
  }
  const parent = ancestors[0]
  if (
    parent !== undefined &&
    Either.isLeft(checkContained(content, { grant: parent, deadline: parent.deadline, remaining: REMAINING }))
  ) {
    return null
  }
  const hidden = inheritProtection(paths.right, ancestors)
  if (Either.isLeft(hidden)) return null
  return sealGrant({ ...content, protected: hidden.right })
}

const node = fc.record({
  parent: fc.nat(),
  inputs: fc.uniqueArray(fc.constantFrom(...DIRS), { maxLength: 3 }),
  work: fc.constantFrom(...DIRS),
  protected: fc.uniqueArray(fc.constantFrom(...PROBES), { maxLength: 3 })
})

describe("inherited protection", () => {
  it.prop("no path is visible to a descendant that an ancestor hides", {
    nodes: fc.array(node, { minLength: 2, maxLength: 8 })
  }, ({ nodes }) => {
    // Node 0 is the root; node k > 0 names an earlier node (accepted or not) as its parent.
    const accepted: Array<{ grant: StoredGrant; ancestors: ReadonlyArray<StoredGrant> } | null> = []
    for (const [k, n] of nodes.entries()) {
      const parentAt = k === 0 ? -1 : n.parent % k
      const parent = parentAt < 0 ? null : accepted[parentAt] ?? null
      if (parentAt >= 0 && parent === null) {
        accepted.push(null)
        continue
      }
      const ancestors = parent === null ? [] : [parent.grant, ...parent.ancestors]
      const input: GrantInput = {
        id: `g${k}`,
        task: `t${k}`,
        ...(parent === null ? {} : { parent: parent.grant.id }),
        inputs: n.inputs,
        work: n.work,
        protected: n.protected,
        tools: ["read"],
        budget: BUDGET,
        deadline: "2030-01-01T00:00:00.000Z"
      }
      const grant = create(input, ancestors)
      accepted.push(grant === null ? null : { grant, ancestors })
    }
    for (const a of accepted) {
      if (a === null) continue
      // Nothing a grant or any ancestor protects is visible to it.
      for (const hider of [a.grant, ...a.ancestors]) {
        for (const p of hider.protected) {
          for (const probe of PROBES.filter((q) => within(q, p))) {
            expect({ grant: a.grant.id, hiddenBy: hider.id, path: probe, visible: visibleIn(a.grant, probe) })
              .toEqual({ grant: a.grant.id, hiddenBy: hider.id, path: probe, visible: false })
          }
        }
      }
      // And a descendant never sees more of the folder than its parent.
      const parent = a.ancestors[0]
      if (parent !== undefined) {
        for (const probe of PROBES) if (visibleIn(a.grant, probe)) expect(visibleIn(parent, probe)).toBe(true)
      }
    }
  }, { fastCheck: { numRuns: 300 } })

  it("a child with the parent's input and no protected entry hides the parent's holdout; the holdout as input is refused", () => {
    const parent = create({
      id: "p",
      task: "t",
      inputs: ["research/exp/data"],
      work: "research/exp/runs/r1",
      protected: ["research/exp/data/holdout"],
      tools: ["read"],
      budget: BUDGET,
      deadline: "2030-01-01T00:00:00.000Z"
    }, [])!
    const base = {
      task: "c",
      parent: "p",
      work: "research/exp/runs/r1/c",
      protected: [],
      tools: ["read"] as const,
      budget: BUDGET,
      deadline: "2030-01-01T00:00:00.000Z"
    }
    const child = create({ ...base, id: "c1", inputs: ["research/exp/data"] }, [parent])!
    expect(child.protected).toEqual(["research/exp/data/holdout"])
    expect(visibleIn(child, "research/exp/data/holdout/h.txt")).toBe(false)
    expect(visibleIn(child, "research/exp/data/train/x")).toBe(true)
    expect(create({ ...base, id: "c2", inputs: ["research/exp/data/holdout"] }, [parent])).toBeNull()
    const refusal = inheritProtection({
      inputs: ["research/exp/data/holdout/a"],
      work: "research/exp/runs/r1/c",
      protected: []
    }, [parent])
    expect(Either.isLeft(refusal) && refusal.left).toMatchObject({
      _tag: "ProtectedPathInGrant",
      reason: "ancestor-protected",
      path: "research/exp/data/holdout"
    })
  })

  it("reserved roots: study folders for any root; dossier-owned areas and journal folders never a work root", () => {
    expect(reservedRoot("research/bench", "input")).toEqual({
      path: "research/bench/research-events.jsonl",
      reason: "study-folder"
    })
    expect(reservedRoot("research/bench/tools", "input")).toBeUndefined()
    expect(reservedRoot("research/bench/recovered", "input")).toEqual({
      path: "research/bench/recovered",
      reason: "journal-file"
    })
    expect(reservedRoot("research/bench/legacy/x", "work")).toEqual({
      path: "research/bench/legacy",
      reason: "journal-file"
    })
    for (const area of ["research/sources", "research/results", "research/inputs", "research/gate"]) {
      expect(reservedRoot(area, "input")).toBeUndefined()
      expect(reservedRoot(area, "work")).toEqual({ path: area, reason: "dossier-owned" })
      expect(reservedRoot(`${area}/below`, "work")).toEqual({ path: area, reason: "dossier-owned" })
    }
    expect(reservedRoot(".dossier/x", "input")?.reason).toBe("always-protected")
    expect(reservedRoot("research", "work")?.reason).toBe("study-folder")
  })
})
