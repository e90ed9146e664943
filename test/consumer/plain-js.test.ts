/**
 * The built library (dist/lib/cjs) called from plain JavaScript, in a separate Node process, the
 * way a user without types writes calls: optional arguments left out, wrong values given. Every
 * call shape answers (a result or a typed refusal); none dies with a TypeError or a defect.
 */
import { execFileSync } from "node:child_process"
import * as path from "node:path"
import { describe, expect, it } from "vitest"

const repo = path.resolve(__dirname, "../..")

const SCRIPT = `
const { DossierMemory, Plan } = require(${JSON.stringify(path.join(repo, "dist/lib/cjs/index.js"))})
const Effect = require(${JSON.stringify(path.join(repo, "node_modules/effect/dist/cjs/Effect.js"))})
const Exit = require(${JSON.stringify(path.join(repo, "node_modules/effect/dist/cjs/Exit.js"))})
const outcome = (exit) => Exit.isSuccess(exit) ? "ok" : exit.cause._tag === "Fail" ? exit.cause.error._tag : "defect"
const input = { goal: "g", limits: [], nextAction: "n" }
const calls = {
  startWithoutOptions: (p) => p.start(input),
  startNullOptions: (p) => p.start(input, null),
  startWithoutInput: (p) => p.start(),
  startOptionsNotObject: (p) => p.start(input, 5),
  startExpectedAsString: (p) => p.start(input, { replaceGoal: true, expected: "1" }),
  checkpointWithoutOptions: (p) => p.checkpoint({ nextAction: "x" }),
  checkpointRevisionInInput: (p) => p.checkpoint({ nextAction: "x", expectedRevision: 1 }),
  checkpointRevisionsDiffer: (p) => p.checkpoint({ expectedRevision: 2 }, { expected: 3 }),
  checkpointExpected: (p) => p.checkpoint({}, { expected: 2 }),
  checkpointBadNow: (p) => p.checkpoint({}, { expected: 3, now: new Date(NaN) })
}
const program = Effect.gen(function*() {
  const plan = yield* Plan.Plan
  const out = {}
  for (const [name, call] of Object.entries(calls)) {
    let effect
    try { effect = call(plan) } catch (e) { out[name] = "threw " + e.constructor.name; continue }
    out[name] = outcome(yield* Effect.exit(effect))
  }
  return out
})
Effect.runPromise(Effect.provide(program, DossierMemory)).then((r) => console.log(JSON.stringify(r)))
`

describe("the built library from plain JavaScript", () => {
  it("answers every call shape of Plan with a result or a typed refusal, never a TypeError", () => {
    const out = JSON.parse(execFileSync(process.execPath, ["-e", SCRIPT], { encoding: "utf8" }))
    expect(out).toEqual({
      startWithoutOptions: "ok",
      startNullOptions: "ok",
      startWithoutInput: "InvalidInput",
      startOptionsNotObject: "InvalidInput",
      startExpectedAsString: "InvalidInput",
      checkpointWithoutOptions: "InvalidInput",
      checkpointRevisionInInput: "ok",
      checkpointRevisionsDiffer: "InvalidInput",
      checkpointExpected: "ok",
      checkpointBadNow: "InvalidInput"
    })
  })
})
