/**
 * RFC 8785 (JCS) canonical JSON and the SHA-256 digests computed over it.
 * Timestamps inside hashed content are normalized to `YYYY-MM-DDTHH:MM:SS.sssZ` first. A value
 * is a timestamp when its key is `at` or ends in `At` (`createdAt`, `fetchedAt`, `nextDueAt`…)
 * and it parses as an ISO-8601 instant; other strings (a title that looks like a date) are
 * content and are never rewritten.
 */
import canonicalizeJcs from "canonicalize"
import * as crypto from "node:crypto"

const ISO_LIKE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/

/** Normalize an ISO-8601 instant to millisecond UTC form; other strings are returned unchanged. */
export const normalizeTimestamp = (value: string): string => {
  if (!ISO_LIKE.test(value)) return value
  const ms = Date.parse(value)
  return Number.isNaN(ms) ? value : new Date(ms).toISOString()
}

/** Is this key one whose string value is a timestamp? */
export const isTimestampKey = (key: string): boolean => key === "at" || /[a-z0-9]At$/.test(key)

const normalizeDeep = (value: unknown, key: string | undefined): unknown => {
  if (typeof value === "string") return key !== undefined && isTimestampKey(key) ? normalizeTimestamp(value) : value
  if (Array.isArray(value)) return value.map((v) => normalizeDeep(v, undefined))
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = normalizeDeep(v, k)
    return out
  }
  return value
}

/** The general form: normalize a copy, then canonicalize it with the reference implementation. */
const canonicalJsonGeneral = (value: unknown): string => {
  const out = canonicalizeJcs(normalizeDeep(value, undefined))
  if (out === undefined) throw new TypeError("value has no JSON form")
  return out
}

/** Thrown by `writeFast` for anything it leaves to the general form. */
const GENERAL = Symbol("general")

const wellFormed = (s: string): boolean => {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0xd800 || c > 0xdfff) continue
    if (c > 0xdbff || i + 1 === s.length) return false
    const d = s.charCodeAt(++i)
    if (d < 0xdc00 || d > 0xdfff) return false
  }
  return true
}

/**
 * The same output as the general form, in one pass without the normalized copy, for plain JSON
 * data (strings without lone surrogates, finite numbers, booleans, null, arrays, objects whose
 * values are those or undefined). Anything else (a function, a symbol, a bigint, a lone
 * surrogate, a non-finite number, a `__proto__` key, an undefined array element) throws
 * `GENERAL`, and the general form decides (it throws or serializes as before).
 */
const writeFast = (value: unknown, key: string | undefined): string => {
  switch (typeof value) {
    case "string": {
      const v = key !== undefined && isTimestampKey(key) ? normalizeTimestamp(value) : value
      if (!wellFormed(v)) throw GENERAL
      return JSON.stringify(v)
    }
    case "number":
      if (!Number.isFinite(value)) throw GENERAL
      return JSON.stringify(value)
    case "boolean":
      return value ? "true" : "false"
    case "object": {
      if (value === null) return "null"
      if (Array.isArray(value)) {
        let out = "["
        for (let i = 0; i < value.length; i++) {
          const v: unknown = value[i]
          if (v === undefined) throw GENERAL
          out += (i === 0 ? "" : ",") + writeFast(v, undefined)
        }
        return out + "]"
      }
      const keys = Object.keys(value).sort()
      let out = "{"
      let first = true
      for (const k of keys) {
        const v: unknown = (value as Record<string, unknown>)[k]
        if (v === undefined) continue
        if (k === "__proto__" || !wellFormed(k)) throw GENERAL
        out += (first ? "" : ",") + JSON.stringify(k) + ":" + writeFast(v, k)
        first = false
      }
      return out + "}"
    }
    default:
      throw GENERAL
  }
}

/** RFC 8785 canonical JSON of a JSON value (timestamps normalized). */
export const canonicalJson = (value: unknown): string => {
  try {
    return writeFast(value, undefined)
  } catch {
    // `GENERAL`, or anything else (a getter that throws, a cycle): the general form decides.
  }
  return canonicalJsonGeneral(value)
}

/** The general form alone (for tests: `canonicalJson` must always agree with it). */
export const canonicalJsonReference = canonicalJsonGeneral

/**
 * SHA-256, lowercase hex (strings as UTF-8). The one-shot `crypto.hash` (Node >= 20.12) when the
 * runtime has it: no Hash object per call, which matters when `next` re-verifies every receipt.
 */
const oneShot =
  (crypto as { hash?: (algorithm: string, data: string | Uint8Array, encoding: "hex" | "base64") => string }).hash
const sha256In = (encoding: "hex" | "base64"): (data: string | Uint8Array) => string =>
  typeof oneShot === "function"
    ? (data) => oneShot("sha256", data, encoding)
    : (data) => crypto.createHash("sha256").update(data).digest(encoding)
export const sha256Hex = sha256In("hex")

/** SHA-256 in base64 (44 characters): for derived state that stores many digests (the scan index). */
export const sha256Base64 = sha256In("base64")

/** SHA-256 (lowercase hex) of the canonical JSON of a value. */
export const canonicalDigest = (value: unknown): string => sha256Hex(canonicalJson(value))
