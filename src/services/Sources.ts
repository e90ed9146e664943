/**
 * Sources: the files retained under `research/sources/` (captures, readable copies, files the
 * agent put there), as the plan and the gate cite them.
 *
 * Layer: `SourcesLive` (src/layers/SourcesLive.ts), requiring FileStore | Plan.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { IoError, UnsafePath } from "../domain/Errors.js"

/** At most this many files are listed (a folder holding more is listed in part, in order). */
export const MAX_LISTED_SOURCES = 10_000

export interface SourcesShape {
  /**
   * Every regular file under `research/sources/` (any depth; symlinks, special files and
   * staging files left out), as paths relative to the work folder, sorted. Empty when absent.
   */
  readonly list: Effect.Effect<ReadonlyArray<string>, IoError | UnsafePath>
}

export class Sources extends Context.Tag("dossier/Sources")<Sources, SourcesShape>() {}
