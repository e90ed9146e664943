/**
 * Protection of grants through the built CLI: a child never sees what an ancestor protects;
 * dossier-owned areas are never a work root; a study folder is refused with a hint that works;
 * protected entries nested in one another are masked once (the outermost).
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { KEY_FILE, signDigest } from "../../src/domain/Evidence.js"
import { sealGrant } from "../../src/domain/Grant.js"
import {
  childGrant,
  createGrant,
  exec,
  folder,
  grantInput,
  ok,
  put,
  putInput,
  refused,
  sandboxWorks,
  stdoutOf
} from "./support.js"

const parentWithHoldout = (dir: string) =>
  createGrant(dir, { inputs: ["research/exp/data"], protected: ["research/exp/data/holdout"] })

describe("a child grant never sees what an ancestor protects", () => {
  it("the child inherits the parent's protected entries; a root inside one is refused", () => {
    const dir = folder()
    parentWithHoldout(dir)
    const c = ok(dir, ["grant", "create", "--input", putInput(dir, "c.json", childGrant({ protected: [] }))])
    expect(c.grant.protected).toEqual(["research/exp/data/holdout"])
    for (
      const [name, inputs] of [["c2", ["research/exp/data/holdout"]], ["c3", [
        "research/exp/data/holdout/deeper"
      ]]] as const
    ) {
      put(dir, "research/exp/data/holdout/deeper/x.txt", "x")
      const e = refused(dir, [
        "grant",
        "create",
        "--input",
        putInput(
          dir,
          `${name}.json`,
          childGrant({ id: name, work: `research/exp/runs/r1/${name}`, inputs, protected: [] })
        )
      ], "ProtectedPathInGrant")
      expect(e).toMatchObject({ path: "research/exp/data/holdout", root: inputs[0], reason: "ancestor-protected" })
      expect(e.message).toContain("ancestor grant protects")
      expect(fs.existsSync(path.join(dir, `.dossier/grants/${name}.json`))).toBe(false)
    }
    // A grandchild inherits through its parent.
    const g = ok(dir, [
      "grant",
      "create",
      "--input",
      putInput(
        dir,
        "gc.json",
        childGrant({
          id: "g3",
          task: "task-3",
          parent: "g2",
          work: "research/exp/runs/r1/child/g3",
          budget: { runs: 1, wallSeconds: 10, cpuSeconds: 10, memoryMiB: 64, outputMiB: 1 }
        })
      )
    ])
    expect(g.grant.protected).toEqual(["research/exp/data/holdout"])
  })

  it.skipIf(!sandboxWorks)("cat of the parent's holdout from inside the child's sandbox finds nothing", () => {
    const dir = folder()
    parentWithHoldout(dir)
    ok(dir, ["grant", "create", "--input", putInput(dir, "c.json", childGrant({ protected: [] }))])
    const x = exec(dir, "g2", ["/bin/cat", "/work/research/exp/data/holdout/labels.csv"])
    expect(x.exitCode).not.toBe(0)
    expect(stdoutOf(dir, x)).not.toContain("HOLDOUT-LABELS")
    // The rest of the input root is there.
    expect(stdoutOf(dir, exec(dir, "g2", ["/bin/cat", "/work/research/exp/data/train.csv"]))).toBe("a,b\n1,2\n")
  })

  it.skipIf(!sandboxWorks)(
    "a child stored without the inherited entries (an earlier version) is masked, or refused, at exec",
    () => {
      const dir = folder()
      parentWithHoldout(dir)
      ok(dir, ["grant", "create", "--input", putInput(dir, "c.json", childGrant({ protected: [] }))])
      const file = path.join(dir, ".dossier/grants/g2.json")
      const rewrite = (over: object) => {
        // As an earlier version stored it, signed with this machine's key (as `grant create` signs).
        const { digest: _d, signature: _s, ...content } = JSON.parse(fs.readFileSync(file, "utf8"))
        const sealed = sealGrant({ ...content, ...over })
        const key = Buffer.from(
          fs.readFileSync(path.join(process.env["XDG_CONFIG_HOME"]!, "dossier", KEY_FILE), "latin1").slice(0, 64),
          "hex"
        )
        fs.writeFileSync(
          file,
          `${JSON.stringify({ ...sealed, signature: signDigest(key, "grant", sealed.digest) }, null, 2)}\n`
        )
      }
      rewrite({ protected: [] })
      const x = exec(dir, "g2", ["/bin/cat", "/work/research/exp/data/holdout/labels.csv"])
      expect(stdoutOf(dir, x)).not.toContain("HOLDOUT-LABELS")
      const holdout = fs.statSync(path.join(dir, "research/exp/data/holdout"), { bigint: true })
      rewrite({
        inputs: [{ path: "research/exp/data/holdout", device: String(holdout.dev), inode: String(holdout.ino) }]
      })
      expect(
        refused(
          dir,
          ["exec", "--grant", "g2", "--", "/bin/cat", "/work/research/exp/data/holdout/labels.csv"],
          "ProtectedPathInGrant"
        )
      )
        .toMatchObject({ path: "research/exp/data/holdout", reason: "ancestor-protected" })
    }
  )
})

describe("a protected path that cannot be masked", () => {
  it.skipIf(!sandboxWorks)("a symlink (or a path through one) is refused at exec, never run unmasked", () => {
    const dir = folder()
    put(dir, "research/exp/data/kept/s.txt", "SECRET-BEHIND-LINK\n")
    fs.symlinkSync("kept", path.join(dir, "research/exp/data/alias"))
    createGrant(dir, { protected: ["research/exp/data/alias", "research/exp/data/alias/s.txt"] })
    const e = refused(
      dir,
      ["exec", "--grant", "g1", "--", "/bin/cat", "/work/research/exp/data/alias/s.txt"],
      "UnsafePath"
    )
    expect(e).toMatchObject({ path: "research/exp/data/alias", reason: "symlink" })
    expect(
      fs.existsSync(path.join(dir, ".dossier/executions")) ? fs.readdirSync(path.join(dir, ".dossier/executions")) : []
    ).toEqual([])
  })
})

describe("protected entries nested in one another", () => {
  it.skipIf(!sandboxWorks)("the outer mask hides both and the run starts", () => {
    const dir = folder()
    createGrant(dir, { protected: [...grantInput().protected, "research/exp/data/holdout/labels.csv"] })
    const x = exec(dir, "g1", ["/bin/cat", "/work/research/exp/data/holdout/labels.csv"])
    expect(x.exitCode).not.toBe(0)
    expect(stdoutOf(dir, x)).not.toContain("HOLDOUT-LABELS")
  })
})

describe("areas dossier owns are never a work root", () => {
  it("research/sources, results, inputs, gate and below, and a journal's folders, are refused with a clear message", () => {
    const dir = folder()
    put(dir, "research/sources/page.md", "CAPTURE\n")
    for (
      const [k, work] of [
        "research/sources",
        "research/sources/x",
        "research/results",
        "research/inputs/run",
        "research/gate"
      ].entries()
    ) {
      const e = refused(dir, [
        "grant",
        "create",
        "--input",
        putInput(dir, `w${k}.json`, grantInput({ id: `w${k}`, work }))
      ], "ProtectedPathInGrant")
      expect(e).toMatchObject({ root: work, reason: "dossier-owned", path: work.split("/").slice(0, 2).join("/") })
      expect(e.message).toContain("dossier owns")
    }
    expect(fs.existsSync(path.join(dir, "research/results"))).toBe(false)
    for (const work of ["research/exp/recovered", "research/exp/legacy/x"]) {
      expect(
        refused(
          dir,
          ["grant", "create", "--input", putInput(dir, "j.json", grantInput({ id: "j", work }))],
          "ProtectedPathInGrant"
        ).reason
      ).toBe("journal-file")
    }
    // A holdout inside the work root cannot be hidden: the message says what to do instead.
    const w = refused(dir, [
      "grant",
      "create",
      "--input",
      putInput(dir, "hw.json", grantInput({ id: "hw", protected: ["research/exp/runs/r1/holdout"] }))
    ], "ProtectedPathInGrant")
    expect(w).toMatchObject({ reason: "protected", root: "research/exp/runs/r1", path: "research/exp/runs/r1/holdout" })
    expect(w.message).toContain("a work root is never masked")
    // Reading them is fine.
    ok(dir, [
      "grant",
      "create",
      "--input",
      putInput(dir, "r.json", grantInput({ id: "r", inputs: ["research/sources"], protected: [] }))
    ])
  })
})

describe("a study folder as a root", () => {
  it("is refused with a hint that works: listing the journal in protected does not, a folder below does", () => {
    const dir = folder()
    put(dir, "research/bench/tools/bench.py", "print('bench')\n")
    const base = { id: "b", task: "bench", inputs: ["research/bench"], work: "research/exp/runs/b", protected: [] }
    const e = refused(
      dir,
      ["grant", "create", "--input", putInput(dir, "b.json", grantInput(base))],
      "ProtectedPathInGrant"
    )
    expect(e).toMatchObject({
      root: "research/bench",
      path: "research/bench/research-events.jsonl",
      reason: "study-folder"
    })
    expect(e.message).toContain("whether or not it exists yet")
    expect(e.message).toContain("grant a folder below it")
    // What the old hint said to do still fails, and now says why.
    const again = refused(dir, [
      "grant",
      "create",
      "--input",
      putInput(dir, "b2.json", grantInput({ ...base, protected: ["research/bench/research-events.jsonl"] }))
    ], "ProtectedPathInGrant")
    expect(again.message).toContain("no entry of 'protected' can change that")
    // What the hint says now works.
    const g = ok(dir, [
      "grant",
      "create",
      "--input",
      putInput(dir, "b3.json", grantInput({ ...base, inputs: ["research/bench/tools"] }))
    ])
    expect(g.grant.inputs[0].path).toBe("research/bench/tools")
    if (sandboxWorks) {
      expect(stdoutOf(dir, exec(dir, "b", ["/bin/cat", "/work/research/bench/tools/bench.py"]))).toBe(
        "print('bench')\n"
      )
    }
  })
})
