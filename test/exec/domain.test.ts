/** Pure decisions of grants and execution evidence, property-tested. */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as fc from "effect/FastCheck"
import { checkSignature, signDigest } from "../../src/domain/Evidence.js"
import { ProtectedPathInGrant, ProtectedReason } from "../../src/domain/ExecErrors.js"
import {
  changedFiles,
  keyExposure,
  programPlaces,
  receiptHolds,
  sandboxEtc,
  sealExecution,
  SYSTEM_DIRS,
  type TreeEntry
} from "../../src/domain/Execution.js"
import {
  alwaysProtectedIn,
  BUDGET_FIELDS,
  checkContained,
  checkNarrowing,
  type Figures,
  outermostMasks,
  remainingBudget,
  sealGrant,
  type StoredGrant
} from "../../src/domain/Grant.js"
import { spellingFinder } from "../../src/layers/ProtectedSpellings.js"

const parent: StoredGrant = sealGrant({
  id: "p",
  task: "t",
  parent: null,
  inputs: [{ path: "research/a/data", device: "1", inode: "2" }],
  work: { path: "research/a/runs", device: "1", inode: "3" },
  protected: [],
  tools: ["read", "bash"],
  budget: { runs: 10, wallSeconds: 100, cpuSeconds: 100, memoryMiB: 512, outputMiB: 50 },
  deadline: "2030-01-01T00:00:00.000Z",
  network: "offline",
  candidateId: null
})
const remaining: Figures = { runs: 10, wallSeconds: 100, cpuSeconds: 100, memoryMiB: 512, outputMiB: 50 }
const within = fc.record({
  runs: fc.integer({ min: 0, max: 10 }),
  wallSeconds: fc.integer({ min: 0, max: 100 }),
  cpuSeconds: fc.integer({ min: 0, max: 100 }),
  memoryMiB: fc.integer({ min: 16, max: 512 }),
  outputMiB: fc.integer({ min: 0, max: 50 })
})
const childOf = (budget: Figures, over: object = {}) => ({
  inputs: [{ path: "research/a/data/sub", device: "1", inode: "9" }],
  work: { path: "research/a/runs/c", device: "1", inode: "8" },
  tools: ["bash" as const],
  budget,
  deadline: "2029-01-01T00:00:00.000Z",
  candidateId: null,
  ...over
})

