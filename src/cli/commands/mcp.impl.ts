/**
 * Implementation of `dossier mcp` (loaded lazily: none of the MCP code is on the start path of
 * other commands). Its work is the server's whole life; it prints nothing on success (stdout
 * is the protocol) and refuses only when the work folder cannot be used.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { reraiseSignals } from "../../layers/RunStops.js"
import { serve } from "../../mcp/Server.js"
import { VERSION } from "../Usage.js"
import { work } from "../Work.js"

export const mcp = (o: { readonly workdir: string }) => {
  // A signal that interrupts a confined run ends the server too, once the run is recorded.
  reraiseSignals(true)
  const served = serve({
    dir: o.workdir,
    name: "dossier",
    version: VERSION,
    // Relative paths in tool arguments are taken from the work folder, whatever the host's directory.
    onRoot: (root) => process.chdir(root)
  })
  const effect = Effect.as(served, { served: true })
  return work({ effect, layer: Layer.empty, human: () => "", quiet: true })
}
