/** The built library (dist/lib) is usable from another Effect program: provide a layer, call a service. */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as path from "node:path"
import { putInput, runCli, tempWorkdir } from "../support/cli.js"

describe("library", () => {
  it.live("exports the services and layers; an embedding program provides PlanLayer", () =>
    Effect.gen(function*() {
      const lib: any = yield* Effect.promise(() => import(path.resolve(__dirname, "../../dist/lib/index.mjs")))
      for (const name of ["Plan", "PlanLayer", "FileStore", "Lock", "BaseLive", "FileStoreMemory", "LockMemory", "InvalidInput", "StaleRevision", "checkQuote", "canonicalJson"]) {
        expect(lib[name], name).toBeDefined()
      }
      const dir = tempWorkdir()
      const input = putInput(dir, "s.json", { goal: "embedded", limits: [], nextAction: "n" })
      expect(runCli(["plan", "start", "--workdir", dir, "--input", input, "--json"]).code).toBe(0)
      const view: any = yield* (Effect.flatMap(lib.Plan, (p: any) => p.inspect).pipe(Effect.provide(lib.PlanLayer(dir))) as Effect.Effect<any>)
      expect(view.state).toBe("active")
      expect(view.goal).toBe("embedded")
      // A refusal arrives as a tagged error in the typed channel.
      const stale: any = yield* Effect.flip(
        Effect.flatMap(lib.Plan, (p: any) => p.checkpoint({}, { expected: 9, now: new Date() })).pipe(Effect.provide(lib.PlanLayer(dir))) as Effect.Effect<any, any>
      )
      expect(stale._tag).toBe("StaleRevision")
      expect(Option.isOption(Option.none())).toBe(true)
    }))
})