describe("grant containment", () => {
  it.prop("a child within every figure is contained; raising any one figure past the parent's remainder names it", {
    budget: within,
    field: fc.constantFrom(...BUDGET_FIELDS),
    extra: fc.integer({ min: 1, max: 1000 })
  }, ({ budget, field, extra }) => {
    expect(Either.isRight(checkContained(childOf(budget), { grant: parent, deadline: parent.deadline, remaining })))
      .toBe(true)
    const wide = checkContained(childOf({ ...budget, [field]: remaining[field] + extra }), {
      grant: parent,
      deadline: parent.deadline,
      remaining
    })
    expect(Either.isLeft(wide) && wide.left.field).toBe(`budget.${field}`)
  })

  it("roots, tools and deadline outside the parent are GrantWidening naming the field", () => {
    const check = (over: object) => {
      const r = checkContained(childOf(remaining, over), { grant: parent, deadline: parent.deadline, remaining })
      return Either.isLeft(r) ? r.left.field : "contained"
    }
    expect(check({})).toBe("contained")
    expect(check({ inputs: [{ path: "research/b", device: "1", inode: "1" }] })).toBe("inputs.0")
    expect(check({ inputs: [{ path: "research/a/runs/x", device: "1", inode: "1" }] })).toBe("contained")
    expect(check({ work: { path: "research/a/data/w", device: "1", inode: "1" } })).toBe("work")
    expect(check({ tools: ["notebook"] })).toBe("tools")
    expect(check({ deadline: "2030-01-01T00:00:00.001Z" })).toBe("deadline")
  })

  it("a child of a grant made for one candidate is made for the same one", () => {
    const forCandidate = sealGrant({ ...parent, candidateId: "c1" })
    const check = (grant: StoredGrant, candidateId: string | null) => {
      const r = checkContained(childOf(remaining, { candidateId }), { grant, deadline: parent.deadline, remaining })
      return Either.isLeft(r) ? r.left.field : "contained"
    }
    expect(check(forCandidate, "c1")).toBe("contained")
    expect(check(forCandidate, "c2")).toBe("candidateId")
    expect(check(forCandidate, null)).toBe("candidateId")
    expect(check(parent, "c2")).toBe("contained")
  })

  it.prop("a narrowing may only lower figures and bring the deadline forward", {
    field: fc.constantFrom(...BUDGET_FIELDS),
    delta: fc.integer({ min: -5, max: 5 })
  }, ({ field, delta }) => {
    const r = checkNarrowing({ deadline: parent.deadline, budget: remaining }, {
      budget: { [field]: remaining[field] + delta }
    })
    expect(Either.isRight(r)).toBe(delta <= 0)
  })

  it.prop("carving: what children are granted and runs spend is taken from the remainder, never below zero", {
    children: fc.array(within, { maxLength: 3 }),
    runs: fc.array(
      fc.record({ wallSeconds: fc.nat(50), cpuSeconds: fc.nat(50), outputBytes: fc.nat(10 * 1024 * 1024) }),
      { maxLength: 3 }
    )
  }, ({ children, runs }) => {
    const left = remainingBudget(remaining, children, runs)
    expect(left.memoryMiB).toBe(remaining.memoryMiB)
    const runsLeft = remaining.runs - children.reduce((n, c) => n + c.runs, 0) - runs.length
    expect(left.runs).toBe(Math.max(0, runsLeft))
    for (const f of BUDGET_FIELDS) expect(left[f]).toBeGreaterThanOrEqual(0)
  })

  it("always-protected paths", () => {
    expect(alwaysProtectedIn(".dossier")).toBe(".dossier")
    expect(alwaysProtectedIn(".dossier/grants")).toBe(".dossier")
    expect(alwaysProtectedIn("research")).toBe("research/<study>/research-events.jsonl")
    expect(alwaysProtectedIn("research/st")).toBe("research/st/research-events.jsonl")
    expect(alwaysProtectedIn("research/sources")).toBeUndefined() // readable; never a work root (reservedRoot)
    expect(alwaysProtectedIn("research/st/data")).toBeUndefined()
    // A `.dossier` folder at any depth: another work folder's private state, and a marker.
    expect(alwaysProtectedIn("research/st/.dossier")).toBe("research/st/.dossier")
    expect(alwaysProtectedIn("research/st/.dossier/runs/r1")).toBe("research/st/.dossier")
    expect(alwaysProtectedIn("research/st/.dossier.from-run")).toBeUndefined()
  })

  it("every refusal of a root says what to do, whatever its reason", () => {
    const cases: Array<ConstructorParameters<typeof ProtectedPathInGrant>[0]> = [
      ...ProtectedReason.literals.map((reason) => ({ path: ".dossier", root: ".dossier/x", reason })),
      { path: "research/a/w", root: "research/a/w/in" }
    ]
    for (const c of cases) {
      // The fact, then what to do after the semicolon.
      expect(new ProtectedPathInGrant(c).message, c.reason ?? "none").toMatch(/; (grant|choose|move|revoke|use) /)
    }
  })
})

const entry = (path: string, over: Partial<TreeEntry> = {}): TreeEntry => ({
  path,
  kind: "file",
  device: "1",
  inode: path,
  size: 1,
  mtimeNs: "1",
  ctimeNs: "1",
  ...over
})

