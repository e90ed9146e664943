/** Whole-app layers of the public surface (see src/layers/Dossier.ts). */
export { type Dossier, DossierLive, DossierMemory, dossierOver } from "../layers/Dossier.js"
