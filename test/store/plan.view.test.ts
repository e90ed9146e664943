/**
 * plan.md in a folder bound to a shared dossier is a copy of the store's plan that people read,
 * and may edit: a refresh (`dossier pull`, the refresh after a writing command) replaces the copy
 * dossier wrote, and keeps a plan.md edited here (named in `kept`, said with the way out) until it
 * is moved aside. Through the built CLI with --json against the test's own throwaway cluster
 * (skipped with a note without the server binaries): two folders (two hosts) per dossier.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { putInput, runCli, tempWorkdir } from "../support/cli.js"
import { pgAvailable, useTestDatabase } from "../support/postgres.js"
import { NOW, ok } from "./support/populated.js"

const cli = (dir: string, args: ReadonlyArray<string>) => runCli([...args, "--workdir", dir, "--json"])

const planOf = (dir: string) => fs.readFileSync(path.join(dir, "plan.md"))

/** `plan checkpoint` of one completed step at revision `expected`: the CLI's whole answer. */
const checkpointRun = (dir: string, step: string, expected: number) =>
  cli(dir, [
    "plan",
    "checkpoint",
    "--input",
    putInput(dir, `cp-${step}.json`, { completedSteps: [{ id: step, summary: step }], nextAction: "go on" }),
    "--expected",
    String(expected),
    "--now",
    NOW
  ])

const checkpoint = (dir: string, step: string, expected: number) => ok(checkpointRun(dir, step, expected))

const pull = (dir: string) => ok(cli(dir, ["pull"])).transfer

