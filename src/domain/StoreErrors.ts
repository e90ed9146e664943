/**
 * Errors of a shared store (PostgreSQL, docs/store.md): the server out of reach, a folder that
 * cannot be imported into a dossier that already has state, a schema newer than this binary.
 * None of them ever carries a password, a URL with one, or a driver's error object.
 */
import * as Schema from "effect/Schema"

/**
 * The store could not be reached or stopped answering within the command's deadline (refused,
 * timed out, reset, shutting down, restarting, the network cut). A command is one transaction:
 * all of it or none was stored (none, unless the connection was lost while the server was
 * committing). The same command may succeed later unchanged.
 */
export class StoreUnavailable extends Schema.TaggedError<StoreUnavailable>()("StoreUnavailable", {
  /** What happened, in words (never the password nor the URL's user information). */
  reason: Schema.String
}) {
  override get message() {
    return `The shared store is unavailable: ${this.reason}.`
  }
}

/**
 * A folder that holds state cannot be bound to (imported into) a dossier that already has state;
 * or (`part` set) a bound folder's view holds what its dossier does not, so a pull (`dossier pull`,
 * `init --store` again) cannot bring the view up to it: `part` and `key` name the record (`journal`
 * and the study, `plan`, `captures` and a path, `subscription`, `run`, `report`, `grant`,
 * `execution` and an id), `reason` how it differs.
 */
export class StoreConflict extends Schema.TaggedError<StoreConflict>()("StoreConflict", {
  dossier: Schema.String,
  part: Schema.optional(Schema.String),
  key: Schema.optional(Schema.String),
  reason: Schema.optional(Schema.String)
}) {
  override get message() {
    return this.part === undefined
      ? `The shared dossier '${this.dossier}' already holds state, and so does this folder; nothing was changed.`
      : `This folder's view holds what the shared dossier '${this.dossier}' does not (${this.part} '${
        this.key ?? ""
      }': ${this.reason ?? "it differs"}); nothing was changed.`
  }
}

/** The store's schema was made by a newer dossier than this one (`schema` > `supported`). */
export class StoreTooNew extends Schema.TaggedError<StoreTooNew>()("StoreTooNew", {
  schema: Schema.Number,
  supported: Schema.Number
}) {
  override get message() {
    return `The store's schema is version ${this.schema}; this dossier knows versions up to ${this.supported}.`
  }
}

/**
 * A command the folder's binding (or the folder it names) does not allow (`reason`): `unbound`,
 * `pull` in a folder bound to no shared dossier (`dossier` null); `plain-folder`, a command that
 * works on a plain folder's files (`journal rebuild`, `recover-tail`, `import`) in a folder bound
 * to one; `bound-elsewhere`, `init --store` in a folder bound to another dossier or server;
 * `target-state` and `target-bound`, `export --to` a folder (`target`) that already holds a
 * dossier's state, or is bound to a shared store; `privilege`, a command the role the binding
 * connects as may not run (SQLSTATE 42501: a role with SELECT only and a writing command);
 * `credentials`, the server refused the role or its password (SQLSTATE 28P01, 28000);
 * `no-database`, the URL names a database the server does not have (SQLSTATE 3D000);
 * `no-password`, the server asks for a password and none was given (none in the URL, `PGPASSWORD`
 * or the password file: the client refuses before the server answers); `no-dossier`, any command
 * of a folder bound to a dossier the store does not hold (its name mistyped in the binding, or the
 * dossier removed on the server), `pull` and `export` too: there is nothing to read, write or
 * copy, and only `init --store` creates a dossier. The command
 * line is well-formed; the binding refuses it (exit 1), and nothing was changed. Running it again
 * unchanged never succeeds.
 */
