/**
 * The research monitor's domain in one import: the schema of its inputs and records
 * (./MonitorSchema.ts), its outputs (./MonitorOutputs.ts), its pure rules (./MonitorRules.ts) and
 * the receipt digest (./MonitorReceipt.ts). The code imports each module by name; this one is for
 * callers that want the whole area (tests, benchmarks).
 */
export * from "./MonitorOutputs.js"
export * from "./MonitorReceipt.js"
export * from "./MonitorRules.js"
export * from "./MonitorSchema.js"
