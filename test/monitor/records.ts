/**
 * Stored monitor records for property tests: valid subscriptions and runs (planned, completed with
 * decided and undecided outcomes, completed with every outcome decided), and mutations that damage
 * a JSON value anywhere in it.
 */
import * as Either from "effect/Either"
import * as fc from "effect/FastCheck"
import { sha256Hex } from "../../src/domain/Canonical.js"
import { afterRunEnded, newRun, newSubscription, type SubscriptionInput } from "../../src/domain/Monitor.js"

const created = new Date("2026-01-01T00:00:00Z")
const inputs: ReadonlyArray<SubscriptionInput> = [
  {
    kind: "literature",
    target: "topic",
    timezone: "Europe/Berlin",
    anchor: "2026-01-05T09:00",
    cadence: { every: 1, unit: "week" },
    id: "s1"
  },
  {
    kind: "literature",
    target: "other",
    timezone: "America/New_York",
    anchor: "2026-01-31T02:30",
    cadence: { every: 1, unit: "month" },
    id: "s2",
    program: "prog",
    scope: { venues: ["a", "b"], since: 2020, nested: { x: null } },
    mode: "run"
  } as SubscriptionInput,
  {
    kind: "unit-recheck",
    target: "units",
    timezone: "UTC",
    anchor: "2028-02-29T23:59",
    cadence: { every: 3, unit: "day" },
    id: "s3",
    units: ["research/a.md", "research/b.md"]
  } as SubscriptionInput
]

/** The stage file some completed seed runs are bound to (a test that wants their bindings to hold writes it). */
export const SEED_STAGE = { path: "research/results/seed stage.md", text: "a finished stage\n" } as const

/**
 * Valid stored records: subscriptions, and runs planned, running and completed with outcomes;
 * and completed runs with every outcome decided (quiet in the scan index): one bound to
 * SEED_STAGE alone, one also to a survey that is not there (a path with a non-ASCII letter and a
 * quote), one to a stage that is not there.
 */
export const seeds = (): ReadonlyArray<{ readonly schema: "run" | "subscription"; readonly value: unknown }> => {
  const out: Array<{ schema: "run" | "subscription"; value: unknown }> = []
  const at = new Date("2026-02-10T10:00:00Z")
  /** `run` completed at `at` with these bindings and outcomes. */
  const completed = (
    run: ReturnType<typeof newRun>,
    revision: number,
    bound: { stage: unknown; survey: unknown; units: ReadonlyArray<string> },
    outcomes: ReadonlyArray<unknown>
  ) => ({
    ...run,
    status: "completed",
    revision,
    transitions: [{ from: "planned", to: "running", at: at.toISOString(), reason: null }],
    completion: { at: at.toISOString(), binding: { runId: run.id, taskDigest: run.receiptDigest }, ...bound },
    outcomes
  })
  inputs.forEach((input, i) => {
    const sub = Either.getOrThrow(newSubscription(input, created))
    out.push({ schema: "subscription", value: sub })
    const run = newRun(sub, 3, at)
    out.push({ schema: "run", value: run })
    out.push({
      schema: "run",
      value: completed(run, 4, {
        stage: { path: `research/results/${run.id}.md`, sha256: "a".repeat(64) },
        survey: { path: "research/survey.md", sha256: "b".repeat(64) },
        units: ["research/a.md"]
      }, [
        {
          id: "o1",
          label: "new",
          reason: "r",
          citations: [{ path: "research/sources/p.txt", quote: "a quote here" }],
          disposition: null
        },
        {
          id: "o2",
          label: "worth_reviewing",
          reason: "r2",
          citations: [],
          disposition: {
            value: "sent_to_review",
            at: at.toISOString(),
            authorization: { messageId: "m" },
            unitPath: null,
            reviewItem: "research/r.md"
          }
        }
      ])
    })
    out.push({ schema: "subscription", value: afterRunEnded({ ...sub, activeRunId: run.id }, at) })
    const done = newRun(sub, 4, at)
    out.push({
      schema: "run",
      value: completed(
        done,
        3,
        {
          stage: i === 2
            ? { path: `research/results/${done.id}.md`, sha256: "c".repeat(64) }
            : { path: SEED_STAGE.path, sha256: sha256Hex(SEED_STAGE.text) },
          survey: i === 1 ? { path: "research/survey \"é\".md", sha256: "d".repeat(64) } : null,
          units: []
        },
        i === 0 ? [] : [
          {
            id: "o1",
            label: "new",
            reason: "r",
            citations: [],
            disposition: {
              value: "acknowledged",
              at: at.toISOString(),
              authorization: null,
              unitPath: null,
              reviewItem: null
            }
          }
        ]
      )
    })
  })
  return JSON.parse(JSON.stringify(out))
}

export type Json = null | boolean | number | string | Array<Json> | { [k: string]: Json }

/** Every container (object or array) of a JSON value, with the key path to it. */
const containers = (
  v: Json,
  at: Array<string | number> = [],
  acc: Array<{ path: Array<string | number>; node: Json }> = []
) => {
  if (v !== null && typeof v === "object") {
    acc.push({ path: at, node: v })
    if (Array.isArray(v)) v.forEach((x, i) => containers(x, [...at, i], acc))
    else for (const [k, x] of Object.entries(v)) containers(x, [...at, k], acc)
  }
  return acc
}

const tricky: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(
    "",
    "x",
    "../up",
    "/abs",
    "a".repeat(64),
    "A".repeat(64),
    "research/a.md",
    "q".repeat(4001),
    0,
    -1,
    1,
    1.5,
    1e9,
    366,
    367,
    10_000,
    10_001,
    null,
    true,
    false,
    [],
    {},
    "2026-01-05T09:00",
    "Europe/Berlin",
    "Mars/Olympus",
    "new",
    "completed",
    "acknowledged"
  ),
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>
)

export const mutation = fc.record({
  pick: fc.nat(),
  key: fc.nat(),
  kind: fc.constantFrom("delete", "add", "replace", "replace", "none"),
  name: fc.constantFrom("extra", "id", "__proto__", "constructor", "0"),
  value: tricky
})

export type Mutation = { pick: number; key: number; kind: string; name: string; value: Json }
export const apply = (value: Json, m: Mutation): Json => {
  const copy = JSON.parse(JSON.stringify(value)) as Json
  if (m.kind === "none") return copy
  const all = containers(copy)
  const { node } = all[m.pick % all.length]!
  if (Array.isArray(node)) {
    if (node.length === 0 || m.kind === "add") node.push(m.value)
    else if (m.kind === "delete") node.splice(m.key % node.length, 1)
    else node[m.key % node.length] = m.value
    return copy
  }
  const obj = node as { [k: string]: Json }
  const keys = Object.keys(obj)
  if (m.kind === "add" || keys.length === 0) {
    Object.defineProperty(obj, m.name, { value: m.value, enumerable: true, writable: true, configurable: true })
  } else if (m.kind === "delete") delete obj[keys[m.key % keys.length]!]
  else obj[keys[m.key % keys.length]!] = m.value
  return copy
}
