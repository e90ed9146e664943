import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { clipped } from "../domain/Clip.js"
import type { Candidate, SourceReason } from "../domain/Gate.js"
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

/** What each reason a cited source did not verify means, and what a person can do about it. */
const SOURCE_REASONS: Record<SourceReason, string> = {
  "quote-not-found":
    "the text a reader sees there does not hold it; matching is exact but for NFC and whitespace, so quote the passage verbatim",
  "quote-too-short": "under 20 characters; quote a longer passage",
  "source-changed":
    "the file's bytes no longer have the digest the plan registered (edited since); cite an unchanged capture",
  "source-missing": "the registered file is gone; restore it or capture the page again",
  "source-unreadable":
    "a link, a hard-linked file, not a regular file or over 16 MiB, which dossier does not read; put the registered file itself there",
  "source-unknown":
    "no such text: an unregistered file, a descriptor: ref without --descriptor, a dropped or deleted comment, or a ref context.json does not list"
}

/** A quote as a report shows it: on one line, clipped, in double quotes. */
const shownQuote = (quote: string) => JSON.stringify(clipped(quote.replace(/\s+/g, " ").trim(), 120))

/** One line per cited source that did not verify: which gap, which source, which quote, why. */
const failedQuotes = (candidates: ReadonlyArray<Candidate>): ReadonlyArray<string> =>
  candidates.flatMap((c) =>
    c.sources.filter((s) => !s.verified).map((s) =>
      `    - ${c.id}: ${s.ref} ${shownQuote(s.quote)}: ${s.reason ?? "not verified"}${
        s.reason === undefined ? "" : ` — ${SOURCE_REASONS[s.reason]}`
      }`
    )
  )

const nextStep = (r: GateRunResult & { readonly active: true }): string => {
  if (r.decision === "ask") {
    return "  next: the run stays parked for a person; pendingQuestion in the state lists what is open and the candidates."
  }
  return r.kind === "maturity"
    ? "  next: resume the run at its maturity step; it fetches the item again and runs dossier gate --recheck."
    : "  next: resume the run; the closed questions' answers are in research.resolved."
}

const humanRun = (r: GateRunResult): string => {
  if (!r.active) return "gate inactive (attended run: neither DOSSIER_UNATTENDED=1 nor autopilot): nothing done."
  const c = r.research.candidates.map((x) => `${x.id} (${x.reason})`)
  const failed = failedQuotes(r.research.candidates)
  return [
    `gate ${r.kind}: ${r.decision} (${r.reason}), round ${r.research.round}`,
    `  closed: ${list(r.research.closed)}`,
    `  candidates: ${list(c)}`,
    ...(failed.length === 0 ? [] : ["  sources that did not verify:", ...failed]),
    `  still open: ${list(r.research.open)}`,
    `  ignored: ${list(r.research.ignored)}`,
    ...(r.comments === undefined || (r.comments.truncated.length === 0 && r.comments.dropped === 0)
      ? []
      : [
        `  descriptor comments: ${r.comments.used} of ${r.comments.total} used; cut: ${
          list(r.comments.truncated)
        }; dropped: ${r.comments.dropped}`
      ]),
    nextStep(r),
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
