/**
 * Sandbox: runs one program confined (bubblewrap on Linux) and reports how it ended. It never
 * falls back to an unconfined run: when confinement is not possible here, `SandboxUnavailable`.
 * While the program runs, `check` is called at least once a second with what the run used so
 * far; when it names a reason the whole process tree is ended (SIGTERM, then SIGKILL after 2 s).
 * The wall-time limit and the CPU limit (the CPU time of the whole tree, not of one process) are
 * enforced the same way. Each root is opened and checked against the grant's identity before the
 * sandbox mounts it from that open directory (`RootIdentityChanged` when it is no longer the one).
 *
 * Layer: `SandboxBwrap` (src/layers/SandboxBwrap.ts).
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { RootIdentityChanged, SandboxUnavailable } from "../domain/ExecErrors.js"
import type { KillReason, LeftProcesses, RunStop, SandboxPlan } from "../domain/Execution.js"

export interface Captured {
  /** The retained bytes (at most `MAX_LOG_BYTES`). */
  readonly bytes: Buffer
  /** Every byte the program wrote, retained or not. */
  readonly total: number
}

export interface SandboxOutcome {
  readonly exitCode: number | null
  readonly signal: string | null
  /** Ended by the watchdog. */
  readonly killed: { readonly reason: KillReason; readonly detail: string } | null
  /** Ended on request (`options.stop`). */
  readonly stopped: RunStop | null
  /**
   * The wrapper between dossier and the sandbox ended while the program ran without reporting how
   * it ended (killed outright, or told to stop by someone else), and dossier did not end the run:
   * `detail` says how, `left` what was still running of the run and was killed. The program's exit
   * status and the tree's CPU time are then unknown (`exitCode`, `signal` and `cpuSeconds` null).
   * Absent or null: it did not (a Sandbox other than `SandboxBwrap` need not say).
   */
  readonly wrapperEnded?: { readonly detail: string; readonly left: LeftProcesses } | null
  /**
   * How memory was limited: `run` (one memory cgroup for the whole run, its peak and how many of
   * its processes the kernel ended at the limit) or `process` (RLIMIT_AS per process only).
   */
  readonly memory: {
    readonly enforcement: "run" | "process"
    readonly peakKiB: number | null
    readonly oomKills: number
  }
  readonly cpuSeconds: number | null
  readonly maxRssKiB: number | null
  readonly wallMs: number
  readonly stdout: Captured
  readonly stderr: Captured
}

/** What a running program used so far. */
export interface RunUsage {
  readonly wallSeconds: number
  /** Of every process of the sandbox, those still running and those already reaped. */
  readonly cpuSeconds: number
}

export type SandboxRequest = Omit<SandboxPlan, "system" | "etc" | "prlimit" | "env" | "sources" | "closer">

export interface SandboxShape {
  /** Can a confined run start here? (cached per layer) */
  readonly probe: Effect.Effect<void, SandboxUnavailable>
  readonly run: (
    request: SandboxRequest,
    options: {
      /** Also copy the program's output to this process's stdout/stderr. */
      readonly echo: boolean
      /** Called at least once a second while the program runs, with what it used so far; a reason ends it. */
      readonly check: (used: RunUsage) => Effect.Effect<{ readonly reason: KillReason; readonly detail: string } | null>
      /** Completes when the run must end early (cancelled or interrupted); the answer still comes when the program is gone. */
      readonly stop?: Effect.Effect<RunStop>
    }
  ) => Effect.Effect<SandboxOutcome, SandboxUnavailable | RootIdentityChanged>
}

export class Sandbox extends Context.Tag("dossier/Sandbox")<Sandbox, SandboxShape>() {}
