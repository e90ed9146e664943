/** `dossier journal …` — owned by the journal subsystem (issue 4). */
import * as Command from "@effect/cli/Command"

export const journalCommand = Command.make("journal").pipe(
  Command.withDescription("The experiment journal of a study: append, inspect, rebuild, recover-tail, import.")
)
