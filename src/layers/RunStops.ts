/**
 * The confined runs in flight in this process, and what ends them when the process itself is
 * told to stop. Whatever interrupts a run — SIGINT, SIGTERM or SIGHUP to dossier, its standard
 * output closing, an MCP client going away — the run is not abandoned: it is asked to stop (its
 * sandbox is ended) and it is recorded with the real status, `interrupted`, before dossier goes.
 *
 * The signal handlers exist only while a run is in flight, so every other command keeps the
 * default behaviour (a signal ends it at once; its writes are atomic). A signal received during
 * a run leaves the exit code 128 + the signal's number once the run is recorded (`reraise`: the
 * signal is sent again instead, for a process with no answer to print, such as `dossier mcp`).
 */

import type { RunStop as Stop } from "../domain/Execution.js"

const SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const
type Handled = keyof typeof SIGNALS

const runs = new Set<(stop: Stop) => void>()
let signalled: Handled | null = null
let reraise = false
let exitCode: number | null = null
const listeners = new Map<Handled, () => void>()

/** After the runs are recorded, send a received signal again (the process has nothing left to answer). */
export const reraiseSignals = (on: boolean) => {
  reraise = on
}

/** Ask every run in flight to stop. */
export const stopAll = (stop: Stop) => {
  for (const r of [...runs]) r(stop)
}

/** How many runs are in flight in this process. */
export const inFlight = () => runs.size

/**
 * The exit code dossier leaves with after a run was interrupted by a signal (128 + its number) or
 * by its standard output closing (141, as for SIGPIPE); null when nothing interrupted a run.
 */
export const interruptedExitCode = () => exitCode

const onSignal = (sig: Handled) => () => {
  if (signalled === null) {
    signalled = sig
    exitCode = 128 + SIGNALS[sig]
  }
  stopAll({ status: "interrupted", detail: `dossier received ${sig} while the program ran` })
}

/**
 * dossier's standard output failed (a reader that went away: `dossier exec … | head -1`). With a
 * run in flight the run is ended and recorded before dossier leaves; returns whether one was.
 */
export const outputClosed = (code: string): boolean => {
  if (runs.size === 0) return false
  exitCode ??= 141
  stopAll({ status: "interrupted", detail: `dossier's standard output was closed (${code}) while the program ran` })
  return true
}

/** A run starts: `stop` is called (at most once that matters) when it must end. Returns its removal. */
export const registerRun = (stop: (s: Stop) => void): () => void => {
  if (runs.size === 0) {
    for (const sig of Object.keys(SIGNALS) as Array<Handled>) {
      const l = onSignal(sig)
      listeners.set(sig, l)
      process.on(sig, l)
    }
  }
  runs.add(stop)
  return () => {
    if (!runs.delete(stop) || runs.size > 0) return
    for (const [sig, l] of listeners) process.off(sig, l)
    listeners.clear()
    if (signalled !== null && reraise) process.kill(process.pid, signalled)
  }
}
