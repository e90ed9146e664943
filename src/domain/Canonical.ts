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

/** RFC 8785 canonical JSON of a JSON value (timestamps normalized). */
export const canonicalJson = (value: unknown): string => {
  const out = canonicalizeJcs(normalizeDeep(value, undefined))
  if (out === undefined) throw new TypeError("value has no JSON form")
  return out
}

/**
 * SHA-256, lowercase hex (strings as UTF-8). The one-shot `crypto.hash` (Node >= 20.12) when the
 * runtime has it: no Hash object per call, which matters when `next` re-verifies every receipt.
 */
const oneShot = (crypto as { hash?: (algorithm: string, data: string | Uint8Array, encoding: "hex") => string }).hash
export const sha256Hex: (data: string | Uint8Array) => string = typeof oneShot === "function"
  ? (data) => oneShot("sha256", data, "hex")
  : (data) => crypto.createHash("sha256").update(data).digest("hex")

/** SHA-256 (lowercase hex) of the canonical JSON of a value. */
export const canonicalDigest = (value: unknown): string => sha256Hex(canonicalJson(value))
