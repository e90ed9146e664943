/**
 * Pure rules of a capture: which responses are accepted (encoding, content type, UTF-8), how
 * retained files are named, and the shape of `.dossier/captures.jsonl`.
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { isAscii, isUtf8 } from "node:buffer"
import { clipped } from "./Clip.js"
import {
  CompressedResponse,
  CredentialsInUrl,
  InvalidUrl,
  UnsupportedContent,
  UnsupportedScheme
} from "./IngestErrors.js"
import type { ContentKind } from "./Readable.js"

export const MAX_BODY_BYTES = 2 * 1024 * 1024
export const MAX_REDIRECTS = 5
export const DEFAULT_TIMEOUT_SECONDS = 10
export const MIN_TIMEOUT_SECONDS = 1
export const MAX_TIMEOUT_SECONDS = 120
/** The longest URL taken: to fetch (src/domain/DestinationPolicy.ts) or as the origin of an import. */
export const MAX_URL_LENGTH = 8192

export const SOURCES_DIR = "research/sources"
export const CAPTURES_LOG = ".dossier/captures.jsonl"

type HeaderValue = string | ReadonlyArray<string> | undefined

const single = (value: HeaderValue): string | undefined => {
  if (value === undefined) return undefined
  if (typeof value === "string") return value
  const distinct = [...new Set(value)]
  return distinct.join(", ")
}

/** `Content-Encoding` must be absent or `identity` (we sent `Accept-Encoding: identity`). */
export const checkEncoding = (header: HeaderValue): Either.Either<void, CompressedResponse> => {
  const value = (single(header) ?? "").trim().toLowerCase()
  return value === "" || value === "identity"
    ? Either.void
    : Either.left(new CompressedResponse({ encoding: value.slice(0, 200) }))
}

export interface MediaType {
  readonly kind: ContentKind
  /** The media type essence, e.g. `text/html`. */
  readonly essence: string
}

const KINDS: Record<string, ContentKind> = {
  "text/html": "html",
  "application/xhtml+xml": "xhtml",
  "text/plain": "text"
}

const parseContentType = (header: string): { essence: string; charset: string | undefined } => {
  const [type, ...params] = header.split(";")
  let charset: string | undefined
  for (const p of params) {
    const eq = p.indexOf("=")
    if (eq < 0) continue
    if (p.slice(0, eq).trim().toLowerCase() !== "charset") continue
    charset = p.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1").trim().toLowerCase()
  }
  return { essence: (type ?? "").trim().toLowerCase(), charset }
}

/** Which content types are accepted, before the body is read (charset declared other than UTF-8 is refused). */
export const checkContentType = (header: HeaderValue): Either.Either<MediaType, UnsupportedContent> => {
  const raw = single(header)?.trim() ?? ""
  const shown = raw.slice(0, 200)
  const { charset, essence } = parseContentType(raw)
  const kind = KINDS[essence]
  if (kind === undefined) return Either.left(new UnsupportedContent({ contentType: shown }))
  if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") {
    return Either.left(new UnsupportedContent({ contentType: shown }))
  }
  return Either.right({ kind, essence })
}

/**
 * The `--origin` of an imported file: an absolute http(s) URL without credentials (it is only
 * recorded; nothing is fetched). Answers the URL as the WHATWG parser normalizes it; unparseable,
 * relative or longer than a fetched URL may be (8192 characters) is `InvalidUrl`, another scheme `UnsupportedScheme`, a user or password
 * `CredentialsInUrl` (it would be written into captures.jsonl).
 */
export const checkOrigin = (raw: string): Either.Either<string, InvalidUrl | UnsupportedScheme | CredentialsInUrl> => {
  // The fetcher's limit (src/domain/DestinationPolicy.ts): an origin is a URL like any other.
  if (raw.length > MAX_URL_LENGTH) return Either.left(new InvalidUrl({ url: raw.slice(0, 200) }))
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return Either.left(new InvalidUrl({ url: clipped(raw) }))
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    // The scheme without its colon, as a fetch's refusal names it (src/domain/DestinationPolicy.ts).
    return Either.left(
      new UnsupportedScheme({ scheme: url.protocol.replace(/:$/, "").slice(0, 40), recorded: true })
    )
  }
  if (url.username !== "" || url.password !== "") return Either.left(new CredentialsInUrl())
  return Either.right(url.href)
}

const EXTENSION_TYPES: Record<string, string> = {
  html: "text/html",
  htm: "text/html",
  xhtml: "application/xhtml+xml",
  txt: "text/plain",
  md: "text/plain"
}

