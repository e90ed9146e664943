/** `dossier ingest --file` through the built CLI, as an agent runs it after saving a page with its own browser. */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { gzipSync } from "node:zlib"
import { CAPTURES_LOG, parseCaptures } from "../../src/domain/IngestContent.js"
import { connect } from "../mcp/support.js"
import { CLI, leaksNothing, put, runCli, snapshot, tempWorkdir } from "../support/cli.js"

const sha = (b: Uint8Array | string) => createHash("sha256").update(b).digest("hex")
const NOW = "2026-11-30T10:00:00.000Z"

const PAGE = `<!doctype html><html><head><title>Deprecation notice</title></head><body><article><h1>Deprecation</h1>
<p>Clients must read the <a href="/docs/migration">migration guide</a> before the removal on June&nbsp;1.</p></article></body></html>`

const ingest = (dir: string, args: ReadonlyArray<string>) => {
  const r = runCli(["ingest", ...args, "--json"], { cwd: dir })
  expect(leaksNothing(dir, r)).toBe(true)
  return r
}

const refused = (dir: string, args: ReadonlyArray<string>, tag: string, code = 1) => {
  const before = snapshot(dir)
  const r = ingest(dir, args)
  expect(r.code, r.stdout + r.stderr).toBe(code)
  expect(r.json.ok).toBe(false)
  expect(r.json.error._tag).toBe(tag)
  // A refusal writes nothing.
  expect(snapshot(dir)).toEqual(before)
  return r.json.error
}

beforeAll(() => {
  expect(fs.existsSync(CLI)).toBe(true)
})

