/** `dossier plan start|checkpoint|inspect`. Handlers load their implementation lazily. */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Opts from "../Options.js"

const load = () => import("./plan.impl.js")

const inspect = Command.make("inspect", { workdir: Opts.workdir, json: Opts.json }, (o) =>
  Effect.flatMap(Effect.promise(load), (m) => m.inspect(o))
).pipe(
  Command.withDescription(
    "Show the plan: goal, limits, status, next action, progress, completed steps, sources, outputs, unresolved items, verification findings (source-missing, source-changed, output-missing, output-changed, stale-dependency) and what completion lacks. Never writes."
  )
)

const start = Command.make(
  "start",
  {
    workdir: Opts.workdir,
    json: Opts.json,
    input: Opts.input,
    replaceGoal: Options.boolean("replace-goal").pipe(
      Options.withDescription("Replace the goal of an existing plan (after reconciling with its owner); needs --expected.")
    ),
    expected: Options.integer("expected").pipe(
      Options.withDescription("The revision last seen (with --replace-goal)."),
      Options.optional
    ),
    now: Opts.now
  },
  (o) => Effect.flatMap(Effect.promise(load), (m) => m.start(o))
).pipe(
  Command.withDescription(
    "Create the plan in plan.md (text around the marked section is kept byte for byte). Input file fields: goal (string, non-empty, required); limits (array of strings, required); nextAction (string, required). Same goal again: no change. Another goal: GoalConflict, unless --replace-goal --expected <revision>."
  )
)

const checkpoint = Command.make(
  "checkpoint",
  {
    workdir: Opts.workdir,
    json: Opts.json,
    input: Opts.input,
    expected: Options.integer("expected").pipe(Options.withDescription("The current revision of the plan (compare-and-set).")),
    now: Opts.now
  },
  (o) => Effect.flatMap(Effect.promise(load), (m) => m.checkpoint(o))
).pipe(
  Command.withDescription(
    "Record progress. Input file fields (all optional): completedSteps [{summary (string), id? (stable id; a recorded id is skipped)}]; sources [{path (under research/sources/), origin (string)}]; outputs [{path (under research/results/), dependsOn (array of registered source/output paths)}]; unresolved [{id, text}] (replaces the list); status (in_progress | blocked | complete); nextAction (string). Limits: 32 sources, 32 outputs, 64 steps, 16 MiB per file."
  )
)

export const planCommand = Command.make("plan").pipe(
  Command.withDescription("The work folder's plan in plan.md: start, checkpoint, inspect."),
  Command.withSubcommands([start, checkpoint, inspect])
)
