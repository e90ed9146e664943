/**
 * ExecFiles: exec's folder-only work, beside the GrantStore and ExecutionStore ports — what
 * exists only because a run happens in a work folder on the host that runs `dossier exec`, and
 * that no store can keep for it:
 * - `ensureDir`: create a grant's work root (a directory of the work folder) when it is granted;
 * - `stat`: what is at a path a grant protects, to mask it in the sandbox (a link is never
 *   followed; a link above it is `UnsafePath {reason: "symlink"}`);
 * - `hash`: the digest of a file a run left in its work root (outputs may be hard-linked to each
 *   other: no single-link rule, no size limit);
 * - `programProblem`: whether the program can start inside the sandbox, looked up on this host;
 * - `list`: the entries of a directory (none when it does not exist), to find every Unicode
 *   form the folder spells a protected name in (`grant create` refuses one not listed; `exec`
 *   masks each at every run: src/layers/ProtectedSpellings.ts).
 *
 * The device/inode identity of a grant's roots, and the walks of the work root, are the other
 * folder-side service exec uses: `WorkTree` (./WorkTree.ts). A grant's roots are checked on the
 * host that runs exec, whatever store keeps the grant.
 *
 * Layer: `ExecFilesLive` (src/layers/folder/ExecFilesLive.ts), over FileStore | Workdir.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { FileNotFound, IoError, LimitExceeded, UnsafePath } from "../domain/Errors.js"
import type { programPlaces } from "../domain/Execution.js"
import type { Digest, EntryKind, EntryStat } from "./FileStore.js"

/** Why a program cannot start: nothing at its places, a directory there, or no execute bit. */
export type ProgramProblem = "missing" | "directory" | "not-executable"

export interface ExecFilesShape {
  readonly ensureDir: (path: string) => Effect.Effect<void, IoError | UnsafePath>
  readonly stat: (path: string) => Effect.Effect<Option.Option<EntryStat>, IoError | UnsafePath>
  readonly hash: (path: string) => Effect.Effect<Digest, IoError | FileNotFound | UnsafePath | LimitExceeded>
  readonly list: (
    path: string
  ) => Effect.Effect<ReadonlyArray<{ readonly name: string; readonly kind: EntryKind }>, IoError | UnsafePath>
  /**
   * Looked up at the places the sandbox shows at the program's name (as execvp would: the first
   * executable regular file wins); null when it can start.
   */
  readonly programProblem: (
    program: string,
    view: Parameters<typeof programPlaces>[1]
  ) => Effect.Effect<ProgramProblem | null>
}

export class ExecFiles extends Context.Tag("dossier/ExecFiles")<ExecFiles, ExecFilesShape>() {}