describe.skipIf(!pgAvailable)("plan.md in a bound folder's view", () => {
  const db = useTestDatabase()

  const bind = (name: string, dossier: string) => {
    const dir = tempWorkdir(`dossier-planview-${name}-`)
    ok(runCli(["init", "--store", db.url, "--dossier", dossier, "--workdir", dir, "--json"]))
    return dir
  }

  /** Hosts A and B bound to `dossier`, the plan at revision 2, B's view pulled. */
  const twoHosts = (dossier: string) => {
    const a = bind("a", dossier)
    const b = bind("b", dossier)
    ok(cli(a, [
      "plan",
      "start",
      "--input",
      putInput(a, "s.json", { goal: "Compare X and Y", limits: [], nextAction: "search" }),
      "--now",
      NOW
    ]))
    checkpoint(a, "a1", 1)
    expect(pull(b).plan).toEqual({ revision: 2, copied: true })
    expect(planOf(b)).toEqual(planOf(a))
    return { a, b }
  }

  it("an unedited plan.md is refreshed by pull, its record made again when it was lost", () => {
    const { a, b } = twoHosts("unedited")
    // No record of what was written (a folder bound by an earlier release): a plan.md holding what
    // the store's plan renders is taken as the view's copy.
    fs.rmSync(path.join(b, ".dossier/plan-view.json"))
    const same = pull(b)
    expect({ plan: same.plan, kept: same.kept }).toEqual({ plan: { revision: 2, copied: false }, kept: [] })
    expect(fs.existsSync(path.join(b, ".dossier/plan-view.json"))).toBe(true)
    checkpoint(a, "a2", 2)
    const pulled = pull(b)
    expect({ plan: pulled.plan, kept: pulled.kept }).toEqual({ plan: { revision: 3, copied: true }, kept: [] })
    expect(planOf(b)).toEqual(planOf(a))
  })

  it("a line of prose added on B is kept and said by pull, and restored once moved aside", () => {
    const { a, b } = twoHosts("prose")
    const edited = Buffer.concat([planOf(b), Buffer.from("\nB's note: X looked faster on the second run.\n")])
    fs.writeFileSync(path.join(b, "plan.md"), edited)

    // Nothing new in the store: the edit is named, nothing written.
    const first = pull(b)
    expect({ plan: first.plan, kept: first.kept }).toEqual({ plan: { revision: 2, copied: false }, kept: ["plan.md"] })
    expect(planOf(b)).toEqual(edited)

    // A new revision in the store: B's edit is still kept, named, with the way out in the text.
    checkpoint(a, "a2", 2)
    const second = pull(b)
    expect({ plan: second.plan, kept: second.kept }).toEqual({
      plan: { revision: 2, copied: false },
      kept: ["plan.md"]
    })
    expect(planOf(b)).toEqual(edited)
    const human = runCli(["pull", "--workdir", b])
    expect(human.code, human.stdout + human.stderr).toBe(0)
    expect(human.stdout).toContain("kept (other bytes there, not overwritten): plan.md")
    expect(human.stdout).toContain("move it aside")
    expect(planOf(b)).toEqual(edited)

    // Moved aside: the next pull brings the store's plan.
    fs.renameSync(path.join(b, "plan.md"), path.join(b, "plan.mine.md"))
    const third = pull(b)
    expect({ plan: third.plan, kept: third.kept }).toEqual({ plan: { revision: 3, copied: true }, kept: [] })
    expect(planOf(b)).toEqual(planOf(a))
    expect(fs.readFileSync(path.join(b, "plan.mine.md"))).toEqual(edited)
  })

  it("a goal changed in the JSON section on B is kept by pull", () => {
    const { a, b } = twoHosts("goal")
    const text = planOf(b).toString("utf8")
    expect(text).toContain("Compare X and Y")
    const edited = Buffer.from(text.replace("Compare X and Y", "Compare X, Y and Z"), "utf8")
    fs.writeFileSync(path.join(b, "plan.md"), edited)
    checkpoint(a, "a2", 2)
    const pulled = pull(b)
    expect({ copied: pulled.plan.copied, kept: pulled.kept }).toEqual({ copied: false, kept: ["plan.md"] })
    expect(planOf(b)).toEqual(edited)
  })

  it("the refresh after a writing command keeps an edited plan.md and says so; an unedited one is refreshed", () => {
    const { a, b } = twoHosts("command")
    const edited = Buffer.concat([planOf(b), Buffer.from("\nB's note.\n")])
    fs.writeFileSync(path.join(b, "plan.md"), edited)

    // B's own write: committed in the store, the edited plan.md left as it is, said on stderr.
    const r = checkpointRun(b, "b1", 2)
    expect(r.json?.ok, r.stdout + r.stderr).toBe(true)
    expect(r.json.revision).toBe(3)
    expect(r.stderr).toContain("plan.md here holds edits the store does not")
    expect(planOf(b)).toEqual(edited)
    expect(ok(cli(b, ["plan", "inspect"])).revision).toBe(3)

    // A's view, not edited, is refreshed by A's own write.
    const w = checkpointRun(a, "a2", 3)
    expect(w.json?.ok, w.stdout + w.stderr).toBe(true)
    expect(w.stderr).toBe("")
    expect(planOf(a).toString("utf8")).toContain(`"revision": 4,`)
    expect(planOf(b)).toEqual(edited)
  })

  it("the folder whose plan was imported by init --store has its plan.md refreshed", () => {
    const a = tempWorkdir("dossier-planview-import-")
    ok(cli(a, [
      "plan",
      "start",
      "--input",
      putInput(a, "s.json", { goal: "Imported goal", limits: [], nextAction: "search" }),
      "--now",
      NOW
    ]))
    expect(ok(runCli(["init", "--store", db.url, "--dossier", "imported", "--workdir", a, "--json"])).store.imported)
      .toBe(true)
    const b = bind("b", "imported")
    expect(planOf(b)).toEqual(planOf(a))
    checkpoint(b, "b1", 1)
    const pulled = pull(a)
    expect({ plan: pulled.plan, kept: pulled.kept }).toEqual({ plan: { revision: 2, copied: true }, kept: [] })
    expect(planOf(a)).toEqual(planOf(b))
  })

  it("a folder bound as it is (an export of the dossier) has its plan.md refreshed", () => {
    const { a } = twoHosts("exported")
    const parent = tempWorkdir("dossier-planview-export-")
    ok(cli(a, ["export", "--to", path.join(parent, "copy")]))
    const c = path.join(parent, "copy")
    const bound = ok(runCli(["init", "--store", db.url, "--dossier", "exported", "--workdir", c, "--json"])).store
    expect({ imported: bound.imported, pulled: bound.pulled }).toEqual({ imported: false, pulled: false })
    checkpoint(a, "a2", 2)
    const pulled = pull(c)
    expect({ plan: pulled.plan, kept: pulled.kept }).toEqual({ plan: { revision: 3, copied: true }, kept: [] })
    expect(planOf(c)).toEqual(planOf(a))
  })
})
