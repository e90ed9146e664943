/**
 * The floor of any Effect program (bench/startup.ts): Effect's runtime runs one effect and the
 * answer is printed as JSON, nothing else. Built and started as a CLI bundle is
 * (scripts/build-floor.mjs, src/cli/CodeCache.ts).
 */
import * as Effect from "effect/Effect"

void Effect.runPromise(Effect.succeed({ ok: true, data: process.argv.length })).then((answer) => {
  process.stdout.write(`${JSON.stringify(answer)}\n`)
})
