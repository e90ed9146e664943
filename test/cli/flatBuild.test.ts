/**
 * The CLI builds a command's layer in one fiber, one service after the other
 * (src/layers/FlatBuild.ts): no fiber is forked to build `status`'s services, and the walk gives
 * what effect's own build gives — every service, each leaf built once, finalizers in reverse
 * order, the first failure typed, `catchAll`/`unwrapEffect` walked, and the nodes it does not know
 * built by effect in place.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Supervisor from "effect/Supervisor"
import { runWork } from "../../src/cli/Render.js"
import { status } from "../../src/commands/status.impl.js"
import { WorkdirNotFound } from "../../src/domain/Errors.js"
import { flatLayer } from "../../src/layers/FlatBuild.js"
import { tempWorkdir } from "../support/cli.js"

/** Counts the fibers started under it. */
class Started extends Supervisor.AbstractSupervisor<number> {
  count = 0
  value = Effect.sync(() => this.count)
  override onStart<A, E, R>(
    _c: Context.Context<R>,
    _e: Effect.Effect<A, E, R>,
    _p: Option.Option<Fiber.RuntimeFiber<any, any>>,
    _f: Fiber.RuntimeFiber<A, E>
  ): void {
    this.count++
  }
}

class A extends Context.Tag("test/A")<A, { readonly n: number }>() {}
class B extends Context.Tag("test/B")<B, { readonly n: number }>() {}
class C extends Context.Tag("test/C")<C, { readonly n: number }>() {}
class D extends Context.Tag("test/D")<D, { readonly n: number }>() {}

describe("a command's layer in the CLI", () => {
  it.effect("status builds its services without forking a fiber", () =>
    Effect.gen(function*() {
      const dir = tempWorkdir()
      const w = status({ workdir: dir, now: Option.none() })
      const started = new Started()
      const before = process.exitCode
      yield* Effect.supervised(runWork(true, { ...w, quiet: true }), started)
      process.exitCode = before
      assert.strictEqual(started.count, 0)
    }))

  it.effect("every service, each leaf once, over what its place in the graph gives it", () =>
    Effect.gen(function*() {
      let builtA = 0
      const LA = Layer.effect(A, Effect.sync(() => ({ n: ++builtA })))
      const LB = Layer.effect(B, Effect.map(A, (a) => ({ n: a.n + 10 })))
      const LC = Layer.effect(C, Effect.map(A, (a) => ({ n: a.n + 20 })))
      const LD = Layer.effect(D, Effect.map(Effect.all([B, C]), ([b, c]) => ({ n: b.n + c.n })))
      const graph = LD.pipe(
        Layer.provideMerge(Layer.mergeAll(LB, LC.pipe(Layer.provide(LA)))),
        Layer.provideMerge(LA)
      )
      const values = (
        ctx: Context.Context<A | B | C | D>
      ) => [Context.get(ctx, A).n, Context.get(ctx, B).n, Context.get(ctx, C).n, Context.get(ctx, D).n]
      const ours = values(yield* Effect.scoped(Layer.build(flatLayer(graph))))
      assert.deepStrictEqual(ours, [1, 11, 21, 32])
      assert.strictEqual(builtA, 1)
      builtA = 0
      assert.deepStrictEqual(values(yield* Effect.scoped(Layer.build(graph))), ours)
    }))

  it.effect("finalizers run when the command ends, the last built first", () =>
    Effect.gen(function*() {
      const log: Array<string> = []
      const resource = (name: string) =>
        Effect.acquireRelease(
          Effect.sync(() => (log.push(`open ${name}`), { n: 0 })),
          () => Effect.sync(() => void log.push(`close ${name}`))
        )
      const graph = Layer.scoped(B, Effect.zipRight(A, resource("b"))).pipe(
        Layer.provideMerge(Layer.scoped(A, resource("a")))
      )
      yield* Effect.provide(Effect.sync(() => void log.push("run")), flatLayer(graph))
      assert.deepStrictEqual(log, ["open a", "open b", "run", "close b", "close a"])
    }))

  it.effect("a leaf's failure is the command's typed refusal", () =>
    Effect.gen(function*() {
      const failing = Layer.effect(A, Effect.fail(new WorkdirNotFound({ reason: "missing" })))
      const graph = Layer.mergeAll(Layer.succeed(B, { n: 1 }), failing)
      const exit = yield* Effect.exit(Effect.provide(A, flatLayer(graph)))
      assert.deepStrictEqual(
        Exit.isFailure(exit) ? Option.map(Cause.failureOption(exit.cause), (e) => e._tag) : Option.none(),
        Option.some("WorkdirNotFound")
      )
    }))

  it.effect("a node it does not know (fresh) is built by effect in place", () =>
    Effect.gen(function*() {
      let built = 0
      const LA = Layer.effect(A, Effect.sync(() => ({ n: ++built })))
      const graph = Layer.mergeAll(Layer.fresh(LA), Layer.succeed(B, { n: 7 })).pipe(Layer.provideMerge(LA))
      const ctx = yield* Effect.scoped(Layer.build(flatLayer(graph)))
      assert.strictEqual(Context.get(ctx, B).n, 7)
      assert.strictEqual(built, 2)
    }))

  it.effect("catchAll and unwrapEffect (a bound folder's layer) are walked: a shared leaf built once", () =>
    Effect.gen(function*() {
      let built = 0
      const LA = Layer.effect(A, Effect.sync(() => ({ n: ++built })))
      const inner = Layer.unwrapEffect(
        Effect.succeed(Layer.effect(B, Effect.map(A, (a) => ({ n: a.n + 10 }))).pipe(Layer.provide(LA)))
      )
      const recovered = Layer.catchAll(
        Layer.effect(C, Effect.zipRight(A, Effect.fail("no"))),
        () => Layer.effect(C, Effect.map(A, (a) => ({ n: a.n + 20 })))
      )
      const graph = Layer.mergeAll(inner, recovered).pipe(Layer.provideMerge(LA))
      const started = new Started()
      const ctx = yield* Effect.supervised(Effect.scoped(Layer.build(flatLayer(graph))), started)
      assert.deepStrictEqual([Context.get(ctx, A).n, Context.get(ctx, B).n, Context.get(ctx, C).n], [1, 11, 21])
      assert.strictEqual(built, 1)
      assert.strictEqual(started.count, 0)
    }))
})
