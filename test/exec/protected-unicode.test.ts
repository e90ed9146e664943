/**
 * A `protected` entry masks the exact bytes of its path. One written in NFC (`café`, as typed)
 * whose directory in the folder is spelt in NFD (`cafe` + U+0301, as a Mac writes it) protected
 * nothing and nothing said so. `grant create` now refuses (InvalidInput at the entry) every
 * protected entry whose name the folder also spells another way that is not listed too
 * (docs/exec.md, "Protected names in another Unicode form"). Through the built CLI; spawns it.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { put, putInput } from "../support/cli.js"
import { createGrant, folder, grantInput, refused } from "./support.js"

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
