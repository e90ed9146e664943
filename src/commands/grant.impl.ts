/** Handlers of `dossier grant …`: read the input, call the Grants service; the CLI renders the work. */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { GrantEvent } from "../domain/Grant.js"
import { GrantsLayer } from "../layers/GrantsLayer.js"
import { Grants, type GrantShown, type GrantStatus } from "../services/Grants.js"
import { type InputRef, readInput } from "../services/InputFile.js"
import { figures, stateLine } from "./grantText.js"
import { work } from "./Work.js"

interface Common {
  readonly workdir: string
  readonly now: Option.Option<Date>
}

/** The options of every Grants call: `--now`, else the clock. */
const nowOf = (o: Common) => ({ now: Option.getOrUndefined(o.now) })

/** A person's text (a reason) on its one line, quoted: a newline in it cannot pass for dossier's next line. */
const quoted = (text: string | null) => text === null ? "" : ` (${JSON.stringify(text)})`

/** An event of the grant as one line: when, what changed, why. */
const eventLine = (e: GrantEvent) =>
  e.type === "revoked"
    ? `  revoked at ${e.at}${quoted(e.reason)}`
    : `  narrowed at ${e.at}: ${
      [
        ...(e.deadline === null ? [] : [`deadline ${e.deadline}`]),
        ...(Object.keys(e.budget).length > 0 ? [figures(e.budget)] : [])
      ]
        .join(", ")
    }${quoted(e.reason)}`

const humanStatus = (s: GrantStatus & Partial<Pick<GrantShown, "unreadableExecutions">>) =>
  [
    `Grant ${s.grant.id} (${s.state}) for task ${s.grant.task}${
      s.grant.parent === null ? "" : `, child of ${s.grant.parent}`
    }; deadline ${s.deadline}.`,
    `  inputs (read-only): ${
      s.grant.inputs.map((i) => i.path).join(", ") || "none"
    }; work: ${s.grant.work.path}; tools: ${s.grant.tools.join(", ") || "none"}`,
    `  budget: ${figures(s.budget)}`,
    ...(s.unreadableExecutions === undefined || s.unreadableExecutions.length === 0
      ? [`  left: ${figures(s.remaining)}`]
      : [
        `  left: not known: execution record(s) ${
          s.unreadableExecutions.join(", ")
        } cannot be read (ExecutionDigestMismatch), so their runs are charged to no grant; exec refuses until each is restored or removed.`,
        `  left without those runs: ${figures(s.remaining)}`
      ]),
    ...stateLine(s),
    ...s.events.map(eventLine),
    ...(s.children.length > 0 ? [`  children: ${s.children.join(", ")}`] : [])
  ].join("\n")

export const create = (o: Common & { readonly input: InputRef }) =>
  work({
    effect: Effect.gen(function*() {
      const g = yield* Grants
      const input = yield* readInput(Schema.Unknown, o.input)
      return yield* g.create(input, nowOf(o))
    }),
    layer: GrantsLayer(o.workdir),
    human: (r) =>
      `${
        r.created ? "Created" : "Already stored, unchanged:"
      } grant ${r.grant.id} (${r.grant.state}), digest ${r.grant.digest}.`
  })

export const show = (o: Common & { readonly grant: string }) =>
  work({
    effect: Effect.gen(function*() {
      return yield* (yield* Grants).show(o.grant, nowOf(o))
    }),
    layer: GrantsLayer(o.workdir),
    human: humanStatus
  })

export const list = (o: Common) =>
  work({
    effect: Effect.gen(function*() {
      return yield* (yield* Grants).list(nowOf(o))
    }),
    layer: GrantsLayer(o.workdir),
    human: (r) =>
      [
        `${r.grants.length} grant(s).`,
        ...r.grants.map((x) => `  - ${x.id} (${x.state}) task ${x.task}; left: ${figures(x.remaining)}`),
        ...r.damaged.map((d) => `  ! ${d.id}: ${d.error}`),
        ...r.unreadableExecutions.map((x) =>
          `  ! execution ${x}: ExecutionDigestMismatch (its run is charged to no grant; exec refuses until it is restored)`
        )
      ].join("\n")
  })

export const revoke = (o: Common & { readonly grant: string; readonly reason: Option.Option<string> }) =>
  work({
    effect: Effect.gen(function*() {
      const r = yield* (yield* Grants).revoke(o.grant, { ...nowOf(o), reason: Option.getOrUndefined(o.reason) })
      // The grant's status as grant show answers it (grant, state, deadline...), not nested once more.
      return { ...r.grant, appended: r.appended, revoked: r.revoked }
    }),
    layer: GrantsLayer(o.workdir),
    human: (
      r
    ) => (r.revoked.length === 0
      ? `Grant ${r.grant.id} was already revoked.`
      : `Revoked ${r.revoked.join(", ")}.`)
  })

export const narrow = (o: Common & { readonly grant: string; readonly input: InputRef }) =>
  work({
    effect: Effect.gen(function*() {
      const g = yield* Grants
      const input = yield* readInput(Schema.Unknown, o.input)
      return yield* g.narrow(o.grant, input, nowOf(o))
    }),
    layer: GrantsLayer(o.workdir),
    human: humanStatus
  })
