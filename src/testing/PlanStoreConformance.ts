/**
 * The PlanStore conformance suite: the port's contract (src/services/ports/PlanStore.ts) as
 * assertions any adapter must pass — the folder's and the memory's do
 * (test/plan/PlanStore.conformance.test.ts), and so does PostgreSQL's (test/store/pg.plan.test.ts):
 *
 *   it.effect("my store conforms", () => PlanStoreConformance.check(myAdapter))
 *   it.effect.prop("my store's compare-and-set", { steps: PlanStoreConformance.steps },
 *     ({ steps }) => PlanStoreConformance.checkSteps(myAdapter, steps))
 *
 * `make` builds a fresh, empty store (in a scope: close it to dispose of a temporary folder),
 * with `prose` kept before any plan when the store keeps prose, and a hook that puts a work file
 * where `register`/`observe` measure it. A failure is `ConformanceMismatch` naming what differed.
 */
import * as Effect from "effect/Effect"
import * as fc from "effect/FastCheck"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import { createHash } from "node:crypto"
import type { PlanDocument } from "../domain/Plan.js"
import { newPlan } from "../domain/PlanRules.js"
import { PLAN_KEY, type PlanRecord, type PlanStoreShape } from "../services/ports/PlanStore.js"
import { ConformanceMismatch, outcomeFields as outcome, same } from "./Conformance.js"

export { ConformanceMismatch }

/** A fresh store to check, and how to put a work file (a source or output) where it measures. */
export interface PlanStoreUnderTest {
  readonly store: PlanStoreShape
  readonly putFile: (path: string, data: string) => Effect.Effect<void, unknown>
}

/**
 * Builds an empty store. `prose`: text kept before any plan (as a hand-written plan.md); an
 * adapter that keeps no prose answers `keepsProse: false` and the prose assertions are skipped.
 */
export type Make = (
  setup: { readonly prose: string }
) => Effect.Effect<PlanStoreUnderTest & { readonly keepsProse: boolean }, unknown, Scope.Scope>

const at = "2026-01-02T03:04:05.000Z"

/** A valid plan document at `revision`. */
export const documentAt = (revision: number, goal = "conformance"): PlanDocument => ({
  ...newPlan({ goal, limits: ["one"], nextAction: `step ${revision}` }, at),
  revision
})

/** Prose around a section as plan.md holds it: one character per byte, any byte. */
const PROSE_BEFORE = "# Notes\r\nCaf\u00e9 \u00ff\u0000 bytes kept\n\n"
const PROSE_AFTER = "\n\n## After\n\u0080\n"

const stale = (expected: number, actual: number) => ({
  error: "StaleRevision",
  _tag: "StaleRevision",
  expected,
  actual
})

const sha = (s: string) => createHash("sha256").update(s, "utf8").digest("hex")

