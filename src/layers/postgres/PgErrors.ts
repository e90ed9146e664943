/**
 * What a driver failure means to a command: the server out of reach or not answering in time is
 * `StoreUnavailable` (retryable), a wait for another writer past `lock_timeout` (or a deadlock,
 * or a serialization failure) is `LockTimeout` (retryable); anything else is a defect of
 * dossier's own SQL. Reasons are fixed phrases chosen by the SQLSTATE or the socket's error
 * code, never the driver's message (which could quote a URL): no password, no user
 * information, no address reaches an answer, an error or a log.
 */
import type { SqlError } from "@effect/sql/SqlError"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { LockTimeout } from "../../domain/Errors.js"
import { BindingRefused, StoreUnavailable } from "../../domain/StoreErrors.js"

const codeOf = (e: unknown): string | undefined => {
  if (typeof e !== "object" || e === null) return undefined
  const code = (e as { code?: unknown }).code
  if (typeof code === "string") return code
  const errors = (e as { errors?: unknown }).errors
  if (Array.isArray(errors) && errors.length > 0) return codeOf(errors[0])
  return undefined
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : "")

const socketReasons: Record<string, string> = {
  ECONNREFUSED: "the server refused the connection (not running, or not listening there)",
  ECONNRESET: "the connection was reset",
  ETIMEDOUT: "the connection timed out",
  EHOSTUNREACH: "the server's host is unreachable",
  ENETUNREACH: "the server's network is unreachable",
  ENETDOWN: "the network is down",
  EHOSTDOWN: "the server's host is down",
  ENOTFOUND: "the server's host name did not resolve",
  EAI_AGAIN: "the server's host name could not be resolved now",
  EPIPE: "the connection was closed while writing",
  ENOENT: "the server's socket does not exist (not running)"
}

import {
  CREDENTIALS_REASON,
  NO_DATABASE_REASON,
  NO_DOSSIER_REASON,
  NO_PASSWORD_REASON,
  PRIVILEGE_REASON
} from "../../domain/StoreRefusals.js"

export { CREDENTIALS_REASON, NO_DATABASE_REASON, NO_DOSSIER_REASON, NO_PASSWORD_REASON, PRIVILEGE_REASON }

const bindingReasons: ReadonlyMap<string, BindingRefused["reason"]> = new Map([
  [PRIVILEGE_REASON, "privilege"],
  [CREDENTIALS_REASON, "credentials"],
  [NO_DATABASE_REASON, "no-database"],
  [NO_PASSWORD_REASON, "no-password"],
  [NO_DOSSIER_REASON, "no-dossier"]
])

/**
 * A refusal of the command `command` (as typed after `dossier`) over the shared dossier `dossier`:
 * a server that refuses the role's privileges (42501), its credentials (28P01, 28000) or names no
 * such database (3D000), a password the server asks for that the client does not have, and a
 * bound folder's dossier the store does not hold (`requireDossier`, ./PgStore.ts), answer
 * the same way whenever the command is run again unchanged, so they are `BindingRefused` (not
 * retryable), not `StoreUnavailable`; any other error is left as it is. The one place these are
 * mapped: every command over a binding applies it (src/commands/Bound.ts, store.impl.ts); the
 * library keeps `StoreUnavailable` with the fixed reason (docs/store.md, "Where a server's refusal
 * is mapped").
 */
export const refusedByServer = (command: string, dossier: string) => <E>(e: E): E | BindingRefused => {
  if (!(e instanceof StoreUnavailable)) return e
  const reason = bindingReasons.get(e.reason)
  return reason === undefined ? e : new BindingRefused({ command, dossier, reason })
}