/**
 * The media type of a file `ingest --file` imports: `--content-type` when given (the same rules
 * as a response's header), else from the extension (`.html`/`.htm`, `.xhtml`, `.txt`/`.md`).
 */
export const importContentType = (
  path: string,
  given: string | undefined
): Either.Either<MediaType, UnsupportedContent> => {
  if (given !== undefined) return checkContentType(given)
  const name = path.slice(path.lastIndexOf("/") + 1)
  const dot = name.lastIndexOf(".")
  const ext = dot <= 0 ? "" : name.slice(dot + 1).toLowerCase()
  const type = EXTENSION_TYPES[ext]
  return type === undefined
    ? Either.left(new UnsupportedContent({ contentType: null, extension: ext.slice(0, 40) }))
    : checkContentType(type)
}

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d] // %PDF-

/** What bytes that are not UTF-8 plainly are, by their first bytes: gzip (1f 8b) or PDF (`%PDF-`). */
const notText = (body: Uint8Array): "gzip" | "pdf" | undefined =>
  body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b
    ? "gzip"
    : PDF_MAGIC.every((b, i) => body[i] === b)
    ? "pdf"
    : undefined

/** How far into a file the headers of a web archive are looked for. */
const ARCHIVE_HEAD_BYTES = 16 * 1024

/**
 * Whether a file is a web archive saved as one MIME message (MHTML, as browsers save "Webpage,
 * Single File"): it opens with header lines (`From: <Saved by Blink>`, `MIME-Version: 1.0`,
 * `Content-Type: multipart/related; …`) up to a blank line. No page opens that way, so an
 * archive is never retained as a page whatever type is named for it (its parts are
 * quoted-printable: its sentences would not verify).
 */
export const isWebArchive = (body: Uint8Array): boolean => {
  const head = Buffer.from(body.buffer, body.byteOffset, Math.min(body.byteLength, ARCHIVE_HEAD_BYTES))
    .toString("latin1")
    .replace(/^\u00ef\u00bb\u00bf/, "")
  const blank = /\r?\n\r?\n/.exec(head)
  if (blank === null) return false
  const lines = head.slice(0, blank.index).split(/\r?\n/)
  if (!lines.every((line, i) => /^[!-9;-~]+:/.test(line) || (i > 0 && /^[ \t]/.test(line)))) return false
  const unfolded = lines.join("\n").replace(/\n[ \t]+/g, " ").toLowerCase()
  return /^mime-version:/m.test(unfolded) && /^content-type:\s*multipart\/related\b/m.test(unfolded)
}

/** Whether a body holds nothing a reader sees: no bytes, or only a UTF-8 byte-order mark and ASCII white space. */
export const isEmptyBody = (body: Uint8Array): boolean => {
  let i = body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0
  for (; i < body.length; i++) {
    const b = body[i]
    if (b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) return false
  }
  return true
}

/**
 * A body with no content (`isEmptyBody`) is refused (`detected: "empty"`): retained, it would be
 * an original and a readable copy of nothing, which no quote can verify against.
 */
export const checkNotEmpty = (body: Uint8Array, contentType: string): Either.Either<void, UnsupportedContent> =>
  isEmptyBody(body)
    ? Either.left(new UnsupportedContent({ contentType: contentType.slice(0, 200), detected: "empty" }))
    : Either.void

/**
 * The body decoded as UTF-8 (a leading BOM is dropped); invalid UTF-8 is refused. Equal to a fatal
 * WHATWG `TextDecoder` (a property test compares them) but validated by `isUtf8` first, which is
 * several times faster on large bodies than the fatal decoder.
 */
export const decodeBody = (body: Uint8Array, contentType: string): Either.Either<string, UnsupportedContent> => {
  if (!isUtf8(body)) {
    const detected = notText(body)
    return Either.left(
      new UnsupportedContent({
        contentType: contentType.slice(0, 200),
        ...(detected === undefined ? {} : { detected })
      })
    )
  }
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength)
  // ASCII decodes to the same text as Latin-1, which V8 copies instead of transcoding (much
  // cheaper for a large page); an ASCII body cannot start with a BOM.
  if (isAscii(bytes)) return Either.right(bytes.toString("latin1"))
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
  return Either.right(bytes.toString("utf8", bom ? 3 : 0))
}

const slugify = (s: string, max: number): string => {
  const ascii = s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
  if (ascii.length <= max) return ascii
  const cut = ascii.slice(0, max)
  const dash = cut.lastIndexOf("-")
  return (dash > max / 2 ? cut.slice(0, dash) : cut).replace(/-+$/, "")
}

