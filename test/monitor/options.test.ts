/**
 * The library's optional-arguments convention on the Monitor service (as in Plan): one trailing
 * options object `{ now }` that may be left out; a wrong value is `InvalidInput`. Called from
 * JavaScript with anything in place of the options (or the input), every method answers a
 * typed error or a success, never a defect.
 */
import { assert, describe, layer } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { MonitorMemory } from "../../src/layers/MonitorMemory.js"
import { Monitor } from "../../src/services/Monitor.js"
import { literature } from "./support.js"

const OMITTED = Symbol("omitted")
const wrongOptions: ReadonlyArray<unknown> = [
  5,
  "now",
  true,
  [],
  new Date("2026-12-01T00:00:00Z"),
  { now: "2026-12-01" },
  { now: new Date(Number.NaN) },
  { now: 0 }
]
const fineOptions: ReadonlyArray<unknown> = [OMITTED, undefined, null, {}, { now: undefined }, {
  now: new Date("2026-12-01T10:00:00Z")
}]
const badInputs: ReadonlyArray<unknown> = [undefined, null, 7, "x", [], {}]

/** Call `method` as JavaScript would, with the options left out when `options` is OMITTED. */
type Method = (...args: Array<any>) => Effect.Effect<unknown, { readonly _tag: string }>

const call = (method: Method, args: ReadonlyArray<unknown>, options: unknown) =>
  options === OMITTED ? method(...args) : method(...args, options)

/** The exit's error tag, "ok", or a failed assertion when it is a defect. */
const answer = (exit: Exit.Exit<unknown, { readonly _tag: string }>, what: string): string => {
  if (Exit.isSuccess(exit)) return "ok"
  assert.isFalse(Cause.isDie(exit.cause), `${what} died: ${Cause.pretty(exit.cause)}`)
  const failure = Cause.failureOption(exit.cause)
  assert.isTrue(failure._tag === "Some", `${what}: ${Cause.pretty(exit.cause)}`)
  return failure._tag === "Some" ? failure.value._tag : "?"
}

describe("Monitor: optional arguments", () => {
  layer(MonitorMemory)((it) => {
    it.effect("every method: options omitted, undefined or given work; a wrong options value is InvalidInput; never a defect", () =>
      Effect.gen(function*() {
        const s = yield* Monitor
        const first = yield* s.createSubscription(literature("opt") as any, { now: new Date("2026-11-30T10:00:00Z") })
        assert.isTrue(first.created)
        const withInput: Record<string, ReadonlyArray<unknown>> = {
          createSubscription: [literature("opt")],
          updateSubscription: [{ subscriptionId: "opt", expectedRevision: 1, changes: { target: "other" } }],
          setSubscriptionStatus: [{ subscriptionId: "opt", expectedRevision: 9, status: "paused" }],
          createDueRun: [{ subscriptionId: "opt" }],
          transitionRun: [{ runId: "opt.w0", expectedRevision: 9, to: "running" }],
          finishRun: [{
            runId: "opt.w0",
            expectedRevision: 2,
            binding: { runId: "opt.w0", taskDigest: "a".repeat(64) },
            stage: { path: "research/results/stage.md" },
            outcomes: []
          }],
          setOutcomeDisposition: [{ runId: "opt.w0", outcomeId: "o1", disposition: "dismissed" }],
          due: [],
          facts: []
        }
        for (const [name, args] of Object.entries(withInput)) {
          const method: Method = (s as any)[name].bind(s)
          for (const options of wrongOptions) {
            const tag = answer(yield* Effect.exit(call(method, args, options)), `${name}(…, ${String(options)})`)
            assert.strictEqual(tag, "InvalidInput", `${name} with options ${JSON.stringify(options)}`)
          }
          for (const options of fineOptions) {
            // A typed answer either way (the call itself may be refused: a stale revision, not due, …).
            const tag = answer(yield* Effect.exit(call(method, args, options)), `${name}(…, ${String(options)})`)
            if (name === "due" || name === "facts") {
              assert.strictEqual(tag, "ok", `${name} with options ${String(options)}`)
            } else assert.notStrictEqual(tag, "InvalidInput", `${name} with options ${String(options)}`)
          }
          if (args.length > 0) {
            for (const input of badInputs) {
              assert.strictEqual(
                answer(yield* Effect.exit(method(input)), `${name}(${JSON.stringify(input)})`),
                "InvalidInput"
              )
            }
          }
        }
        for (const name of ["showSubscription", "showRun"] as const) {
          for (const id of [undefined, null, 3, {}, "a b/c"]) {
            assert.strictEqual(
              answer(yield* Effect.exit(((s as any)[name] as Method)(id)), `${name}(${String(id)})`),
              "InvalidInput"
            )
          }
        }
        assert.strictEqual(answer(yield* Effect.exit(s.list), "list"), "ok")
        assert.strictEqual(answer(yield* Effect.exit(s.unresolvedOutcomes), "unresolvedOutcomes"), "ok")
        assert.strictEqual(yield* s.subscriptionCount, 1)
      }))
  })
})
