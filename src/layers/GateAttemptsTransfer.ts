/**
 * Copying the gate's attempts logs between a work folder and a shared dossier, beside
 * StoreTransfer (src/layers/StoreTransfer.ts): what `init --store` imports, `pull` and a bound
 * folder's refresh bring, and `export` writes. A log is append-only, so a destination that holds
 * the start of the source's log gets the lines it lacks, in order; one that holds the same gets
 * nothing; one that holds other lines is left as it is and named (`kept`), never overwritten.
 * A log at a path the gate would refuse to write (`--attempts` naming dossier's state, `plan.md`,
 * a retained capture, a journal's files; or no path of the folder at all), which only a row
 * written behind dossier's back can hold, is skipped and named (`skipped`), never copied.
 * The caller runs it under the destination's lock.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { ownerOf } from "../domain/Ownership.js"
import { normalizeRelative } from "../domain/Paths.js"
import { DEFAULT_ATTEMPTS_LOG, MAX_GATE_FILE_BYTES } from "../services/Gate.js"
import type { GateAttemptsShape } from "../services/ports/GateAttempts.js"

export interface AttemptsCopied {
  /** Lines appended, over every log. */
  readonly lines: number
  /** Logs whose destination holds other lines (left as they are). */
  readonly kept: ReadonlyArray<string>
  /** Logs at a path the gate never writes a log at (see above): not copied. */
  readonly skipped: ReadonlyArray<string>
}

/**
 * Whether the gate may keep an attempts log at `path`: its default log, or a normalized path of
 * the folder that nothing else owns (the check of the gate's `--attempts`, src/layers/GateLive.ts).
 */
export const attemptsLogPathAllowed = (path: string): boolean => {
  if (path === DEFAULT_ATTEMPTS_LOG) return true
  const normal = normalizeRelative(path)
  return Either.isRight(normal) && normal.right === path && ownerOf(path, new Set()) === null
}

/** The lines of a log's text, each with its newline (a torn last line is not a line). */
const linesOf = (text: string): ReadonlyArray<string> => {
  const end = text.lastIndexOf("\n")
  return end < 0 ? [] : text.slice(0, end + 1).split(/(?<=\n)/)
}

export const copyAttempts = (from: GateAttemptsShape, to: GateAttemptsShape) =>
  Effect.gen(function*() {
    let lines = 0
    const kept: Array<string> = []
    const skipped: Array<string> = []
    for (const path of yield* from.paths) {
      if (!attemptsLogPathAllowed(path)) {
        skipped.push(path)
        continue
      }
      const source = linesOf(yield* from.read(path, MAX_GATE_FILE_BYTES))
      const dest = linesOf(yield* to.read(path, MAX_GATE_FILE_BYTES))
      if (dest.length > source.length || dest.some((l, i) => l !== source[i])) {
        kept.push(path)
        continue
      }
      for (const line of source.slice(dest.length)) yield* to.append(path, line)
      lines += source.length - dest.length
    }
    return { lines, kept, skipped } satisfies AttemptsCopied
  })
