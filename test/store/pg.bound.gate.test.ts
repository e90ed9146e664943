/**
 * The gate in folders bound to one shared dossier, through the built CLI against the test's own
 * throwaway cluster (skipped with a note without the server binaries): a verified quote's
 * `origin` comes from the shared capture log, whichever host made the capture and whatever this
 * host's view of the log holds.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { closingGapA, folder, NOW, parkedMaturity, sha, SOURCE_TEXT } from "../gate/support.js"
import { put, runCli, tempWorkdir } from "../support/cli.js"
import { pgAvailable, useTestDatabase } from "../support/postgres.js"
import { ok } from "./support/populated.js"

const QUOTE = "Each export must contain every invoice line item with its VAT rate and currency code"

/** A fetcher's record (no `via`: the fetcher's) of these bytes at this path. */
const fetchRecord = (p: string, bytes: Buffer) =>
  `${
    JSON.stringify({
      path: p,
      sha256: sha(bytes),
      bytes: bytes.length,
      origin: "https://example.test/billing",
      fetchedAt: NOW,
      kind: "source"
    })
  }\n`

describe.skipIf(!pgAvailable)("the gate in a bound folder", () => {
  const db = useTestDatabase()

  it(
    "a quote of another host's capture verifies as origin capture, from the shared capture log",
    () => {
      // B binds first; A, holding a registered source whose bytes the fetcher recorded, is imported.
      const b = tempWorkdir("dossier-bound-gate-origin-b-")
      ok(runCli(["init", "--store", db.url, "--dossier", "gate-origin", "--workdir", b, "--json"]))
      const a = folder()
      const source = "research/sources/billing.md"
      put(a.dir, ".dossier/captures.jsonl", fetchRecord(source, Buffer.from(SOURCE_TEXT)))
      ok(runCli(["init", "--store", db.url, "--dossier", "gate-origin", "--workdir", a.dir, "--json"]))

      // B's checkpoint refreshes its plan view (the registered source arrives), not its capture log.
      const revision = ok(runCli(["plan", "inspect", "--workdir", b, "--json"])).revision
      put(b, "research/inputs/cp.json", JSON.stringify({ nextAction: "run the gate" }))
      ok(runCli([
        "plan",
        "checkpoint",
        "--input",
        "research/inputs/cp.json",
        "--expected",
        String(revision),
        "--workdir",
        b,
        "--json"
      ]))
      expect(fs.readFileSync(path.join(b, source), "utf8")).toBe(SOURCE_TEXT)

      /** The gate in `dir` on a closure of gap `a` quoting `ref`: the cited source's verdict. */
      const gateIn = (dir: string, ref: string) => {
        put(dir, "run/state.json", `${JSON.stringify(parkedMaturity([{ id: "a", category: "scope" }]), null, 2)}\n`)
        put(dir, "research/gate/research.json", JSON.stringify(closingGapA([{ ref, quote: QUOTE }])))
        const r = runCli(["gate", "--state", "run/state.json", "--now", NOW, "--json"], { cwd: dir })
        expect(r.json?.ok, r.stdout + r.stderr).toBe(true)
        return r.json.research.gaps[0].sources[0]
      }
      expect(gateIn(a.dir, source)).toMatchObject({ verified: true, origin: "capture" })
      expect(gateIn(b, source)).toMatchObject({ verified: true, origin: "capture" })

      // The store's log, not the view's, is the record: a claim written into B's view by hand
      // for bytes nobody fetched is not taken.
      const other = "research/sources/other.md"
      put(a.dir, other, `Another page.\n${SOURCE_TEXT}`)
      const r2 = ok(runCli(["plan", "inspect", "--workdir", a.dir, "--json"])).revision
      put(a.dir, "research/inputs/cp2.json", JSON.stringify({ sources: [{ path: other, origin: "https://x.test/o" }] }))
      ok(runCli([
        "plan",
        "checkpoint",
        "--input",
        "research/inputs/cp2.json",
        "--expected",
        String(r2),
        "--workdir",
        a.dir,
        "--json"
      ]))
      ok(runCli(["pull", "--workdir", b, "--json"]))
      fs.appendFileSync(
        path.join(b, ".dossier/captures.jsonl"),
        fetchRecord(other, fs.readFileSync(path.join(b, other)))
      )
      expect(gateIn(b, other)).toMatchObject({ verified: true, origin: "registered" })
    },
    120_000
  )
})
