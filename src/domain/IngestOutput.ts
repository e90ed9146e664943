/** Success outputs of `dossier ingest` (for `dossier schema ingest-output` / `ingest-dry-run-output`). */
import * as Schema from "effect/Schema"
import { CaptureRecord } from "./IngestContent.js"

const Sha256 = Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/))

const Retained = Schema.Struct({ path: Schema.String, bytes: Schema.Number, sha256: Sha256 })

const pageFields = {
  ok: Schema.Literal(true),
  url: Schema.String,
  finalUrl: Schema.String,
  redirects: Schema.Array(Schema.String),
  original: Schema.Struct({ ...Retained.fields, contentType: Schema.String }),
  source: Schema.Struct({ ...Retained.fields, origin: Schema.String }),
  fetchedAt: Schema.String,
  reused: Schema.Boolean
}

/** `dossier ingest <url>`: fetched by SafeHttp; three retained files. */
export const IngestOutput = Schema.Struct({
  ...pageFields,
  network: Schema.Literal("checked"),
  via: Schema.Literal("fetch"),
  warc: Retained
}).annotations({ identifier: "IngestOutput" })

/** `dossier ingest --file <path> --origin <url>`: imported from the work folder; nothing fetched. */
export const IngestFileOutput = Schema.Struct({
  ...pageFields,
  network: Schema.Literal("none"),
  via: Schema.Literal("file"),
  file: Schema.String,
  warc: Schema.Null
}).annotations({ identifier: "IngestFileOutput" })

export const IngestDryRunOutput = Schema.Struct({
  ok: Schema.Literal(true),
  network: Schema.Literal("not_checked"),
  url: Schema.String,
  host: Schema.String,
  literal: Schema.Boolean
}).annotations({ identifier: "IngestDryRunOutput" })

export { CaptureRecord }
