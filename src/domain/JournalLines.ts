/**
 * The journal's line format and its replay (pure).
 *
 * Each line is one committed event:
 *
 *   {"seq":<n>,"sha256":"<64 hex>","event":<E>}\n
 *
 * where `<n>` is the line's 1-based position in the file, `<E>` is the event's canonical JSON
 * (RFC 8785, src/domain/Canonical.ts) and `sha256` is the SHA-256 of exactly the bytes of `<E>`.
 * The line is written in exactly this form (keys in this order, no spaces), so a reader can
 * check it without re-serializing anything: a torn, truncated, duplicated, reordered or edited
 * line fails the position, the framing or the digest, and is never taken for an event.
 *
 * Replay rules (journal.md):
 * - a terminated line that does not parse or validate → corrupt at that line; replay stops there;
 * - a final line without `\n` → an unterminated tail (its bytes are reported, not interpreted).
 */
import { isUtf8 } from "node:buffer"
import * as crypto from "node:crypto"
import { toBuffer } from "./Bytes.js"
import { canonicalJson } from "./Canonical.js"
import { type JournalEvent } from "./Journal.js"
import { Projector } from "./JournalProjection.js"
import { lineEventProblem } from "./JournalRules.js"

const oneShot = (crypto as { hash?: (alg: string, data: string | Uint8Array) => string }).hash
const sha256 = (s: string | Uint8Array): string =>
  oneShot !== undefined ? oneShot("sha256", s) : crypto.createHash("sha256").update(s).digest("hex")

/** The canonical text of an event, as stored in its line and compared for idempotency. */
export const eventText = (e: JournalEvent): string => canonicalJson(e)

/** The SHA-256 (lower-case hex) of a text. */
export const sha256Text = (text: string): string => sha256(text)

/** The SHA-256 (lower-case hex) of an event's canonical text: its digest, the `sha256` of its line. */
export const eventDigest = (e: JournalEvent): string => sha256(eventText(e))

/** The digest of an event's stored text (canonical or not), as `eventDigest` of its value. */
export const storedDigest = (text: string): string => {
  const canonical = canonicalJson(JSON.parse(text))
  return sha256(canonical)
}

/**
 * One journal line (with its `\n`) for an event's canonical text at a 1-based position;
 * `digest`, when given, is `sha256(text)` already computed.
 */
export const encodeLine = (seq: number, text: string, digest?: string): string =>
  `{"seq":${seq},"sha256":"${digest ?? sha256(text)}","event":${text}}\n`

export interface TailInfo {
  readonly state: "clean" | "unterminated"
  readonly bytes: number
}

export interface Replay {
  /** The projection of the valid prefix (every event before the first corrupt line). */
  readonly projector: Projector
  /** Number of valid events replayed. */
  readonly events: number
  /** Event id → its 1-based position, for the valid prefix. */
  readonly ids: ReadonlyMap<string, number>
  /** The stored canonical text of a replayed event (read back from the bytes on demand). */
  readonly textOf: (id: string) => string | undefined
  /** Byte length of the terminated part of the file (up to and including its last `\n`). */
  readonly committedBytes: number
  readonly tail: TailInfo
  /** The first damaged terminated line (1-based), if any. */
  readonly corrupt: { readonly line: number; readonly reason: string } | null
}

const SEQ = Buffer.from("{\"seq\":", "latin1")
const SHA = Buffer.from(",\"sha256\":\"", "latin1")
const EVENT = Buffer.from("\",\"event\":", "latin1")

const startsWith = (buf: Buffer, at: number, prefix: Buffer): boolean => {
  if (at + prefix.length > buf.length) return false
  for (let i = 0; i < prefix.length; i++) if (buf[at + i] !== prefix[i]) return false
  return true
}

/** The state a replay keeps so that it can be continued over a longer file (`extendReplay`). */
interface ReplayState {
  buf: Buffer
  readonly projector: Projector
  readonly ids: Map<string, number>
  /** Offsets of each event's text, so replay retains numbers rather than 100,000 strings. */
  readonly spans: Array<number>
  /** Set once the state has been continued: a replay is extended at most once. */
  consumed: boolean
  /** When given, every replayed event is pushed here, in order. */
  readonly collect?: Array<JournalEvent> | undefined
}

const states = new WeakMap<Replay, ReplayState>()

/**
 * Replay a journal's bytes. Never throws; damage is reported in `corrupt`. `collect`, when given,
 * receives the events of the valid prefix, in order.
 */
export const replay = (bytes: Uint8Array, collect?: Array<JournalEvent>): Replay =>
  run({ buf: toBuffer(bytes), projector: new Projector(), ids: new Map(), spans: [], consumed: false, collect }, 0, 0)

