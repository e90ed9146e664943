/**
 * Copying the gate's attempts logs between a work folder and a shared dossier, beside
 * StoreTransfer (src/layers/StoreTransfer.ts): what `init --store` imports, `pull` and a bound
 * folder's refresh bring, and `export` writes. A log is append-only, so a destination that holds
 * the start of the source's log gets the lines it lacks, in order; one that holds the same gets
 * nothing; one that holds other lines is left as it is and named (`kept`), never overwritten.
 * The caller runs it under the destination's lock.
 */
import * as Effect from "effect/Effect"
import { MAX_GATE_FILE_BYTES } from "../services/Gate.js"
import type { GateAttemptsShape } from "../services/ports/GateAttempts.js"

export interface AttemptsCopied {
  /** Lines appended, over every log. */
  readonly lines: number
  /** Logs whose destination holds other lines (left as they are). */
  readonly kept: ReadonlyArray<string>
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
    for (const path of yield* from.paths) {
      const source = linesOf(yield* from.read(path, MAX_GATE_FILE_BYTES))
      const dest = linesOf(yield* to.read(path, MAX_GATE_FILE_BYTES))
      if (dest.length > source.length || dest.some((l, i) => l !== source[i])) {
        kept.push(path)
        continue
      }
      for (const line of source.slice(dest.length)) yield* to.append(path, line)
      lines += source.length - dest.length
    }
    return { lines, kept } satisfies AttemptsCopied
  })
