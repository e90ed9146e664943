/**
 * dossier as a library: one namespace per area, each holding its service tag, its Live and
 * Memory layers, its input and output schemas and its errors; `DossierLive(dir)` and
 * `DossierMemory` provide every service at once. Nothing else is exported: the modules behind
 * these names are internal and may change. The conformance suite for a custom FileStore is in
 * `dossier/testing`. docs/library.md has a guide.
 *
 *   import { DossierMemory, Journal, Errors } from "dossier"
 */
export { type Dossier, DossierLive, DossierMemory, dossierOver } from "./public/Dossier.js"
export * as Errors from "./public/Errors.js"
export * as Exec from "./public/Exec.js"
export * as Files from "./public/Files.js"
export * as Gate from "./public/Gate.js"
export * as Ingest from "./public/Ingest.js"
export * as Journal from "./public/Journal.js"
export * as Monitor from "./public/Monitor.js"
export * as Plan from "./public/Plan.js"
