/**
 * The floor of any Effect program that checks its input (bench/startup.ts): the runtime (as in
 * ./runtime.ts) and one `Schema.decodeUnknown` of a small struct read from the JSON file named by
 * the first argument. Built and started as a CLI bundle is (scripts/build-floor.mjs,
 * src/cli/CodeCache.ts). A file that does not decode fails the program (exit 1).
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as fs from "node:fs"

const Input = Schema.Struct({ a: Schema.String })

const program = Effect.sync(() => JSON.parse(fs.readFileSync(process.argv[2] ?? "", "utf8")) as unknown).pipe(
  Effect.flatMap(Schema.decodeUnknown(Input)),
  Effect.map((input) => ({ ok: true, data: input }))
)

Effect.runPromise(program).then(
  (answer) => process.stdout.write(`${JSON.stringify(answer)}\n`),
  (e: unknown) => {
    process.stderr.write(`${String(e)}\n`)
    process.exitCode = 1
  }
)
