/**
 * A confined run must not change which work folder a later command finds. Without `--workdir`,
 * dossier takes the nearest folder upward holding a `.dossier/` directory or a plan.md with a plan
 * section (src/cli/Search.ts); a run that leaves either in its work root would make a command run
 * from inside it work on the run's folder instead of the real one. dossier renames them once the
 * run is over (as it is recorded, `lost` included) and the record says so. A work root that
 * already holds one (a nested dossier kept there) is refused, by grant create and by exec, never
 * renamed as if the run had left it. Through the built CLI; the runs skipped without bubblewrap.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { searchUpward } from "../../src/cli/Search.js"
import { runCli, tempWorkdir } from "../support/cli.js"
import {
  createGrant,
  exec,
  execAsync,
  folder,
  grantInput,
  ok,
  put,
  putInput,
  refused,
  sandboxWorks,
  waitForFile,
  waitForRunning
} from "./support.js"

const PLAN = "# fake\n<!-- dossier:plan:begin -->\n```json\n{}\n```\n<!-- dossier:plan:end -->\n"

/** `dossier status --json` run from `cwd` without `--workdir`: the folder it found, relative to `cwd`. */
const statusFrom = (cwd: string) => {
  const r = runCli(["status", "--json"], { cwd, env: { DOSSIER_WORKDIR: "" } })
  expect(r.code).toBe(0)
  return r.json
}

describe.skipIf(!sandboxWorks)("a run that leaves a work folder's marker in its work root", () => {
  it("has it renamed at any depth, so a command run inside the work root still finds the real folder", () => {
    const dir = folder()
    createGrant(dir)
    const work = path.join(dir, "research/exp/runs/r1")
    const x = exec(dir, "g1", [
      "sh",
      "-c",
      [
        "mkdir -p .dossier/grants && echo '{}' > .dossier/grants/forged.json",
        "mkdir -p deep/a/.dossier",
        `mkdir -p sub && printf '${PLAN}' > sub/plan.md`,
        "mkdir -p notes && echo 'just notes' > notes/plan.md",
        "mkdir -p taken/.dossier taken/.dossier.from-run && echo kept > taken/.dossier.from-run/mine",
        "mkdir -p file && echo x > file/.dossier"
      ].join(" && ")
    ])
    expect(x.status).toBe("exited")
    expect(x.exitCode).toBe(0)
    // The folders and the plan are renamed, with what they held; the rest is as the run left it.
    expect(fs.lstatSync(path.join(work, ".dossier.from-run/grants/forged.json")).isFile()).toBe(true)
    expect(fs.lstatSync(path.join(work, "deep/a/.dossier.from-run")).isDirectory()).toBe(true)
    expect(fs.readFileSync(path.join(work, "sub/plan.md.from-run"), "utf8")).toBe(PLAN)
    expect(fs.readFileSync(path.join(work, "notes/plan.md"), "utf8")).toBe("just notes\n")
    expect(fs.readFileSync(path.join(work, "taken/.dossier.from-run/mine"), "utf8")).toBe("kept\n")
    expect(fs.readFileSync(path.join(work, "file/.dossier"), "utf8")).toBe("x\n")
    for (const p of [".dossier", "deep/a/.dossier", "sub/plan.md", "taken/.dossier"]) {
      expect(fs.existsSync(path.join(work, p))).toBe(false)
    }
    expect(fs.readdirSync(path.join(work, "taken")).filter((n) => n.startsWith(".dossier.from-run-"))).toHaveLength(1)
    // The record says what was renamed, and lists the outputs under their new names.
    const found = x.findings.filter((f: { kind: string }) => f.kind === "work-folder-marker")
    expect(found).toHaveLength(1)
    expect(found[0].detail).toContain("4 '.dossier' folder(s) or plan.md file(s)")
    expect(found[0].detail).toContain("'research/exp/runs/r1/.dossier' to '.dossier.from-run'")
    expect(found[0].detail).toContain("'research/exp/runs/r1/deep/a/.dossier' to '.dossier.from-run'")
    expect(found[0].detail).toContain("'research/exp/runs/r1/sub/plan.md' to 'plan.md.from-run'")
    expect(found[0].detail).toContain("'research/exp/runs/r1/taken/.dossier' to '.dossier.from-run-")
    const outputs = x.outputs.map((o: { path: string }) => o.path)
    expect(outputs).toContain("research/exp/runs/r1/.dossier.from-run/grants/forged.json")
    expect(outputs).toContain("research/exp/runs/r1/sub/plan.md.from-run")
    // A command run from inside the work root finds the folder the grant belongs to.
    for (const at of [work, path.join(work, "deep/a"), path.join(work, "sub")]) {
      const s = statusFrom(at)
      expect(path.resolve(at, s.workdir)).toBe(dir)
      expect(s.grants.active).toBe(1)
    }
  })

  it("a run whose exec died has them renamed when it is recorded lost", async () => {
    const dir = folder()
    createGrant(dir)
    const work = path.join(dir, "research/exp/runs/r1")
    const run = execAsync(dir, "g1", ["sh", "-c", "mkdir .dossier && touch ready && sleep 1236"])
    const id = await waitForRunning(dir)
    await waitForFile(path.join(work, "ready"))
    expect(fs.lstatSync(path.join(work, ".dossier")).isDirectory()).toBe(true)
    run.child.kill("SIGKILL")
    await run.done
    ok(dir, ["grant", "show", "--grant", "g1"])
    expect(fs.existsSync(path.join(work, ".dossier"))).toBe(false)
    expect(fs.lstatSync(path.join(work, ".dossier.from-run")).isDirectory()).toBe(true)
    const lost = ok(dir, ["exec", "show", "--execution", id]).execution
    expect(lost.status).toBe("lost")
    expect(lost.findings.map((f: { kind: string }) => f.kind)).toEqual(["work-folder-marker"])
    expect(lost.findings[0].detail).toContain("'research/exp/runs/r1/.dossier' to '.dossier.from-run'")
    expect(path.resolve(work, statusFrom(work).workdir)).toBe(dir)
  })
})

