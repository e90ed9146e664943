import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { GateLayer } from "../layers/GateLayer.js"
import {
  DEFAULT_ATTEMPTS_LOG,
  DEFAULT_MAX_ASK_ROUNDS,
  DEFAULT_RESEARCH_DIR,
  Gate,
  type GateRecheckResult,
  type GateRunResult
} from "../services/Gate.js"
import { relativeToWorkdir } from "../services/InputFile.js"
import { usageError, work } from "./Work.js"

export interface GateOptions {
  readonly workdir: string
  readonly state: string
  readonly researchDir: Option.Option<string>
  readonly descriptor: Option.Option<string>
  readonly attempts: Option.Option<string>
  readonly recordAttempt: boolean
  readonly maxAskRounds: Option.Option<number>
  readonly recheck: boolean
  readonly now: Option.Option<Date>
}

/** A path given on the command line (relative to the current directory) → relative to the work folder. */
const given = (value: Option.Option<string>, fallback: string, flag: string) =>
  Option.match(value, { onNone: () => Effect.succeed(fallback), onSome: (v) => relativeToWorkdir(v, flag) })

const list = (xs: ReadonlyArray<string>) => (xs.length === 0 ? "none" : xs.join(", "))

const humanRun = (r: GateRunResult): string => {
  if (!r.active) return "gate inactive (attended run: neither DOSSIER_UNATTENDED=1 nor autopilot): nothing done."
  const c = r.research.candidates.map((x) =>
    `${x.id} (${x.reason}${x.sources.filter((s) => !s.verified).map((s) => `; ${s.ref}: ${s.reason}`).join("")})`
  )
  return [
    `gate ${r.kind}: ${r.decision} (${r.reason}), round ${r.research.round}`,
    `  closed: ${list(r.research.closed)}`,
    `  candidates: ${list(c)}`,
    `  still open: ${list(r.research.open)}`,
    `  ignored: ${list(r.research.ignored)}`,
    ...(r.comments === undefined || (r.comments.truncated.length === 0 && r.comments.dropped === 0)
      ? []
      : [
        `  descriptor comments: ${r.comments.used} of ${r.comments.total} used; cut: ${
          list(r.comments.truncated)
        }; dropped: ${r.comments.dropped}`
      ]),
    `  ${r.note}`
  ].join("\n")
}

const humanRecheck = (r: GateRecheckResult): string =>
  [`recheck: no blocker remains; ${r.findings.length} verified finding(s). Working description:`, "", r.description]
    .join("\n")

/** The flags of a gate run that a recheck (which reads the folder the state records and writes nothing) does not take. */
const runOnly = (o: GateOptions): ReadonlyArray<string> => [
  ...(Option.isSome(o.researchDir) ? ["--research-dir"] : []),
  ...(Option.isSome(o.attempts) ? ["--attempts"] : []),
  ...(o.recordAttempt ? ["--record-attempt"] : []),
  ...(Option.isSome(o.maxAskRounds) ? ["--max-ask-rounds"] : [])
]

export const gate = (o: GateOptions) => {
  if (o.recheck && Option.isNone(o.descriptor)) return usageError("--recheck needs --descriptor <path>")
  const ignored = o.recheck ? runOnly(o) : []
  if (ignored.length > 0) {
    return usageError(
      `--recheck takes --state, --descriptor and --now: it reads the research folder the state records and writes nothing, so ${
        ignored.join(", ")
      } would be ignored`
    )
  }
  const now = Option.getOrUndefined(o.now)
  if (o.recheck) {
    return work({
      effect: Effect.gen(function*() {
        const gate = yield* Gate
        const state = yield* relativeToWorkdir(o.state, "--state")
        const descriptor = yield* relativeToWorkdir(Option.getOrThrow(o.descriptor), "--descriptor")
        return yield* gate.recheck(state, descriptor, { now })
      }),
      layer: GateLayer(o.workdir),
      human: humanRecheck
    })
  }
  return work({
    effect: Effect.gen(function*() {
      const gate = yield* Gate
      const state = yield* relativeToWorkdir(o.state, "--state")
      const researchDir = yield* given(o.researchDir, DEFAULT_RESEARCH_DIR, "--research-dir")
      const attempts = yield* given(o.attempts, DEFAULT_ATTEMPTS_LOG, "--attempts")
      const descriptor = Option.isSome(o.descriptor)
        ? yield* relativeToWorkdir(o.descriptor.value, "--descriptor")
        : undefined
      return yield* gate.run(state, {
        researchDir,
        descriptor,
        attempts,
        recordAttempt: o.recordAttempt,
        maxAskRounds: Option.getOrElse(o.maxAskRounds, () => DEFAULT_MAX_ASK_ROUNDS),
        unattended: process.env["DOSSIER_UNATTENDED"] === "1",
        now
      })
    }),
    layer: GateLayer(o.workdir),
    human: humanRun
  })
}
