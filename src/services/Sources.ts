/**
 * Sources: the files retained under `research/sources/` (captures, readable copies, files the
 * agent put there), and exact source follow: where a remembered excerpt is, and the whole
 * passage around it (src/domain/SourceFollow.ts).
 *
 * Layer: `SourcesLive` (src/layers/SourcesLive.ts), requiring FileStore | Plan | CaptureStore.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type {
  FileNotFound,
  InvalidInput,
  IoError,
  LimitExceeded,
  LockTimeout,
  PathOutsideArea,
  UnsafePath
} from "../domain/Errors.js"
import type { CorruptPlan } from "../domain/PlanErrors.js"
import type { CorruptCaptureLog, StoreUnavailable } from "../domain/StoreErrors.js"

/**
 * At most this many files are listed (a folder holding more is listed in part, in name order,
 * depth first); a search without --path says so in `skipped` (src/layers/SourcesLive.ts), the
 * MCP server's resource list in its own `skipped` (src/mcp/Resources.ts).
 */
export const MAX_LISTED_SOURCES = 10_000

export interface FollowedMatch {
  readonly path: string
  /** SHA-256 of the file's current bytes. */
  readonly sha256: string
  /** Whether those bytes are the ones the plan registered for this path. */
  readonly registered: boolean
  /** Where the file came from: its registration's origin, else its capture's, else null. */
  readonly origin: string | null
  readonly start: number
  readonly end: number
  readonly line: number
  readonly paragraph: string
  readonly section: string | null
}

/** A file under `research/sources/` a search without `--path` would read but could not. */
export interface SkippedSource {
  readonly path: string
  /**
   * The error tag `--path` naming this file answers (`UnsafePath`, `LimitExceeded`, `InvalidInput`,
   * `IoError`); `LimitExceeded` at `research/sources` when more files are there than are searched.
   */
  readonly error: string
  /** That error's one sentence (`Refused the path '…': hard-link.`). */
  readonly message: string
}

export interface FollowResult {
  readonly matches: ReadonlyArray<FollowedMatch>
  /** Files not searched because they cannot be read safely as text (empty with `--path`: it refuses). */
  readonly skipped: ReadonlyArray<SkippedSource>
  readonly note: string
}

export type FollowError =
  | InvalidInput
  | FileNotFound
  | IoError
  | UnsafePath
  | LimitExceeded
  | PathOutsideArea
  | CorruptPlan
  | StoreUnavailable
  | CorruptCaptureLog
  | LockTimeout

/** Options of `Sources.follow` (the convention: src/domain/Options.ts). */
export interface FollowOptions {
  /** Search only this file under `research/sources/` (relative to the work folder). */
  readonly path?: string | undefined
}

export interface SourcesShape {
  /**
   * Every regular file under `research/sources/` (any depth; symlinks, special files and
   * staging files left out), as paths relative to the work folder, sorted. Empty when absent.
   */
  readonly list: Effect.Effect<ReadonlyArray<string>, IoError | UnsafePath>
  /**
   * `list`, and whether it was cut: `truncated` when the folder holds more than
   * `MAX_LISTED_SOURCES` files (then `paths` are the first ones, in name order, depth first).
   */
  readonly listing: Effect.Effect<
    { readonly paths: ReadonlyArray<string>; readonly truncated: boolean },
    IoError | UnsafePath
  >
  /**
   * Find an excerpt (clipped, with `…`/`...` gaps) in the readable copies and text originals
   * under `research/sources/`, or only in `options.path` (a file under it, in any text format).
   */
  readonly follow: (excerpt: string, options?: FollowOptions) => Effect.Effect<FollowResult, FollowError>
}

export class Sources extends Context.Tag("dossier/Sources")<Sources, SourcesShape>() {}