describe("a root named .dossier", () => {
  it("is refused at any depth, work or input, and nothing is created", () => {
    const dir = folder()
    put(dir, "research/exp/nested/.dossier/grants/other.json", "{}\n")
    for (
      const [over, root, at] of [
        [{ work: "research/exp/x/.dossier" }, "research/exp/x/.dossier", "research/exp/x/.dossier"],
        [{ work: "research/exp/x/.dossier/runs" }, "research/exp/x/.dossier/runs", "research/exp/x/.dossier"],
        [
          { inputs: ["research/exp/nested/.dossier/grants"] },
          "research/exp/nested/.dossier/grants",
          "research/exp/nested/.dossier"
        ]
      ] as const
    ) {
      const e = refused(
        dir,
        ["grant", "create", "--input", putInput(dir, "grant.json", grantInput(over))],
        "ProtectedPathInGrant"
      )
      expect({ path: e.path, root: e.root, reason: e.reason }).toEqual({ path: at, root, reason: "always-protected" })
    }
    expect(fs.existsSync(path.join(dir, "research/exp/x"))).toBe(false)
    expect(fs.existsSync(path.join(dir, ".dossier/grants/g1.json"))).toBe(false)
  })
})

/** The record files of the folder's executions (in-flight markers and reservations included). */
const executionFiles = (dir: string) =>
  fs.existsSync(path.join(dir, ".dossier/executions")) ? fs.readdirSync(path.join(dir, ".dossier/executions")) : []

