/** `dossier ingest <url>` and `dossier ingest --file <path> --origin <url>`, declared as data (see src/commands/Spec.ts). The handler loads its implementation lazily. */
import { command, type CommandSpec, json, now, workdir } from "./Spec.js"

export const ingestSpecs: ReadonlyArray<CommandSpec> = [
  command({
    path: ["ingest"],
    tools: [
      { takes: ["url", "timeout", "dryRun", "now"] },
      {
        suffix: "file",
        description:
          "Import a page the host's own browser saved in the work folder (a regular file, at most 16 MiB, UTF-8; type from contentType or the extension .html/.htm, .xhtml, .txt/.md), recorded as coming from origin: the same two retained files under research/sources/ and answer as a fetch, network \"none\", via \"file\"; nothing is fetched. The gate reports such files as origin registered, not capture.",
        takes: ["file", "origin", "contentType", "now"]
      }
    ],
    description:
      "Fetch one public http(s) URL and retain the original bytes and a readable Markdown copy (text/plain: the text) under research/sources/, each named by host, a slug and its own SHA-256; every capture is logged in .dossier/captures.jsonl. " +
      "Network policy (no override exists): only http/https, no credentials in the URL; every destination - each DNS answer, every literal address in any spelling, every redirect hop (at most 5) - must be public unicast: loopback, private, link-local, CGNAT, documentation, benchmark, multicast, reserved, metadata, NAT64/6to4/Teredo and localhost names are refused (ForbiddenDestination). The socket connects only to the checked addresses. " +
      "Accepted: identity-encoded, UTF-8 text/html, application/xhtml+xml or text/plain, at most 2 MiB, within --timeout. " +
      "Every fetch also retains a WARC/1.1 record (<stem>-<sha12>.warc.gz: each hop's request and response exactly as sent and received, with the checked address the socket was pinned to). " +
      "--file <path> --origin <url> instead imports a page the host's own browser saved in the work folder (a regular file, at most 16 MiB, UTF-8; type from --content-type or the extension .html/.htm, .xhtml, .txt/.md): the same two retained files and answer, network \"none\", via \"file\", no WARC; nothing is fetched. The gate reports such files as origin registered, not capture: the agent supplied the bytes.",
    args: {
      // Said once for both faces: the MCP tool `ingest` requires it (`ingest_file` has no url), and
      // the command line's --file says that it takes no URL argument.
      url: { name: "url", description: "The public http(s) URL to capture.", optional: true, value: "url" }
    },
    flags: {
      workdir,
      json,
      timeout: {
        kind: "integer",
        name: "timeout",
        description: "Deadline in seconds from DNS to the last body byte, 1-120 (default 10).",
        optional: true,
        min: 1,
        max: 120
      },
      dryRun: {
        kind: "boolean",
        name: "dry-run",
        description: "Check the URL's syntax and any literal address only: no DNS, no HTTP, nothing written."
      },
      file: {
        kind: "optionalText",
        name: "file",
        value: "path",
        description:
          "Import this saved page instead of fetching: a file inside the work folder (relative: from the current directory if it is there, else the work folder), not dossier's own state (.dossier/, plan.md, a journal's files: UnsafePath). Needs --origin; no URL argument."
      },
      origin: {
        kind: "optionalText",
        name: "origin",
        value: "url",
        description:
          "With --file: the absolute http(s) URL the page was saved from (only recorded; nothing is fetched)."
      },
      contentType: {
        kind: "optionalText",
        name: "content-type",
        description:
          "With --file: text/html, application/xhtml+xml or text/plain (a UTF-8 charset parameter is allowed); default: from the file's extension."
      },
      now
    },
    run: (v) => import("./ingest.impl.js").then((m) => m.ingest(v))
  })
]