/** The SQLSTATEs that say the server cannot serve now (classes 08, 53, 57, 58 and a few more). */
const sqlStateReason = (code: string): string | undefined => {
  if (code === "57014") return "the server did not finish the statement in time (statement_timeout)"
  if (code === "57P01" || code === "57P02") return "the server is shutting down"
  if (code === "57P03") return "the server is starting up or cannot accept connections now"
  if (code === "57P04" || code === "57P05") return "the server ended the session"
  if (code === "53300") return "the server has no free connection slot"
  if (code === "25P03") return "the transaction was idle too long and the server ended it"
  if (code === "28P01" || code === "28000") return CREDENTIALS_REASON
  if (code === "3D000") return NO_DATABASE_REASON
  if (code === "42501") return PRIVILEGE_REASON
  if (code.startsWith("08")) return `the connection failed (SQLSTATE ${code})`
  if (code.startsWith("53")) return `the server is out of resources (SQLSTATE ${code})`
  if (code.startsWith("57") || code.startsWith("58")) return `the server could not serve the command (SQLSTATE ${code})`
  return undefined
}

const messageReasons: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /timeout exceeded when trying to connect|connection timeout|timeout expired|Connection timed out/i,
    "no connection within the connect timeout"
  ],
  [/Query read timeout/i, "the server did not answer within the query timeout"],
  [/Connection terminated|not queryable|connection error/i, "the connection to the server was lost"],
  [
    /password must be a string|password must be a non-empty string|password authentication|no password/i,
    NO_PASSWORD_REASON
  ],
  [
    /self[- ]signed|certificate|SSL|TLS/i,
    "the TLS handshake with the server failed (check sslmode and the certificates)"
  ]
]

/**
 * The domain error of a driver failure, or null when it is none of the expected kinds (a bug in
 * dossier's SQL, a constraint the adapters should never break).
 */
export const classify = (error: SqlError, lockWaitMs: number): StoreUnavailable | LockTimeout | null => {
  let cause: unknown = error.cause
  // A failure to acquire may wrap the socket's error.
  for (let depth = 0; depth < 3 && cause !== undefined; depth++) {
    const code = codeOf(cause)
    if (code !== undefined) {
      if (code === "55P03" || code === "40P01" || code === "40001") return new LockTimeout({ waitedMs: lockWaitMs })
      const state = sqlStateReason(code)
      if (state !== undefined) return new StoreUnavailable({ reason: state })
      const socket = socketReasons[code]
      if (socket !== undefined) return new StoreUnavailable({ reason: socket })
    }
    const message = messageOf(cause)
    for (const [re, reason] of messageReasons) if (re.test(message)) return new StoreUnavailable({ reason })
    cause = typeof cause === "object" && cause !== null ? (cause as { cause?: unknown }).cause : undefined
  }
  for (const [re, reason] of messageReasons) if (re.test(error.message)) return new StoreUnavailable({ reason })
  return null
}

const isSqlError = (e: unknown): e is SqlError =>
  typeof e === "object" && e !== null && (e as { _tag?: unknown })._tag === "SqlError"

/**
 * Map a driver failure: `StoreUnavailable`, `LockTimeout`, or a defect (never the driver's error
 * as is). @effect/sql turns a failed COMMIT or ROLLBACK into a defect; those are mapped too (the
 * connection lost while ending the transaction).
 */
export const mapSqlError = (lockWaitMs: number) =>
<A, E, R>(
  self: Effect.Effect<A, E | SqlError, R>
): Effect.Effect<A, Exclude<E, SqlError> | StoreUnavailable | LockTimeout, R> =>
  self.pipe(
    Effect.catchSomeDefect((d) => (isSqlError(d) ? Option.some(Effect.fail(d)) : Option.none())),
    Effect.catchIf(isSqlError, (e) => {
      const mapped = classify(e, lockWaitMs)
      return mapped === null
        ? Effect.die(new Cause.RuntimeException(`store statement failed (SQLSTATE ${codeOf(e.cause) ?? "none"})`))
        : Effect.fail(mapped)
    })
  ) as Effect.Effect<A, Exclude<E, SqlError> | StoreUnavailable | LockTimeout, R>