/**
 * Continue a clean replay over `bytes`, a later state of the same file: only when `bytes`
 * starts with exactly the committed bytes `previous` was replayed from (compared here, byte for
 * byte) is the rest replayed on top of `previous`'s state, and the result equals
 * `replay(bytes)`. Otherwise (the file shrank, was edited or replaced with other bytes,
 * `previous` was damaged or already extended) `undefined`, and the caller replays it whole.
 *
 * `previous` is consumed: its projector and id map become the result's, so it must not be used
 * afterwards (a second extension of it is refused).
 */
export const extendReplay = (previous: Replay, bytes: Uint8Array): Replay | undefined => {
  const state = states.get(previous)
  if (state === undefined || state.consumed || previous.corrupt !== null) return undefined
  const buf = toBuffer(bytes)
  const n = previous.committedBytes
  if (buf.byteLength < n || buf.compare(state.buf, 0, n, 0, n) !== 0) return undefined
  state.consumed = true
  return run({ ...state, buf, consumed: false, collect: undefined }, n, previous.events)
}

/** Replay `state.buf` from `pos` (a line start) after `seq` already replayed lines. */
const run = (state: ReplayState, from: number, seqBefore: number): Replay => {
  const { buf, projector, ids, spans, collect } = state
  const textOf = (id: string) => {
    const seq = ids.get(id)
    return seq === undefined ? undefined : buf.toString("utf8", spans[2 * (seq - 1)], spans[2 * (seq - 1) + 1])
  }
  const committedBytes = buf.lastIndexOf(0x0a) + 1
  const tailBytes = buf.byteLength - committedBytes
  const tail: TailInfo = tailBytes > 0 ? { state: "unterminated", bytes: tailBytes } : { state: "clean", bytes: 0 }
  // One fast check of the whole (new) part; only when it fails is each line checked on its own.
  // A line break never occurs inside a multi-byte sequence, so checking lines apart is the same.
  const allUtf8 = isUtf8(buf.subarray(from, committedBytes))
  let pos = from
  let seq = seqBefore
  let corrupt: Replay["corrupt"] = null
  while (pos < committedBytes) {
    const nl = buf.indexOf(0x0a, pos)
    seq++
    const reason = checkLine(buf, pos, nl, seq, allUtf8, projector, ids, spans, collect)
    if (reason !== null) {
      corrupt = { line: seq, reason }
      seq--
      break
    }
    pos = nl + 1
  }
  const r: Replay = { projector, events: seq, ids, textOf, committedBytes, tail, corrupt }
  states.set(r, state)
  return r
}

/**
 * Check and apply one line `buf[start, end)` at position `seq`; a reason when it is damaged.
 * The frame `{"seq":<n>,"sha256":"<64 hex>","event":<E>}` is checked on the bytes by hand and
 * the digest is computed over the bytes of `<E>`: this runs once per line on every replay.
 */
const checkLine = (
  buf: Buffer,
  start: number,
  end: number,
  seq: number,
  utf8Checked: boolean,
  projector: Projector,
  ids: Map<string, number>,
  spans: Array<number>,
  collect: Array<JournalEvent> | undefined
): string | null => {
  if (!utf8Checked && !isUtf8(buf.subarray(start, end))) return "the line is not valid UTF-8"
  if (!startsWith(buf, start, SEQ)) return "not a journal line"
  let p = start + SEQ.length
  const digitsFrom = p
  let n = 0
  while (p < end) {
    const c = buf[p]!
    if (c < 0x30 || c > 0x39) break
    n = n * 10 + (c - 0x30)
    p++
  }
  const digits = p - digitsFrom
  if (digits === 0 || digits > 15 || buf[digitsFrom] === 0x30 || !startsWith(buf, p, SHA)) return "not a journal line"
  const shaAt = p + SHA.length
  const bodyAt = shaAt + 64 + EVENT.length
  if (bodyAt >= end || !startsWith(buf, shaAt + 64, EVENT) || buf[end - 1] !== 0x7d /* } */) return "not a journal line"
  if (n !== seq) return `sequence number ${n} where ${seq} was expected`
  const body = buf.subarray(bodyAt, end - 1)
  // The computed digest is 64 lowercase hex digits, so equality also checks the field's form.
  const digest = sha256(body)
  for (let i = 0; i < 64; i++) if (digest.charCodeAt(i) !== buf[shaAt + i]) return "the event does not match its digest"
  const text = buf.toString("utf8", bodyAt, end - 1)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return "the event is not JSON"
  }
  const problem = lineEventProblem(value, text)
  if (problem !== null) return `invalid event (${problem})`
  const event = value as JournalEvent
  if (ids.has(event.id)) return `the event id '${event.id}' is repeated`
  const ref = projector.check(event)
  if (ref !== null) {
    return ref._tag === "unknown-candidate"
      ? `the event names the unknown candidate '${ref.candidateId}'`
      : `the candidate '${ref.candidateId}' is created twice`
  }
  projector.apply(event)
  collect?.push(event)
  ids.set(event.id, seq)
  spans.push(bodyAt, end - 1)
  return null
}
