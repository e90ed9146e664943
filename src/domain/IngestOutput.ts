/** Success outputs of `dossier ingest` (for `dossier schema ingest-output` / `ingest-dry-run-output`). */
import * as Schema from "effect/Schema"
import { CaptureRecord } from "./IngestContent.js"

const Sha256 = Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/))

export const IngestOutput = Schema.Struct({
  ok: Schema.Literal(true),
  network: Schema.Literal("checked"),
  url: Schema.String,
  finalUrl: Schema.String,
  redirects: Schema.Array(Schema.String),
  original: Schema.Struct({ path: Schema.String, bytes: Schema.Number, sha256: Sha256, contentType: Schema.String }),
  source: Schema.Struct({ path: Schema.String, bytes: Schema.Number, sha256: Sha256, origin: Schema.String }),
  fetchedAt: Schema.String,
  reused: Schema.Boolean
}).annotations({ identifier: "IngestOutput" })

export const IngestDryRunOutput = Schema.Struct({
  ok: Schema.Literal(true),
  network: Schema.Literal("not_checked"),
  url: Schema.String,
  host: Schema.String,
  literal: Schema.Boolean
}).annotations({ identifier: "IngestDryRunOutput" })

export { CaptureRecord }
