/**
 * The evidence key on disk: `$XDG_CONFIG_HOME/dossier/evidence.key` (an absolute XDG_CONFIG_HOME),
 * else `$HOME/.config/dossier/evidence.key`. 32 random bytes as hex, created on first signature
 * (directory 0700, file 0600, written to a temporary name, fsynced, then linked into place so two
 * first uses agree on one key). It is used only when it is a regular file of this user, with one
 * link, no access for group or others, and its directory is neither inside the work folder nor
 * inside anything the sandbox shows (src/domain/Execution.ts `keyExposure`): no confined program
 * can read it. Checking a signature never creates a key; without one, signed records are
 * `unverifiable`, never `signed`.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { randomBytes } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { checkSignature, KEY_FILE, signDigest } from "../domain/Evidence.js"
import { EvidenceKeyUnavailable } from "../domain/ExecErrors.js"
import { keyExposure } from "../domain/Execution.js"
import { EvidenceKey, type EvidenceKeyShape } from "../services/EvidenceKey.js"
import { Workdir } from "../services/Workdir.js"

type Loaded = { readonly key: Buffer } | { readonly missing: string; readonly absent: boolean }

/** The key's directory from the environment, or why there is none. */
export const keyDirectory = (env: NodeJS.ProcessEnv): string | { readonly none: string } => {
  const xdg = env["XDG_CONFIG_HOME"]
  if (xdg !== undefined && path.isAbsolute(xdg)) return path.join(xdg, "dossier")
  const home = env["HOME"]
  if (home !== undefined && path.isAbsolute(home)) return path.join(home, ".config", "dossier")
  return { none: "neither XDG_CONFIG_HOME nor HOME is an absolute path, so there is no config directory for the key" }
}

const code = (e: unknown) => (e as NodeJS.ErrnoException).code ?? "error"

/** Read and check the key file; `absent` when there is no file (the only case `sign` creates one). */
const readKey = (dir: string, root: string): Loaded => {
  let real: string
  try {
    real = fs.realpathSync(dir)
  } catch (e) {
    return {
      missing: code(e) === "ENOENT"
        ? "there is no evidence key on this machine"
        : `its directory cannot be read (${code(e)})`,
      absent: code(e) === "ENOENT"
    }
  }
  const exposed = keyExposure(real, root)
  if (exposed !== null) return { missing: exposed, absent: false }
  const file = path.join(real, KEY_FILE)
  let fd: number
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW)
  } catch (e) {
    const c = code(e)
    return {
      missing: c === "ENOENT"
        ? "there is no evidence key on this machine"
        : c === "ELOOP"
        ? "the key file is a symlink"
        : `the key file cannot be read (${c})`,
      absent: c === "ENOENT"
    }
  }
  try {
    const st = fs.fstatSync(fd)
    if (!st.isFile()) return { missing: "the key file is not a regular file", absent: false }
    if (st.nlink !== 1) return { missing: "the key file has more than one link", absent: false }
    if (typeof process.getuid === "function" && st.uid !== process.getuid()) {
      return { missing: "the key file belongs to another user", absent: false }
    }
    if ((st.mode & 0o077) !== 0) {
      return { missing: "the key file is readable or writable by group or others (it must be 0600)", absent: false }
    }
    const text = fs.readFileSync(fd, "latin1")
    if (!/^[0-9a-f]{64}\n?$/.test(text)) {
      return { missing: "the key file does not hold a key (64 hex digits)", absent: false }
    }
    return { key: Buffer.from(text.slice(0, 64), "hex") }
  } finally {
    fs.closeSync(fd)
  }
}

/** The real path a directory has or would have: its nearest existing ancestor resolved, the rest appended. */
const realOrPlanned = (dir: string): string => {
  const rest: Array<string> = []
  let at = dir
  for (;;) {
    try {
      return path.join(fs.realpathSync(at), ...rest.reverse())
    } catch {
      const up = path.dirname(at)
      if (up === at) return dir
      rest.push(path.basename(at))
      at = up
    }
  }
}

/** Create the key (first use): written under a temporary name, fsynced, linked into place; a key made meanwhile by another process wins. */
const createKey = (dir: string): void => {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
  const tmp = path.join(dir, `.${KEY_FILE}.${process.pid}.${randomBytes(4).toString("hex")}`)
  const fd = fs.openSync(
    tmp,
    fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW,
    0o600
  )
  try {
    fs.writeSync(fd, `${randomBytes(32).toString("hex")}\n`)
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
  try {
    fs.linkSync(tmp, path.join(dir, KEY_FILE))
  } catch (e) {
    if (code(e) !== "EEXIST") throw e
  } finally {
    fs.unlinkSync(tmp)
  }
  const d = fs.openSync(dir, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY)
  try {
    fs.fsyncSync(d)
  } finally {
    fs.closeSync(d)
  }
}

export const EvidenceKeyLive: Layer.Layer<EvidenceKey, never, Workdir> = Layer.effect(
  EvidenceKey,
  Effect.gen(function*() {
    const { root } = yield* Workdir
    const dir = keyDirectory(process.env)
    let cached: Buffer | null = null
    const load = (): Loaded => {
      if (cached !== null) return { key: cached }
      if (typeof dir !== "string") return { missing: dir.none, absent: false }
      const k = readKey(dir, root)
      if ("key" in k) cached = k.key
      return k
    }
    const sign: EvidenceKeyShape["sign"] = (kind, digest) =>
      Effect.suspend(() => {
        let k = load()
        if ("missing" in k && k.absent && typeof dir === "string") {
          // Never create a key where it would be exposed (a directory not made yet included).
          const exposed = keyExposure(realOrPlanned(dir), root)
          if (exposed !== null) return Effect.fail(new EvidenceKeyUnavailable({ reason: exposed }))
          try {
            createKey(dir)
          } catch (e) {
            return Effect.fail(new EvidenceKeyUnavailable({ reason: `the key could not be created (${code(e)})` }))
          }
          k = load()
        }
        return "key" in k
          ? Effect.succeed(signDigest(k.key, kind, digest))
          : Effect.fail(new EvidenceKeyUnavailable({ reason: k.missing }))
      })
    const check: EvidenceKeyShape["check"] = (kind, digest, signature) =>
      Effect.sync(() => checkSignature(load(), kind, digest, signature))
    return { sign, check }
  })
)

/** A key held in memory for the life of the layer (the in-memory layers and tests of services). */
export const EvidenceKeyMemory: Layer.Layer<EvidenceKey> = Layer.sync(EvidenceKey, () => {
  const key = randomBytes(32)
  return {
    sign: (kind, digest) => Effect.succeed(signDigest(key, kind, digest)),
    check: (kind, digest, signature) => Effect.sync(() => checkSignature({ key }, kind, digest, signature))
  }
})
