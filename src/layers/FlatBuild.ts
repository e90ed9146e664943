/**
 * A command's layer built in one fiber, one service after the other (the CLI's start,
 * src/cli/Render.ts). effect's own build memoizes every node of a layer's graph in a memo map,
 * forks a scope for each, and builds the parts of every `merge`/`mergeAll` in fibers of their
 * own: for the ~30 nodes of `status`'s layer that machinery is ~12% of the whole process's
 * instructions (docs/performance.md, "Issue 28, eighth round"), for services whose construction
 * is a few closures. Here the same graph is walked in order: each leaf (`Layer.effect`,
 * `Layer.scoped`, `Layer.succeed`, …) is built once (by identity, as the memo map does), over the
 * context its place in the graph gives it, and every finalizer goes to the one scope of the
 * build, so they run in the reverse order of construction when the command ends. A failure is
 * the first leaf's that fails (effect's build may add the interruption of the siblings it was
 * building beside it). A `Layer.catchAll`/`Layer.flatMap`/`Layer.unwrapEffect` node walks the
 * layer its first part's end chooses (a folder bound to the shared store, src/commands/Bound.ts).
 * Any node this walk does not know (`Layer.fresh`, `Layer.locally`, or a shape a later effect
 * gives its nodes) is built by effect itself, in place, over the same context and scope.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"

/** The fields of effect's layer nodes read here (effect/src/internal/layer.ts). */
interface LayerNode {
  readonly _op_layer?: unknown
  readonly effect?: unknown
  readonly evaluate?: unknown
  readonly first?: unknown
  readonly second?: unknown
  readonly layers?: unknown
  readonly zipK?: unknown
  readonly layer?: unknown
  readonly failureK?: unknown
  readonly successK?: unknown
}

type AnyContext = Context.Context<any>
type Built = Effect.Effect<AnyContext, unknown, any>

const isNode = (u: unknown): u is LayerNode & Layer.Layer<any, any, any> => Layer.isLayer(u)

const walk = (scope: Scope.Scope) => {
  const built = new Map<unknown, AnyContext>()
  const byEffect = (node: Layer.Layer<any, any, any>, ctx: AnyContext): Built =>
    Effect.provide(Layer.buildWithScope(node, scope), ctx)
  const leaf = (node: LayerNode, effect: Effect.Effect<AnyContext, unknown, any>, ctx: AnyContext): Built => {
    const done = built.get(node)
    if (done !== undefined) return Effect.succeed(done)
    return Effect.tap(Effect.provide(effect, ctx), (c) => void built.set(node, c))
  }
  const go = (node: LayerNode & Layer.Layer<any, any, any>, ctx: AnyContext): Built => {
    const { effect, evaluate, failureK, first, layer, layers, second, successK, zipK } = node
    switch (node._op_layer) {
      case "FromEffect":
        if (Effect.isEffect(effect)) return leaf(node, effect as Built, ctx)
        break
      case "Scoped":
        if (Effect.isEffect(effect)) return leaf(node, Scope.extend(effect as Built, scope), ctx)
        break
      case "Suspend":
        if (typeof evaluate === "function") {
          return Effect.suspend(() => {
            const next: unknown = evaluate()
            return isNode(next) ? go(next, ctx) : byEffect(node, ctx)
          })
        }
        break
      case "Provide":
        if (isNode(first) && isNode(second)) return Effect.flatMap(go(first, ctx), (env) => go(second, env))
        break
      case "ProvideMerge":
      case "ZipWith":
        if (isNode(first) && isNode(second) && typeof zipK === "function") {
          return Effect.flatMap(go(first, ctx), (a) => Effect.map(go(second, ctx), (b) => zipK(a, b) as AnyContext))
        }
        break
      case "Fold":
        // `Layer.catchAll`, `Layer.flatMap`, `Layer.unwrapEffect`: the next layer, chosen by how the
        // first one ended, is walked over the same context (as effect's build does).
        if (isNode(layer) && typeof failureK === "function" && typeof successK === "function") {
          const next = (u: unknown): Built => isNode(u) ? go(u, ctx) : byEffect(node, ctx)
          return Effect.matchCauseEffect(go(layer, ctx), {
            onFailure: (cause) => next(failureK(cause)),
            onSuccess: (env) => next(successK(env))
          })
        }
        break
      case "MergeAll":
        if (Array.isArray(layers) && layers.every(isNode)) {
          return Effect.map(Effect.forEach(layers, (l) => go(l, ctx)), (cs) => Context.mergeAll(...cs))
        }
        break
    }
    return byEffect(node, ctx)
  }
  return go
}

/** `layer`, built as one node: its graph walked in one fiber (above). */
export const flatLayer = <A, E, R>(layer: Layer.Layer<A, E, R>): Layer.Layer<A, E, R> =>
  Layer.scopedContext(
    Effect.flatMap(
      Effect.scope,
      (scope) => Effect.flatMap(Effect.context<never>(), (ctx) => walk(scope)(layer, ctx as AnyContext))
    )
  ) as unknown as Layer.Layer<A, E, R>
