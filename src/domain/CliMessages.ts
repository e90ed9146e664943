/** Fixed texts of the command line's own envelopes (no imports: on the start-up path). */
export const DEFECT_MESSAGE = "dossier hit an internal error; this is a bug."
