/**
 * The end of a worker process (support/pg*Worker.ts): run its program, print `{ok, value}` or
 * `{ok: false, tag, error}` (a defect: `tag: "Defect"`, exit 1) as its last line, and exit.
 */
import * as Effect from "effect/Effect"
import type * as ManagedRuntime from "effect/ManagedRuntime"

export const answerAndExit = <A, E, R>(
  runtime: ManagedRuntime.ManagedRuntime<R, unknown>,
  program: Effect.Effect<A, E, R>
): void => {
  runtime
    .runPromise(Effect.either(program))
    .then(async (r) => {
      const answer = r._tag === "Right"
        ? { ok: true, value: r.right }
        : { ok: false, tag: (r.left as { _tag: string })._tag, error: r.left }
      process.stdout.write(`${JSON.stringify(answer)}\n`)
      await runtime.dispose()
      process.exit(0)
    })
    .catch((e) => {
      process.stdout.write(`${JSON.stringify({ ok: false, tag: "Defect", detail: String(e) })}\n`)
      process.exit(1)
    })
}
