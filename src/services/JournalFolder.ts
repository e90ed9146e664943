/**
 * JournalFolder: the journal's folder-only work, beside the JournalStore port — what exists only
 * because a journal is a file in a work folder:
 * - `rebuild`: publish the manifest.json (v1) and index.json projections of a study's history;
 * - `recoverTail`: preserve an unterminated tail write-once, then truncate the journal to its last `\n`;
 * - `importLegacy`: snapshot a legacy manifest.json and append one `legacy_imported` event.
 *
 * The Journal service answers these three by calling this one (src/layers/JournalLive.ts).
 * Layer: `JournalFolderLayer` (src/layers/folder/JournalFolderLive.ts), with the folder adapter
 * of JournalStore, over FileStore | Lock.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { ImportResult, RebuildResult, RecoverResult } from "../domain/JournalOutput.js"
import type { ImportError, RebuildError, RecoverError } from "./Journal.js"

export interface JournalFolderShape {
  readonly rebuild: (study: string) => Effect.Effect<RebuildResult, RebuildError>
  readonly recoverTail: (study: string) => Effect.Effect<RecoverResult, RecoverError>
  readonly importLegacy: (study: string) => Effect.Effect<ImportResult, ImportError>
}

export class JournalFolder extends Context.Tag("dossier/JournalFolder")<JournalFolder, JournalFolderShape>() {}
