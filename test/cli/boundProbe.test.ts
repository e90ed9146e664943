/**
 * The loader's probe for a bound folder (src/cli/BoundProbe.ts) finds the work folder as the
 * CLI does: `--workdir` (either form, the last one), else DOSSIER_WORKDIR, else the upward search.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { actsOnBoundFolder } from "../../src/cli/BoundProbe.js"

const folder = (bound: boolean) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dossier-probe-"))
  fs.mkdirSync(path.join(dir, ".dossier"))
  if (bound) fs.writeFileSync(path.join(dir, ".dossier/store.json"), "{}")
  return dir
}

describe("actsOnBoundFolder", () => {
  it("follows --workdir, DOSSIER_WORKDIR and the upward search", () => {
    const bound = folder(true)
    const plain = folder(false)
    const below = path.join(bound, "research/notes")
    fs.mkdirSync(below, { recursive: true })
    const none = {}
    expect(actsOnBoundFolder(["plan", "inspect", "--workdir", bound], plain, none)).toBe(true)
    expect(actsOnBoundFolder(["plan", "inspect", `--workdir=${bound}`], plain, none)).toBe(true)
    expect(actsOnBoundFolder(["plan", "inspect", "--workdir", bound, "--workdir", plain], plain, none)).toBe(false)
    expect(actsOnBoundFolder(["plan", "inspect"], plain, { DOSSIER_WORKDIR: bound })).toBe(true)
    expect(actsOnBoundFolder(["plan", "inspect", "--workdir", plain], plain, { DOSSIER_WORKDIR: bound })).toBe(false)
    expect(actsOnBoundFolder(["status"], below, none)).toBe(true)
    expect(actsOnBoundFolder(["status"], plain, none)).toBe(false)
    // Anything at the binding's name makes the folder bound: its reader refuses what is not a
    // regular file (UnsafePath), rather than the commands running on the folder in silence.
    const odd = folder(false)
    fs.mkdirSync(path.join(odd, ".dossier/store.json"))
    expect(actsOnBoundFolder(["status"], odd, none)).toBe(true)
  })
})
