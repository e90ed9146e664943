/**
 * Ids: one rule, and the exceptions a stored format or the spec binds, each named with its
 * reason. Every id field's Schema, every id check of a service (`checkIdOf` in ./Options.ts),
 * every refusal's message and every `--help` line about an id is built from this module
 * (docs/cli.md, "Ids").
 *
 * The rule (`ID`): 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit. Grants
 * follow it, and so does every id added later.
 *
 * Exceptions:
 * - Study ids (`STUDY_ID`): the rule in lower case, and not `inputs`, `sources`, `results` or
 *   `gate` (spec journal.md). A study id is the folder `research/<study>`: lower case so that one
 *   name is one folder on a case-insensitive disk too, and not a folder `research/` already has.
 * - Subscription ids (`SUBSCRIPTION_ID`; outcome ids too): the rule without '.'. A run id is
 *   `<subscription>.w<k>` or `<subscription>.g<n>.w<k>` and the dot is its separator: a
 *   subscription `a.g2` would share its run ids with `a` after a change of grid.
 * - Event ids (`EVENT_ID`; candidate ids too): 1-128 letters, digits, '.', '_', ':' or '-'
 *   (spec journal.md): chosen by the writer, and the ids dossier derives for a retry-safe link
 *   (`exec:<execution>:…`) are longer than 64 and use ':'.
 * - Run ids (`RUN_ID`) and execution ids (`EXECUTION_ID`) are made by dossier, never chosen.
 */
// No imports: the command declarations (on every command's start-up path) quote these rules.

export const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/
export const ID_RULE = "1-64 of A-Z a-z 0-9 . _ -, first a letter or digit"

export const STUDY_ID = /^[a-z0-9][a-z0-9._-]{0,63}$/
export const RESERVED_STUDY_IDS: ReadonlyArray<string> = ["inputs", "sources", "results", "gate"]
export const STUDY_ID_RULE = "1-64 of a-z 0-9 . _ -, first a letter or digit; not inputs, sources, results or gate"

export const SUBSCRIPTION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/
export const SUBSCRIPTION_ID_RULE = "1-64 of A-Z a-z 0-9 _ - (no '.'), first a letter or digit"

export const EVENT_ID = /^[A-Za-z0-9._:-]{1,128}$/
export const EVENT_ID_RULE = "1-128 of A-Z a-z 0-9 . _ : -"

export const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}(\.g[1-9][0-9]{0,8})?\.w(0|[1-9][0-9]{0,9})$/
export const RUN_ID_RULE = "<subscription>.w<k> or <subscription>.g<n>.w<k> (e.g. lit.w3)"

export const EXECUTION_ID = /^x-[0-9]{8}T[0-9]{6}-[0-9a-f]{8}$/
export const EXECUTION_ID_RULE = "x-YYYYMMDDTHHMMSS-xxxxxxxx, as dossier made it"

export type IdKind = "grant" | "study" | "subscription" | "outcome" | "event" | "candidate" | "run" | "execution"

const grammar: Readonly<Record<IdKind, { readonly pattern: RegExp; readonly rule: string }>> = {
  grant: { pattern: ID, rule: ID_RULE },
  study: { pattern: STUDY_ID, rule: STUDY_ID_RULE },
  subscription: { pattern: SUBSCRIPTION_ID, rule: SUBSCRIPTION_ID_RULE },
  outcome: { pattern: SUBSCRIPTION_ID, rule: SUBSCRIPTION_ID_RULE },
  event: { pattern: EVENT_ID, rule: EVENT_ID_RULE },
  candidate: { pattern: EVENT_ID, rule: EVENT_ID_RULE },
  run: { pattern: RUN_ID, rule: RUN_ID_RULE },
  execution: { pattern: EXECUTION_ID, rule: EXECUTION_ID_RULE }
}

/** The grammar of one kind of id, as help pages and docs state it. */
export const idRule = (kind: IdKind): string => grammar[kind].rule

export const isStudyId = (s: string): boolean => STUDY_ID.test(s) && !RESERVED_STUDY_IDS.includes(s)

/** Is `value` an id of this kind? */
export const isIdOf = (kind: IdKind, value: unknown): value is string =>
  typeof value === "string" && grammar[kind].pattern.test(value) &&
  (kind !== "study" || !RESERVED_STUDY_IDS.includes(value))

const named = (kind: IdKind) => `${/^[aeiou]/.test(kind) ? "an" : "a"} ${kind} id`

/** Why `value` is not an id of this kind (one message for every command and service). */
export const idProblem = (kind: IdKind, value: unknown): string =>
  typeof value !== "string"
    ? `expected ${named(kind)} (a string): ${grammar[kind].rule}`
    : kind === "study" && RESERVED_STUDY_IDS.includes(value)
    ? `'${value}' is a reserved folder name (inputs, sources, results, gate), not a study id`
    : `'${value}' is not ${named(kind)}: ${grammar[kind].rule}`
