/**
 * WorkTree: what FileStore does not offer and confined execution needs — the canonical identity
 * of a directory (device, inode, real path) reached without a link in any component, and an
 * lstat walk of a directory tree that never follows a link. Paths are relative to the work
 * folder; the same boundary rules as FileStore (no escape, no absolute path, no symlink above).
 *
 * Layer: `WorkTreeLive` (src/layers/WorkTreeLive.ts).
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { FileNotFound, IoError, LimitExceeded, UnsafePath } from "../domain/Errors.js"
import type { TreeEntry } from "../domain/Execution.js"
import type { RootIdentity } from "../domain/Grant.js"

export interface WorkTreeShape {
  /** The identity of a directory; every component must be a directory, not a link. */
  readonly identity: (path: string) => Effect.Effect<RootIdentity, IoError | FileNotFound | UnsafePath>
  /** Every entry below a directory (not the directory itself), sorted by path; at most `maxEntries`. */
  readonly scan: (
    path: string,
    maxEntries: number
  ) => Effect.Effect<ReadonlyArray<TreeEntry>, IoError | UnsafePath | LimitExceeded>
  /**
   * The same walk, bounded and never failing below the directory itself: it stops at `maxEntries`,
   * and skips what cannot be read (a path too long for the system, an unreadable directory, a name
   * that is not UTF-8). `incomplete` says why the entries are not all of them (null when they are).
   * The regular files at or below a name that is not UTF-8 have no path to list but are `unnamed`,
   * so that what they hold is still charged.
   */
  readonly scanUpTo: (path: string, maxEntries: number) => Effect.Effect<{
    readonly entries: ReadonlyArray<TreeEntry>
    readonly incomplete: string | null
    readonly unnamed: ReadonlyArray<UnnamedFile>
  }, IoError | UnsafePath>
  /**
   * The work-folder markers at or below a directory (not the directory itself), by path, sorted:
   * what the upward search for a work folder (src/cli/Search.ts) takes for one — a `.dossier`
   * directory, a regular `plan.md` with the plan's marker. No link followed, no entry limit.
   * Nothing when the directory does not exist.
   */
  readonly markers: (path: string) => Effect.Effect<ReadonlyArray<string>, IoError | UnsafePath>
  /**
   * `markers` (`found`), and `again`: the markers at or below the same directory when it runs,
   * looking again only at what changed since the walk (a directory whose identity or times moved,
   * or moved within 2 s of the walk, a plan.md, a marker found); a directory it did not see is
   * walked whole. Exec and grant creation walk before the folder's lock and look again under it.
   */
  readonly surveyMarkers: (path: string) => Effect.Effect<{
    readonly found: ReadonlyArray<string>
    readonly again: Effect.Effect<ReadonlyArray<string>, IoError | UnsafePath>
  }, IoError | UnsafePath>
  /**
   * Clear the set-user-ID and set-group-ID bits of every regular file at or below a directory
   * (no link followed, at any depth, names that are not UTF-8 included): a file a confined program
   * marked so would run as dossier's user on the machine, outside the sandbox. `cleared` lists the
   * files cleared by path, `unnamed` counts those below a name that is not UTF-8, `unchecked` the
   * entries that could not be read or changed. Nothing when the directory does not exist.
   * The same walk renames what would make a command run from inside the directory take a folder
   * of it for a work folder (src/cli/Search.ts): a `.dossier` directory, a regular `plan.md` with
   * the plan's marker, each to `<name>.from-run` (or that with a random suffix), never over an
   * existing entry. `markers` says which (`'<path>' to '<new name>'`), `markersLeft` which could
   * not be renamed, `markersUnnamed` counts those below a name that is not UTF-8.
   */
  readonly clearSetIds: (path: string) => Effect.Effect<SetIdsCleared, IoError | UnsafePath>
}

/** What `clearSetIds` did. */
export interface SetIdsCleared {
  readonly cleared: ReadonlyArray<string>
  readonly unnamed: number
  readonly unchecked: number
  readonly markers: ReadonlyArray<string>
  readonly markersLeft: ReadonlyArray<string>
  readonly markersUnnamed: number
}

/** A regular file below a name that is not UTF-8: its identity (device, inode, size, times) and size. */
export interface UnnamedFile {
  readonly id: string
  readonly size: number
}

export class WorkTree extends Context.Tag("dossier/WorkTree")<WorkTree, WorkTreeShape>() {}
