/**
 * Interim (1xx) responses a server sends before its final response (pure). RFC 9110 §15.2: a
 * client must parse one or more 1xx responses received before the final one, even when it did
 * not expect them. dossier never sends `Expect: 100-continue`, yet some servers answer `100
 * Continue` regardless; undici fails such a response as a socket error (retryable, though a retry
 * meets the same answer), so the fetcher takes interim responses out of what undici reads and
 * undici sees the final response only. `101 Switching Protocols` is final, not interim.
 */

/** Longest interim response head read past; a longer one is left to the HTTP parser to judge. */
export const MAX_INTERIM_HEAD_BYTES = 16 * 1024

/** Most interim responses read past before the final one; more are left to the HTTP parser. */
export const MAX_INTERIM_RESPONSES = 16

const isDigit = (b: number): boolean => b >= 0x30 && b <= 0x39

/** What a status line of an interim response starts with, up to its status code: `HTTP/d.d 1dd`. */
const PATTERN: ReadonlyArray<(b: number) => boolean> = [
  ..."HTTP/".split("").map((c) => (b: number) => b === c.charCodeAt(0)),
  isDigit,
  (b) => b === 0x2e,
  isDigit,
  (b) => b === 0x20,
  (b) => b === 0x31,
  isDigit,
  isDigit
]

/** Where the head starting at 0 ends (just past its blank line), or -1 when it has not ended yet. */
const headEnd = (bytes: Uint8Array): number => {
  for (let i = 1; i < bytes.length; i++) {
    if (bytes[i] !== 0x0a) continue
    if (bytes[i - 1] === 0x0a) return i + 1
    if (bytes[i - 1] === 0x0d && i >= 3 && bytes[i - 2] === 0x0a && bytes[i - 3] === 0x0d) return i + 1
  }
  return -1
}

/**
 * Whether `bytes`, the start of a final response, open with `101 Switching Protocols`: a final
 * status dossier never asks for (it sends no `Upgrade`), which undici fails as a socket error; the
 * fetcher answers it as the spec answers any final status outside 2xx, `HttpStatus {status: 101}`.
 */
export const switchesProtocols = (bytes: Uint8Array): boolean =>
  bytes.length > PATTERN.length && PATTERN.every((p, i) => p(bytes[i]!)) &&
  bytes[PATTERN.length - 2] === 0x30 && bytes[PATTERN.length - 1] === 0x31 &&
  (bytes[PATTERN.length] === 0x20 || bytes[PATTERN.length] === 0x0d || bytes[PATTERN.length] === 0x0a)

/**
 * Whether `bytes`, the start of a response as received so far, open with an interim response:
 * `"final"` when they do not (the final response starts here: pass everything on), `"incomplete"`
 * when more bytes are needed to tell or to find its end, else the length of the interim response
 * (status line, headers and blank line; a 1xx response has no body) to read past.
 */
export const interimHead = (bytes: Uint8Array): "final" | "incomplete" | number => {
  const n = Math.min(bytes.length, PATTERN.length)
  for (let i = 0; i < n; i++) if (!PATTERN[i]!(bytes[i]!)) return "final"
  if (bytes.length <= PATTERN.length) return "incomplete"
  const next = bytes[PATTERN.length]!
  if (next !== 0x20 && next !== 0x0d && next !== 0x0a) return "final"
  // 101 Switching Protocols is a final answer: what follows it is another protocol.
  if (switchesProtocols(bytes)) return "final"
  const end = headEnd(bytes.length > MAX_INTERIM_HEAD_BYTES ? bytes.subarray(0, MAX_INTERIM_HEAD_BYTES) : bytes)
  if (end >= 0) return end
  return bytes.length >= MAX_INTERIM_HEAD_BYTES ? "final" : "incomplete"
}
