/**
 * WARC/1.1 (ISO 28500) records of one capture (spec capture.md "WARC records of every fetch"):
 * a `warcinfo` record, then for every hop a `request` record (the bytes dossier sent) and a
 * `response` record (status line, headers and body exactly as received, chunked framing kept),
 * each gzipped as its own member so a reader can seek to any record. Digests are
 * `sha256:<base32>`: the block digest covers the record's whole block, the payload digest the
 * HTTP entity body with any transfer coding removed — for the final hop, the retained original.
 * `WARC-IP-Address` is the checked address the socket was pinned to.
 *
 * Pure apart from the record ids, which the caller supplies (random UUIDs in the service).
 */
import { createHash } from "node:crypto"
import { gzipSync } from "node:zlib"

/**
 * One request and its response as they crossed the wire (after TLS), for the WARC record of a
 * capture: every hop, redirects included.
 */
export interface Exchange {
  /** The URL requested. */
  readonly url: string
  /** The checked address the socket was connected to. */
  readonly address: string
  /** When the request was sent. */
  readonly requestedAt: Date
  /** The bytes sent: request line and headers. */
  readonly request: Uint8Array
  /** The bytes received: status line, headers and body as transferred (chunked framing kept). */
  readonly response: Uint8Array
  /** The body with any transfer coding removed (identity content: the bytes a capture retains). */
  readonly payload: Uint8Array
  /** The body was longer than the limit and was not read to its end (a redirect's only). */
  readonly truncated: boolean
}

/** An exchange to record, with the digests the caller already has (the last hop's, in a capture). */
export interface WarcExchange extends Exchange {
  /** The payload's SHA-256 when the caller already has it (the retained original's). */
  readonly payloadSha256?: Uint8Array
  /** The response's SHA-256 when the caller already has it. */
  readonly responseSha256?: Uint8Array
}

export interface WarcInput {
  readonly exchanges: ReadonlyArray<WarcExchange>
  /** `software` of the warcinfo record, e.g. `dossier/0.1.0`. */
  readonly software: string
  /** A fresh `urn:uuid:` id for each record: 1 + 2 per exchange are taken. */
  readonly newId: () => string
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

/** RFC 4648 base32 (upper case, `=` padding). */
export const base32 = (bytes: Uint8Array): string => {
  let out = ""
  let bits = 0
  let value = 0
  for (const b of bytes) {
    value = (value << 8) | b
    bits += 8
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
    value &= (1 << bits) - 1
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31]
  while (out.length % 8 !== 0) out += "="
  return out
}

/** `sha256:<base32>`, the form WARC tools expect. */
export const warcDigest = (...parts: ReadonlyArray<Uint8Array>): string => {
  const h = createHash("sha256")
  for (const p of parts) h.update(p)
  return `sha256:${base32(h.digest())}`
}

const warcDigestOf = (sha256: Uint8Array): string => `sha256:${base32(sha256)}`

const CRLF = "\r\n"

/** W3C-ISO8601 as WARC 1.1 writes it (UTC, fractional seconds only when there are any). */
export const warcDate = (d: Date): string => d.toISOString().replace(".000Z", "Z")

/** Header values must stay on one line. */
const field = (name: string, value: string): string => `${name}: ${value.replace(/[\r\n]+/g, " ")}${CRLF}`

/** One record, uncompressed: version line, fields, blank line, block, two CRLFs. */
const record = (headers: ReadonlyArray<readonly [string, string]>, block: ReadonlyArray<Uint8Array>): Buffer => {
  let length = 0
  for (const b of block) length += b.byteLength
  const head = `WARC/1.1${CRLF}${headers.map(([k, v]) => field(k, v)).join("")}${
    field("Content-Length", String(length))
  }${CRLF}`
  return Buffer.concat([Buffer.from(head, "utf8"), ...block, Buffer.from(CRLF + CRLF, "latin1")])
}

const HEAD_END = Buffer.from("\r\n\r\n", "latin1")

/** Where the HTTP head of a message ends (after its blank line), or the message's length. */
const headLength = (message: Uint8Array): number => {
  const at = Buffer.from(message.buffer, message.byteOffset, message.byteLength).indexOf(HEAD_END)
  return at < 0 ? message.byteLength : at + HEAD_END.length
}

/**
 * The URI a record is of: the URL requested without its fragment, which never reaches the server
 * (RFC 9110 §7.1: the request target has none), so the same resource is always named the same.
 * In a WHATWG-serialized URL `#` only ever starts the fragment.
 */
export const targetUri = (url: string): string => {
  const hash = url.indexOf("#")
  return hash < 0 ? url : url.slice(0, hash)
}

/**
 * Every record of the file, uncompressed, in order. Each is gzipped as its own member and the
 * members concatenated (`warcFile`); the service gzips them off the main thread instead.
 */
export const warcRecords = (input: WarcInput): Array<Buffer> => {
  const first = input.exchanges[0]
  const infoId = input.newId()
  const infoDate = warcDate(first?.requestedAt ?? new Date(0))
  const info = Buffer.from(
    [
      field("software", input.software),
      field("format", "WARC File Format 1.1"),
      field("conformsTo", "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"),
      field(
        "description",
        "One capture by dossier ingest: every hop of the fetch, redirects included. WARC-IP-Address is the checked address the socket was pinned to."
      )
    ].join(""),
    "utf8"
  )
  const members: Array<Buffer> = [
    record(
      [
        ["WARC-Type", "warcinfo"],
        ["WARC-Date", infoDate],
        ["WARC-Record-ID", infoId],
        ["Content-Type", "application/warc-fields"],
        ["WARC-Block-Digest", warcDigest(info)]
      ],
      [info]
    )
  ]
  for (const x of input.exchanges) {
    const requestId = input.newId()
    const responseId = input.newId()
    const date = warcDate(x.requestedAt)
    const requestPayload = x.request.subarray(headLength(x.request))
    members.push(
      record(
        [
          ["WARC-Type", "request"],
          ["WARC-Record-ID", requestId],
          ["WARC-Date", date],
          ["WARC-Target-URI", targetUri(x.url)],
          ["WARC-IP-Address", x.address],
          ["WARC-Concurrent-To", responseId],
          ["WARC-Warcinfo-ID", infoId],
          ["Content-Type", "application/http;msgtype=request"],
          ["WARC-Payload-Digest", warcDigest(requestPayload)],
          ["WARC-Block-Digest", warcDigest(x.request)]
        ],
        [x.request]
      ),
      record(
        [
          ["WARC-Type", "response"],
          ["WARC-Record-ID", responseId],
          ["WARC-Date", date],
          ["WARC-Target-URI", targetUri(x.url)],
          ["WARC-IP-Address", x.address],
          ["WARC-Concurrent-To", requestId],
          ["WARC-Warcinfo-ID", infoId],
          ["Content-Type", "application/http;msgtype=response"],
          ...(x.truncated ? [["WARC-Truncated", "length"] as const] : []),
          [
            "WARC-Payload-Digest",
            x.payloadSha256 === undefined ? warcDigest(x.payload) : warcDigestOf(x.payloadSha256)
          ],
          [
            "WARC-Block-Digest",
            x.responseSha256 === undefined ? warcDigest(x.response) : warcDigestOf(x.responseSha256)
          ]
        ],
        [x.response]
      )
    )
  }
  return members
}

/** The whole WARC file: every record gzipped as its own member, concatenated. */
export const warcFile = (input: WarcInput): Buffer => Buffer.concat(warcRecords(input).map((r) => gzipSync(r)))
