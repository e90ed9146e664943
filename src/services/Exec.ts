/**
 * Exec: run one program confined to a grant and keep the evidence
 * (`.dossier/executions/<id>.json`, its stdout and stderr), optionally linking it to a
 * candidate of a study's journal; show a recorded execution, re-verified.
 *
 * Layer: `ExecLive` (src/layers/ExecLive.ts), requiring Workdir | ExecutionStore | GrantStore |
 * ExecFiles | Lock | WorkTree | EvidenceKey | Grants | Sandbox | Journal; `ExecFolder`
 * (src/layers/ExecLayer.ts) provides the folder adapters of the stores and ExecFiles.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { DossierError } from "../domain/AllErrors.js"
import type { Verdict } from "../domain/Evidence.js"
import type { ExecutionRecord, VerifyFindingReason } from "../domain/Execution.js"

/** Options of `Exec.run`, every field optional (the convention: src/domain/Options.ts). */
export interface ExecOptions {
  /** The candidate the run belongs to (recorded; with `study`, linked in its journal). */
  readonly candidateId?: string | undefined
  /** Append `execution_linked` and `artifact_linked` for `candidateId` to this study's journal. */
  readonly study?: string | undefined
  /** Copy the program's output to the terminal as well (default false). */
  readonly echo?: boolean | undefined
  /**
   * The time to record and to judge the grant by; default: Effect's Clock, read at admission, by
   * the watchdog and at the end (a `now` given stands for all three).
   */
  readonly now?: Date | undefined
}

/** Options of `Exec.show`. */
export interface ExecShowOptions {
  /** Re-hash the logs and outputs and check the record's signature. */
  readonly verify?: boolean | undefined
  readonly now?: Date | undefined
}

export interface OutputFinding {
  readonly kind: "output-missing" | "output-changed" | "log-changed"
  readonly path: string
  readonly expected: { readonly sha256: string; readonly bytes: number }
  /** What the file holds now; null when it is not a regular file that can be read (see `reason`). */
  readonly actual: { readonly sha256: string; readonly bytes: number } | null
  /** Why it does not verify: its content changed, it is missing, or why it could not be read (`symlink`, `not-regular-file`…). */
  readonly reason: VerifyFindingReason
}

/** How the record itself stands (`exec show --verify`): anything but `signed` is a finding. */
export interface RecordFinding {
  readonly kind: "execution-tampered" | "execution-unsigned" | "execution-unverifiable"
  readonly path: string
  readonly detail: string
}

export interface ExecShape {
  readonly run: (grantId: string, argv: ReadonlyArray<string>, options?: ExecOptions) => Effect.Effect<{
    readonly execution: ExecutionRecord
    readonly linked: {
      readonly study: string
      readonly appended: ReadonlyArray<string>
      readonly skipped: ReadonlyArray<string>
    } | null
  }, DossierError>
  readonly show: (id: string, options?: ExecShowOptions) => Effect.Effect<{
    readonly execution: ExecutionRecord
    /** Is the record the one dossier signed? `signed`, `unsigned` (legacy, or its signature removed), `unverifiable` (another key, or none here), `tampered` (only with --verify: without it a tampered record is refused). */
    readonly authentication: Verdict
    readonly verify?: {
      readonly checked: number
      readonly findings: ReadonlyArray<RecordFinding | OutputFinding>
      readonly note: string
    }
  }, DossierError>
}

export class Exec extends Context.Tag("dossier/Exec")<Exec, ExecShape>() {}
