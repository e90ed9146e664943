/** `npm run bench`: every subsystem's benchmarks, then one table of medians and ratios. */
import { benchGate } from "./gate.js"
import { benchIngest } from "./ingest.js"
import { benchJournal } from "./journal.js"
import { benchMonitor } from "./monitor.js"
import { benchPlan } from "./plan.js"
import { printTable } from "./support.js"

const only = process.argv[2]
const suites: Record<string, () => Promise<void>> = {
  plan: benchPlan,
  ingest: benchIngest,
  journal: benchJournal,
  gate: benchGate,
  monitor: benchMonitor
}
for (const [name, run] of Object.entries(suites)) {
  if (only !== undefined && only !== name) continue
  console.log(`\n## ${name}`)
  await run()
}
printTable()
