/**
 * `npm run docs`: regenerate the one generated part of README.md, the error catalogue (from the
 * error classes and the CLI catalogue); the rest of the README is written by hand and the
 * details live in docs/. `--check` exits 1 when README.md is out of date (a test runs it).
 */
import * as fs from "node:fs"
import { errorCatalogueMarkdown } from "./error-catalogue-md.js"

const replaceBetween = (text: string, name: string, body: string) => {
  const begin = `<!-- ${name}:begin -->`
  const end = `<!-- ${name}:end -->`
  const b = text.indexOf(begin)
  const e = text.indexOf(end)
  if (b === -1 || e === -1 || e < b) throw new Error(`README.md lacks the ${name} markers`)
  return `${text.slice(0, b + begin.length)}\n${body.trim()}\n${text.slice(e)}`
}

export const generatedReadme = (current: string): string => replaceBetween(current, "errors", errorCatalogueMarkdown())

const current = fs.readFileSync("README.md", "utf8")
const next = generatedReadme(current)
if (process.argv.includes("--check")) {
  if (next !== current) {
    console.error("README.md is out of date: run `npm run docs`.")
    process.exit(1)
  }
  console.log("README.md is up to date.")
} else {
  fs.writeFileSync("README.md", next)
  console.log("README.md regenerated.")
}
