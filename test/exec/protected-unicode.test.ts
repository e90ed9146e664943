/**
 * A `protected` entry masks the exact bytes of its path. One written in NFC (`café`, as typed)
 * whose directory in the folder is spelt in NFD (`cafe` + U+0301, as a Mac writes it) protected
 * nothing and nothing said so. `grant create` now refuses (InvalidInput at the entry) every
 * protected entry whose name the folder also spells another way that is not listed too, and
 * `exec` masks, at every run, every spelling of every hidden entry (own and inherited) that
 * exists when the run starts (docs/exec.md, "Protected names in another Unicode form").
 * Through the built CLI; spawns it (and bubblewrap, where it can run).
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { put, putInput } from "../support/cli.js"
import { childGrant, createGrant, exec, folder, grantInput, ok, refused, sandboxWorks, stdoutOf } from "./support.js"

const NFC = "research/exp/data/caf\u00e9"
const NFD = "research/exp/data/cafe\u0301"
const DEFAULT = grantInput().protected

const grantCreate = (dir: string, prot: ReadonlyArray<string>, name: string) => [
  "grant",
  "create",
  "--input",
  putInput(dir, name, grantInput({ protected: [...DEFAULT, ...prot] }))
]

describe("a protected name the folder spells in another Unicode form", () => {
  it("NFC written, NFD on disk: refused at grant create naming the NFD spelling; nothing is stored", () => {
    const dir = folder()
    put(dir, `${NFD}/labels.csv`, "HIDDEN\n")
    const e = refused(dir, grantCreate(dir, [NFC], "nfc.json"), "InvalidInput")
    expect(e.issues).toEqual([{ path: "protected.2", message: expect.stringContaining(`'${NFD}'`) }])
    expect(e.issues[0].message).toContain("NFD")
    expect(fs.existsSync(path.join(dir, ".dossier/grants/g1.json"))).toBe(false)
    // Written as the folder spells it: accepted.
    expect(createGrant(dir, { protected: [...DEFAULT, NFD] }, "nfd.json")).toMatchObject({ created: true })
  })

  it("both spellings on disk: each must be listed; a name not on disk is accepted", () => {
    const dir = folder()
    put(dir, `${NFD}/labels.csv`, "HIDDEN\n")
    put(dir, `${NFC}/labels.csv`, "HIDDEN TOO\n")
    const e = refused(dir, grantCreate(dir, [NFC], "one.json"), "InvalidInput")
    expect(e.issues).toEqual([{ path: "protected.2", message: expect.stringContaining(`'${NFD}'`) }])
    expect(createGrant(dir, { protected: [...DEFAULT, NFC, NFD] }, "both.json")).toMatchObject({ created: true })
    const other = folder()
    expect(createGrant(other, { protected: [...DEFAULT, "research/exp/data/na\u00efve"] }, "absent.json"))
      .toMatchObject({ created: true })
  })
})

describe("a root that is a protected entry in another Unicode form", () => {
  it("a child's root spelling the parent's entry, or a grant's own, is refused as inside it", () => {
    const dir = folder()
    createGrant(dir, { protected: [...DEFAULT, NFC] })
    put(dir, `${NFD}/labels.csv`, "SPELT-SECRET\n")
    expect(
      refused(
        dir,
        ["grant", "create", "--input", putInput(dir, "c.json", childGrant({ inputs: [NFD] }))],
        "ProtectedPathInGrant"
      )
    )
      .toMatchObject({ path: NFC, root: NFD, reason: "ancestor-protected" })
    const own = grantInput({ id: "g3", task: "task-3", inputs: [NFD], work: "research/exp/runs/r3", protected: [NFC] })
    expect(refused(dir, ["grant", "create", "--input", putInput(dir, "own.json", own)], "ProtectedPathInGrant"))
      .toMatchObject({ path: NFC, root: NFD, reason: "protected" })
  })
})

describe.skipIf(!sandboxWorks)("a spelling made after the grant, at exec", () => {
  const cat = (dir: string, grant: string, file: string) => exec(dir, grant, ["/bin/cat", `/work/${file}`])

  it("masked for the grant that lists the entry and for a child that inherits it", () => {
    const dir = folder()
    // Nothing spells it yet: accepted as written (the file below it too: the masks nest).
    createGrant(dir, { protected: [...DEFAULT, NFC, `${NFC}/labels.csv`] })
    ok(dir, ["grant", "create", "--input", putInput(dir, "child.json", childGrant({ protected: [] }))])
    put(dir, `${NFD}/labels.csv`, "SPELT-SECRET\n")
    for (const g of ["g1", "g2"]) {
      const x = cat(dir, g, `${NFD}/labels.csv`)
      expect(stdoutOf(dir, x)).not.toContain("SPELT-SECRET")
      expect(x.exitCode).not.toBe(0)
      // The rest of the input root is there.
      expect(stdoutOf(dir, cat(dir, g, "research/exp/data/train.csv"))).toBe("a,b\n1,2\n")
    }
  })

  it("a spelling that is a symlink, or reached through one, is refused before anything runs", () => {
    const dir = folder()
    put(dir, "research/exp/data/kept/labels.csv", "BEHIND-LINK\n")
    createGrant(dir, { protected: [...DEFAULT, NFC] })
    createGrant(
      dir,
      { id: "g3", task: "task-3", work: "research/exp/runs/r3", protected: [`${NFC}/labels.csv`] },
      "g3.json"
    )
    fs.symlinkSync("kept", path.join(dir, NFD))
    const argv = ["/bin/cat", `/work/${NFD}/labels.csv`]
    expect(refused(dir, ["exec", "--grant", "g1", "--", ...argv], "UnsafePath"))
      .toMatchObject({ path: NFD, reason: "symlink" })
    expect(refused(dir, ["exec", "--grant", "g3", "--", ...argv], "UnsafePath"))
      .toMatchObject({ path: `${NFD}/labels.csv`, reason: "symlink" })
    expect(
      fs.existsSync(path.join(dir, ".dossier/executions")) ? fs.readdirSync(path.join(dir, ".dossier/executions")) : []
    )
      .toEqual([])
  })
})
