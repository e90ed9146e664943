/**
 * A refusal on the command line names the options given where a service named its parameters
 * (src/cli/OptionNames.ts), and only those: an issue at a top-level key of the input file the
 * command read keeps its path, even where the key is spelled as an option given alongside it.
 * No command has both today: the case is built here, a command with `--study` and `--input`.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { inOptionNames } from "../../src/cli/OptionNames.js"
import { studyFlag } from "../../src/commands/journal.js"
import { type CommandSpec, input, json, workdir } from "../../src/commands/Spec.js"
import { InvalidInput } from "../../src/domain/Errors.js"
import { FileStoreMemory } from "../../src/layers/FileStoreMemory.js"
import { InlineInput, readInput } from "../../src/services/InputFile.js"
import { Workdir } from "../../src/services/Workdir.js"
import { runCli, tempWorkdir } from "../support/cli.js"

const spec: CommandSpec = {
  path: ["example"],
  description: "A command with an option and an input file that has a key of the same name.",
  flags: { workdir, json, study: studyFlag, input },
  run: () => Promise.reject(new Error("not run"))
}

const values = { workdir: ".", json: true, study: "s1", input: Option.some("in.json") }

const InputWithStudy = Schema.Struct({ study: Schema.Number })
const services = Layer.merge(FileStoreMemory, Layer.succeed(Workdir, Workdir.of({ root: "/w" })))

const refusalOf = <A>(effect: Effect.Effect<A, InvalidInput, never>) =>
  Effect.flip(inOptionNames(spec, values, effect)).pipe(
    Effect.map((e) => (e as InvalidInput).issues.map((i) => i.path))
  )

describe("the command line's option names in refusals", () => {
  it.effect("an issue at the study the command line gave names --study", () =>
    Effect.gen(function*() {
      const refused = new InvalidInput({ issues: [{ path: "study", message: "not a study id" }] })
      expect(yield* refusalOf(Effect.fail(refused))).toEqual(["--study"])
    }))

  it.effect("an issue at the input file's own `study` key keeps its path", () =>
    Effect.gen(function*() {
      const read = readInput(InputWithStudy, new InlineInput({ study: "three" })).pipe(Effect.provide(services))
      expect(yield* refusalOf(read as Effect.Effect<unknown, InvalidInput>)).toEqual(["study"])
    }))

  it.effect("so does one a service finds in the input it was given after the read", () =>
    Effect.gen(function*() {
      const service = (raw: unknown) =>
        Effect.fail(new InvalidInput({ issues: [{ path: "study.0", message: `not valid: ${JSON.stringify(raw)}` }] }))
      const work = readInput(Schema.Unknown, new InlineInput({ study: [1] })).pipe(
        Effect.provide(services),
        Effect.flatMap(service)
      )
      expect(yield* refusalOf(work as Effect.Effect<unknown, InvalidInput>)).toEqual(["study.0"])
    }))

  it("an option left out of a command that reads no input file is named as an option too", () => {
    // exec --study without --candidate: the service names its parameter `candidate`.
    const r = runCli(["exec", "--workdir", tempWorkdir(), "--grant", "g", "--study", "s1", "--json", "--", "true"])
    expect(r.code, r.stdout + r.stderr).toBe(1)
    expect(r.json.error._tag).toBe("InvalidInput")
    expect(r.json.error.issues.map((i: { path: string }) => i.path)).toEqual(["--candidate"])
  })
})
