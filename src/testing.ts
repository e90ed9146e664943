/**
 * `dossier/testing`: what a custom implementation of a dossier service can be checked with.
 * `FileStoreConformance` is the property suite FileStoreLive and FileStoreMemory pass;
 * `PlanStoreConformance` (and the other `*StoreConformance`) hold a storage port's adapter to its contract;
 * `JournalStoreConformance` the one the JournalStore port's folder and memory adapters pass;
 * `DossierHarness` is the model-based harness every layer of dossier's services must pass
 * (docs/testing.md).
 */
export * as CaptureStoreConformance from "./testing/CaptureStoreConformance.js"
export * as DossierHarness from "./testing/DossierHarness.js"
export * as FileStoreConformance from "./testing/FileStoreConformance.js"
export * as GrantStoreConformance from "./testing/GrantStoreConformance.js"
export * as JournalStoreConformance from "./testing/JournalStoreConformance.js"
export * as PlanStoreConformance from "./testing/PlanStoreConformance.js"
