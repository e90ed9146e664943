/**
 * The public surface is checked in (api/dossier.api.md): a change to any exported name or type
 * fails here until the report is regenerated (`npm run api`) and the diff is reviewed.
 */
import { describe, expect, it } from "vitest"
import * as fs from "node:fs"
// @ts-expect-error: a plain ES module script without declarations
import { apiReport, REPORT } from "../../scripts/api-report.mjs"

describe("API report", () => {
  it("api/dossier.api.md is the report of the current entry points (npm run api)", () => {
    const current = fs.readFileSync(REPORT as string, "utf8")
    const fresh = (apiReport as () => string)()
    if (current !== fresh) {
      const a = current.split("\n")
      const b = fresh.split("\n")
      const i = a.findIndex((line, k) => line !== b[k])
      expect.fail(`${REPORT} is out of date (first difference at line ${i + 1}); run npm run api and review the diff:\n- ${a[i]?.slice(0, 300)}\n+ ${b[i]?.slice(0, 300)}`)
    }
  }, 240_000)
})