/** Every assertion of the contract, on fresh stores from `make`. */
export const check = (make: Make): Effect.Effect<void, unknown> =>
  Effect.scoped(Effect.gen(function*() {
    // An empty store: no record, no key, no prose; a write naming a revision is stale.
    {
      const { store } = yield* make({ prose: "" })
      yield* same("get on an empty store", Option.none(), yield* store.plan.get(PLAN_KEY))
      yield* same("keys of an empty store", [], yield* store.plan.keys)
      yield* same("prose of an empty store", "", yield* store.prose)
      const rec: PlanRecord = { document: documentAt(4), before: "", after: "\n" }
      yield* same(
        "put naming revision 3 on an empty store",
        stale(3, 0),
        yield* outcome(store.plan.put(PLAN_KEY, rec, 3))
      )
      yield* same("a refused put stores nothing", Option.none(), yield* store.plan.get(PLAN_KEY))
    }
    // restore: a copy at its own revision (not expected + 1), prose alone, and compare-and-set.
    {
      const { store } = yield* make({ prose: "" })
      const copy: PlanRecord = { document: documentAt(7), before: PROSE_BEFORE, after: PROSE_AFTER }
      const held = { record: Option.some({ revision: 7, value: copy }), prose: "" }
      yield* same("restore naming revision 2 on an empty store", stale(2, 0), yield* outcome(store.restore(held, 2)))
      yield* same("a refused restore stores nothing", Option.none(), yield* store.plan.get(PLAN_KEY))
      yield* store.restore(held, null)
      yield* same("a restored plan reads back at its revision", held.record, yield* store.plan.get(PLAN_KEY))
      const later = { record: Option.some({ revision: 9, value: { ...copy, document: documentAt(9) } }), prose: "" }
      yield* same("restore over a stale revision", stale(6, 7), yield* outcome(store.restore(later, 6)))
      yield* store.restore(later, 7)
      yield* same("a restore over revision 7", later.record, yield* store.plan.get(PLAN_KEY))
    }
    {
      const { keepsProse, store } = yield* make({ prose: "" })
      if (keepsProse) {
        yield* store.restore({ record: Option.none(), prose: PROSE_BEFORE }, null)
        yield* same("restored prose", PROSE_BEFORE, yield* store.prose)
        yield* same("restored prose is no plan", Option.none(), yield* store.plan.get(PLAN_KEY))
      }
    }
    // Create, read back exactly (document and prose byte for byte), then compare-and-set.
    {
      const { store } = yield* make({ prose: "" })
      const first: PlanRecord = { document: documentAt(1), before: PROSE_BEFORE, after: PROSE_AFTER }
      yield* same("create", { ok: 1 }, yield* outcome(store.plan.put(PLAN_KEY, first, null)))
      yield* same("get after create", Option.some({ revision: 1, value: first }), yield* store.plan.get(PLAN_KEY))
      yield* same("keys after create", [PLAN_KEY], yield* store.plan.keys)
      yield* same("prose once a plan is stored", "", yield* store.prose)
      const again: PlanRecord = { document: documentAt(1, "other"), before: "", after: "\n" }
      yield* same("create over a plan", stale(0, 1), yield* outcome(store.plan.put(PLAN_KEY, again, null)))
      const second: PlanRecord = { ...first, document: documentAt(2, "second") }
      yield* same("put at the current revision", { ok: 2 }, yield* outcome(store.plan.put(PLAN_KEY, second, 1)))
      yield* same(
        "put at a stale revision",
        stale(1, 2),
        yield* outcome(store.plan.put(PLAN_KEY, { ...first, document: documentAt(2, "lost") }, 1))
      )
      yield* same(
        "put ahead of the stored revision",
        stale(5, 2),
        yield* outcome(store.plan.put(PLAN_KEY, { ...first, document: documentAt(6) }, 5))
      )
      yield* same(
        "the record after refused puts",
        Option.some({ revision: 2, value: second }),
        yield* store.plan.get(PLAN_KEY)
      )
    }
    // Prose kept before a plan is answered as is, and gone from `prose` once a plan is stored.
    {
      const { store, keepsProse } = yield* make({ prose: "# Hand-written\n\nCaf\u00e9\n" })
      if (keepsProse) {
        yield* same("prose before a plan", "# Hand-written\n\nCaf\u00e9\n", yield* store.prose)
        yield* same("no record beside prose", Option.none(), yield* store.plan.get(PLAN_KEY))
        const rec: PlanRecord = { document: documentAt(1), before: "# Hand-written\n\nCaf\u00e9\n\n", after: "\n" }
        yield* same("create after prose", { ok: 1 }, yield* outcome(store.plan.put(PLAN_KEY, rec, null)))
        yield* same(
          "get after create with prose",
          Option.some({ revision: 1, value: rec }),
          yield* store.plan.get(PLAN_KEY)
        )
        yield* same("prose after create", "", yield* store.prose)
      }
    }
    // Registered files: measured as they are now; absent is FileNotFound; nothing is written.
    {
      const { putFile, store } = yield* make({ prose: "" })
      const path = "research/sources/a.md"
      yield* same(
        "register of an absent file",
        "FileNotFound",
        yield* Effect.map(Effect.flip(store.register(path)), (e) => e._tag)
      )
      yield* same(
        "observe of an absent file",
        "FileNotFound",
        yield* Effect.map(Effect.flip(store.observe(path)), (e) => e._tag)
      )
      yield* putFile(path, "first bytes\n")
      yield* same("register", { sha256: sha("first bytes\n"), bytes: 12 }, yield* store.register(path))
      yield* putFile(path, "changed\n")
      yield* same("observe after a change", { sha256: sha("changed\n"), bytes: 8 }, yield* store.observe(path))
      yield* putFile("results/out.txt", "")
      yield* same("an empty output", { sha256: sha(""), bytes: 0 }, yield* store.observe("results/out.txt"))
      yield* same("measuring stores no plan", Option.none(), yield* store.plan.get(PLAN_KEY))
    }
  }))

/** One write of a compare-and-set sequence: which revision it names, relative to the stored one. */
export type Step = { readonly names: "current" | "stale" | "ahead" | "none"; readonly goal: string }

/** Sequences of 1 to 20 writes. */
export const steps: fc.Arbitrary<ReadonlyArray<Step>> = fc.array(
  fc.record({ names: fc.constantFrom("current", "stale", "ahead", "none"), goal: fc.constantFrom("a", "b", "c") }),
  { minLength: 1, maxLength: 20 }
) as fc.Arbitrary<ReadonlyArray<Step>>

/**
 * Random writes against a model of compare-and-set: a write succeeds exactly when it names the
 * stored revision (none: no plan), the revision then grows by one, and a refused write changes
 * nothing; after each, the record read back is the model's.
 */
export const checkSteps = (make: Make, sequence: ReadonlyArray<Step>): Effect.Effect<void, unknown> =>
  Effect.scoped(Effect.gen(function*() {
    const { store } = yield* make({ prose: "" })
    let model: { revision: number; value: PlanRecord } | undefined
    for (const [i, s] of sequence.entries()) {
      const stored = model?.revision ?? 0
      const names = s.names === "current" ?
        (model === undefined ? null : stored)
        : s.names === "stale" ?
        Math.max(1, stored - 1)
        : s.names === "ahead" ?
        stored + 1
        : null
      const value: PlanRecord = { document: documentAt((names ?? 0) + 1, s.goal), before: `before ${i}\n`, after: "\n" }
      const accepted = (names ?? 0) === stored
      const answer = yield* outcome(store.plan.put(PLAN_KEY, value, names))
      if (accepted) {
        yield* same(`step ${i}: put naming ${names}`, { ok: stored + 1 }, answer)
        model = { revision: stored + 1, value }
      } else {
        yield* same(`step ${i}: put naming ${names}`, stale(names ?? 0, stored), answer)
      }
      yield* same(
        `step ${i}: the record`,
        model === undefined ? Option.none() : Option.some(model),
        yield* store.plan.get(PLAN_KEY)
      )
    }
  }))
