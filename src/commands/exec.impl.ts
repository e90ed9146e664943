/** Handlers of `dossier exec` and `dossier exec show`. */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type { DossierError } from "../domain/AllErrors.js"
import { executionPaths, type ExecutionRecord, type LogFile } from "../domain/Execution.js"
import { ExecLayer } from "../layers/ExecLayer.js"
import { Exec, type ExecShape } from "../services/Exec.js"
import { Grants, type GrantStatus } from "../services/Grants.js"
import { figures, stateLine } from "./grantText.js"
import { usageError, work } from "./Work.js"

/**
 * A name a run chose (an output's path), for the one line that lists it: as it is when it is
 * plain, else as a JSON string (`"research/runs/r1/a\nb"`), so that a newline, a tab, a
 * backslash, a quote or the list's own `, ` in a name can neither break the report into lines
 * that look like dossier's nor pass for two names. (The CLI then shows any other control
 * character as `\xNN`: src/cli/Render.ts, terminalSafe.)
 */
const shownName = (name: string): string =>
  /[\u0000-\u001f\u007f-\u009f\\"]|, /.test(name) ? JSON.stringify(name) : name

/** A sentence of dossier's that quotes such names (a finding's detail): its line breaks and tabs shown escaped. */
const oneLine = (text: string): string => text.replace(/[\n\r\t]/g, (c) => JSON.stringify(c).slice(1, -1))

/** A log's size, and whether it holds less than the run wrote. */
const logSize = (l: LogFile) => `${l.bytes} bytes${l.truncated ? " (truncated: the run wrote more)" : ""}`

const humanRecord = (r: ExecutionRecord) =>
  [
    `Execution ${r.id} under grant ${r.grantId}: ${r.status}${r.exitCode !== null ? `, exit code ${r.exitCode}` : ""}${
      r.signal !== null ? `, ${r.signal}` : ""
    }${r.reason !== null ? ` (${r.reason}: ${r.detail})` : r.detail !== null ? ` (${oneLine(r.detail)})` : ""}.`,
    // Whose evidence the run is: the candidate it was run for, and the study it was linked in.
    ...(r.candidateId === null ? [] : [
      `  for candidate ${shownName(r.candidateId)}${
        r.study === undefined ? "" : `, linked in study ${shownName(r.study)}'s journal`
      }`
    ]),
    `  wall ${r.wallSeconds} s, CPU ${r.cpuSeconds ?? "?"} s, max RSS ${r.maxRssKiB ?? "?"} KiB; stdout ${
      logSize(r.stdout)
    }, stderr ${logSize(r.stderr)}.`,
    // Every file of dossier's the run wrote, so that a person can open each.
    `  evidence: record ${shownName(executionPaths(r.id).record)}, stdout ${shownName(r.stdout.path)}, stderr ${
      shownName(r.stderr.path)
    }`,
    `  ${r.outputs.length} output(s)${
      r.outputs.length > 0 ? ": " + r.outputs.map((o) => shownName(o.path)).join(", ") : ""
    }`,
    // What the run left in the work root that is not evidence (a symlink, a FIFO): never followed nor read.
    ...(r.ignored.length === 0 ? [] : [
      `  ${r.ignored.length} entry(ies) not kept as outputs (not regular files, never followed or read): ${
        r.ignored.map((i) => `${shownName(i.path)} (${i.kind})`).join(", ")
      }`
    ]),
    // A lost run: what was left of its processes when it was recorded, and what was done.
    ...(r.leftProcesses === undefined
      ? []
      : [`  processes left: ${r.leftProcesses.outcome} (${r.leftProcesses.detail})`]),
    // What the record could not hold, or what happened to the run (a memory limit, cleared bits).
    ...(r.findings ?? []).map((f) => `  finding ${f.kind}: ${oneLine(f.detail)}`)
  ].join("\n")

type GrantLeft = Either.Either<GrantStatus, DossierError>
/** The answer of `exec`, and for a person the grant's status after the run. */
type Reported = Effect.Effect.Success<ReturnType<ExecShape["run"]>> & { readonly grantLeft?: GrantLeft }

/** What is left of the grant after a run, as `grant show` says it; or why it is not known. */
const grantLeftText = (id: string, left: GrantLeft): string =>
  Either.match(left, {
    onLeft: (e) => `  grant ${id}: what is left is not known (${e._tag}); see dossier grant show --grant ${id}`,
    onRight: (s) =>
      [`  grant ${id} (${s.state}), left after this run: ${figures(s.remaining)}`, ...stateLine(s)].join("\n")
  })

export const run = (o: {
  readonly workdir: string
  readonly json: boolean
  readonly grant: Option.Option<string>
  readonly candidate: Option.Option<string>
  readonly study: Option.Option<string>
  readonly program: ReadonlyArray<string>
}) =>
  Option.isNone(o.grant)
    ? usageError("Expected to find option: '--grant'")
    : o.program.length === 0
    ? usageError("Name the program to run after --: dossier exec --grant G -- prog args")
    : work({
      effect: Effect.gen(function*() {
        const r: Reported = yield* (yield* Exec).run(Option.getOrThrow(o.grant), o.program, {
          candidateId: Option.getOrUndefined(o.candidate),
          study: Option.getOrUndefined(o.study),
          // The program's output is echoed only to a person (never with --json, nor to MCP, where stdout is the protocol).
          echo: !o.json
        })
        // A person is told what is left of the grant after the run (as `grant show` says it); the
        // JSON answer (and MCP's) stays the execution, and `grant show` gives the budget.
        if (o.json) return r
        const grantLeft = yield* Effect.either(Effect.flatMap(Grants, (g) => g.status(r.execution.grantId)))
        return { ...r, grantLeft }
      }),
      layer: ExecLayer(o.workdir),
      human: ({ grantLeft, ...r }) =>
        humanRecord(r.execution) +
        (r.linked === null
          ? ""
          : `\n  linked in study ${r.linked.study}: ${r.linked.appended.length} event(s) appended, ${r.linked.skipped.length} already there.`) +
        (grantLeft === undefined ? "" : `\n${grantLeftText(r.execution.grantId, grantLeft)}`)
    })

export const show = (o: { readonly workdir: string; readonly execution: string; readonly verify: boolean }) =>
  work({
    effect: Effect.gen(function*() {
      return yield* (yield* Exec).show(o.execution, { verify: o.verify })
    }),
    layer: ExecLayer(o.workdir),
    human: (r) =>
      humanRecord(r.execution) + `\n  record: ${r.authentication.authenticity} (${r.authentication.detail})` +
      (r.verify === undefined ?
        "" :
        `\n  verified ${r.verify.checked} file(s): ${r.verify.findings.length} finding(s)` +
        r.verify.findings.map((f) => `\n  - ${f.kind}: ${shownName(f.path)}${"reason" in f ? ` (${f.reason})` : ""}`)
          .join(""))
  })
