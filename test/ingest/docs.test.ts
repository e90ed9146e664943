/** docs/ingest.md's error table cannot drift from the errors an ingest answers with. */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { EditedRetainedFile } from "../../src/domain/Errors.js"
import { IngestErrors } from "../../src/domain/IngestErrors.js"

const doc = fs.readFileSync(path.resolve(__dirname, "../../docs/ingest.md"), "utf8")

/** The fields column of the "### Errors" table's row for `tag`: the backticked names in it. */
const documentedFields = (tag: string): ReadonlyArray<string> | undefined => {
  const table = doc.slice(doc.indexOf("### Errors"))
  const row = table.split("\n").find((line) => line.startsWith(`| \`${tag}\` |`))
  if (row === undefined) return undefined
  return [...row.split("|")[2]!.matchAll(/`([A-Za-z]+)`/g)].map((m) => m[1]!).sort()
}

describe("docs/ingest.md", () => {
  it("its error table lists every ingest error with exactly the fields the error carries", () => {
    for (const error of [...IngestErrors, EditedRetainedFile]) {
      const fields = Object.keys(error.fields).filter((k) => k !== "_tag").sort()
      const tag = error._tag
      expect(documentedFields(tag), tag).toEqual(fields)
    }
  })
})
