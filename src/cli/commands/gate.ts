/** `dossier gate` — owned by the gate subsystem (issue 5). */
import * as Command from "@effect/cli/Command"

export const gateCommand = Command.make("gate").pipe(
  Command.withDescription("Verify every cited quote of a research output and close only the gaps it backs, before an unattended run asks a person.")
)
