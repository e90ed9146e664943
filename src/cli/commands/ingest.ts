/** `dossier ingest <url>`, declared as data (see src/cli/Spec.ts). The handler loads its implementation lazily. */
import { type CommandSpec, command, json, now, workdir } from "../Spec.js"

export const ingestSpecs: ReadonlyArray<CommandSpec> = [
  command({
    path: ["ingest"],
    description:
      "Fetch one public http(s) URL and retain the original bytes and a readable Markdown copy (text/plain: the text) under research/sources/, each named by host, a slug and its own SHA-256; every capture is logged in .dossier/captures.jsonl. " +
      "Network policy (no override exists): only http/https, no credentials in the URL; every destination - each DNS answer, every literal address in any spelling, every redirect hop (at most 5) - must be public unicast: loopback, private, link-local, CGNAT, documentation, benchmark, multicast, reserved, metadata, NAT64/6to4/Teredo and localhost names are refused (ForbiddenDestination). The socket connects only to the checked addresses. " +
      "Accepted: identity-encoded, UTF-8 text/html, application/xhtml+xml or text/plain, at most 2 MiB, within --timeout.",
    args: { url: { name: "url", description: "The public http(s) URL to capture.", optional: false } },
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
      now
    },
    run: (v) => import("./ingest.impl.js").then((m) => m.ingest(v))
  })
]