describe("a work root that already holds a work folder's marker", () => {
  it("is refused by grant create, and nothing is stored", () => {
    const dir = folder()
    put(dir, "research/exp/runs/r1/kept/.dossier/grants/other.json", "{}\n")
    put(dir, "research/exp/runs/r2/sub/plan.md", PLAN)
    for (
      const [work, at] of [
        ["research/exp/runs/r1", "research/exp/runs/r1/kept/.dossier"],
        ["research/exp/runs/r2", "research/exp/runs/r2/sub/plan.md"]
      ] as const
    ) {
      const e = refused(
        dir,
        ["grant", "create", "--input", putInput(dir, "grant.json", grantInput({ work }))],
        "ProtectedPathInGrant"
      )
      expect({ path: e.path, root: e.root, reason: e.reason }).toEqual({
        path: at,
        root: work,
        reason: "always-protected"
      })
      expect(e.message).toContain(`holds '${at}', the marker of a work folder`)
    }
    expect(fs.existsSync(path.join(dir, ".dossier/grants/g1.json"))).toBe(false)
    // Left as it was: nothing renamed.
    expect(fs.lstatSync(path.join(dir, "research/exp/runs/r1/kept/.dossier")).isDirectory()).toBe(true)
    expect(fs.readFileSync(path.join(dir, "research/exp/runs/r2/sub/plan.md"), "utf8")).toBe(PLAN)
  })

  it("a plan.md without the plan section, and a .dossier that is a file, are no markers", () => {
    const dir = folder()
    put(dir, "research/exp/runs/r1/notes/plan.md", "just notes\n")
    put(dir, "research/exp/runs/r1/file/.dossier", "x\n")
    expect(ok(dir, ["grant", "create", "--input", putInput(dir, "grant.json", grantInput())]).created).toBe(true)
  })
})

describe.skipIf(!sandboxWorks)("a marker put in a work root after its grant", () => {
  it("refuses the run before it starts: left alone, nothing recorded or charged", () => {
    const dir = folder()
    createGrant(dir)
    const work = path.join(dir, "research/exp/runs/r1")
    put(dir, "research/exp/runs/r1/nested/.dossier/grants/other.json", "{}\n")
    const e = refused(dir, ["exec", "--grant", "g1", "--", "/bin/true"], "ProtectedPathInGrant")
    expect({ path: e.path, root: e.root, reason: e.reason }).toEqual({
      path: "research/exp/runs/r1/nested/.dossier",
      root: "research/exp/runs/r1",
      reason: "always-protected"
    })
    expect(fs.readFileSync(path.join(work, "nested/.dossier/grants/other.json"), "utf8")).toBe("{}\n")
    expect(fs.existsSync(path.join(work, "nested/.dossier.from-run"))).toBe(false)
    expect(executionFiles(dir)).toEqual([])
    expect(ok(dir, ["grant", "show", "--grant", "g1"]).remaining.runs).toBe(20)
    // Moved out, the run goes ahead, and the record names no marker.
    fs.renameSync(path.join(work, "nested"), path.join(dir, "research/exp/nested"))
    const x = exec(dir, "g1", ["/bin/true"])
    expect(x.status).toBe("exited")
    expect(x.findings).toEqual([])
  })
})

describe("while a run is in flight, what it made in its work root", () => {
  it("marks no work folder: the search passes over it to the folder the run belongs to", () => {
    const dir = tempWorkdir("dossier-search-")
    put(dir, ".dossier/grants/g1.json", JSON.stringify({ id: "g1", work: { path: "research/exp/runs/r1" } }))
    put(dir, "research/exp/runs/r1/.dossier/grants/forged.json", "{}\n")
    put(dir, "research/exp/runs/r1/sub/plan.md", PLAN)
    put(dir, "research/exp/runs/r10/.dossier/keep", "")
    const work = path.join(dir, "research/exp/runs/r1")
    // No run in flight: the nearest marker is the work folder (a run's leftovers are renamed when recorded).
    expect(searchUpward(path.join(work, "sub"))).toBe(path.join(work, "sub"))
    expect(searchUpward(work)).toBe(work)
    // A run of g1 in flight: its work root's markers are passed over, at any depth.
    put(dir, ".dossier/executions/x-20261206T000000-0000abcd.running.json", JSON.stringify({ grantId: "g1" }))
    expect(searchUpward(path.join(work, "sub"))).toBe(dir)
    expect(searchUpward(work)).toBe(dir)
    // Not a folder beside it whose name starts the same.
    expect(searchUpward(path.join(dir, "research/exp/runs/r10"))).toBe(path.join(dir, "research/exp/runs/r10"))
    // A marker naming no grant that can be read, or a grant id that is a path, counts for nothing.
    fs.writeFileSync(
      path.join(dir, ".dossier/executions/x-20261206T000000-0000abcd.running.json"),
      "{\"grantId\":\"../g1\"}"
    )
    expect(searchUpward(work)).toBe(work)
  })
})

