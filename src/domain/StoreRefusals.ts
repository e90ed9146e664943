/**
 * The reasons of `StoreUnavailable` that trying again unchanged never mends: the server refused
 * the role's privilege (42501), its credentials (28P01, 28000) or the database (3D000), or asked
 * for a password the client does not have. The command line and the MCP server answer these as
 * `BindingRefused` (src/layers/postgres/PgErrors.ts, `refusedByServer`); the library keeps the
 * store specification's `StoreUnavailable {reason}`, and `Errors.retryable`/`Errors.hint`
 * (src/public/Errors.ts) read these reasons to say that retrying will not help. Fixed phrases,
 * never the driver's message: no password, user information or address in them.
 */

/** Said at the end of each reason here: the library's caller reads it in the error's message. */
const STAYS = "trying again unchanged will not help"

/**
 * The reason of a statement the server refused for the role's privileges (SQLSTATE 42501): a
 * bound folder's command answers `BindingRefused` for it (src/commands/Bound.ts), since running
 * it again unchanged never succeeds.
 */
export const PRIVILEGE_REASON = `the role lacks a privilege this command needs (SQLSTATE 42501); ${STAYS}`

/** The reason of a connection the server refused for its role or password (SQLSTATE 28P01, 28000). */
export const CREDENTIALS_REASON =
  `the server refused the credentials (SQLSTATE 28P01 or 28000): check the user and PGPASSWORD or ~/.pgpass; ${STAYS}`

/** The reason of a connection to a database the server does not have (SQLSTATE 3D000). */
export const NO_DATABASE_REASON = `the database does not exist on the server (SQLSTATE 3D000); ${STAYS}`

/**
 * The reason of a connection the server asks a password for when the client has none (none in the
 * URL, `PGPASSWORD` or the password file): node-postgres refuses it itself, before any SQLSTATE.
 */
export const NO_PASSWORD_REASON =
  `the server asks for a password and none was given: set PGPASSWORD or add a ~/.pgpass line (a password file the group or others can read is ignored: chmod 600 it); ${STAYS}`

/**
 * The reason of a connection, for a folder bound to it, to a shared dossier the store does not
 * hold (its name mistyped in the binding, or the dossier removed there): only `init --store`
 * creates a dossier, so a bound command refuses rather than create it or read it as empty.
 */
export const NO_DOSSIER_REASON =
  `the shared dossier the folder is bound to does not exist in the database (its name mistyped, or the dossier removed); a dossier is created only when a folder is bound to a new one; ${STAYS}`

/** Every reason above. */
export const LASTING_REASONS: ReadonlySet<string> = new Set([
  PRIVILEGE_REASON,
  CREDENTIALS_REASON,
  NO_DATABASE_REASON,
  NO_PASSWORD_REASON,
  NO_DOSSIER_REASON
])

/** Whether `error` is a `StoreUnavailable` whose reason is one that trying again never mends. */
export const lastingRefusal = (error: unknown): boolean =>
  typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "StoreUnavailable" &&
  LASTING_REASONS.has(String((error as { reason?: unknown }).reason))

/** `Errors.hint` of such an error: the catalogue's hint of `StoreUnavailable` says to try again. */
export const LASTING_HINT =
  "The server refused the connection or the statement for a reason that stays (`reason` names it: the credentials, the database, the role's privilege, a missing password): fix the URL's user or database, the password (PGPASSWORD or ~/.pgpass), the server's pg_hba.conf or the role's grants; trying again unchanged will not help."
