/**
 * Errors shared by every subsystem: boundary, input, lock, revision and I/O refusals.
 * Every refusal a user can meet is a `Schema.TaggedError` carried in the typed channel.
 */
import * as Schema from "effect/Schema"
import { clipped } from "./Clip.js"

export const Issue = Schema.Struct({ path: Schema.String, message: Schema.String })
export type Issue = typeof Issue.Type

export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", {
  issues: Schema.Array(Issue)
}) {
  override get message() {
    const first = this.issues[0]
    return first === undefined
      ? "The input is invalid."
      : `The input is invalid at '${first.path || "(root)"}': ${first.message}`
  }
}

export class IoError extends Schema.TaggedError<IoError>()("IoError", {
  path: Schema.String,
  operation: Schema.String,
  code: Schema.String
}) {
  override get message() {
    return `A file-system ${this.operation} failed on '${this.path}' (${this.code}).`
  }
}

export class LockTimeout extends Schema.TaggedError<LockTimeout>()("LockTimeout", {
  waitedMs: Schema.Number,
  /**
   * The shared dossier whose writer (a command on any host, or a session holding a lock on its
   * rows) held on, in a folder bound to a store (docs/store.md); absent in a plain folder.
   */
  dossier: Schema.optional(Schema.String)
}) {
  override get message() {
    return this.dossier === undefined
      ? `Another dossier process holds the work folder's lock; gave up after ${this.waitedMs} ms.`
      : `Another writer holds the shared dossier '${this.dossier}' (a command on any host, or a session locking its rows); gave up after ${this.waitedMs} ms.`
  }
}

/**
 * A compare-and-set on a record dossier keeps lost: the caller named revision `expected`, the
 * record is at `actual`, nothing was changed. Every such record (the plan, a subscription, a
 * monitor run) carries an integer `revision`: 1 when it is created, one more on every write
 * (docs/library.md, "Revisions"). The gate's compare-and-set on a state file dossier does not
 * own compares digests instead, under the same tag: `StaleStateFile` (./GateErrors.ts).
 */
export class StaleRevision extends Schema.TaggedError<StaleRevision>()("StaleRevision", {
  expected: Schema.Number,
  actual: Schema.Number
}) {
  override get message() {
    return `The record changed since it was read: expected revision ${this.expected}, found ${this.actual}.`
  }
}

export class EditedRetainedFile extends Schema.TaggedError<EditedRetainedFile>()("EditedRetainedFile", {
  path: Schema.String,
  expected: Schema.String,
  actual: Schema.String
}) {
  override get message() {
    return `The retained file '${this.path}' holds other bytes than expected; retained files are write-once.`
  }
}

export class InputTooLarge extends Schema.TaggedError<InputTooLarge>()("InputTooLarge", {
  path: Schema.String,
  max: Schema.Number,
  actual: Schema.Number
}) {
  override get message() {
    return `The input file '${this.path}' has ${this.actual} bytes; at most ${this.max} are accepted.`
  }
}

export class InputOutsideWorkdir extends Schema.TaggedError<InputOutsideWorkdir>()("InputOutsideWorkdir", {
  /**
   * The path as given when relative, else relative to the work folder (`../x.json`); never
   * absolute. `.` when a folder option named the work folder itself.
   */
  path: Schema.String,
  /**
   * The option that named it (`--input`, `--state`, `--research-dir`…); absent means `--input`. The
   * message names it in words ("the research dir path"), true on every face.
   */
  flag: Schema.optional(Schema.String)
}) {
  override get message() {
    const words = this.flag?.replace(/^-+/, "").replaceAll("-", " ")
    // `--path` is "the path", not "the path path".
    const what = words === undefined || words === "input"
      ? "The input file"
      : /\bpath$/.test(words)
      ? `The ${words}`
      : `The ${words} path`
    // `.`: the work folder itself (a folder option such as --research-dir given it), which is
    // no more "outside" than inside it.
    return this.path === "."
      ? `${what} '.' is the work folder itself, not a folder inside it.`
      : `${what} '${this.path}' is not inside the work folder.`
  }
}

export class FileNotFound extends Schema.TaggedError<FileNotFound>()("FileNotFound", {
  path: Schema.String
}) {
  override get message() {
    return `No file at '${this.path}'.`
  }
}

export class PathOutsideArea extends Schema.TaggedError<PathOutsideArea>()("PathOutsideArea", {
  path: Schema.String,
  area: Schema.String
}) {
  override get message() {
    // The area folder itself (`research/sources/`, `./research/sources`) is not a file under it.
    const folder = (p: string) =>
      p.split(/[/\\]+/).reduce<Array<string>>(
        (out, seg) => seg === "" || seg === "." ? out : seg === ".." ? out.slice(0, -1) : [...out, seg],
        []
      ).join("/")
    return folder(this.path) === folder(this.area)
      ? `The path '${this.path}' names the folder '${this.area}' itself, not a file under it.`
      : `The path '${this.path}' must be under '${this.area}'.`
  }
}