export class BindingRefused extends Schema.TaggedError<BindingRefused>()("BindingRefused", {
  /** The command refused, as typed after `dossier` (`pull`, `journal rebuild`). */
  command: Schema.String,
  /** The shared dossier the folder is bound to (or `init --store` names); null: it is bound to none. */
  dossier: Schema.NullOr(Schema.String),
  reason: Schema.Literal(
    "unbound",
    "plain-folder",
    "bound-elsewhere",
    "target-state",
    "target-bound",
    "privilege",
    "credentials",
    "no-database",
    "no-password",
    "no-dossier"
  ),
  /** The folder `export --to` names, relative to the work folder with `/` (`target-*` reasons only). */
  target: Schema.optional(Schema.String)
}) {
  override get message() {
    const command = `'${this.command}'`
    const dossier = `the shared dossier '${this.dossier}'`
    switch (this.reason) {
      case "privilege":
        return `The role this folder connects as may not run ${command} on ${dossier} (it lacks a privilege, SQLSTATE 42501, as a read-only role lacks the right to write); nothing was changed.`
      case "credentials":
        return `The server refused the role ${command} connects as for ${dossier} (SQLSTATE 28P01 or 28000: a wrong password, or no pg_hba.conf entry lets that role in); nothing was changed.`
      case "no-database":
        return `The database the store URL names for ${dossier} does not exist on the server (SQLSTATE 3D000); nothing was changed.`
      case "no-dossier":
        return `The shared dossier '${this.dossier}' does not exist in the database the store URL names (its name mistyped in this folder's binding, or the dossier removed there), and a dossier is created only when a folder is bound to a new one, so ${command} has nothing to read, write or copy; nothing was changed.`
      case "no-password":
        return `The server asks for a password for the role ${command} connects as for ${dossier}, and none was given (none in the store URL, PGPASSWORD or the password file); nothing was changed.`
      case "bound-elsewhere":
        return `This folder is already bound to ${dossier}, and ${command} names another dossier or server; nothing was changed.`
      case "target-state":
        return `${command} writes into a plain folder that holds no state, and ${
          this.target ?? "the target folder"
        } already holds a dossier's state; nothing was changed.`
      case "target-bound":
        return `${command} writes into a plain folder, and ${
          this.target ?? "the target folder"
        } is bound to a shared store; nothing was changed.`
      case "plain-folder":
        return `${command} works on a plain folder's files, and this folder is bound to ${dossier}.`
      case "unbound":
        return `${command} needs a folder bound to a shared dossier, and this one is bound to none.`
    }
  }
}

/**
 * A record of a shared dossier's captures that does not decode, written behind dossier's back:
 * a record of its capture log (`dossier.events`, log `captures`, at position `line`) or the
 * record of which bytes a retained file holds (`dossier.records`, kind `retained`, key `path`).
 * The damage is in the store, not in this folder's view (`.dossier/captures.jsonl`,
 * `research/sources/`), so a command that reads them refuses naming the record rather than
 * answer, or copy the captures, as if it were not there.
 */
export class CorruptCaptureLog extends Schema.TaggedError<CorruptCaptureLog>()("CorruptCaptureLog", {
  /** The record's position in the dossier's capture log (1, 2, …); absent for a retained file's record. */
  line: Schema.optional(Schema.Number),
  /** The retained file whose record is damaged; absent for a record of the log. */
  path: Schema.optional(Schema.String),
  reason: Schema.String,
  /** The shared dossier whose captures hold the record. */
  dossier: Schema.String
}) {
  override get message() {
    const what = this.path === undefined
      ? `Record ${this.line ?? "?"} of the capture log of the shared dossier '${this.dossier}'`
      : `The record of which bytes '${this.path}' retains, in the shared dossier '${this.dossier}',`
    return `${what} cannot be read (${this.reason}); the damage is in the store, not in this folder's view, and a person must repair it there.`
  }
}

export const StoreErrors = [StoreUnavailable, StoreConflict, StoreTooNew, BindingRefused, CorruptCaptureLog] as const
export type StoreError = InstanceType<(typeof StoreErrors)[number]>