describe.skipIf(!sandboxWorks)("a command run inside a running work root", () => {
  it("works on the folder the run belongs to, not on what the run made", async () => {
    const dir = folder()
    createGrant(dir)
    const work = path.join(dir, "research/exp/runs/r1")
    const run = execAsync(dir, "g1", [
      "sh",
      "-c",
      `mkdir -p .dossier sub && printf '${PLAN}' > sub/plan.md && touch ready && sleep 1238`
    ])
    await waitForRunning(dir)
    await waitForFile(path.join(work, "ready"))
    expect(fs.lstatSync(path.join(work, ".dossier")).isDirectory()).toBe(true)
    // (The grant shows as exhausted meanwhile: a run in flight counts its whole wall limit.)
    const real = statusFrom(dir)
    for (const at of [work, path.join(work, "sub")]) {
      const s = statusFrom(at)
      expect(path.resolve(at, s.workdir)).toBe(dir)
      expect(s.grants).toEqual(real.grants)
    }
    run.child.kill("SIGKILL")
    await run.done
    ok(dir, ["grant", "show", "--grant", "g1"])
    expect(fs.existsSync(path.join(work, ".dossier"))).toBe(false)
  })
})

describe("an input root that holds a work folder's marker", () => {
  it("is refused by grant create, naming the marker, and nothing is stored", () => {
    const dir = folder()
    put(dir, "research/exp/data/copy/.dossier/grants/other.json", "OTHER-GRANT\n")
    const e = refused(
      dir,
      ["grant", "create", "--input", putInput(dir, "grant.json", grantInput())],
      "ProtectedPathInGrant"
    )
    expect({ path: e.path, root: e.root, reason: e.reason }).toEqual({
      path: "research/exp/data/copy/.dossier",
      root: "research/exp/data",
      reason: "always-protected"
    })
    expect(e.message).toContain("holds 'research/exp/data/copy/.dossier', the marker of a work folder")
    expect(fs.existsSync(path.join(dir, ".dossier/grants/g1.json"))).toBe(false)
    fs.rmSync(path.join(dir, "research/exp/data/copy"), { recursive: true })
    put(dir, "research/exp/data/copy/plan.md", PLAN)
    const plan = refused(
      dir,
      ["grant", "create", "--input", putInput(dir, "grant.json", grantInput())],
      "ProtectedPathInGrant"
    )
    expect(plan.path).toBe("research/exp/data/copy/plan.md")
  })
})

describe.skipIf(!sandboxWorks)("a marker put in an input root after its grant", () => {
  it("refuses the run before it starts: the program never sees that folder's records", () => {
    const dir = folder()
    createGrant(dir)
    put(dir, "research/exp/data/copy/.dossier/grants/other.json", "OTHER-GRANT\n")
    const e = refused(
      dir,
      ["exec", "--grant", "g1", "--", "cat", "../../data/copy/.dossier/grants/other.json"],
      "ProtectedPathInGrant"
    )
    expect({ path: e.path, root: e.root, reason: e.reason }).toEqual({
      path: "research/exp/data/copy/.dossier",
      root: "research/exp/data",
      reason: "always-protected"
    })
    expect(executionFiles(dir)).toEqual([])
    expect(ok(dir, ["grant", "show", "--grant", "g1"]).remaining.runs).toBe(20)
    // Moved out, the run goes ahead.
    fs.renameSync(path.join(dir, "research/exp/data/copy"), path.join(dir, "research/exp/copy"))
    expect(exec(dir, "g1", ["/bin/true"]).status).toBe("exited")
  })
})
