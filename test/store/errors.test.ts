/**
 * The store's errors reach every face: the catalogue (retryable, area, hint), the envelope the
 * CLI and `dossier mcp` answer, `dossier schema errors`, and the README's generated table.
 */
import * as JSONSchema from "effect/JSONSchema"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { envelopeOf } from "../../src/commands/Envelope.js"
import { bindingRefusedHints, errorCatalogue } from "../../src/commands/ErrorCatalogue.js"
import { errorsSchema } from "../../src/commands/schemas/errors.js"
import { BindingRefused, StoreConflict, StoreTooNew, StoreUnavailable } from "../../src/domain/StoreErrors.js"
import { hint, retryable } from "../../src/public/Errors.js"
import { CLI } from "../support/cli.js"

describe("store errors", () => {
  it("StoreUnavailable is retryable; StoreConflict and StoreTooNew are not", () => {
    expect(retryable("StoreUnavailable")).toBe(true)
    expect(retryable("StoreConflict")).toBe(false)
    expect(retryable("StoreTooNew")).toBe(false)
    for (const tag of ["StoreUnavailable", "StoreConflict", "StoreTooNew"] as const) {
      expect(errorCatalogue[tag].area).toBe("store")
    }
  })

  it("renders the envelope the CLI and MCP answer, with the fields and no more", () => {
    expect(envelopeOf(new StoreUnavailable({ reason: "connection refused" }))).toEqual({
      _tag: "StoreUnavailable",
      message: "The shared store is unavailable: connection refused.",
      retryable: true,
      hint: errorCatalogue.StoreUnavailable.hint,
      reason: "connection refused"
    })
    expect(envelopeOf(new StoreConflict({ dossier: "q1" }))).toMatchObject({
      _tag: "StoreConflict",
      dossier: "q1",
      retryable: false
    })
    expect(envelopeOf(new StoreTooNew({ schema: 3, supported: 1 }))).toMatchObject({
      _tag: "StoreTooNew",
      schema: 3,
      supported: 1,
      retryable: false
    })
  })

  it("BindingRefused's hint is the way out of the reason it carries, on every face, and no other reason's", () => {
    const reasons = Object.keys(bindingRefusedHints) as Array<BindingRefused["reason"]>
    expect(reasons).toEqual([...BindingRefused.fields.reason.literals])
    /** A hint as a phrase another may quote: lower case, without its closing full stop. */
    const phrase = (text: string) => text.toLowerCase().replace(/\.$/, "")
    for (const reason of reasons) {
      const error = new BindingRefused({ command: "pull", dossier: "q1", reason })
      const answered = [envelopeOf(error).hint, hint(error)]
      expect(answered[0], reason).toBe(bindingRefusedHints[reason].hint)
      for (const other of reasons.filter((r) => r !== reason)) {
        for (const text of answered) {
          expect(phrase(text), `${reason} names ${other}`).not.toContain(phrase(bindingRefusedHints[other].hint))
        }
      }
    }
    // The tag alone (no reason to name) still lists them all.
    expect(hint("BindingRefused")).toBe(errorCatalogue.BindingRefused.library)
  })

  it("are in `dossier schema errors` and in the README's catalogue", () => {
    const schema = JSON.stringify(JSONSchema.make(errorsSchema()))
    const tags = ["StoreUnavailable", "StoreConflict", "StoreTooNew", "CorruptCaptureLog"]
    for (const tag of tags) expect(schema).toContain(`"${tag}"`)
    const readme = fs.readFileSync(path.resolve(__dirname, "../../README.md"), "utf8")
    for (const tag of tags) {
      expect(readme).toContain(`| \`${tag}\` | store |`)
    }
  })
})

/** Every file of `dir` (recursively) whose name ends with one of `ends`. */
const filesUnder = (dir: string, ends: ReadonlyArray<string>): ReadonlyArray<string> =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? filesUnder(path.join(dir, e.name), ends)
      : ends.some((end) => e.name.endsWith(end))
      ? [path.join(dir, e.name)]
      : []
  )

describe("the store's flags", () => {
  it("are spelled as `init --help` spells them in every hint, message and doc", () => {
    const root = path.resolve(__dirname, "../..")
    const help = spawnSync(process.execPath, [CLI, "init", "--help", "--json"], { encoding: "utf8" })
    expect(help.status, help.stderr).toBe(0)
    const options: ReadonlyArray<{ name: string; type: string }> = JSON.parse(help.stdout).options
    const spelled = new Map(options.map((o) => [o.name, `<${o.type}>`]))
    expect(spelled.get("--store")).toBe("<url>")
    const texts: Array<[string, string]> = [
      ...Object.entries(errorCatalogue).flatMap(([tag, info]): Array<[string, string]> => [
        [`catalogue ${tag} hint`, info.hint],
        [`catalogue ${tag} library`, info.library ?? ""]
      ]),
      ...[
        ...filesUnder(path.join(root, "src"), [".ts"]),
        ...filesUnder(path.join(root, "docs"), [".md"]),
        ...filesUnder(path.join(root, "skills"), [".md"]),
        path.join(root, "README.md")
      ].map((file): [string, string] => [path.relative(root, file), fs.readFileSync(file, "utf8")])
    ]
    const wrong: Array<string> = []
    for (const [where, text] of texts) {
      for (const m of text.matchAll(/(--store|--dossier) (<[^>\s]+>)/g)) {
        if (m[2] !== spelled.get(m[1]!)) wrong.push(`${where}: ${m[0]}`)
      }
    }
    expect(wrong).toEqual([])
  })
})
