import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as fc from "effect/FastCheck"
import {
  captureLine,
  captureStem,
  checkContentType,
  checkEncoding,
  decodeBody,
  isFetched,
  isWebArchive,
  originalPath,
  parseCaptures,
  readablePath
} from "../../src/domain/IngestContent.js"

describe("capture rules (pure)", () => {
  it("accepts identity or no Content-Encoding only", () => {
    expect(Either.isRight(checkEncoding(undefined))).toBe(true)
    expect(Either.isRight(checkEncoding("identity"))).toBe(true)
    expect(Either.isRight(checkEncoding(" Identity "))).toBe(true)
    for (const e of ["gzip", "br", "deflate", "identity, gzip", "zstd"]) {
      expect(Either.isLeft(checkEncoding(e)), e).toBe(true)
    }
  })

  it("accepts the three media types, in UTF-8 when a charset is declared", () => {
    expect(checkContentType("text/html")).toEqual(Either.right({ kind: "html", essence: "text/html" }))
    expect(checkContentType("Text/HTML; charset=\"UTF-8\"")).toEqual(
      Either.right({ kind: "html", essence: "text/html" })
    )
    expect(checkContentType("application/xhtml+xml; charset=utf8")).toEqual(
      Either.right({ kind: "xhtml", essence: "application/xhtml+xml" })
    )
    expect(checkContentType("text/plain;format=flowed")).toEqual(Either.right({ kind: "text", essence: "text/plain" }))
    for (
      const t of [
        undefined,
        "",
        "image/png",
        "application/json",
        "text/html; charset=iso-8859-1",
        "text/plain; charset=windows-1252",
        "text/htmlx"
      ]
    ) {
      expect(Either.isLeft(checkContentType(t)), String(t)).toBe(true)
    }
  })

  it("refuses bytes that are not UTF-8 and drops a BOM", () => {
    expect(Either.isLeft(decodeBody(Buffer.from([0x63, 0x61, 0x66, 0xe9]), "text/plain"))).toBe(true)
    expect(decodeBody(Buffer.from("\ufeffhello"), "text/plain")).toEqual(Either.right("hello"))
  })

  const fatalDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false })
  const reference = (bytes: Uint8Array): string | undefined => {
    try {
      return fatalDecoder.decode(bytes)
    } catch {
      return undefined
    }
  }
  // Byte soup biased towards UTF-8 edge cases: BOMs, overlongs, surrogates, truncated sequences.
  const edgeBytes = fc.array(
    fc.oneof(
      fc.uint8Array({ maxLength: 6 }),
      fc.string({ unit: "grapheme", maxLength: 4 }).map((s) => new TextEncoder().encode(s)),
      fc.constantFrom(
        [0xef, 0xbb, 0xbf],
        [0xc0, 0x80],
        [0xed, 0xa0, 0x80],
        [0xf4, 0x90, 0x80, 0x80],
        [0xe2, 0x82],
        [0xf0, 0x9f, 0x98, 0x80],
        [0xff]
      ).map((b) => Uint8Array.from(b))
    ),
    { maxLength: 12 }
  ).map((parts) => Buffer.concat(parts))

  it.prop("decodes exactly as a fatal TextDecoder (same text, same refusals)", [edgeBytes], ([bytes]) => {
    const ours = decodeBody(bytes, "text/plain")
    const want = reference(bytes)
    expect(Either.isRight(ours) ? ours.right : undefined).toBe(want)
  }, { fastCheck: { numRuns: 3000 } })

  it("says what bytes that are not UTF-8 plainly are: gzip or PDF", () => {
    const detected = (bytes: ReadonlyArray<number>) => {
      const r = decodeBody(Uint8Array.from(bytes), "text/html")
      return Either.isLeft(r) ? r.left.detected ?? "none" : "decoded"
    }
    expect(detected([0x1f, 0x8b, 0x08, 0x00])).toBe("gzip")
    expect(detected([...Buffer.from("%PDF-1.4\n%"), 0xe2, 0xe3])).toBe("pdf")
    expect(detected([0x3c, 0x70, 0x3e, 0xe9])).toBe("none")
    // Valid UTF-8 is text, whatever it starts with.
    expect(detected([...Buffer.from("%PDF- is how a PDF starts")])).toBe("decoded")
  })

  it("tells a web archive (MHTML) from a page by its opening MIME headers", () => {
    const archive = (eol: string) =>
      Buffer.from(
        [
          "From: <Saved by Blink>",
          "Snapshot-Content-Location: https://example.com/p",
          "MIME-Version: 1.0",
          "Content-Type: multipart/related;",
          "\ttype=\"text/html\";",
          "\tboundary=\"----MultipartBoundary--x\"",
          "",
          "------MultipartBoundary--x",
          "Content-Type: text/html",
          "",
          "<p>hi</p>"
        ].join(eol)
      )
    expect(isWebArchive(archive("\r\n"))).toBe(true)
    expect(isWebArchive(archive("\n"))).toBe(true)
    expect(isWebArchive(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), archive("\r\n")]))).toBe(true)
    // Pages and text that only look a little like headers are not archives.
    for (
      const text of [
        "<!doctype html><p>MIME-Version: 1.0</p>\n\n",
        "Subject: notes\nMIME-Version: 1.0\n\nContent-Type: multipart/related\n",
        "MIME-Version: 1.0\nContent-Type: text/plain\n\nhello",
        "Note: this page explains\nContent-Type: multipart/related headers\nin MIME-Version: 1.0\nand more",
        "MIME-Version: 1.0\nContent-Type: multipart/related; boundary=b"
      ]
    ) expect(isWebArchive(Buffer.from(text)), text).toBe(false)
  })

  it("names files by host, slug and their own digest", () => {
    const sha = "a".repeat(64)
    expect(originalPath("https://Example.com/Some/Page.html?q=1", "html", sha)).toBe(
      "research/sources/example.com-some-page-html-aaaaaaaaaaaa.html"
    )
    expect(originalPath("https://example.com/", "text", sha)).toBe(
      "research/sources/example.com-index-aaaaaaaaaaaa.txt"
    )
    expect(readablePath("http://[2001:db8::1]:8080/Ünïcode%20path", sha)).toBe(
      "research/sources/ipv6-2001-db8-1-unicode-path-aaaaaaaaaaaa.md"
    )
  })

  it("names an IPv6 host readably, never with a leading dash (a shell would read an option)", () => {
    const sha = "a".repeat(64)
    expect(originalPath("https://[::1]/x", "html", sha)).toBe("research/sources/ipv6-1-x-aaaaaaaaaaaa.html")
    expect(captureStem("https://[::ffff:1.2.3.4]/")).toBe("ipv6-ffff-102-304-index")
    expect(captureStem("https://[fe80::]/a")).toBe("ipv6-fe80-a")
    expect(captureStem("https://[::]/a")).toBe("ipv6-a")
    expect(captureStem("https://xn--bcher-kva.example/")).toBe("xn--bcher-kva.example-index")
    expect(captureStem("https://-a-.example/b")).toBe("a-.example-b")
  })

  it.prop("stems are short, ASCII and safe as one path segment", [
    fc.webUrl({ withQueryParameters: true, withFragments: true })
  ], ([url]) => {
    const stem = captureStem(url)
    return /^[a-z0-9.-]+$/.test(stem) && stem.length <= 142 && !/^[.-]/.test(stem) && !stem.includes("/")
  })

  it.prop("stems of IPv6 hosts are ASCII and start with a letter", [
    fc.ipV6()
  ], ([address]) => /^ipv6(-[a-z0-9-]*[a-z0-9])?-index$/.test(captureStem(`https://[${address}]/`)))

  it("the capture log round-trips and skips lines that are not records", () => {
    const rec = {
      path: "research/sources/x.html",
      sha256: "b".repeat(64),
      bytes: 3,
      origin: "https://example.com/",
      fetchedAt: "2026-11-30T10:00:00.000Z",
      kind: "original" as const,
      via: "fetch" as const
    }
    const text = captureLine(rec) + "not json\n" + "{\"path\":1}\n" + captureLine({ ...rec, kind: "source" }) +
      "{\"path\":\"torn"
    expect(parseCaptures(text)).toEqual([rec, { ...rec, kind: "source" }])
  })

  it("records carry via; a line without it (written before imports existed) is a fetch", () => {
    const { via: _, ...legacy } = {
      path: "research/sources/x.html",
      sha256: "b".repeat(64),
      bytes: 3,
      origin: "https://example.com/",
      fetchedAt: "2026-11-30T10:00:00.000Z",
      kind: "original" as const,
      via: "fetch" as const
    }
    // captureLine always writes via (fetch unless told).
    expect(JSON.parse(captureLine(legacy)).via).toBe("fetch")
    const [old, imported, warc] = parseCaptures(
      `${JSON.stringify(legacy)}\n` + captureLine({ ...legacy, via: "file" }) + captureLine({ ...legacy, kind: "warc" })
    )
    expect(old).toEqual(legacy)
    expect([isFetched(old!), isFetched(imported!), isFetched(warc!)]).toEqual([true, false, true])
    expect(warc!.kind).toBe("warc")
  })
})