describe("dossier ingest --file (built CLI)", () => {
  it("retains the saved page and its readable copy as a fetch would, network none, via file, no WARC", () => {
    const dir = tempWorkdir("dossier-file-")
    put(dir, "saved/page.html", PAGE)
    const r = ingest(dir, [
      "--file",
      "saved/page.html",
      "--origin",
      "https://API.example.org/news/deprecation",
      "--now",
      NOW
    ])
    expect(r.code, r.stdout).toBe(0)
    const origin = "https://api.example.org/news/deprecation"
    expect(r.json).toMatchObject({
      ok: true,
      network: "none",
      via: "file",
      url: "https://API.example.org/news/deprecation",
      finalUrl: origin,
      redirects: [],
      file: "saved/page.html",
      warc: null,
      fetchedAt: NOW,
      reused: false
    })
    expect(Object.keys(r.json).sort()).toEqual([
      "fetchedAt",
      "file",
      "finalUrl",
      "network",
      "ok",
      "original",
      "redirects",
      "reused",
      "source",
      "url",
      "via",
      "warc"
    ])
    // The original: the saved bytes exactly, named like a fetched capture of the origin.
    expect(r.json.original).toEqual({
      path: `research/sources/api.example.org-news-deprecation-${sha(PAGE).slice(0, 12)}.html`,
      bytes: Buffer.byteLength(PAGE),
      sha256: sha(PAGE),
      contentType: "text/html"
    })
    expect(fs.readFileSync(path.join(dir, r.json.original.path), "utf8")).toBe(PAGE)
    const md = fs.readFileSync(path.join(dir, r.json.source.path))
    expect(r.json.source).toEqual({
      path: `research/sources/api.example.org-news-deprecation-${sha(md).slice(0, 12)}.md`,
      bytes: md.byteLength,
      sha256: sha(md),
      origin
    })
    expect(md.toString("utf8")).toContain("[migration guide](https://api.example.org/docs/migration)")
    // The log says the agent supplied these bytes.
    const log = parseCaptures(fs.readFileSync(path.join(dir, CAPTURES_LOG), "utf8"))
    expect(log).toEqual([
      {
        path: r.json.original.path,
        sha256: r.json.original.sha256,
        bytes: r.json.original.bytes,
        origin,
        fetchedAt: NOW,
        kind: "original",
        via: "file"
      },
      {
        path: r.json.source.path,
        sha256: r.json.source.sha256,
        bytes: r.json.source.bytes,
        origin,
        fetchedAt: NOW,
        kind: "source",
        via: "file"
      }
    ])
    expect(fs.readdirSync(path.join(dir, "research/sources")).some((n) => n.endsWith(".warc.gz"))).toBe(false)
    // Importing the same bytes again keeps the files.
    const again = ingest(dir, ["--file", path.join(dir, "saved/page.html"), "--origin", origin])
    expect(again.code).toBe(0)
    expect(again.json).toMatchObject({ reused: true, original: r.json.original, source: r.json.source })
  })

  it("type from --content-type or the extension; text/plain is kept as the text", () => {
    const dir = tempWorkdir("dossier-file-")
    put(dir, "saved/notes.txt", "plain notes\nsecond line\n")
    put(
      dir,
      "saved/page.xhtml",
      `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><p>xhtml text</p></body></html>`
    )
    put(dir, "saved/dump.dat", "<p>typed by the flag</p>")
    const t = ingest(dir, ["--file", "saved/notes.txt", "--origin", "https://example.org/notes"])
    expect(t.json.original.contentType).toBe("text/plain")
    expect(t.json.original.path.endsWith(".txt")).toBe(true)
    expect(fs.readFileSync(path.join(dir, t.json.source.path), "utf8")).toBe("plain notes\nsecond line\n")
    const x = ingest(dir, ["--file", "saved/page.xhtml", "--origin", "https://example.org/x"])
    expect(x.json.original.contentType).toBe("application/xhtml+xml")
    const d = ingest(dir, [
      "--file",
      "saved/dump.dat",
      "--origin",
      "https://example.org/d",
      "--content-type",
      "text/html; charset=UTF-8"
    ])
    expect(d.code, d.stdout).toBe(0)
    expect(d.json.original.contentType).toBe("text/html")
    expect(fs.readFileSync(path.join(dir, d.json.source.path), "utf8")).toContain("typed by the flag")
  })

  it("bytes that are plainly not text say what they are: gzip, PDF", () => {
    const dir = tempWorkdir("dossier-file-")
    const origin = ["--origin", "https://example.org/p"]
    // Under a page's name, the message says what the bytes are and what to do (decompress; an
    // HTML or text version of a PDF), not "save the page as UTF-8".
    put(dir, "saved/packed.html", gzipSync(PAGE))
    put(dir, "saved/paper.html", Buffer.concat([Buffer.from("%PDF-1.7\n%"), Buffer.from([0xe2, 0xe3, 0xcf, 0xd3])]))
    const packed = refused(dir, ["--file", "saved/packed.html", ...origin], "UnsupportedContent")
    expect(packed).toMatchObject({ contentType: "text/html", detected: "gzip" })
    expect(packed.message).toMatch(/gzip-compressed.*decompress/)
    expect(packed.message).not.toContain("UTF-8")
    const paper = refused(dir, ["--file", "saved/paper.html", ...origin], "UnsupportedContent")
    expect(paper).toMatchObject({ contentType: "text/html", detected: "pdf" })
    expect(paper.message).toMatch(/PDF document.*not captured.*text version/)
  })

  it("a web archive is refused whatever type is named for it or whatever its name", () => {
    const dir = tempWorkdir("dossier-file-")
    const origin = ["--origin", "https://example.org/p"]
    const mhtml = [
      "From: <Saved by Blink>",
      "MIME-Version: 1.0",
      "Content-Type: multipart/related;",
      "\ttype=\"text/html\";",
      "\tboundary=\"----MultipartBoundary--x\"",
      "",
      "------MultipartBoundary--x",
      "Content-Type: text/html",
      "Content-Transfer-Encoding: quoted-printable",
      "",
      "<p>Clients must read the migration guide before the re=",
      "moval on June 1.</p>",
      "------MultipartBoundary--x--",
      ""
    ].join("\r\n")
    put(dir, "saved/page.mhtml", mhtml)
    put(dir, "saved/renamed.html", mhtml)
    for (
      const args of [
        ["--file", "saved/page.mhtml", "--content-type", "text/html"],
        ["--file", "saved/page.mhtml", "--content-type", "text/plain"],
        ["--file", "saved/renamed.html"]
      ]
    ) {
      const e = refused(dir, [...args, ...origin], "UnsupportedContent")
      expect(e, args.join(" ")).toMatchObject({ detected: "mhtml" })
      expect(e.message).toMatch(/web archive.*save the page from the browser as HTML/)
    }
  })

  it("refusals are typed and write nothing: content, size, path, origin", () => {
    const dir = tempWorkdir("dossier-file-")
    const origin = ["--origin", "https://example.org/p"]
    put(dir, "saved/page.html", PAGE)
    put(dir, "saved/image.png", "\x89PNG")
    put(dir, "saved/latin1.html", Buffer.from([0x3c, 0x70, 0x3e, 0xe9, 0x3c, 0x2f, 0x70, 0x3e]))
    // No type known: the extension is a field; the message says a type must be named (true on
    // every face) and the hint names the way out (--content-type; contentType over MCP).
    const png = refused(dir, ["--file", "saved/image.png", ...origin], "UnsupportedContent")
    expect(png).toMatchObject({ contentType: null, extension: "png" })
    expect(png.message).toContain("name its content type")
    expect(png.message).not.toContain("--content-type")
    // A browser's single-file archive or a PDF: no --content-type makes it a page, so the message
    // says how to save it instead (labelled text/html, an MHTML archive's quoted-printable parts
    // would be retained as the page and its sentences would never verify).
    put(dir, "saved/page.mhtml", "From: <Saved by Blink>\r\nMIME-Version: 1.0\r\n\r\n")
    put(dir, "saved/paper.PDF", "%PDF-1.4\n")
    for (const [file, extension] of [["saved/page.mhtml", "mhtml"], ["saved/paper.PDF", "pdf"]]) {
      const e = refused(dir, ["--file", file!, ...origin], "UnsupportedContent")
      expect(e).toMatchObject({ contentType: null, extension })
      expect(e.message).not.toContain("--content-type")
      expect(e.message).toMatch(/HTML/)
    }
    refused(dir, ["--file", "saved/page.html", ...origin, "--content-type", "image/png"], "UnsupportedContent")
    // An empty value (an unset variable) is the command line's mistake, as for every flag: a
    // UsageError (exit 2) naming the flag; a blank type names no accepted type.
    expect(refused(dir, ["--file", "saved/page.html", ...origin, "--content-type", ""], "UsageError", 2).message)
      .toContain("--content-type <text>: the value is empty")
    expect(refused(dir, ["--file", "saved/page.html", ...origin, "--content-type", " "], "UnsupportedContent"))
      .toMatchObject({ contentType: "" })
    refused(
      dir,
      ["--file", "saved/page.html", ...origin, "--content-type", "text/html; charset=iso-8859-1"],
      "UnsupportedContent"
    )
    expect(refused(dir, ["--file", "saved/latin1.html", ...origin], "UnsupportedContent").detected).toBeUndefined()
    // Larger than 16 MiB.
    fs.writeFileSync(path.join(dir, "saved/big.html"), Buffer.alloc(16 * 1024 * 1024 + 1, 0x61))
    expect(refused(dir, ["--file", "saved/big.html", ...origin], "InputTooLarge")).toMatchObject({
      path: "saved/big.html",
      max: 16 * 1024 * 1024,
      actual: 16 * 1024 * 1024 + 1
    })
    fs.rmSync(path.join(dir, "saved/big.html"))
    // Outside the work folder, through a symlink, not a regular file, missing.
    const outside = path.join(fs.realpathSync(os.tmpdir()), `dossier-outside-${process.pid}.html`)
    fs.writeFileSync(outside, PAGE)
    // The mistake --input, --state and --descriptor answer with InputOutsideWorkdir, naming the option.
    expect(refused(dir, ["--file", outside, ...origin], "InputOutsideWorkdir").flag).toBe("--file")
    expect(refused(dir, ["--file", "../outside.html", ...origin], "InputOutsideWorkdir")).toMatchObject({
      path: "../outside.html",
      flag: "--file"
    })
    fs.symlinkSync(outside, path.join(dir, "saved/link.html"))
    expect(refused(dir, ["--file", "saved/link.html", ...origin], "UnsafePath").reason).toBe("symlink")
    fs.rmSync(outside)
    fs.mkdirSync(path.join(dir, "saved/dir.html"))
    expect(refused(dir, ["--file", "saved/dir.html", ...origin], "UnsafePath").reason).toBe("not-regular-file")
    refused(dir, ["--file", "saved/missing.html", ...origin], "FileNotFound")
    // The file is judged before its name: a missing file or a folder (a browser's "page_files")
    // is refused as such whatever its extension, not sent off to name a --content-type.
    refused(dir, ["--file", "saved/missing.pdf", ...origin], "FileNotFound")
    fs.mkdirSync(path.join(dir, "saved/page_files"))
    expect(refused(dir, ["--file", "saved/page_files", ...origin], "UnsafePath").reason).toBe("not-regular-file")
    // A bad origin.
    refused(dir, ["--file", "saved/page.html", "--origin", "not a url"], "InvalidUrl")
    refused(dir, ["--file", "saved/page.html", "--origin", "/news/relative"], "InvalidUrl")
    // Empty (an unset variable) is the command line's mistake, as for every flag (exit 2); a blank
    // one is unparseable.
    expect(refused(dir, ["--file", "saved/page.html", "--origin", ""], "UsageError", 2).message)
      .toBe("--origin <url>: the value is empty; give a url")
    refused(dir, ["--file", "saved/page.html", "--origin", " "], "InvalidUrl")
    // Longer than any URL ingest fetches (8192 characters): refused as that URL would be, not
    // written into captures.jsonl; the message names the limit.
    const long = `https://example.org/${"x".repeat(8192)}`
    expect(refused(dir, ["--file", "saved/page.html", "--origin", long], "InvalidUrl").message).toContain("8192")
    expect(runCli(["ingest", long, "--dry-run", "--json"], { cwd: dir }).json.error._tag).toBe("InvalidUrl")
    refused(dir, ["--file", "saved/page.html", "--origin", "ftp://example.org/p"], "UnsupportedScheme")
    refused(dir, ["--file", "saved/page.html", "--origin", "https://user:secret@example.org/p"], "CredentialsInUrl")
    expect(fs.existsSync(path.join(dir, "research"))).toBe(false)
  })

  it("dossier's own state is no page: .dossier/…, plan.md, a journal's files are UnsafePath, nothing retained", () => {
    const dir = tempWorkdir("dossier-file-")
    put(dir, "plan.md", "# notes\n")
    put(dir, ".dossier/captures.jsonl", "")
    put(dir, "research/s/research-events.jsonl", "")
    put(dir, "research/s/manifest.json", "{}\n")
    put(dir, "research/s/index.json", "{}\n")
    const origin = ["--origin", "https://example.org/p", "--content-type", "text/plain"]
    for (
      const [file, reason] of [
        [".dossier/store.json", "dossier-state"],
        [".dossier/captures.jsonl", "dossier-state"],
        ["plan.md", "plan-file"],
        ["./plan.md", "plan-file"],
        ["research/s/research-events.jsonl", "journal-file"],
        ["research/s/manifest.json", "journal-file"],
        ["research/s/index.json", "journal-file"]
      ]
    ) {
      // Decided by the path before anything is read: the binding is refused whether or not the
      // folder is bound (here it is not: a store.json would bind it).
      expect(refused(dir, ["--file", file!, ...origin], "UnsafePath"), file).toMatchObject({
        path: file!.replace(/^\.\//, ""),
        reason
      })
    }
    expect(refused(dir, ["--file", ".dossier/missing.html", "--origin", "https://example.org/p"], "UnsafePath").reason)
      .toBe("dossier-state")
    expect(fs.existsSync(path.join(dir, "research/sources"))).toBe(false)
    // Beside them, a file that is no state imports as any other.
    put(dir, "research/s/notes.md", "Notes taken by hand on the page.\n")
    expect(ingest(dir, ["--file", "research/s/notes.md", "--origin", "https://example.org/p"]).code).toBe(0)
  })

  it("through MCP: ingest_file refuses dossier's own state the same way", async () => {
    const dir = tempWorkdir("dossier-file-")
    put(dir, "plan.md", "# notes\n")
    const server = await connect(dir)
    try {
      const before = snapshot(dir)
      const r = await server.call("ingest_file", { file: "plan.md", origin: "https://example.org/p" })
      expect(r.isError, r.text).toBe(true)
      expect(r.body.error).toMatchObject({ _tag: "UnsafePath", path: "plan.md", reason: "plan-file" })
      expect(snapshot(dir)).toEqual(before)
    } finally {
      await server.client.close()
    }
  })

  it("an edited retained file is refused and kept; nothing is logged", () => {
    const dir = tempWorkdir("dossier-file-")
    put(dir, "saved/page.html", PAGE)
    const args = ["--file", "saved/page.html", "--origin", "https://example.org/p"]
    const first = ingest(dir, args)
    expect(first.code).toBe(0)
    fs.writeFileSync(path.join(dir, first.json.source.path), "edited by hand\n")
    const error = refused(dir, args, "EditedRetainedFile")
    expect(error).toMatchObject({
      path: first.json.source.path,
      expected: first.json.source.sha256,
      actual: sha("edited by hand\n")
    })
    // The same import (or capture) always lands at the same name, so "write a new file" is no way
    // out here: a person is told to restore or move the edited copy.
    const human = runCli(["ingest", ...args], { cwd: dir })
    expect(human.code).toBe(1)
    expect(human.stderr).toMatch(/restore the file to its `expected` bytes or move the edited copy aside/)
  })

  it("usage errors: --file with a URL, without --origin, with fetch-only flags; --origin without --file", () => {
    const dir = tempWorkdir("dossier-file-")
    put(dir, "saved/page.html", PAGE)
    refused(
      dir,
      ["https://example.org/p", "--file", "saved/page.html", "--origin", "https://example.org/p"],
      "UsageError",
      2
    )
    refused(dir, ["--file", "saved/page.html"], "UsageError", 2)
    refused(dir, ["--file", "saved/page.html", "--origin", "https://example.org/p", "--dry-run"], "UsageError", 2)
    refused(dir, ["--file", "saved/page.html", "--origin", "https://example.org/p", "--timeout", "5"], "UsageError", 2)
    refused(dir, ["https://example.org/p", "--origin", "https://example.org/p", "--dry-run"], "UsageError", 2)
    refused(dir, [], "UsageError", 2)
  })

  it("--help describes --file, --origin and --content-type; a human report without --json", () => {
    const help = runCli(["ingest", "--help"])
    expect(help.code).toBe(0)
    for (const s of ["--file", "--origin", "--content-type", "via \"file\"", "WARC"]) expect(help.stdout).toContain(s)
    const dir = tempWorkdir("dossier-file-")
    put(dir, "saved/page.html", PAGE)
    const r = runCli(["ingest", "--file", "saved/page.html", "--origin", "https://example.org/p"], { cwd: dir })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain("nothing was fetched")
    expect(r.stdout).toContain("research/sources/example.org-p-")
  })
})
