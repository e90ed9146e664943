/** Handlers of `dossier grant …`: read the input, call the Grants service, render. */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { GrantsLayer } from "../../layers/ExecLayer.js"
import { Grants, type GrantStatus } from "../../services/Grants.js"
import { readInput } from "../../services/InputFile.js"
import { respond } from "../Render.js"

interface Common {
  readonly workdir: string
  readonly json: boolean
  readonly now: Option.Option<Date>
}

const nowOf = (o: Common) => Option.getOrElse(o.now, () => new Date())

const figures = (f: Record<string, number>) => Object.entries(f).map(([k, v]) => `${k} ${v}`).join(", ")

const humanStatus = (s: GrantStatus) =>
  [
    `Grant ${s.grant.id} (${s.state}) for task ${s.grant.task}${s.grant.parent === null ? "" : `, child of ${s.grant.parent}`}; deadline ${s.deadline}.`,
    `  inputs (read-only): ${s.grant.inputs.map((i) => i.path).join(", ") || "none"}; work: ${s.grant.work.path}; tools: ${s.grant.tools.join(", ") || "none"}`,
    `  left: ${figures(s.remaining)}`,
    ...(s.children.length > 0 ? [`  children: ${s.children.join(", ")}`] : [])
  ].join("\n")

const withGrants = <A extends object>(o: Common, body: (g: Effect.Effect.Success<typeof Grants>) => Effect.Effect<A, any, any>, human: (a: A) => string) =>
  respond(o.json, Effect.flatMap(Grants, body).pipe(Effect.provide(GrantsLayer(o.workdir))) as Effect.Effect<A, any>, human)

export const create = (o: Common & { readonly input: string }) =>
  withGrants(
    o,
    (g) => Effect.flatMap(readInput(Schema.Unknown, o.input), (input) => g.create(input, nowOf(o))),
    (r) => `${r.created ? "Created" : "Already stored, unchanged:"} grant ${r.grant.id} (${r.grant.state}), digest ${r.grant.digest}.`
  )

export const show = (o: Common & { readonly grant: string }) => withGrants(o, (g) => g.show(o.grant, nowOf(o)), humanStatus)

export const list = (o: Common) =>
  withGrants(o, (g) => g.list(nowOf(o)), (r) =>
    [
      `${r.grants.length} grant(s).`,
      ...r.grants.map((x) => `  - ${x.id} (${x.state}) task ${x.task}; left: ${figures(x.remaining)}`),
      ...r.damaged.map((d) => `  ! ${d.id}: ${d.error}`)
    ].join("\n"))

export const revoke = (o: Common & { readonly grant: string; readonly reason: Option.Option<string> }) =>
  withGrants(o, (g) => g.revoke(o.grant, Option.getOrNull(o.reason), nowOf(o)), (r) =>
    r.revoked.length === 0 ? `Grant ${r.grant.grant.id} was already revoked.` : `Revoked ${r.revoked.join(", ")}.`)

export const narrow = (o: Common & { readonly grant: string; readonly input: string }) =>
  withGrants(o, (g) => Effect.flatMap(readInput(Schema.Unknown, o.input), (input) => g.narrow(o.grant, input, nowOf(o))), humanStatus)
