/**
 * GateAttempts: where the gate keeps its attempts log — one JSON line per gate run recorded with
 * `--record-attempt` (`{item, at, researchRounds, decision}`), from which the research rounds an
 * item has used are counted (`maxAskRounds`). The gate's logic (src/layers/GateLive.ts) reads and
 * appends it through this port only, so that in a shared dossier the rounds are counted over every
 * host's attempts, not this host's alone.
 *
 * Contract (every adapter):
 * - `read(path, maxBytes)`: the log at `path` (a work-folder path, normalized) as text, every line
 *   with its newline; `""` when there is none. Longer than `maxBytes`: `LimitExceeded`.
 * - `append(path, line)`: adds one whole line (it ends with `\n`) after the ones there. It runs
 *   inside the caller's `Lock.withLock` (one SQL transaction), so two hosts never interleave.
 * - `paths`: every path holding a log (what a copy of the dossier must carry).
 * - Errors are tagged domain errors only; a shared store adds `StoreUnavailable` and `LockTimeout`.
 *
 * Adapters: `GateAttemptsFolder` (the file at `path`, appended with one fsync: exactly the bytes
 * the gate wrote before this port) and `GateAttemptsPostgres` (src/layers/postgres/: the events of
 * log `gate-attempts`, one stream per path, one event per line, in order).
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { IoError, LimitExceeded, LockTimeout, UnsafePath } from "../../domain/Errors.js"
import type { StoreUnavailable } from "../../domain/StoreErrors.js"

export type GateAttemptsError = IoError | UnsafePath | LimitExceeded | StoreUnavailable | LockTimeout

export interface GateAttemptsShape {
  readonly read: (path: string, maxBytes: number) => Effect.Effect<string, GateAttemptsError>
  readonly append: (path: string, line: string) => Effect.Effect<void, GateAttemptsError>
  readonly paths: Effect.Effect<ReadonlyArray<string>, GateAttemptsError>
}

export class GateAttempts extends Context.Tag("dossier/GateAttempts")<GateAttempts, GateAttemptsShape>() {}