export const UnsafePathReason = Schema.Literal(
  "absolute",
  "outside-workdir",
  "symlink",
  "hard-link",
  "not-regular-file",
  "not-directory",
  "changed-while-opening",
  "replaced-after-publish",
  "unsupported-platform",
  "dossier-state",
  "plan-file",
  "retained-file",
  "journal-file",
  "registered-file",
  "run-state",
  "invalid",
  "name-too-long"
)
export type UnsafePathReason = typeof UnsafePathReason.Type

/** Why a path of each reason may not be used, as the message says it. */
const UNSAFE_PATH_WHY: { readonly [R in UnsafePathReason]: string } = {
  "absolute": "it is absolute, where a path relative to the work folder belongs",
  "outside-workdir": "it leads outside the work folder",
  "symlink": "it goes through a symbolic link, which dossier never follows",
  "hard-link": "the file has another hard link, so its bytes could change under another name",
  "not-regular-file": "it is not a regular file (a folder, FIFO, socket or device)",
  "not-directory": "a part of it that must be a folder is not one",
  "changed-while-opening": "it was replaced between its check and its opening",
  "replaced-after-publish": "it was replaced right after dossier wrote it",
  "unsupported-platform": "this system cannot open a path without following links (dossier needs Linux)",
  "dossier-state": "it is dossier's own state under .dossier/",
  "plan-file": "it is plan.md, which only the plan commands write",
  "retained-file": "it is a retained file under research/sources/, which is write-once",
  "journal-file": "it is a journal's own file (events, manifest, index, a recovered tail or legacy snapshot)",
  "registered-file": "it is a file the plan registered (a source or an output)",
  "run-state": "it is the run state file the command reads, so it cannot be written as well",
  "invalid": "it is no usable path (empty, holding a NUL byte, or nothing once normalized)",
  "name-too-long": "a name in it is longer than 255 bytes"
}

/** Why a path of this reason is refused, for people (a reason not in the list is named as it is). */
export const unsafePathWhy = (reason: string): string =>
  (UNSAFE_PATH_WHY as Readonly<Record<string, string>>)[reason] ?? reason

export class UnsafePath extends Schema.TaggedError<UnsafePath>()("UnsafePath", {
  path: Schema.String,
  reason: UnsafePathReason
}) {
  override get message() {
    return `Refused the path '${this.path}' (${this.reason}): ${unsafePathWhy(this.reason)}.`
  }
}

export class LimitExceeded extends Schema.TaggedError<LimitExceeded>()("LimitExceeded", {
  limit: Schema.String,
  max: Schema.Number,
  actual: Schema.Number,
  /** The file over a size limit (`fileBytes`), relative to the work folder; absent for other limits. */
  path: Schema.optionalWith(Schema.String, { exact: true })
}) {
  override get message() {
    return this.path === undefined
      ? `The limit '${this.limit}' is ${this.max}; this would make it ${this.actual}.`
      : `The file '${clipped(this.path)}' has ${this.actual} bytes; the limit '${this.limit}' is ${this.max}.`
  }
}

export class AliasedFile extends Schema.TaggedError<AliasedFile>()("AliasedFile", {
  path: Schema.String
}) {
  override get message() {
    return `'${this.path}' is a symlink or hard link; refusing to use it.`
  }
}

/**
 * The folder given as the work folder (`Workdir.live(dir)`, `DossierLive(dir)`, the CLI's
 * `--workdir` / `DOSSIER_WORKDIR`) is not an existing directory. The message states only that, in
 * words true for every face (never the path: it may be absolute); the way out is the face's own
 * (the CLI says which flag, src/cli/Render.ts).
 */
export class WorkdirNotFound extends Schema.TaggedError<WorkdirNotFound>()("WorkdirNotFound", {
  /** Nothing is at the path given (`missing`), or something that is not a directory. */
  reason: Schema.Literal("missing", "not-directory")
}) {
  override get message() {
    return this.reason === "missing"
      ? "The work folder does not exist: no directory is at the path given for it."
      : "The work folder is not a directory: the path given for it names something else."
  }
}

export class RecoveryNeeded extends Schema.TaggedError<RecoveryNeeded>()("RecoveryNeeded", {
  /** The record of the interrupted transaction. */
  path: Schema.String
}) {
  override get message() {
    return `An interrupted transaction ('${this.path}') must be recovered first, which needs a write this command cannot make.`
  }
}

/** Errors any file-touching service method may fail with. */
export type FileError = IoError | FileNotFound | UnsafePath | LimitExceeded | EditedRetainedFile

export const CommonErrors = [
  InvalidInput,
  IoError,
  LockTimeout,
  StaleRevision,
  EditedRetainedFile,
  InputTooLarge,
  InputOutsideWorkdir,
  FileNotFound,
  PathOutsideArea,
  UnsafePath,
  LimitExceeded,
  AliasedFile,
  WorkdirNotFound,
  RecoveryNeeded
] as const
export type CommonError = InstanceType<(typeof CommonErrors)[number]>