describe("execution evidence", () => {
  it.prop(
    "outputs are the regular files created or changed; links and special files are listed apart, never as outputs",
    {
      names: fc.uniqueArray(fc.stringMatching(/^[a-z]{1,6}$/), { minLength: 1, maxLength: 8 }),
      change: fc.array(fc.constantFrom("same", "touched", "new-file", "new-link", "gone"), {
        minLength: 8,
        maxLength: 8
      })
    },
    ({ names, change }) => {
      const before = names.map((n) => entry(`w/${n}`))
      const after: Array<TreeEntry> = []
      const expected: Array<string> = []
      const ignored: Array<string> = []
      names.forEach((n, i) => {
        const c = change[i]!
        if (c === "same") after.push(entry(`w/${n}`))
        if (c === "touched") {
          after.push(entry(`w/${n}`, { mtimeNs: "2" }))
          expected.push(`w/${n}`)
        }
        if (c === "new-file") {
          after.push(entry(`w/${n}`), entry(`w/${n}.new`))
          expected.push(`w/${n}.new`)
        }
        if (c === "new-link") {
          after.push(entry(`w/${n}`), entry(`w/${n}.lnk`, { kind: "symlink" }))
          ignored.push(`w/${n}.lnk`)
        }
      })
      const r = changedFiles(before, after)
      expect(r.files).toEqual([...expected].sort())
      expect(r.ignored.map((i) => i.path)).toEqual([...ignored].sort())
    }
  )

  it("the receipt digest breaks when any field changes", () => {
    const log = { path: ".dossier/executions/x/stdout", bytes: 0, sha256: "0".repeat(64), truncated: false }
    const r = sealExecution({
      id: "x-20260101T000000-00000000",
      grantId: "g",
      grantDigest: "d",
      task: "t",
      candidateId: null,
      argv: ["true"],
      startedAt: "2026-01-01T00:00:00.000Z",
      endedAt: "2026-01-01T00:00:01.000Z",
      status: "exited",
      exitCode: 0,
      signal: null,
      reason: null,
      detail: null,
      limits: { wallSeconds: 1, cpuSeconds: 1, memoryMiB: 16, processes: 1, fileMiB: 1 },
      cpuSeconds: 0,
      maxRssKiB: 1,
      wallSeconds: 1,
      stdout: log,
      stderr: log,
      outputs: [],
      ignored: []
    })
    expect(receiptHolds(r)).toBe(true)
    expect(receiptHolds({ ...r, exitCode: 1 })).toBe(false)
    expect(receiptHolds({ ...r, outputs: [{ path: "a", bytes: 1, sha256: "1".repeat(64) }] })).toBe(false)
  })
})

describe("signatures and where a program is", () => {
  const hex64 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b))
  const digest = fc.stringMatching(/^[0-9a-f]{64}$/)

  it.prop("a signature holds only for its key, kind and digest; none is unsigned, another key unverifiable", {
    key: hex64,
    other: hex64,
    d: digest,
    e: digest
  }, ({ key, other, d, e }) => {
    const s = signDigest(key, "execution", d)
    expect(checkSignature({ key }, "execution", d, s).authenticity).toBe("signed")
    expect(checkSignature({ key }, "execution", e, s).authenticity).toBe(d === e ? "signed" : "tampered")
    expect(checkSignature({ key }, "grant", d, s).authenticity).toBe("tampered")
    expect(
      checkSignature({ key }, "execution", d, { ...s, mac: signDigest(key, "execution", `${d}x`).mac }).authenticity
    ).toBe("tampered")
    expect(checkSignature({ key }, "execution", d, undefined).authenticity).toBe("unsigned")
    expect(checkSignature({ missing: "none here" }, "execution", d, s).authenticity).toBe("unverifiable")
    if (!key.equals(other)) expect(checkSignature({ key: other }, "execution", d, s).authenticity).toBe("unverifiable")
  }, { fastCheck: { numRuns: 100 } })

  it.prop("a program is looked for only inside the sandbox's view: a root, not masked, or a system directory", {
    program: fc.array(
      fc.constantFrom("..", ".", "work", "research", "a", "data", "holdout", "usr", "bin", "tmp", "x"),
      { maxLength: 6 }
    )
      .chain((parts) => fc.constantFrom(parts.join("/"), `/${parts.join("/")}`, `./${parts.join("/")}`))
  }, ({ program }) => {
    const view = { work: "research/a/runs/r1", inputs: ["research/a/data"], masks: ["research/a/data/holdout"] }
    for (const place of programPlaces(program, view)) {
      if ("folder" in place) {
        expect(
          [view.work, ...view.inputs].some((r) => place.folder === r || place.folder.startsWith(`${r}/`)),
          place.folder
        ).toBe(true)
        expect(place.folder === view.masks[0] || place.folder.startsWith(`${view.masks[0]}/`)).toBe(false)
        expect(place.folder.split("/")).not.toContain("..")
      } else {
        expect(SYSTEM_DIRS.some((d) => place.system === d || place.system.startsWith(`${d}/`)), place.system).toBe(true)
      }
    }
  }, { fastCheck: { numRuns: 200 } })

  it("a key inside the work folder or anything the sandbox shows is refused", () => {
    expect(keyExposure("/home/u/.config/dossier", "/home/u/project")).toBeNull()
    expect(keyExposure("/home/u/project/.config/dossier", "/home/u/project")).toContain("work folder")
    expect(keyExposure("/usr/local/etc/dossier", "/home/u/project")).toContain("/usr")
    expect(keyExposure("/etc/alternatives/dossier", "/home/u/project")).toContain("/etc/alternatives")
    expect(keyExposure("/home/u/project-2/dossier", "/home/u/project")).toBeNull()
  })

  it("the sandbox's /etc names root, nobody and the running user by nothing of the machine's", () => {
    const etc = Object.fromEntries(
      sandboxEtc({ uid: 1000, gid: 1000, home: "/work/w" }).map((f) => [f.path, f.content])
    )
    expect(etc["/etc/passwd"]).toBe(
      "root:x:0:0:root:/root:/bin/sh\n" +
        "dossier:x:1000:1000:dossier:/work/w:/bin/sh\n" +
        "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"
    )
    expect(etc["/etc/group"]).toBe("root:x:0:\ndossier:x:1000:\nnogroup:x:65534:\n")
    expect(etc["/etc/hosts"]).toBe("127.0.0.1 localhost\n::1 localhost ip6-localhost ip6-loopback\n")
    // A user whose group is root's: no group of its own.
    const [passwd, group] = sandboxEtc({ uid: 1001, gid: 0, home: "/work/w" })
    expect(passwd!.content).toContain("\ndossier:x:1001:0:dossier:/work/w:/bin/sh\n")
    expect(group!.content).toBe("root:x:0:\nnogroup:x:65534:\n")
  })
})

