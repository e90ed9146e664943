/**
 * `dossier/testing`: what a custom implementation of a dossier service can be checked with.
 * `FileStoreConformance` is the property suite FileStoreLive and FileStoreMemory pass.
 */
export * as FileStoreConformance from "./testing/FileStoreConformance.js"
