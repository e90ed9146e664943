/**
 * The names of the monitor's records as the answers give them (spec monitor.md: `next`'s
 * broken links and recovered transactions name `.dossier/monitor/...`). The folder adapter
 * (src/layers/folder/MonitorStoreFolder.ts) stores each record under its name; another store
 * keeps the names only for its answers.
 */
import { canonicalJson, sha256Hex } from "./Canonical.js"
import type { ReportLine } from "./MonitorSchema.js"

export const MONITOR_DIR = ".dossier/monitor"
export const SUBSCRIPTIONS_DIR = `${MONITOR_DIR}/subscriptions`
export const RUNS_DIR = `${MONITOR_DIR}/runs`
export const REPORTS_FILE = `${MONITOR_DIR}/reports.jsonl`
export const subscriptionPath = (id: string) => `${SUBSCRIPTIONS_DIR}/${id}.json`
export const runPath = (id: string) => `${RUNS_DIR}/${id}.json`

/** Creation order (then id): the order every list and scan answers in. */
export const byCreation = <A extends { readonly createdAt: string; readonly id: string }>(a: A, b: A) =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0

/** The intent record of an interrupted transaction (`RecoveryNeeded` names it). */
export const INTENT_FILE = `${MONITOR_DIR}/intent.json`

/** A completion report as an event of the reports log: its stable id and the digest of its canonical JSON. */
export const reportEvent = (
  line: ReportLine
): { readonly id: string; readonly digest: string; readonly event: ReportLine } => ({
  id: `${line.runId}:run-completed`,
  digest: sha256Hex(canonicalJson(line)),
  event: line
})
