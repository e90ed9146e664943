/**
 * The password of a store connection, the libpq way, when the URL holds none: `PGPASSWORD`, else
 * the password file (`PGPASSFILE`, else `~/.pgpass`): lines `host:port:database:user:password`,
 * `*` matching anything, `\:` and `\\` escaped, `#` comments; the first matching line wins. As
 * libpq does, a password file that the group or others can read is ignored. node-postgres reads
 * `PGPASSWORD` itself but reads the password file only through a deprecated path (a warning on
 * every connection), so dossier reads it here. The password is handed to the driver and nowhere
 * else: never a folder file, an answer, an error or a log.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

export interface PasswordTarget {
  readonly host: string
  readonly port: number
  readonly database: string
  readonly user: string
}

/** Split one password-file line into its five fields (null when it has not five). */
const fields = (line: string): Array<string> | null => {
  const out: Array<string> = []
  let cur = ""
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!
    if (c === "\\" && i + 1 < line.length) {
      cur += line[++i]
    } else if (c === ":" && out.length < 4) {
      out.push(cur)
      cur = ""
    } else {
      cur += c
    }
  }
  out.push(cur)
  return out.length === 5 ? out : null
}

/** The password for `target` from the password file's text, or undefined. */
export const passwordFromFile = (text: string, target: PasswordTarget): string | undefined => {
  const want = [target.host, String(target.port), target.database, target.user]
  for (const raw of text.split(/\r?\n/)) {
    if (raw === "" || raw.startsWith("#")) continue
    const f = fields(raw)
    if (f === null) continue
    // A host given as a socket directory matches `localhost`, as libpq does.
    const host = target.host.startsWith("/") ? "localhost" : target.host
    const values = [host, want[1], want[2], want[3]]
    if (values.every((v, i) => f[i] === "*" || f[i] === v)) return f[4]
  }
  return undefined
}

/** The password file's path: `PGPASSFILE`, else `~/.pgpass`. */
const passFile = (): string => process.env.PGPASSFILE ?? path.join(os.homedir(), ".pgpass")

/** `PGPASSWORD`, else the password file's matching line, else undefined (no password). */
export const lookupPassword = (target: PasswordTarget): string | undefined => {
  const env = process.env.PGPASSWORD
  if (env !== undefined && env !== "") return env
  try {
    const file = passFile()
    const st = fs.statSync(file)
    if (!st.isFile() || (st.mode & 0o077) !== 0) return undefined
    return passwordFromFile(fs.readFileSync(file, "utf8"), target)
  } catch {
    return undefined
  }
}
