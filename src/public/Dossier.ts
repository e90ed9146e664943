/** Whole-app layers of the public surface (see src/layers/Dossier.ts). */
export { DossierLive, DossierMemory, dossierOver, type Dossier } from "../layers/Dossier.js"
