/**
 * The server's stdin as JSON-RPC lines, with a size limit that holds whatever a client sends:
 * a line longer than `max` bytes is never held whole. Its bytes are only scanned (in constant
 * memory) for the request's top-level `id`, wherever it stands in the object (the official SDK
 * client writes it last), so the refusal can be answered under the id the client waits on.
 * Pure apart from its own buffers; never throws (property-tested).
 */
import { isUtf8 } from "node:buffer"
import { firstNonUtf8 } from "../domain/Decode.js"

export type Item =
  | { readonly _tag: "Line"; readonly line: string }
  /** A line over the limit: its top-level id when one was found, else null. */
  | { readonly _tag: "TooLarge"; readonly id: string | number | null; readonly bytes: number }
  /**
   * A line that is not UTF-8 (JSON-RPC messages are UTF-8 text): its top-level id when one was
   * found, else null, and the offset of the first byte that is not UTF-8. Never decoded with
   * replacement characters, which would hand a tool text the client did not send.
   */
  | { readonly _tag: "NotUtf8"; readonly id: string | number | null; readonly offset: number }

const QUOTE = 0x22
const BACKSLASH = 0x5c
const ID_MAX = 512

/**
 * Finds the top-level `"id"` member's value (a string or a number) in a JSON object fed in
 * pieces. It follows only what it must: nesting depth, strings and escapes.
 */
export class IdScanner {
  private depth = 0
  private inString = false
  private escaped = false
  /** The bytes of the string being read at depth 1, when short enough to matter. */
  private text: Array<number> | undefined
  private role: "key" | "value" | undefined
  private key: string | undefined
  private afterColon = false
  private number: Array<number> | undefined
  private found: string | number | null = null

  feed(bytes: Uint8Array): void {
    for (const b of bytes) this.byte(b)
  }

  /** The id found, once every byte is fed. */
  id(): string | number | null {
    this.endNumber()
    return this.found
  }

  private endNumber() {
    if (this.number === undefined) return
    const n = Number(String.fromCharCode(...this.number))
    if (this.key === "id" && Number.isFinite(n)) this.found = n
    this.number = undefined
  }

  private byte(b: number) {
    if (this.inString) {
      if (this.escaped) this.escaped = false
      else if (b === BACKSLASH) this.escaped = true
      else if (b === QUOTE) {
        this.inString = false
        if (this.text !== undefined) this.endString(this.text)
        this.text = undefined
        return
      }
      if (this.text !== undefined) {
        if (this.text.length >= ID_MAX) this.text = undefined
        else this.text.push(b)
      }
      return
    }
    if (this.number !== undefined) {
      if ((b >= 0x30 && b <= 0x39) || b === 0x2e || b === 0x65 || b === 0x45 || b === 0x2b || b === 0x2d) {
        if (this.number.length < 64) this.number.push(b)
        return
      }
      this.endNumber()
    }
    switch (b) {
      case QUOTE:
        this.inString = true
        if (this.depth === 1) {
          this.role = this.afterColon ? "value" : "key"
          this.text = []
        }
        return
      case 0x7b: // {
      case 0x5b: // [
        this.depth++
        return
      case 0x7d: // }
      case 0x5d: // ]
        this.depth--
        return
      case 0x3a: // :
        if (this.depth === 1) this.afterColon = true
        return
      case 0x2c: // ,
        if (this.depth === 1) {
          this.afterColon = false
          this.key = undefined
        }
        return
      default:
        if (this.depth === 1 && this.afterColon && (b === 0x2d || (b >= 0x30 && b <= 0x39))) this.number = [b]
    }
  }

  private endString(bytes: Array<number>) {
    let s: string
    try {
      s = JSON.parse(`"${Buffer.from(bytes).toString("utf8")}"`) as string
    } catch {
      return
    }
    if (this.role === "key") this.key = s
    else if (this.role === "value" && this.key === "id") this.found = s
  }
}

const lineOf = (bytes: Buffer): Item => {
  if (isUtf8(bytes)) return { _tag: "Line", line: bytes.toString("utf8") }
  const scanner = new IdScanner()
  scanner.feed(bytes)
  return { _tag: "NotUtf8", id: scanner.id(), offset: Math.max(0, firstNonUtf8(bytes)) }
}

/** Splits stdin into lines of at most `max` bytes; longer ones become `TooLarge`. */
export class LineReader {
  private parts: Array<Uint8Array> = []
  private size = 0
  private scanner: IdScanner | undefined

  constructor(readonly max: number) {}

  push(chunk: Uint8Array): ReadonlyArray<Item> {
    const out: Array<Item> = []
    let start = 0
    while (start <= chunk.length) {
      const nl = chunk.indexOf(0x0a, start)
      const end = nl === -1 ? chunk.length : nl
      const piece = chunk.subarray(start, end)
      if (this.scanner !== undefined) this.scanner.feed(piece)
      else if (this.size + piece.length > this.max) {
        this.scanner = new IdScanner()
        for (const p of this.parts) this.scanner.feed(p)
        this.scanner.feed(piece)
        this.parts = []
      } else if (piece.length > 0) this.parts.push(piece)
      this.size += piece.length
      if (nl === -1) break
      out.push(this.take())
      start = nl + 1
    }
    return out
  }

  /** What is left when the input ends (a last line without a newline). */
  end(): ReadonlyArray<Item> {
    return this.size === 0 && this.scanner === undefined ? [] : [this.take()]
  }

  private take(): Item {
    const item: Item = this.scanner !== undefined
      ? { _tag: "TooLarge", id: this.scanner.id(), bytes: this.size }
      : lineOf(Buffer.concat(this.parts))
    this.parts = []
    this.size = 0
    this.scanner = undefined
    return item
  }
}