describe("masks", () => {
  it("masks nested in one another are mounted once, the outermost", () => {
    const m = (path: string) => ({ path, directory: true })
    expect(outermostMasks([m("a/b/c"), m("a/b"), m("a/bc"), m("a/b"), m("x")]).map((x) => x.path))
      .toEqual(["a/b", "a/bc", "x"])
  })
})

describe("every spelling of a protected entry", () => {
  const NFD = "cafe\u0301"
  const tree: Record<string, ReadonlyArray<{ name: string; kind: "file" | "directory" | "symlink" }>> = {
    "d": [{ name: "caf\u00e9", kind: "directory" }, { name: NFD, kind: "directory" }, { name: "x", kind: "file" }],
    "d/caf\u00e9": [{ name: "s.csv", kind: "file" }],
    [`d/${NFD}`]: [{ name: "s.csv", kind: "file" }],
    "e": [{ name: NFD, kind: "symlink" }]
  }

  it.effect("each directory listed once; a symlink where the entry goes on is answered, not followed", () =>
    Effect.gen(function*() {
      const listed: Array<string> = []
      const find = spellingFinder((dir) => Effect.sync(() => (listed.push(dir), tree[dir] ?? [])))
      expect((yield* find("d/caf\u00e9/s.csv", ["d", "e"])).map((s) => s.path))
        .toEqual(["d/caf\u00e9/s.csv", `d/${NFD}/s.csv`])
      expect(yield* find(`d/${NFD}`, ["d"])).toEqual([
        { path: "d/caf\u00e9", throughLink: false },
        { path: `d/${NFD}`, throughLink: false }
      ])
      expect(listed).toEqual(["d", "d/caf\u00e9", `d/${NFD}`])
      expect(yield* find("e/caf\u00e9/s.csv", ["e"])).toEqual([{ path: `e/${NFD}/s.csv`, throughLink: true }])
      expect(yield* find("e/caf\u00e9", ["e"])).toEqual([{ path: `e/${NFD}`, throughLink: false }])
      expect(yield* find("f/caf\u00e9", ["d", "e"])).toEqual([])
    }))
})
