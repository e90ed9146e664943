/**
 * The model-based harness (src/testing/DossierHarness.ts) on a shared dossier: every service of
 * `DossierPostgres` (the PostgreSQL adapters of the ports, one transaction per command) against
 * the test's own cluster, a fresh dossier and work folder per sequence. After every command the
 * folder's view is refreshed from the store as `dossier pull` does (StoreTransfer from the
 * store's side into the folder's), and the harness reads its invariants there: the answers, the
 * plan, the journals' bytes and the retained files must be the model's, as for the memory and
 * folder layers (test/harness/model.test.ts). Built once per sequence, and afresh for every
 * command (as every CLI call is a new process). The harness's hand edits change this host's view
 * of a retained file (the store keeps the captured bytes): the bound folder must answer what the
 * reference's edited file answers (a capture again refused, a checkpoint registering the bytes
 * the file now holds, `plan inspect`'s findings).
 */
import { describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { DossierPostgres } from "../../src/layers/DossierPostgres.js"
import { withStore } from "../../src/layers/StoreBinding.js"
import { pgSide } from "../../src/layers/StorePull.js"
import { folderSide, transfer } from "../../src/layers/StoreTransfer.js"
import { DossierHarness } from "../../src/testing.js"
import { pgAvailable, useTestDatabase } from "../support/postgres.js"

const FIXED_SEEDS = [1, 2]

describe.skipIf(!pgAvailable)("the model-based harness on PostgreSQL", () => {
  const db = useTestDatabase()

  /** `dossier pull`: the store's records and bytes into the folder's view. */
  const pull = (dossier: string, dir: string) =>
    Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const here = yield* folderSide(dir)
      yield* withStore(
        db.url,
        dossier,
        "read",
        (store) => Effect.flatMap(pgSide(store, here.files), (from) => transfer(from, here, "refresh"))
      )
    })))

  let made = 0
  const shared = (freshPerCommand: boolean) => (): DossierHarness.AdapterUnderTest => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dossier-pg-harness-")))
    const dossier = `harness-${made++}`
    return {
      layer: DossierPostgres({ url: db.url, dossier, workdir: dir }),
      freshPerCommand,
      afterCommand: () => pull(dossier, dir),
      // A person editing this host's view of a retained file (the store keeps its bytes).
      edit: (p, data) => fs.writeFileSync(path.join(dir, p), data),
      dispose: () => fs.rmSync(dir, { recursive: true, force: true })
    }
  }

  for (
    const [name, make, runs] of [["one instance", shared(false), 4], ["fresh per command", shared(true), 2]] as const
  ) {
    for (const seed of FIXED_SEEDS) {
      it(
        `${name}: agrees with the model (seed ${seed})`,
        () => DossierHarness.assert(make, { seed, numRuns: runs }),
        240_000
      )
    }
  }
})
