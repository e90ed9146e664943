/**
 * A confined run must not change which work folder a later command finds. Without `--workdir`,
 * dossier takes the nearest folder upward holding a `.dossier/` directory or a plan.md with a plan
 * section (src/cli/Search.ts); a run that leaves either in its work root would make a command run
 * from inside it work on the run's folder instead of the real one. dossier renames them once the
 * run is over (as it is recorded, `lost` included) and the record says so. Through the built CLI;
 * skipped without bubblewrap.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { runCli } from "../support/cli.js"
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
    for (let i = 0; i < 200 && !fs.existsSync(path.join(work, "ready")); i++) {
      await new Promise((r) => setTimeout(r, 50))
    }
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
