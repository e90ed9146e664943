/** `dossier plan start|checkpoint|inspect`, declared as data (see src/commands/Spec.ts). */
import { command, type CommandSpec, input, json, now, workdir } from "./Spec.js"

const load = () => import("./plan.impl.js")

export const planGroup = { name: "plan", description: "The work folder's plan in plan.md: start, checkpoint, inspect." }

export const planSpecs: ReadonlyArray<CommandSpec> = [
  command({
    path: ["plan", "start"],
    inputSchema: "plan-start",
    description:
      "Create the plan in plan.md (text around the marked section is kept byte for byte). Input file fields: goal (string, non-empty, required); limits (array of strings, required); nextAction (string, required); expectedRevision (only with --replace-goal, instead of --expected). Same goal again: no change (created: false). Another goal: GoalConflict, unless --replace-goal --expected <revision> after reconciling with the plan's owner. With no plan, --replace-goal --expected <revision> is StaleRevision (actual 0) and creates nothing.",
    flags: {
      workdir,
      json,
      input,
      replaceGoal: {
        kind: "boolean",
        name: "replace-goal",
        description: "Replace the goal of an existing plan (after reconciling with its owner); needs --expected."
      },
      expected: {
        kind: "integer",
        name: "expected",
        description: "The revision last seen (only with --replace-goal); or expectedRevision in the input file.",
        optional: true,
        min: 1
      },
      now
    },
    run: (v) => load().then((m) => m.start(v))
  }),
  command({
    path: ["plan", "checkpoint"],
    inputSchema: "plan-checkpoint",
    description:
      "Record progress. Input file fields (all optional): completedSteps [{summary (string), id? (stable id; a recorded id is skipped)}]; sources [{path (under research/sources/), origin (the absolute http(s) URL it came from, without user or password: InvalidUrl, UnsupportedScheme, CredentialsInUrl; recorded once: another origin for a registered path is InvalidInput)}]; outputs [{path (under research/results/), dependsOn (array of registered source/output paths; an unregistered one is UnregisteredDependency, judged before any file is read)}]; unresolved [{id, text}] (replaces the list); status (in_progress | blocked | complete); nextAction (string); expectedRevision (the plan's current revision, instead of --expected). Limits: 32 sources, 32 outputs, 64 steps, 16 MiB per file.",
    flags: {
      workdir,
      json,
      input,
      expected: {
        kind: "integer",
        name: "expected",
        description:
          "The current revision of the plan (compare-and-set); or expectedRevision in the input file (both: they must agree).",
        optional: true,
        min: 1
      },
      now
    },
    run: (v) => load().then((m) => m.checkpoint(v))
  }),
  command({
    path: ["plan", "inspect"],
    description:
      "Show the plan: goal, limits, status, next action, progress, completed steps, sources, outputs, unresolved items, verification findings (source-missing, source-changed, output-missing, output-changed, stale-dependency) and what completion lacks. Never writes.",
    flags: { workdir, json },
    run: (v) => load().then((m) => m.inspect(v))
  })
]
