/**
 * dossier as a library: service tags, their layers, the domain schemas and errors, so another
 * Effect program can `Effect.provide` them. Import by name from "dossier".
 */
// Errors
export * from "./domain/AllErrors.js"
export * from "./domain/CliErrors.js"
export * from "./domain/Errors.js"
export * from "./domain/GateErrors.js"
export * from "./domain/IngestErrors.js"
export * from "./domain/JournalErrors.js"
export * from "./domain/MonitorErrors.js"
export * from "./domain/PlanErrors.js"
// Shared pure pieces
export * from "./domain/Canonical.js"
export * from "./domain/Paths.js"
export * from "./domain/Quote.js"
// Plan
export * from "./domain/Plan.js"
export * from "./domain/PlanMarkdown.js"
export * from "./domain/PlanRules.js"
export * from "./services/Plan.js"
export * from "./layers/PlanLayer.js"
export * from "./layers/PlanLive.js"
// Foundation services and layers
export * from "./layers/Base.js"
export * from "./layers/FileStoreLive.js"
export * from "./layers/FileStoreMemory.js"
export * from "./layers/LockLive.js"
export * from "./layers/LockMemory.js"
export * from "./services/FileStore.js"
export * from "./services/InputFile.js"
export * from "./services/Lock.js"
export * from "./services/Workdir.js"
