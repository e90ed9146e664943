/** `dossier monitor …` and `dossier next` — owned by the monitor subsystem (issue 6). */
import * as Command from "@effect/cli/Command"

export const monitorCommand = Command.make("monitor").pipe(
  Command.withDescription("Subscriptions that re-check a topic on a cadence, their runs and outcomes.")
)

export const nextCommand = Command.make("next").pipe(
  Command.withDescription("List the factual candidates for what to do next across the work folder.")
)
