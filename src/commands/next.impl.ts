/**
 * Handler of `dossier next`. In a module of its own, apart from the monitor's (./monitor.impl.ts),
 * so that `dossier monitor …` does not initialize the plan's, the journals' and the grants'
 * modules that `next` reads (docs/performance.md, "Issue 28, eleventh round").
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Fact } from "../domain/MonitorOutputs.js"
import { nextFacts } from "../layers/MonitorNext.js"
import { NextLayer } from "../layers/NextLayer.js"
import { Workdir } from "../services/Workdir.js"
import { isBoundFolder } from "./Cwd.js"
import { factText } from "./monitor.impl.js"
import { work } from "./Work.js"

const NEXT_NOTE =
  "Facts, not decisions: each names the revisions it was computed from; act on it only if they still hold."

/** Added in a bound folder when a fact may only say that a file another host made is not here yet. */
export const NEXT_BOUND_NOTE =
  " This folder is bound to a shared dossier: a file another host made (a run's stage file, a registered source or output) is missing here until `dossier pull` brings it, and reads as a broken link or a stale binding until then."

/** Facts that a file missing from this host's folder gives (docs/store.md, "Missing here, held there"). */
const mayBeElsewhere = (f: Fact) =>
  f.kind === "broken-link" || f.kind === "completion-binding-stale" ||
  (f.kind === "plan-needs-attention" && f.findings.some((x) => x.kind.endsWith("-missing")))

export const next = (o: { readonly workdir: string; readonly now: Option.Option<Date> }) => {
  const now = Option.getOrElse(o.now, () => new Date())
  return work({
    effect: Effect.zipWith(nextFacts({ now }), Workdir, (facts, { root }) => ({
      now: now.toISOString(),
      count: facts.length,
      facts,
      note: isBoundFolder(root) && facts.some(mayBeElsewhere) ? NEXT_NOTE + NEXT_BOUND_NOTE : NEXT_NOTE
    })),
    layer: NextLayer(o.workdir),
    human: (r) => (r.count === 0 ? "nothing to do: no facts" : r.facts.map(factText).join("\n"))
  })
}
