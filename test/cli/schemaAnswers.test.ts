/**
 * `dossier schema`'s answers are computed when the project is built (scripts/build.mjs:
 * `schemaAnswersBuilt`) and held by the CLI's bundles in place of src/commands/SchemaAnswers.ts,
 * which the library and everything run from source compute live. The built CLI must answer every
 * name, the list and an unknown name byte for byte as the live computation does, so that the two
 * cannot drift: the expected bytes here come from the command's own work run from source, put the
 * way src/cli/Render.ts puts an answer (`{ok, ...answer}` on one line, or the human report).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as fs from "node:fs"
import * as path from "node:path"
import { envelopeOf } from "../../src/commands/Envelope.js"
import { run } from "../../src/commands/schema.impl.js"
import { schemaDocument, schemaNames } from "../../src/commands/SchemaAnswers.js"
import type { CommandFailure } from "../../src/commands/Work.js"
import { runCli } from "../support/cli.js"

/** The command's answer, or its refusal, computed from source. */
const live = (name?: string): Either.Either<object, CommandFailure> => {
  const w = run(Option.fromNullable(name))
  return Effect.runSync(Effect.either(Effect.provide(w.effect, w.layer)))
}
const human = (name: string | undefined, answer: object): string => `${run(Option.fromNullable(name)).human(answer)}\n`
const json = (answer: object): string => `${JSON.stringify({ ok: true, ...answer })}\n`

describe("dossier schema, built with the project", () => {
  const names = schemaNames()

  it("the schema bundle computes no JSON Schema: it holds neither the live module's Schemas nor their domain", () => {
    const manifest = JSON.parse(
      fs.readFileSync(path.resolve(__dirname, "../../dist/bundles.json"), "utf8")
    ) as Record<string, { readonly sources: ReadonlyArray<string> }>
    const sources = manifest["schema"]!.sources
    expect(sources).toContain("src/commands/schema.impl.ts")
    for (const s of sources) {
      expect(s).not.toMatch(/^src\/commands\/schemas\//)
      expect(s).not.toMatch(/^src\/domain\/(Plan|Journal|Monitor\w*|Gate|Grant|Execution|AllErrors)\.ts$/)
    }
  })

  it("answers the list as the live computation does, with and without --json", () => {
    const answer = Either.getOrThrow(live())
    expect(answer).toEqual({ names })
    expect(names.length).toBeGreaterThan(40)
    const j = runCli(["schema", "--json"])
    expect(j.code).toBe(0)
    expect(j.stdout).toBe(json(answer))
    const h = runCli(["schema"])
    expect(h.code).toBe(0)
    expect(h.stdout).toBe(human(undefined, answer))
  })

  // One test per name: each starts one process, so none nears the timeout on a loaded machine.
  for (const name of names) {
    it(`answers ${name} byte for byte as the live computation does`, () => {
      const answer = Either.getOrThrow(live(name))
      expect(answer).toEqual({ name, schema: schemaDocument(name) })
      const r = runCli(["schema", name, "--json"])
      expect(r.code).toBe(0)
      expect(r.stdout).toBe(json(answer))
    })
  }

  it("publishes documents a standard validator compiles: no `$id` names two places of one document", () => {
    // A JSON Schema validator (ajv, for one) refuses a document where one `$id` names two
    // subschemas ("resolves to more than one schema"): every `unknown` field used to carry
    // `"$id": "/schemas/unknown"`, so run-state, journal-events, status-output and more failed.
    const ids = (node: unknown): Array<string> =>
      Array.isArray(node)
        ? node.flatMap(ids)
        : typeof node === "object" && node !== null
        ? [
          ...(typeof (node as { $id?: unknown }).$id === "string" ? [(node as { $id: string }).$id] : []),
          ...Object.values(node).flatMap(ids)
        ]
        : []
    // From source: the tests above hold the built CLI's answers byte for byte to these.
    for (const name of names) {
      const found = ids(schemaDocument(name))
      expect(found.filter((id, i) => found.indexOf(id) !== i), name).toEqual([])
    }
  })

  it("research-output, the gate's input file research.json, admits only what the gate reads (no workdir)", () => {
    const schema = JSON.parse(runCli(["schema", "research-output"]).stdout)
    expect(Object.keys(schema.properties).sort()).toEqual(["gaps", "item", "kind"])
    expect(schema.additionalProperties).toBe(false)
  })

  it("grant-create-output types its grant as the other grant answers do, with its state", () => {
    const of = (name: string) => JSON.parse(runCli(["schema", name]).stdout)
    const created = of("grant-create-output").properties.grant
    const shown = of("grant-show-output").properties.grant
    expect(created.type).toBe("object")
    expect(created.additionalProperties).toBe(false)
    expect(Object.keys(created.properties).sort()).toEqual([...Object.keys(shown.properties), "state"].sort())
    expect(created.properties.state.enum).toEqual(of("grant-show-output").properties.state.enum)
  })

  it("prints a name's schema for people as the live computation does", () => {
    for (const name of ["plan-start", "errors", names[names.length - 1]!]) {
      const r = runCli(["schema", name])
      expect(r.code, name).toBe(0)
      expect(r.stdout, name).toBe(human(name, Either.getOrThrow(live(name))))
    }
  })

  it("refuses a name it does not know, an inherited property's name too, with UsageError (exit 2) as live", () => {
    const unknown = ["nope", "toString", "__proto__", "constructor", "hasOwnProperty", "Plan-Start"]
    unknown.forEach((name) => {
      const refusal = live(name)
      expect(Either.isLeft(refusal), name).toBe(true)
      const error = Either.getLeft(refusal).pipe(Option.getOrThrow)
      // An unknown word, as an unknown subcommand is: a usage error that says where the names are.
      expect(error._tag, name).toBe("UsageError")
      expect(error.message, name).toContain(`unknown schema '${name}'`)
      expect(error.message, name).toContain("'dossier schema' lists the names")
      const r = runCli(["schema", name, "--json"])
      expect(r.code, name).toBe(2)
      expect(r.stdout, name).toBe(`${JSON.stringify({ ok: false, error: envelopeOf(error) })}\n`)
    })
    // An empty name is an empty value, as every empty positional is, before any name is looked up.
    const empty = runCli(["schema", "", "--json"])
    expect(empty.code).toBe(2)
    expect(JSON.parse(empty.stdout).error).toMatchObject({
      _tag: "UsageError",
      message: "<name>: the value is empty; give a value"
    })
  })
})
