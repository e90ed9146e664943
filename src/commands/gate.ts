/** `dossier gate`: verify a research output's quotes and record the verdict in the run state (declared as data). */
import { WAITING_FOR_ROUTES } from "../domain/GateRoutes.js"
import { command, type CommandSpec, json, now, workdir } from "./Spec.js"

export const gateSpecs: ReadonlyArray<CommandSpec> = [
  command({
    path: ["gate"],
    tools: [
      {
        // The command's description opens with a lead-in a tool list would cut to ("in an unattended run…").
        description: "Verify a run's cited quotes and close only the gaps they back.",
        takes: ["state", "researchDir", "descriptor", "attempts", "recordAttempt", "maxAskRounds", "now"]
      },
      {
        suffix: "recheck",
        description:
          "Re-verify parked closures against a fresh descriptor. Use it before resuming a maturity run the gate parked with proceed. No blocker left: the working description; else BlockersRemain. Writes nothing.",
        takes: ["state", "descriptor", "now"],
        fixed: { recheck: true }
      }
    ],
    description:
      "Research before asking: in an unattended run (DOSSIER_UNATTENDED=1 or autopilot: true in the state) verify every quote the research output cites and close only the gaps it backs; acceptance criteria and business rules are never closed. Categories (of blockers, open questions and gaps): description, scope, technical, dependency, design, data, environment, estimate, other, acceptance-criteria, business-rule; research never closes the last two, and any other value (acceptance_criteria included) is refused: InvalidInput in the state, NoVerdict in research.json. Answers proceed or ask and records it in the state (atomically, compare-and-set). Otherwise a no-op: {active: false}.",
    flags: {
      workdir,
      json,
      state: {
        kind: "text",
        name: "state",
        value: "path",
        description:
          `The parked run state (JSON, inside the work folder, at most 16 MiB). Fields read: item, autopilot, status, waitingFor (${WAITING_FOR_ROUTES}), pendingQuestion {id, stepId}, maturity {score, threshold (numbers from 0 to 100; a 0-1 scale is refused: InvalidInput), blockers [{id, category}]}, analysis {openQuestions [{id, text, category}]}. The gate writes research (and, per decision, waitingFor, pendingQuestion, status, maturity, analysis); every other key is kept. Never a file the gate does not own (under .dossier/, plan.md, under research/sources/, a journal or its index/manifest, a registered source or output): UnsafePath.`
      },
      researchDir: {
        kind: "optionalText",
        name: "research-dir",
        value: "path",
        description:
          "Folder with research.json {item, kind: maturity | open-questions, gaps [{id, category, status: closed | candidate | open, answer, sources [{label, ref, quote}]}]} and context.json {documents [{ref, text}]} (default: research/gate in the work folder)."
      },
      descriptor: {
        kind: "optionalText",
        name: "descriptor",
        value: "path",
        description:
          "The item as fetched fresh: {item, description, acceptanceCriteria [...], comments [{id, text}] (oldest first; newest 20 used, each cut to 1500 characters, 12000 bytes together), commentsTotal? (how many comments the item has, when the fetcher sent fewer), links [{ref, title}]}. Needed for refs descriptor:description and descriptor:comment:<id>, and for --recheck."
      },
      attempts: {
        kind: "optionalText",
        name: "attempts",
        value: "path",
        description:
          "The attempts log (JSONL rows {item, at, researchRounds, decision}); rounds are summed over every row of the item (default: .dossier/gate/attempted.jsonl). With --record-attempt it must not be the state or a file the gate does not own (as for --state; the default is the gate's own): UnsafePath."
      },
      recordAttempt: {
        kind: "boolean",
        name: "record-attempt",
        description:
          "Append the row {item, at, researchRounds, decision} to the attempts log (under the lock). Do not use on a log a runner keeps itself."
      },
      maxAskRounds: {
        kind: "integer",
        name: "max-ask-rounds",
        description:
          "Research rounds allowed per item (default 2). At the ceiling nothing is evaluated: decision ask, reason maxAskRounds.",
        // Optional, not `default: 2`, so that a recheck can tell it was given (and refuse it).
        optional: true,
        min: 0,
        max: 1000
      },
      recheck: {
        kind: "boolean",
        name: "recheck",
        description:
          "Re-verify the recorded closures against a fresh --descriptor (maturity). No blocker left: exit 0 with the working description; else BlockersRemain (exit 1). Writes nothing."
      },
      now
    },
    run: (v) => import("./gate.impl.js").then((m) => m.gate(v))
  })
]
