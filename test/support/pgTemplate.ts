/**
 * vitest's global set-up for the PostgreSQL tests: one folder for the whole run, named to the
 * test files by `DOSSIER_TEST_PG_TEMPLATE`, where the first file that starts a cluster runs
 * `initdb` once; every cluster after it copies that data directory (test/support/postgres.ts)
 * instead of running `initdb` again. Removed when the run ends.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

export const setup = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dossier-pg-template-"))
  process.env["DOSSIER_TEST_PG_TEMPLATE"] = dir
  return () => {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
