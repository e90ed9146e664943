import * as Schema from "effect/Schema"

export class InvalidUrl extends Schema.TaggedError<InvalidUrl>()("InvalidUrl", {
  url: Schema.String
}) {
  override get message() {
    return `The URL cannot be parsed as an absolute URL of at most 8192 characters; give a complete http(s) URL.`
  }
}

export class UnsupportedScheme extends Schema.TaggedError<UnsupportedScheme>()("UnsupportedScheme", {
  scheme: Schema.String,
  /**
   * Present (true) when the URL is only recorded as where a file came from (a plan source's
   * `origin`, an imported file's origin): nothing is fetched, yet it must be an http(s) URL.
   */
  recorded: Schema.optional(Schema.Literal(true))
}) {
  override get message() {
    return this.recorded === true
      ? `An origin must be an http: or https: URL, not '${this.scheme}'.`
      : `Only http: and https: URLs are fetched, not '${this.scheme}'.`
  }
}

export class CredentialsInUrl extends Schema.TaggedError<CredentialsInUrl>()("CredentialsInUrl", {}) {
  override get message() {
    return "The URL carries a user name or password; remove them."
  }
}

export class ForbiddenDestination extends Schema.TaggedError<ForbiddenDestination>()("ForbiddenDestination", {
  host: Schema.String,
  address: Schema.String,
  range: Schema.String
}) {
  override get message() {
    return `The destination '${this.host}' (${this.address}) is in the refused range '${this.range}'; only public unicast addresses are fetched.`
  }
}

export class TooManyRedirects extends Schema.TaggedError<TooManyRedirects>()("TooManyRedirects", {
  max: Schema.Number
}) {
  override get message() {
    return `The server redirected more than ${this.max} times.`
  }
}

export class CompressedResponse extends Schema.TaggedError<CompressedResponse>()("CompressedResponse", {
  encoding: Schema.String
}) {
  override get message() {
    return `The response is encoded with '${this.encoding}' although identity was requested.`
  }
}

/** Whether a media type is one dossier accepts, with no charset or UTF-8 (so only its bytes can be refused). */
const acceptedUtf8 = (contentType: string): boolean => {
  const [type, ...params] = contentType.split(";")
  if (!["text/html", "application/xhtml+xml", "text/plain"].includes((type ?? "").trim().toLowerCase())) return false
  return params.every((p) => {
    const eq = p.indexOf("=")
    if (eq < 0 || p.slice(0, eq).trim().toLowerCase() !== "charset") return true
    const charset = p.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1").trim().toLowerCase()
    return charset === "utf-8" || charset === "utf8"
  })
}

/** Extensions of single-file web archives (MHTML, Safari's, Firefox's old MAFF): never a page as such. */
const WEB_ARCHIVES: ReadonlySet<string> = new Set(["mhtml", "mht", "webarchive", "maff"])

export class UnsupportedContent extends Schema.TaggedError<UnsupportedContent>()("UnsupportedContent", {
  /** The media type as received or given; null when `ingest --file` found none (see `extension`). */
  contentType: Schema.NullOr(Schema.String),
  /** `ingest --file` without --content-type: the file's extension ("" for none), which names no accepted type. */
  extension: Schema.optional(Schema.String),
  /**
   * Bytes refused as not UTF-8 that are plainly something else: `gzip` (they start 1f 8b: a
   * compressed file or a body compressed without saying so) or `pdf` (they start `%PDF-`); and an
   * imported file that is a web archive whatever its name or type (`mhtml`: it opens with the MIME
   * headers of a multipart/related message). `empty`: there is no content at all (a `204 No
   * Content`, an empty body or file, or one of white space only): nothing a reader could quote.
   */
  detected: Schema.optional(Schema.Literal("gzip", "pdf", "mhtml", "empty"))
}) {
  override get message() {
    const accepted = "text/html, application/xhtml+xml or text/plain in UTF-8"
    const declared = this.contentType === null ? "" : ` (type '${this.contentType}')`
    if (this.detected === "empty") {
      const type = this.contentType === null || this.contentType === "" ? "" : ` (type '${this.contentType}')`
      return `There is no content${type}: the body is empty (or white space only), so there is nothing to retain or to quote; check the address, and if a browser shows the page, save it from the browser and import the saved file.`
    }
    if (this.detected === "gzip") {
      return `The bytes are gzip-compressed (they start 1f 8b), not text${declared}: decompress them (gunzip) and import the decompressed file.`
    }
    if (this.detected === "mhtml") {
      return `The file is a web archive (MHTML: a multipart/related MIME message), not a page${declared}: save the page from the browser as HTML ("Web Page, HTML Only" or "Web Page, Complete") and import its .html file.`
    }
    if (this.detected === "pdf") {
      return `The bytes are a PDF document (they start %PDF-), not text${declared}: PDF files are not captured (only ${accepted}); import an HTML or text version of the document instead (e.g. its text extracted to a .txt file in UTF-8).`
    }
    if (this.contentType === null) {
      // Saved forms that no --content-type makes acceptable: naming a type would retain an
      // archive's MIME parts (quoted-printable) or a PDF's bytes as if they were the page.
      if (this.extension !== undefined && WEB_ARCHIVES.has(this.extension)) {
        return `The file is a web archive ('.${this.extension}'), which is not accepted: save the page from the browser as HTML ("Web Page, HTML Only" or "Web Page, Complete") and import its .html file.`
      }
      if (this.extension === "pdf") {
        return `PDF files are not captured (only ${accepted}): capture an HTML or text version of the document instead.`
      }
      const ext = this.extension === undefined || this.extension === ""
        ? "The file has no extension"
        : `The extension '.${this.extension}' names no accepted type`
      return `${ext}: name its content type (${accepted}).`
    }
    if (acceptedUtf8(this.contentType)) {
      // The type is one dossier takes: what was refused are the bytes (src/domain/IngestContent.ts, decodeBody).
      return `The bytes are not valid UTF-8 (type '${this.contentType}'); only ${accepted} are captured, never transcoded: save the page as UTF-8 and import the file.`
    }
    return `The content type '${this.contentType}' is not accepted (${accepted}).`
  }
}

export class ResponseTooLarge extends Schema.TaggedError<ResponseTooLarge>()("ResponseTooLarge", {
  max: Schema.Number
}) {
  override get message() {
    return `The response body is larger than ${this.max} bytes.`
  }
}

export class Timeout extends Schema.TaggedError<Timeout>()("Timeout", {
  seconds: Schema.Number
}) {
  override get message() {
    return `The fetch did not finish within ${this.seconds} s.`
  }
}

export class HttpStatus extends Schema.TaggedError<HttpStatus>()("HttpStatus", {
  status: Schema.Number
}) {
  override get message() {
    return `The server answered with status ${this.status}.`
  }
}

export class DnsFailure extends Schema.TaggedError<DnsFailure>()("DnsFailure", {
  host: Schema.String
}) {
  override get message() {
    return `The host '${this.host}' could not be resolved.`
  }
}

export class ConnectionFailed extends Schema.TaggedError<ConnectionFailed>()("ConnectionFailed", {
  host: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `The connection to '${this.host}' failed (${this.reason}).`
  }
}

export const IngestErrors = [
  InvalidUrl,
  UnsupportedScheme,
  CredentialsInUrl,
  ForbiddenDestination,
  TooManyRedirects,
  CompressedResponse,
  UnsupportedContent,
  ResponseTooLarge,
  Timeout,
  HttpStatus,
  DnsFailure,
  ConnectionFailed
] as const
export type IngestError = InstanceType<(typeof IngestErrors)[number]>
