/**
 * Where a command looked a record up, as a refusal says it: this work folder, or the shared
 * dossier a bound folder's records are read from (docs/store.md). The not-found refusals
 * (`StudyNotFound`, `GrantNotFound`, `ExecutionNotFound`, `SubscriptionNotFound`, `RunNotFound`,
 * `NoPlan`) carry the shared dossier's name in `dossier` when they come from one.
 */
export const placeOf = (dossier: string | undefined): string =>
  dossier === undefined ? "this work folder" : `the shared dossier '${dossier}'`

/**
 * The refusals that name where a record was looked up (`dossier`, set in a bound folder), and
 * `LockTimeout`, which names the shared dossier whose writer it waited for (not this folder's lock).
 */
export const PLACED_REFUSALS: ReadonlySet<string> = new Set([
  "LockTimeout",
  "StudyNotFound",
  "GrantNotFound",
  "ExecutionNotFound",
  "SubscriptionNotFound",
  "RunNotFound",
  "NoPlan"
])

/**
 * The refusal `error` as the shared dossier `dossier` answers it: a not-found refusal of the
 * `PLACED_REFUSALS` gets `dossier` (and says it in its message); any other error is as it was.
 */
export const placedIn = (dossier: string) => <E>(error: E): E => {
  if (typeof error !== "object" || error === null) return error
  const tag = (error as { readonly _tag?: unknown })._tag
  if (typeof tag !== "string" || !PLACED_REFUSALS.has(tag)) return error
  const fields: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(error)) if (k !== "_tag") fields[k] = v
  const Refusal = (error as object).constructor as new(fields: Record<string, unknown>) => E
  return new Refusal({ ...fields, dossier })
}
