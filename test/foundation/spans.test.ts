/**
 * Every service method runs under a span named `<Service>.<method>` (src/layers/Spans.ts): a
 * tracer that records the spans it is asked for sees the plan's, the journal's, the monitor's,
 * the grants' and exec's methods, nested in the caller's span.
 */
import { expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Tracer from "effect/Tracer"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { DossierMemory } from "../../src/layers/Dossier.js"
import { ExecLayer } from "../../src/layers/ExecLayer.js"
import { Exec } from "../../src/services/Exec.js"
import { Grants } from "../../src/services/Grants.js"
import { Journal } from "../../src/services/Journal.js"
import { Monitor } from "../../src/services/Monitor.js"
import { Plan } from "../../src/services/Plan.js"

it.effect("service methods carry spans named after the service and the method", () =>
  Effect.gen(function*() {
    const seen: Array<{ name: string; parent: string | undefined }> = []
    const native = yield* Effect.tracer
    const recording = Tracer.make({
      span: (name, parent, context, links, startTime, kind, options) => {
        seen.push({
          name,
          parent: parent._tag === "Some" && parent.value._tag === "Span" ? parent.value.name : undefined
        })
        return native.span(name, parent, context, links, startTime, kind, options)
      },
      context: (f, fiber) => native.context(f, fiber)
    })
    yield* Effect.gen(function*() {
      const plan = yield* Plan
      yield* plan.start({ goal: "Spans", limits: [], nextAction: "look" }, { now: new Date(0) })
      yield* plan.inspect
      const journal = yield* Journal
      yield* journal.studies
      const monitor = yield* Monitor
      yield* monitor.list
    }).pipe(Effect.withSpan("caller"), Effect.provide(DossierMemory), Effect.withTracer(recording))
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dossier-spans-"))
    try {
      yield* Effect.gen(function*() {
        yield* (yield* Grants).list()
        yield* Effect.either((yield* Exec).show("x-20260101T000000-00000000"))
      }).pipe(Effect.withSpan("caller"), Effect.provide(ExecLayer(dir)), Effect.withTracer(recording))
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
    const names = seen.map((s) => s.name)
    for (const name of ["Plan.start", "Plan.inspect", "Journal.studies", "Monitor.list", "Grants.list", "Exec.show"]) {
      expect(names).toContain(name)
    }
    expect(seen.find((s) => s.name === "Plan.start")?.parent).toBe("caller")
  }))
