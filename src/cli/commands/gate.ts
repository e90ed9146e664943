/** `dossier gate`: verify a research output's quotes and record the verdict in the run state. */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Opts from "../Options.js"

const load = () => import("./gate.impl.js")

const options = {
  workdir: Opts.workdir,
  json: Opts.json,
  state: Options.text("state").pipe(
    Options.withDescription(
      "The parked run state (JSON, inside the work folder, at most 16 MiB). Fields read: item, autopilot, status, waitingFor, pendingQuestion {id, stepId}, maturity {score, threshold, blockers [{id, category}]}, analysis {openQuestions [{id, text, category}]}. The gate writes research (and, per decision, waitingFor, pendingQuestion, status, maturity, analysis); every other key is kept."
    )
  ),
  researchDir: Options.text("research-dir").pipe(
    Options.withDescription(
      "Folder with research.json {item, kind: maturity | open-questions, gaps [{id, category, status: closed | candidate | open, answer, sources [{label, ref, quote}]}]} and context.json {documents [{ref, text}]} (default: research/gate in the work folder)."
    ),
    Options.optional
  ),
  descriptor: Options.text("descriptor").pipe(
    Options.withDescription(
      "The item as fetched fresh: {item, description, acceptanceCriteria [...], comments [{id, text}] (oldest first; newest 20 used, each cut to 1500 characters, 12000 bytes together), links [{ref, title}]}. Needed for refs descriptor:description and descriptor:comment:<id>, and for --recheck."
    ),
    Options.optional
  ),
  attempts: Options.text("attempts").pipe(
    Options.withDescription(
      "The attempts log (JSONL rows {item, at, researchRounds, decision}); rounds are summed over every row of the item (default: .dossier/gate/attempted.jsonl)."
    ),
    Options.optional
  ),
  recordAttempt: Options.boolean("record-attempt").pipe(
    Options.withDescription("Append the row {item, at, researchRounds, decision} to the attempts log (under the lock). Do not use on a log a runner keeps itself.")
  ),
  maxAskRounds: Opts.boundedInteger("max-ask-rounds", 0, 1000).pipe(
    Options.withDescription("Research rounds allowed per item (default 2). At the ceiling nothing is evaluated: decision ask, reason maxAskRounds."),
    Options.withDefault(2)
  ),
  recheck: Options.boolean("recheck").pipe(
    Options.withDescription(
      "Re-verify the recorded closures against a fresh --descriptor (maturity). No blocker left: exit 0 with the working description; else BlockersRemain (exit 1). Writes nothing."
    )
  ),
  now: Opts.now
}

export const gateCommand = Command.make("gate", options, (o) => Effect.flatMap(Effect.promise(load), (m) => m.gate(o))).pipe(
  Command.withDescription(
    "Research before asking: in an unattended run (DOSSIER_UNATTENDED=1 or autopilot: true in the state) verify every quote the research output cites and close only the gaps it backs; acceptance criteria and business rules are never closed. Answers proceed or ask and records it in the state (atomically, compare-and-set). Otherwise a no-op: {active: false}."
  )
)
