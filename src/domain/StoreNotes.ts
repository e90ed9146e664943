/**
 * Notes an answer adds in a folder bound to a shared dossier, where the way out differs by face,
 * as the error catalogue's (src/commands/ErrorCatalogue.ts): `hint` on the command line and in a
 * tool call (which may name a command), `library` in a program's data (which names none: the
 * library does not write the folder's view, docs/library.md). The services answer the `library`
 * text; the command line and the MCP server render it as `hint` (`commandLineNote`).
 */
/** A note's two texts, named as the catalogue's entries name theirs. */
type FaceTexts = { readonly hint: string; readonly library: string }

export const storeNotes = {
  /** `Plan.inspect` / `plan inspect`: a registered source or output missing here. */
  registeredMissing: {
    hint: "A registered file missing here is held by the shared dossier: `dossier pull` brings it.",
    library:
      "A registered file missing here is held by the shared dossier, which DossierPostgres reads but does not copy into this folder: pulling the dossier into a folder bound to it is done on the command line (docs/store.md)."
  },
  /** `Journal.inspect` with `verify` / `journal inspect --verify`: a linked file missing here. */
  artifactMissing: {
    hint:
      "A linked file missing here is held by the shared dossier when the host that linked it had it: `dossier pull` brings it.",
    library:
      "A linked file missing here is held by the shared dossier when the host that linked it had it, which DossierPostgres reads but does not copy into this folder: pulling the dossier into a folder bound to it is done on the command line (docs/store.md)."
  }
} as const satisfies Record<string, FaceTexts>

/** A service's note as the command line and a tool call say it: each library text its `hint`. */
export const commandLineNote = (note: string): string =>
  Object.values(storeNotes).reduce((text, n) => text.replaceAll(n.library, n.hint), note)
