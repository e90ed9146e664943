/**
 * How a grant's figures and state read to a person: `grant show`, `grant list` and the report of
 * `exec` (what is left of the grant after the run) say them alike.
 */
import type { GrantStatus } from "../services/Grants.js"

/** Budget figures on one line (`runs 19, wallSeconds 3590, …`), in the record's order. */
export const figures = (f: Readonly<Record<string, number | undefined>>) =>
  Object.entries(f).flatMap(([k, v]) => v === undefined ? [] : [`${k} ${v}`]).join(", ")

/** Why a grant that is not active runs nothing, where its own events do not say. */
export const stateLine = (s: GrantStatus): ReadonlyArray<string> => {
  if (s.state === "revoked" && !s.events.some((e) => e.type === "revoked")) {
    return [`  revoked through an ancestor: ${s.chain.slice(1).join(", ")}`]
  }
  if (s.state === "exhausted") {
    const none = Object.entries(s.remaining).filter(([k, v]) => k !== "memoryMiB" && v <= 0).map(([k]) => k)
    return [`  exhausted: no ${none.join(", ")} left; nothing runs under it`]
  }
  return []
}
