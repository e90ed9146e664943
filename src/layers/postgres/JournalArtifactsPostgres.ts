/**
 * JournalArtifacts in a folder bound to a shared dossier: the folder's (`journal append` hashes
 * this host's file, `inspect --verify` hashes it again: src/layers/folder/JournalArtifactsFolder.ts)
 * with `register`, which the Journal calls inside its lock after the events are stored: the
 * bytes of every file an appended `artifact_linked` event links go to the dossier's content
 * (`dossier.content`, by SHA-256, written once), in the same transaction as the event. A file
 * not there is skipped (the event was kept as given); a file whose SHA-256 is no longer the
 * event's (changed since it was hashed) is `DigestMismatch`, and nothing of the append remains.
 * `verify` hashes this host's files; a linked file missing here gets a note that the dossier
 * holds it (src/domain/StoreNotes.ts: the command line's says that `dossier pull` brings it).
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { createHash } from "node:crypto"
import { DigestMismatch } from "../../domain/MonitorErrors.js"
import { storeNotes } from "../../domain/StoreNotes.js"
import { FileStore, type FileStoreShape } from "../../services/FileStore.js"
import { JournalArtifacts, type JournalArtifactsShape } from "../../services/ports/JournalStore.js"
import { JournalArtifactsFolder } from "../folder/JournalArtifactsFolder.js"
import { ARTIFACT_MAX_BYTES } from "../JournalLive.js"
import { pgContentStore, type PgStoreError } from "./PgRecords.js"
import { PgStore, type PgStoreShape } from "./PgStore.js"

/** Added to `inspect --verify`'s note when a linked file is missing here (docs/store.md, "Missing here, held there"). */
export const ARTIFACT_MISSING_NOTE = storeNotes.artifactMissing.library

export const makeJournalArtifactsPostgres = (
  folder: JournalArtifactsShape,
  files: FileStoreShape,
  store: PgStoreShape
): JournalArtifactsShape => {
  const content = pgContentStore(store)
  return {
    digest: folder.digest,
    verify: (p, study) =>
      Effect.map(
        folder.verify(p, study),
        (r) =>
          r.findings.some((f) => f.kind === "artifact-missing")
            ? { ...r, note: `${r.note} ${ARTIFACT_MISSING_NOTE}` }
            : r
      ),
    register: (linked) =>
      Effect.forEach(
        linked,
        (link) =>
          files.read(link.path, { maxBytes: ARTIFACT_MAX_BYTES, requireSingleLink: false }).pipe(
            Effect.map(Option.some),
            Effect.catchTag("FileNotFound", () => Effect.succeed(Option.none<Uint8Array>())),
            Effect.flatMap((found): Effect.Effect<void, DigestMismatch | PgStoreError> => {
              if (Option.isNone(found)) return Effect.void
              const actual = createHash("sha256").update(found.value).digest("hex")
              return actual !== link.sha256
                ? Effect.fail(new DigestMismatch({ path: link.path, expected: link.sha256, actual }))
                : Effect.asVoid(content.put(found.value))
            })
          ),
        { discard: true }
      )
  }
}

/** The folder's JournalArtifacts, registering linked bytes in the `PgStore`'s dossier. */
export const JournalArtifactsPostgres: Layer.Layer<JournalArtifacts, never, FileStore | PgStore> = Layer.effect(
  JournalArtifacts,
  Effect.map(
    Effect.all([JournalArtifacts, FileStore, PgStore]),
    ([folder, files, store]) => makeJournalArtifactsPostgres(folder, files, store)
  )
).pipe(Layer.provide(JournalArtifactsFolder))
