/** `dossier ingest <url>` — owned by the ingest subsystem (issue 3). */
import * as Command from "@effect/cli/Command"

export const ingestCommand = Command.make("ingest").pipe(
  Command.withDescription("Fetch one public http(s) URL and retain the original bytes and a readable copy under research/sources/.")
)
