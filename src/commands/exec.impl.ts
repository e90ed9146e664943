/** Handlers of `dossier exec` and `dossier exec show`. */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { ExecutionRecord } from "../domain/Execution.js"
import { ExecLayer } from "../layers/ExecLayer.js"
import { Exec } from "../services/Exec.js"
import { usageError, work } from "./Work.js"

const humanRecord = (r: ExecutionRecord) =>
  [
    `Execution ${r.id} under grant ${r.grantId}: ${r.status}${r.exitCode !== null ? `, exit code ${r.exitCode}` : ""}${
      r.signal !== null ? `, ${r.signal}` : ""
    }${r.reason !== null ? ` (${r.reason}: ${r.detail})` : ""}.`,
    `  wall ${r.wallSeconds} s, CPU ${r.cpuSeconds ?? "?"} s, max RSS ${
      r.maxRssKiB ?? "?"
    } KiB; stdout ${r.stdout.bytes} bytes, stderr ${r.stderr.bytes} bytes (${r.stdout.path}).`,
    `  ${r.outputs.length} output(s)${r.outputs.length > 0 ? ": " + r.outputs.map((o) => o.path).join(", ") : ""}`,
    // What the record could not hold, or what happened to the run (a memory limit, cleared bits).
    ...(r.findings ?? []).map((f) => `  finding ${f.kind}: ${f.detail}`)
  ].join("\n")

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
      effect: Effect.flatMap(Exec, (x) =>
        x.run(Option.getOrThrow(o.grant), o.program, {
          candidateId: Option.getOrUndefined(o.candidate),
          study: Option.getOrUndefined(o.study),
          // The program's output is echoed only to a person (never with --json, nor to MCP, where stdout is the protocol).
          echo: !o.json
        })),
      layer: ExecLayer(o.workdir),
      human: (r) =>
        humanRecord(r.execution) +
        (r.linked === null
          ? ""
          : `\n  linked in study ${r.linked.study}: ${r.linked.appended.length} event(s) appended, ${r.linked.skipped.length} already there.`)
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
        r.verify.findings.map((f) => `\n  - ${f.kind}: ${f.path}`).join(""))
  })
