/**
 * Implementation of `dossier mcp` (loaded lazily: none of the MCP code is on the start path of
 * other commands). Its work is the server's whole life; it prints nothing on success (stdout
 * is the protocol) and refuses only when the work folder cannot be used or `--tools` names an
 * area there is none of.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { commandSpecs } from "../commands/Specs.js"
import { work } from "../commands/Work.js"
import { UsageError } from "../domain/CliErrors.js"
import { clipped } from "../domain/Clip.js"
import { reraiseSignals } from "../layers/RunStops.js"
import { serve } from "../mcp/Server.js"
import { toolAreas } from "../mcp/Tools.js"
import { VERSION } from "./Usage.js"

export const mcp = (
  o: { readonly workdir: string; readonly readOnly: boolean; readonly tools: Option.Option<string> }
) => {
  // A signal that interrupts a confined run ends the server too, once the run is recorded.
  reraiseSignals(true)
  const known = toolAreas(commandSpecs)
  const areas = Option.map(o.tools, (t) => t.split(",").map((a) => a.trim()).filter((a) => a !== ""))
  const unknown = Option.match(areas, { onNone: () => [], onSome: (a) => a.filter((x) => !known.includes(x)) })
  const effect = unknown.length > 0 || Option.exists(areas, (a) => a.length === 0)
    ? Effect.fail(
      new UsageError({
        // Name what is wrong (not the whole list back), then what is taken.
        detail: `--tools: ${
          unknown.length === 0
            ? "no area named"
            : `unknown area${unknown.length > 1 ? "s" : ""} ${unknown.map((a) => `'${clipped(a, 80)}'`).join(", ")}`
        }; the areas are ${known.join(", ")}`
      })
    )
    : Effect.as(
      serve({
        dir: o.workdir,
        name: "dossier",
        version: VERSION,
        select: { readOnly: o.readOnly, ...(Option.isSome(areas) ? { areas: areas.value } : {}) },
        // Relative paths in tool arguments are taken from the work folder, whatever the host's directory.
        onRoot: (root) => process.chdir(root)
      }),
      { served: true }
    )
  return work({ effect, layer: Layer.empty, human: () => "", quiet: true })
}
