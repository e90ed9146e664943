/**
 * The URL of a shared store (`dossier init --store <url>`, `DOSSIER_STORE`): a libpq connection
 * URI, `postgres://[user@]host[:port]/database[?sslmode=…&…]` (or `postgresql://`). Parameters
 * are kept as given (node-postgres honours `sslmode`, `sslrootcert`, `application_name`, …).
 * A password in the URL is used for that connection only: it is never written to the folder,
 * printed, or put in an error (`withoutPassword`); the libpq way (`PGPASSWORD`, `~/.pgpass`)
 * is how a bound folder's commands get it.
 */

/** A parsed store URL: the text to connect with, and the same without its password. */
export interface StoreUrl {
  /** The URL as given (may hold a password): for the connection only. */
  readonly connect: string
  /** The URL without its password: what is written and shown. */
  readonly shown: string
  readonly host: string
  readonly port: number
  readonly database: string
  readonly user: string | null
  readonly hasPassword: boolean
}

/** The host read in place of none in `postgres://user@/db?host=/socket/dir` (never connected to). */
const SOCKET_PLACEHOLDER = "socket.placeholder.invalid"

/** libpq's `sslmode` values. */
const SSL_MODES: ReadonlyArray<string> = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"]

/**
 * The parameters a connection honours as libpq does (node-postgres reads them through
 * pg-connection-string): any other is refused, as libpq refuses one it does not know, rather
 * than dropped in silence (a mistyped `sslmod=require` would connect without TLS).
 */
const HONOURED: ReadonlyArray<string> = [
  "sslmode",
  "sslrootcert",
  "sslcert",
  "sslkey",
  "application_name",
  "fallback_application_name",
  "options",
  "client_encoding",
  "host",
  "port",
  "user"
]

/**
 * What libpq (or the driver reading the URL the libpq way) refuses in the parameters, said
 * before anything connects: an unknown `sslmode`, `verify-ca` without the CA to verify with, the
 * driver's own `uselibpqcompat` switch (dossier always reads the URL the libpq way), and
 * `sslpassword` (a secret: the URL is written to the folder and shown); and a parameter the
 * connection would not honour (`HONOURED`).
 */
const parameterProblem = (params: URLSearchParams): string | null => {
  const mode = params.get("sslmode")
  if (mode !== null && !SSL_MODES.includes(mode)) {
    return `The store URL's sslmode is not one libpq knows: give one of ${SSL_MODES.join(", ")}.`
  }
  if (mode === "verify-ca" && (params.get("sslrootcert") ?? "") === "") {
    return "The store URL's sslmode=verify-ca has no CA to verify with: add sslrootcert=<the CA's certificate file>, or use sslmode=verify-full."
  }
  if (params.has("uselibpqcompat")) {
    return "The store URL carries uselibpqcompat, a switch of the driver's that is always on here (every URL is read the libpq way): remove it."
  }
  if (params.has("sslpassword")) {
    return "The store URL carries sslpassword, a secret, and the URL is written to the folder: remove it and use a key file without a passphrase."
  }
  for (const name of params.keys()) {
    if (!HONOURED.includes(name)) {
      return `The store URL's parameter '${name}' is not one a connection honours here: give only ${
        HONOURED.join(", ")
      }.`
    }
  }
  return null
}

/**
 * Parse a store URL; when it is malformed, a sentence saying what is wrong and what to give (a
 * `UsageError`'s message, on every face: it names no command-line flag).
 */
export const parseStoreUrl = (text: string): StoreUrl | { readonly malformed: string } => {
  let u: URL
  // `postgres://user@/db?host=/socket/dir`: user information and no host, the form libpq documents
  // for a Unix-domain socket. A WHATWG URL has no such form, so the host is read through a
  // placeholder (as pg-connection-string does) and comes from the `host` parameter.
  let socketForm = false
  try {
    u = new URL(text)
  } catch {
    try {
      if (!/^postgres(ql)?:\/\/[^/?#]*@\//i.test(text)) throw new Error("not the socket form")
      u = new URL(text.replace("@/", `@${SOCKET_PLACEHOLDER}/`))
      socketForm = true
    } catch {
      return { malformed: "The store URL is not a URL: give postgres://[user@]host[:port]/database." }
    }
  }
  if (u.protocol !== "postgres:" && u.protocol !== "postgresql:") {
    return { malformed: `The store URL starts with ${u.protocol}//: give a postgres:// or postgresql:// URL.` }
  }
  if (u.hash !== "") return { malformed: "The store URL has a #fragment, which names nothing to a server: remove it." }
  let database: string
  let user: string
  try {
    database = decodeURIComponent(u.pathname.replace(/^\//, ""))
    user = decodeURIComponent(u.username)
  } catch {
    return {
      malformed: "The store URL has a malformed %-escape: write a % as %25, and each escape as % and two hex digits."
    }
  }
  if (database === "") return { malformed: "The store URL names no database: give postgres://host/database." }
  if (database.includes("/")) {
    return {
      malformed:
        "The store URL's database name contains '/', which no database name holds: give postgres://host/database."
    }
  }
  const socketHost = u.searchParams.get("host")
  const host = u.hostname !== "" && !socketForm ? u.hostname : socketHost ?? ""
  if (host === "") {
    return {
      malformed:
        "The store URL names no host: give postgres://host/database, or postgres://user@/database?host=/socket/folder for a Unix-domain socket."
    }
  }
  const portParam = u.searchParams.get("port")
  const portText = u.port !== "" ? u.port : portParam ?? ""
  const port = portText === "" ? 5432 : /^[0-9]{1,5}$/.test(portText) ? Number(portText) : NaN
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    return { malformed: "The store URL's port is not 1-65535: give a port in that range, or none for 5432." }
  }
  const hasPassword = u.password !== ""
  const shownUrl = new URL(u.href)
  shownUrl.password = ""
  if (shownUrl.searchParams.has("password")) {
    return {
      malformed:
        "The store URL carries a password parameter, and the URL is written to the folder: remove it and give the password in PGPASSWORD or ~/.pgpass."
    }
  }
  const problem = parameterProblem(shownUrl.searchParams)
  if (problem !== null) return { malformed: problem }
  // The placeholder host goes back to the empty host the text had (the driver reads that form itself).
  const unplaced = (href: string) => socketForm ? href.replace(`${SOCKET_PLACEHOLDER}/`, "/") : href
  return {
    connect: unplaced(u.href),
    shown: unplaced(shownUrl.href),
    host,
    port,
    database,
    user: user === "" ? null : user,
    hasPassword
  }
}

/** Whether `parseStoreUrl` refused the text. */
export const isMalformed = (r: StoreUrl | { readonly malformed: string }): r is { readonly malformed: string } =>
  "malformed" in r

/** A dossier's name in a store: 1-63 letters, digits, `-`, `_`, `.`, starting with a letter or digit. */
export const DOSSIER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/

/** What a `UsageError` says of a dossier name that is not one (`DOSSIER_NAME`). */
export const DOSSIER_NAME_RULE =
  "The dossier name is not one: give 1-63 letters, digits, '.', '_' or '-', starting with a letter or digit."
