/** `npm run demo`: a real flow through the built CLI in a temporary folder, narrated. */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { demoGate } from "./demo/gate.js"
import { demoIngest } from "./demo/ingest.js"
import { demoJournal } from "./demo/journal.js"
import { demoMonitor } from "./demo/monitor.js"
import { demoPlan } from "./demo/plan.js"

const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dossier-demo-")))
console.log("dossier demo: a temporary work folder is used and removed at the end.\n")
try {
  for (
    const [name, step] of [
      ["plan", demoPlan],
      ["ingest", demoIngest],
      ["journal", demoJournal],
      ["gate", demoGate],
      ["monitor", demoMonitor]
    ] as const
  ) {
    console.log(`\n== ${name} ==`)
    await step(dir)
  }
  console.log("\ndemo finished.")
} finally {
  fs.rmSync(dir, { recursive: true, force: true })
}
