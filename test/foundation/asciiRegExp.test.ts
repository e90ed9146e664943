/**
 * The CLI's bundle must be ASCII (scripts/cli-bundle.mjs): esbuild escapes characters outside it in
 * strings but writes a regular expression's as they are, so such a character in a regular
 * expression of src/ failed the build only after bundling, naming no file. The lint rule
 * (eslint.config.mjs `nonAsciiRegExp`) names the file and line at once; a `\u` escape passes.
 */
import { describe, expect, it } from "@effect/vitest"
import { ESLint } from "eslint"
import * as path from "node:path"

const root = path.resolve(__dirname, "../..")

/** The messages of `no-restricted-syntax` on `code` linted as the file `file` of the repository. */
const restricted = async (code: string, file: string): Promise<ReadonlyArray<string>> => {
  const [result] = await new ESLint({ cwd: root }).lintText(code, { filePath: path.join(root, file) })
  return result!.messages.filter((m) => m.ruleId === "no-restricted-syntax").map((m) => `${m.line}:${m.column}`)
}

describe("a regular expression in src/ is written in ASCII", () => {
  it("names the line of a regular expression holding a character outside ASCII", async () => {
    const code = `export const ONE = /one/\nexport const ELLIPSIS = /\\s*(?:\u2026|\\.\\.\\.)$/u\n`
    expect(await restricted(code, "src/domain/readable/probe.ts")).toEqual(["2:25"])
    // An astral character in a class.
    expect(await restricted(`export const R = /[\u{1F600}]/u\n`, "src/domain/probe.ts")).toEqual(["1:18"])
  })

  it("passes the same characters written as escapes, in strings, and outside src/", async () => {
    const escaped = `export const ELLIPSIS = /\\s*(?:\\u2026|\\.\\.\\.)$/u\n`
    expect(await restricted(escaped, "src/domain/probe.ts")).toEqual([])
    const strings = `export const S = "\u2026"\nexport const R = new RegExp("\u2026")\n`
    expect(await restricted(strings, "src/x.ts")).toEqual([])
    expect(await restricted(`export const R = /\u2026/u\n`, "test/probe.test.ts")).toEqual([])
  })
})