const safeDecode = (s: string): string => {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

/**
 * The host part of a stem: a name as it is (ASCII after the URL parser), an IPv6 literal as
 * `ipv6-` and its groups (`[2001:db8::1]` → `ipv6-2001-db8-1`), never starting or ending with a
 * dash or a dot (a name starting with `-` reads as an option to a shell command).
 */
const stemHost = (hostname: string): string => {
  const ipv6 = hostname.startsWith("[")
  const host = (ipv6 ? hostname.slice(1, -1).replace(/[^0-9a-f]+/g, "-") : hostname)
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, "-")
    .slice(0, 80)
    .replace(/^[.-]+|[.-]+$/g, "")
  return ipv6 ? (host === "" ? "ipv6" : `ipv6-${host}`) : host
}

/** `host-slug` for the retained files of a page, from its final URL (person-readable, ASCII). */
export const captureStem = (finalUrl: string): string => {
  let host = "page"
  let path = ""
  try {
    const u = new URL(finalUrl)
    host = stemHost(u.hostname)
    path = safeDecode(u.pathname)
  } catch {
    // a stem is only a name; the digest makes it unique
  }
  const slug = slugify(path, 60)
  return `${host || "page"}-${slug.length > 0 ? slug : "index"}`
}

const ORIGINAL_EXTENSION: Record<ContentKind, string> = { html: "html", xhtml: "xhtml", text: "txt" }

/** Path of a retained original: `research/sources/<host>-<slug>-<sha12>.<html|xhtml|txt>`. */
export const originalPath = (finalUrl: string, kind: ContentKind, sha256: string): string =>
  `${SOURCES_DIR}/${captureStem(finalUrl)}-${sha256.slice(0, 12)}.${ORIGINAL_EXTENSION[kind]}`

/** Path of a readable copy: `research/sources/<host>-<slug>-<sha12>.md`. */
export const readablePath = (finalUrl: string, sha256: string): string =>
  `${SOURCES_DIR}/${captureStem(finalUrl)}-${sha256.slice(0, 12)}.md`

/** Path of a capture's WARC file: `research/sources/<host>-<slug>-<sha12>.warc.gz`. */
export const warcPath = (finalUrl: string, sha256: string): string =>
  `${SOURCES_DIR}/${captureStem(finalUrl)}-${sha256.slice(0, 12)}.warc.gz`

/** Largest file `ingest --file` retains. */
export const MAX_IMPORT_BYTES = 16 * 1024 * 1024

/** How a file's bytes came to dossier: fetched by SafeHttp, or imported from the work folder. */
export const CaptureVia = Schema.Literal("fetch", "file")
export type CaptureVia = typeof CaptureVia.Type

/**
 * One line of `.dossier/captures.jsonl`: these bytes, at this path, came to dossier this way —
 * from the fetcher (`via: "fetch"`, also every record written before `via` existed) or imported
 * by `ingest --file` (`via: "file"`: the agent supplied the bytes).
 */
export const CaptureRecord = Schema.Struct({
  path: Schema.String,
  sha256: Schema.String,
  bytes: Schema.Number,
  origin: Schema.String,
  fetchedAt: Schema.String,
  kind: Schema.Literal("original", "source", "warc"),
  via: Schema.optional(CaptureVia)
})
export type CaptureRecord = typeof CaptureRecord.Type

/** Whether a record says the fetcher produced these bytes (records without `via` are fetches). */
export const isFetched = (record: CaptureRecord): boolean => record.via !== "file"

const decodeRecord = Schema.decodeUnknownEither(Schema.parseJson(CaptureRecord), { onExcessProperty: "ignore" })

/**
 * Parse `.dossier/captures.jsonl`. Lines that are not a valid record (a hand edit, a torn
 * line) are skipped: they only lose a claim, they never create one.
 */
export const parseCaptures = (text: string): ReadonlyArray<CaptureRecord> => {
  const out: Array<CaptureRecord> = []
  for (const line of text.split("\n")) {
    if (line.trim().length === 0) continue
    const r = decodeRecord(line)
    if (Either.isRight(r)) out.push(r.right)
  }
  return out
}

export const captureLine = (record: CaptureRecord): string =>
  `${
    JSON.stringify({
      path: record.path,
      sha256: record.sha256,
      bytes: record.bytes,
      origin: record.origin,
      fetchedAt: record.fetchedAt,
      kind: record.kind,
      via: record.via ?? "fetch"
    })
  }\n`
