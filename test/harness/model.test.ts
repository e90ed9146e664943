/**
 * The model-based harness of dossier/testing (src/testing/DossierHarness.ts) on the two layers
 * dossier ships: the in-memory one and the folder one. Fixed seeds first (the same sequences on
 * every run), then one random seed, named in the test's title so that a failure can be replayed.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { DossierLive, DossierMemory } from "../../src/layers/Dossier.js"
import { DossierHarness } from "../../src/testing.js"

const memory = (): DossierHarness.AdapterUnderTest => ({ layer: DossierMemory })

const folder = (freshPerCommand: boolean) => (): DossierHarness.AdapterUnderTest => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dossier-harness-")))
  return {
    layer: DossierLive(dir),
    freshPerCommand,
    // An editor saving over the file in place.
    edit: (p, data) => fs.writeFileSync(path.join(dir, p), data),
    dispose: () => fs.rmSync(dir, { recursive: true, force: true })
  }
}

// 1769039565: a random seed that found a model error (a source edited by hand, then cited by two
// checkpoints: the second was expected to be refused although the bytes had not changed again).
const FIXED_SEEDS = [1, 2, 3, 1769039565]
const RANDOM_SEED = Number(process.env["DOSSIER_HARNESS_SEED"] ?? Math.floor(Math.random() * 2 ** 31))

describe("the model-based harness", () => {
  // "folder, fresh": a new instance of every service for each command, as each CLI call is.
  for (
    const [name, make, runs] of [["memory", memory, 25], ["folder", folder(false), 12], [
      "folder, fresh",
      folder(true),
      8
    ]] as const
  ) {
    for (const seed of FIXED_SEEDS) {
      it(
        `${name}: agrees with the model (seed ${seed})`,
        () => DossierHarness.assert(make, { seed, numRuns: runs }),
        120_000
      )
    }
    it(
      `${name}: agrees with the model (random seed ${RANDOM_SEED}; DOSSIER_HARNESS_SEED=${RANDOM_SEED} replays it)`,
      () => DossierHarness.assert(make, { seed: RANDOM_SEED, numRuns: runs }),
      120_000
    )
  }
})

describe("what the harness exercised", () => {
  // Runs after the sequences above (same file, in order): each kind of answer was met at least once.
  it("met the answers it is meant to meet, refusals included", () => {
    const seen = DossierHarness.coverage()
    console.log([...seen].map(([k, n]) => `${k}: ${n}`).join("\n"))
    for (
      const key of [
        "plan.start → ok",
        "plan.start → StaleRevision",
        "plan.start → GoalConflict",
        "plan.checkpoint → ok",
        "plan.checkpoint → StaleRevision",
        "plan.checkpoint → NoPlan",
        "plan.checkpoint → FileNotFound",
        "journal.append → ok",
        "journal.append → ConflictingEvent",
        "journal.append → UnknownCandidate",
        "journal.append → DuplicateEventId",
        "ingest.importFile → ok",
        "ingest.importFile → EditedRetainedFile",
        "monitor.subscribe → ok",
        "monitor.createDueRun → ok",
        "monitor.createDueRun → NotDue",
        "monitor.cancelRun → ok"
      ]
    ) expect(seen.get(key) ?? 0, key).toBeGreaterThan(0)
  })
})
