/**
 * plan.md in a folder bound to a shared dossier is a copy of the store's plan that people read,
 * and may edit: a refresh (`dossier pull`, the refresh after a writing command) replaces the copy
 * dossier wrote, and keeps a plan.md edited here (named in `kept`, said with the way out) until it
 * is moved aside. Through the built CLI with --json against the test's own throwaway cluster
 * (skipped with a note without the server binaries): two folders (two hosts) per dossier.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { putInput, runCli, tempWorkdir } from "../support/cli.js"
import { copyDatabase, createDatabase, pgAvailable, useTestDatabase } from "../support/postgres.js"
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

  const bind = (name: string, dossier: string, url = db.url) => {
    const dir = tempWorkdir(`dossier-planview-${name}-`)
    ok(runCli(["init", "--store", url, "--dossier", dossier, "--workdir", dir, "--json"]))
    return dir
  }

  /** Hosts A and B bound to the dossier `shared` of `url`, the plan at revision 2, B's view pulled. */
  const makeTwoHosts = (url: string) => {
    const a = bind("a", "shared", url)
    const b = bind("b", "shared", url)
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
    return { url, a, b }
  }

  // The two hosts are made once per file (before its tests: five commands, a while on a loaded
  // machine), in a database of their own, and copied for each test that starts from them (the
  // database by PostgreSQL, the folders byte for byte, their bindings naming the copy): the same
  // state, without the five commands that made it.
  let made: { readonly url: string; readonly a: string; readonly b: string } | undefined
  const copies: Array<() => Promise<void>> = []
  beforeAll(async () => {
    const { drop, url } = await createDatabase(db.url, `${db.name}_two_hosts`)
    copies.push(drop)
    made = makeTwoHosts(url)
  }, 180_000)
  afterAll(async () => {
    for (const drop of copies.reverse()) await drop()
  })

  /** A folder's copy bound to `url` instead (its binding otherwise as `init --store` wrote it). */
  const copyBoundTo = (dir: string, name: string, url: string, from: string) => {
    const copy = tempWorkdir(`dossier-planview-${name}-`)
    fs.cpSync(dir, copy, { recursive: true })
    const binding = path.join(copy, ".dossier/store.json")
    const text = fs.readFileSync(binding, "utf8")
    expect(text).toContain(JSON.stringify(from))
    fs.writeFileSync(binding, text.replace(JSON.stringify(from), JSON.stringify(url)))
    return copy
  }

  /** Hosts A and B bound to the dossier `shared`, the plan at revision 2, B's view pulled: a fresh copy. */
  const twoHosts = async () => {
    const template = made!
    const copy = await copyDatabase(template.url, `${db.name}_copy_${copies.length}`)
    copies.push(copy.drop)
    const a = copyBoundTo(template.a, "a", copy.url, template.url)
    const b = copyBoundTo(template.b, "b", copy.url, template.url)
    return { a, b, url: copy.url }
  }

  it("an unedited plan.md is refreshed by pull, its record made again when it was lost", async () => {
    const { a, b } = await twoHosts()
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

  it("a line of prose added on B is kept and said by pull, and restored once moved aside", async () => {
    const { a, b } = await twoHosts()
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

  it("a goal changed in the JSON section on B is kept by pull", async () => {
    const { a, b } = await twoHosts()
    const text = planOf(b).toString("utf8")
    expect(text).toContain("Compare X and Y")
    const edited = Buffer.from(text.replace("Compare X and Y", "Compare X, Y and Z"), "utf8")
    fs.writeFileSync(path.join(b, "plan.md"), edited)
    checkpoint(a, "a2", 2)
    const pulled = pull(b)
    expect({ copied: pulled.plan.copied, kept: pulled.kept }).toEqual({ copied: false, kept: ["plan.md"] })
    expect(planOf(b)).toEqual(edited)
  })

  it("the refresh after a writing command keeps an edited plan.md and says so; an unedited one is refreshed", async () => {
    const { a, b } = await twoHosts()
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

  it("a folder bound as it is (an export of the dossier) has its plan.md refreshed", async () => {
    const { a, url } = await twoHosts()
    const parent = tempWorkdir("dossier-planview-export-")
    ok(cli(a, ["export", "--to", path.join(parent, "copy")]))
    const c = path.join(parent, "copy")
    const bound = ok(runCli(["init", "--store", url, "--dossier", "shared", "--workdir", c, "--json"])).store
    expect({ imported: bound.imported, pulled: bound.pulled }).toEqual({ imported: false, pulled: false })
    checkpoint(a, "a2", 2)
    const pulled = pull(c)
    expect({ plan: pulled.plan, kept: pulled.kept }).toEqual({ plan: { revision: 3, copied: true }, kept: [] })
    expect(planOf(c)).toEqual(planOf(a))
  })
})
