/**
 * The resource list of a folder holding more retained files than are listed: it says it was cut
 * (`skipped`, as `source follow` says what it did not search), and a file past the cut is still
 * read by its URI.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { MAX_LISTED_SOURCES } from "../../src/services/Sources.js"
import { put, runCli, tempWorkdir } from "../support/cli.js"
import { connect } from "./support.js"

describe("dossier mcp: resources/list of a folder with more files than are listed", () => {
  it("says the list was cut, and only then", async () => {
    const dir = tempWorkdir("dossier-mcp-cut-")
    expect(runCli(["init", "--workdir", dir]).code).toBe(0)
    const sources = path.join(dir, "research/sources")
    for (let i = 0; i < MAX_LISTED_SOURCES; i++) {
      fs.writeFileSync(path.join(sources, `f${String(i).padStart(5, "0")}.txt`), "x\n")
    }
    const server = await connect(dir)
    try {
      // Exactly MAX_LISTED_SOURCES files: the whole list, nothing skipped.
      const whole = await server.client.listResources()
      expect(whole.resources).toHaveLength(MAX_LISTED_SOURCES)
      expect(whole["skipped"]).toBeUndefined()
      // One more: the list is cut, and says so.
      put(dir, "research/sources/zz-last.md", "the last one\n")
      const cut = await server.client.listResources()
      expect(cut.resources).toHaveLength(MAX_LISTED_SOURCES)
      expect(cut.resources.map((r) => r.uri)).not.toContain("dossier://sources/zz-last.md")
      expect(cut["skipped"]).toEqual([{
        path: "research/sources",
        error: "LimitExceeded",
        message:
          `Listed only the first ${MAX_LISTED_SOURCES} files under research/sources/ (in name order); the others are not listed: read one by its URI (dossier://sources/{+path}).`
      }])
      const last = await server.client.readResource({ uri: "dossier://sources/zz-last.md" })
      expect(last.contents[0]).toMatchObject({ text: "the last one\n" })
    } finally {
      await server.client.close()
    }
  }, 240_000)
})
