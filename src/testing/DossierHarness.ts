/**
 * The model-based harness: random sequences of dossier commands, valid and invalid, run on the
 * services of one layer (in memory, over a folder, or a custom store) and on a pure model of
 * what a user can observe, in lockstep (fast-check `fc.commands` + `fc.asyncModelRun`). After
 * every command the layer's answer must equal the model's (the result, or the error's tag with
 * the fields the model predicts of it) and, whole, the reference layer's (`DossierMemory` by default: a success's every field, a refusal's
 * envelope with its message, hint and fields); every stored record must decode, and the
 * invariants must hold: plan revisions only grow, each journal event is stored once, one monitor
 * run per due window, retained bytes never change. At the end of the sequence what a user reads
 * back (plan, journals, monitor) must be what the model predicts from the sequence alone (on
 * every layer, the reference included) and the reference layer's, whole. A failure
 * shrinks to the shortest sequence of commands that shows it (docs/testing.md):
 *
 *   await DossierHarness.assert(() => ({ layer: dossierOver(myBase) }), { seed: 42, numRuns: 50 })
 *
 * The commands: plan start and checkpoint (with current, stale and missing revisions, goal
 * replacement, step ids given twice, sources registered from captures), journal appends (single
 * events and batches, retried, conflicting: the same id with other content, naming unknown or
 * already created candidates, repeating an id in one batch), captures of work-folder files (the
 * same bytes twice, other bytes), edits of retained files behind the services' back, and the
 * monitor (subscriptions, due runs asked for repeatedly in each window, runs finished, time moved
 * on by the model's clock, given to every time-dependent method as `now`).
 *
 * Over 400 lines: the model, its commands (each a class pairing the layer's call with the model's
 * expected answer) and the invariants read one state type, and must change together (a command
 * without its model step is a harness that agrees with anything). Splitting by subsystem is the
 * next step when grants join (docs/testing.md).
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as fc from "effect/FastCheck"
import type * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import { createHash } from "node:crypto"
import { isDeepStrictEqual } from "node:util"
import { envelopeOf } from "../commands/Envelope.js"
import type { CommandFailure } from "../commands/Work.js"
import { DossierMemory } from "../layers/Dossier.js"
import { FileStore } from "../services/FileStore.js"
import { Ingest } from "../services/Ingest.js"
import { Journal } from "../services/Journal.js"
import { Monitor } from "../services/Monitor.js"
import { Plan } from "../services/Plan.js"

/** The services the harness drives. `DossierMemory`, `DossierLive(dir)` and `dossierOver(base)` provide them. */
export type Services = Plan | Journal | Ingest | Monitor | FileStore

/** A layer to check, built afresh for each sequence, with optional hooks. */
export interface AdapterUnderTest {
  readonly layer: Layer.Layer<Services, unknown>
  /**
   * Change a file's bytes behind the services' back, as a person with an editor would. Omitted:
   * `FileStore.writeAtomic` (a store that refuses to replace a retained file then answers with
   * its refusal, and the harness skips the edit).
   */
  readonly edit?: (path: string, data: string) => void
  /**
   * Build the layer afresh for every command (as every CLI call is a new process) instead of once
   * for the sequence: what one instance keeps in memory between calls is then never used.
   */
  readonly freshPerCommand?: boolean
  /** Called after the sequence (remove a temporary folder). */
  readonly dispose?: () => void
  /**
   * Run after every command that succeeds, before the invariants are read (a shared store
   * refreshes the folder's view from the store: `dossier pull`).
   */
  readonly afterCommand?: () => Promise<void>
  /**
   * False: the harness makes no edits behind the services' back (a layer whose retained files no
   * editor reaches). A shared store's layer gives `edit` over this host's view instead: a bound
   * folder answers an edited view as a plain folder answers an edited file.
   */
  readonly edits?: boolean
}

// ---------------------------------------------------------------------------------------------
// The model

interface StoredEvent {
  readonly id: string
  /** Canonical content (sorted keys): equal content ⇔ equal text. */
  readonly text: string
  readonly spec: EventSpec
}

interface StudyModel {
  readonly events: Array<StoredEvent>
  readonly candidates: Set<string>
}

interface Capture {
  /** Learned from the first capture of these bytes, then required of every later one. */
  readonly originalPath: string
  readonly sourcePath: string
  readonly originalSha: string
  readonly sourceSha: string
}

interface PlanModel {
  revision: number
  goal: string
  /** The model's time of the last change (a start, a checkpoint, a goal replaced). */
  updatedAt: number
  /** Completed steps by id, each with the time it was first completed (kept once, in order). */
  readonly stepIds: Map<string, number>
  /** Registered sources: path → the digest registered. */
  readonly sources: Map<string, string>
  /** Goals replaced, in order, with the time each was replaced. */
  readonly previousGoals: Array<{ readonly goal: string; readonly replacedAt: string }>
}

interface SubscriptionModel {
  readonly id: string
  /** The model's time it was created (lists are in creation order, then by id). */
  readonly createdAt: number
  readonly anchor: string
  /** Start of window 0 of its daily grid (ms). */
  readonly first: number
  /** Windows (their start, ms) a run was created for, with that run's id and the model's time it was created. */
  readonly runs: Map<number, { readonly id: string; readonly createdAt: number }>
  /** The active run (planned, not finished), if any. */
  active: { readonly runId: string; readonly window: number; revision: number } | null
  /** Start of the next due window (ms). */
  nextDue: number
}

export interface Model {
  plan: PlanModel | null
  /** The highest plan revision ever read back (revisions only grow). */
  highestRevision: number
  readonly studies: Map<string, StudyModel>
  /** Captures by page (the input file's bytes). */
  readonly captures: Map<string, Capture>
  /** Retained files and the bytes they must keep (sha256), unless the harness edited them. */
  readonly retained: Map<string, string>
  /** Retained files the harness edited, with the digest of the bytes it wrote (no longer the capture's). */
  readonly edited: Map<string, string>
  /** The model's clock (ms), given as `now` to time-dependent methods. */
  now: number
  readonly subscriptions: Map<string, SubscriptionModel>
  /** The last journal append asked for (a retry sends it again). */
  lastAppend: { readonly study: string; readonly events: ReadonlyArray<EventSpec>; readonly single: boolean } | null
}

const START = Date.UTC(2026, 0, 5, 9, 0, 0)
const DAY = 24 * 3600 * 1000

const emptyModel = (): Model => ({
  plan: null,
  highestRevision: 0,
  studies: new Map(),
  captures: new Map(),
  retained: new Map(),
  edited: new Map(),
  now: START,
  subscriptions: new Map(),
  lastAppend: null
})

/** JSON with sorted keys: the model's own notion of "the same content". */
const canonical = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(canonical).join(",")}]`
    : typeof v === "object" && v !== null
    ? `{${
      Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(",")
    }}`
    : JSON.stringify(v)

// ---------------------------------------------------------------------------------------------
// Running a command on the services and comparing

/**
 * What a command answered: a projection of its value, or the error's tag with the fields of it
 * that the model predicts (a `StaleRevision`'s `expected` and `actual`, an `EditedRetainedFile`'s
 * `path` and digests, …; the layer's answer is read with the fields the model names).
 */
export type Outcome = { readonly ok: unknown } | { readonly error: string; readonly [field: string]: unknown }

/** The first command where the layer and the model disagreed, or an invariant broke. */
export class HarnessMismatch extends Error {
  constructor(
    readonly command: string,
    readonly expected: unknown,
    readonly actual: unknown,
    readonly what = "answer"
  ) {
    super(`${command}: ${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`)
    this.name = "HarnessMismatch"
  }
}

export interface Real {
  /** Run an effect on the layer under test. */
  readonly run: <A, E>(effect: Effect.Effect<A, E, Services>) => Promise<A>
  readonly edit: ((path: string, data: string) => void) | undefined
  readonly edits: boolean
  /** Run a read on the layer under test (no `afterCommand`). */
  readonly read: <A, E>(effect: Effect.Effect<A, E, Services>) => Promise<A>
  /** Run an effect on the reference layer, in lockstep (none: the model alone judges). */
  readonly reference: (<A, E>(effect: Effect.Effect<A, E, Services>) => Promise<A>) | undefined
}

/**
 * A whole answer as a user meets it: a success's value as JSON (what `--json` prints of it), or
 * a refusal's envelope (`_tag`, `message`, `retryable`, `hint` and every field of the error: the
 * CLI's `error` object and the MCP tool's result, src/commands/Envelope.ts).
 *
 * Nothing is normalized away: every time a command depends on is the model's `now`, given to
 * both layers, and every name a command makes (a capture's paths, a run's id) is derived from
 * what it was given, so two layers that store the same records answer the same bytes. A layer
 * that names its own place in an answer (an absolute path, a store's URL) would be a slip, since
 * outputs name work-folder paths only (spec: "Paths in output are relative to the work folder").
 */
export type Answer = { readonly ok: unknown } | { readonly error: Record<string, unknown> }

const json = (v: unknown): unknown => v === undefined ? undefined : JSON.parse(JSON.stringify(v))

const answerOf = <A>(r: Either.Either<A, { readonly _tag: string }>): Answer =>
  Either.isLeft(r)
    ? { error: json(envelopeOf(r.left as CommandFailure)) as Record<string, unknown> }
    : { ok: json(r.right) }

const outcomeOf = async <A>(
  real: Real,
  command: string,
  e: Effect.Effect<A, { readonly _tag: string }, Services>,
  view: (a: A) => unknown
): Promise<Outcome> => {
  const r = await real.run(Effect.either(e))
  if (real.reference !== undefined) {
    const expected = answerOf(await real.reference(Effect.either(e)))
    const actual = answerOf(r)
    if (!isDeepStrictEqual(actual, expected)) {
      throw new HarnessMismatch(command, expected, actual, "the reference layer's answer")
    }
  }
  return Either.isLeft(r) ? { ...(json(r.left) as object), error: r.left._tag } : { ok: view(r.right) }
}

const tally = new Map<string, number>()

/**
 * How often each command met each answer since the process started (`"journal.append → ok"`,
 * `"plan.checkpoint → StaleRevision"`, …): what the generated sequences exercised.
 */
export const coverage = (): ReadonlyMap<string, number> => new Map([...tally].sort(([a], [b]) => (a < b ? -1 : 1)))

const count = (key: string) => tally.set(key, (tally.get(key) ?? 0) + 1)

const same = (command: string, expected: Outcome, answered: Outcome) => {
  count(`${command.slice(0, command.indexOf("("))} → ${"ok" in answered ? "ok" : answered.error}`)
  // A refusal is read with the fields the model predicts for it (the tag alone when none).
  const actual = "ok" in expected || "ok" in answered
    ? answered
    : Object.fromEntries(Object.keys(expected).map((k) => [k, answered[k]])) as Outcome
  if (!isDeepStrictEqual(expected, actual)) throw new HarnessMismatch(command, expected, actual)
}

const ok = (v: unknown): Outcome => ({ ok: v })
/** A refusal: its tag, and the fields the model predicts of it. */
const err = (tag: string, fields: Record<string, unknown> = {}): Outcome => ({ error: tag, ...fields })

// ---------------------------------------------------------------------------------------------
// Invariants, checked after every command

const utf8 = new TextDecoder()

/** The studies the commands append to. */
const STUDIES = ["s", "t"] as const

const journalPath = (study: string) => `research/${study}/research-events.jsonl`

/**
 * What a user reads back after a command, each answer whole (`Answer`): the plan (`plan show`),
 * the studies and each study's journal (`journal inspect`), the monitor's records, what is due
 * at the model's time and each subscription (`monitor list`, `due`, `show`).
 */
const views = (
  m: Model
): ReadonlyArray<readonly [string, Effect.Effect<unknown, { readonly _tag: string }, Services>]> => [
  ["plan inspect", Effect.flatMap(Plan, (p) => p.inspect)],
  ["journal studies", Effect.flatMap(Journal, (j) => j.studies)],
  ...STUDIES.map((study) => [`journal inspect ${study}`, Effect.flatMap(Journal, (j) => j.inspect(study))] as const),
  ["monitor list", Effect.flatMap(Monitor, (s) => s.list)],
  ["monitor due", Effect.flatMap(Monitor, (s) => s.due({ now: new Date(m.now) }))],
  ...["m1", "m2", "m3"].map((id) =>
    [`monitor show ${id}`, Effect.flatMap(Monitor, (s) => s.showSubscription(id))] as const
  )
]

/**
 * Read back whole at the end of a sequence, the records are the reference layer's. (Once per
 * sequence, not after every command: the reads cost as much as the commands, and a record that
 * differs mid-sequence and is repaired by the end is still met by the answers compared after
 * every command.)
 */
const compareViews = async (m: Model, real: Real): Promise<void> => {
  if (real.reference === undefined) return
  // One run for them all: a layer built afresh per command is built once for its reads.
  const all = Effect.forEach(views(m), ([, view]) => Effect.map(Effect.either(view), answerOf))
  const expected = await real.reference(all)
  const actual = await real.read(all)
  views(m).forEach(([what], i) => {
    if (!isDeepStrictEqual(actual[i], expected[i])) {
      throw new HarnessMismatch("after the sequence", expected[i], actual[i], `${what}: the reference layer's answer`)
    }
  })
}

const iso = (ms: number) => new Date(ms).toISOString()

/** The plan as `plan inspect` shows it, in the fields the model predicts. */
const planView = (m: Model): unknown => {
  const plan = m.plan
  if (plan === null) return { state: "none" }
  // A registered source whose file now holds other bytes (edited by hand) is a finding.
  const findings = [...plan.sources].flatMap(([path, registered]) => {
    const capture = [...m.captures.values()].find((c) => c.sourcePath === path)
    const current = m.edited.get(path) ?? capture?.sourceSha
    return current === registered ? [] : [{ kind: "source-changed", path, expected: registered, actual: current }]
  })
  return {
    state: "active",
    revision: plan.revision,
    goal: plan.goal,
    updatedAt: iso(plan.updatedAt),
    completedSteps: [...plan.stepIds].map(([id, at]) => ({ id, summary: `did ${id}`, at: iso(at) })),
    sources: [...plan.sources].map(([path, sha256]) => ({ path, sha256 })),
    previousGoals: plan.previousGoals,
    verification: { state: findings.length === 0 ? "current" : "needs-attention", findings }
  }
}

/** A study as `journal inspect` shows it, in the fields the model predicts. */
const studyView = (s: StudyModel): unknown => {
  const events = s.events
  const candidates = new Map<string, { id: string; title: string; createdBy: string; lastEvaluation: unknown }>()
  let checkpoint: unknown = null
  for (const { id, spec } of events) {
    if (spec.type === "candidate_created") {
      candidates.set(spec.candidate, { id: spec.candidate, title: spec.title, createdBy: id, lastEvaluation: null })
    } else if (spec.type === "evaluation_recorded") {
      candidates.get(spec.candidate)!.lastEvaluation = { decision: spec.decision, eventId: id }
    } else checkpoint = { summary: spec.summary, eventId: id }
  }
  const last = events.at(-1)
  return {
    events: events.length,
    head: last === undefined ? null : { seq: events.length, id: last.id },
    candidates: [...candidates.values()].map((c) => ({
      ...c,
      status: c.lastEvaluation === null
        ? "created"
        : (c.lastEvaluation as { decision: string }).decision === "accept"
        ? "accepted"
        : "rejected"
    })),
    checkpoint
  }
}

/** The monitor as `monitor list` and `monitor due` show it at the model's time, in the fields the model predicts. */
const monitorView = (m: Model): unknown => {
  const byCreation = (a: { createdAt: number; id: string }, b: { createdAt: number; id: string }) =>
    a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  const subs = [...m.subscriptions.values()].sort(byCreation)
  return {
    subscriptions: subs.map((s) => ({ id: s.id, activeRunId: s.active?.runId ?? null })),
    runs: subs.flatMap((s) =>
      [...s.runs].map(([window, { createdAt, id }]) => ({
        createdAt,
        id,
        subscriptionId: s.id,
        status: s.active?.runId === id ? "planned" : "cancelled",
        windowStart: iso(window)
      }))
    ).sort(byCreation).map(({ createdAt: _, ...run }) => run),
    due: subs.filter((s) => s.active === null && m.now >= s.nextDue).map((s) => s.id)
  }
}

type Inspected = {
  readonly [k: string]: unknown
}

/** Pick the fields the model predicts from what a layer answered (arrays element by element). */
const pick = (want: unknown, got: unknown): unknown => {
  if (Array.isArray(want)) return Array.isArray(got) ? got.map((g, i) => pick(want[i] ?? want[0], g)) : got
  if (typeof want !== "object" || want === null || typeof got !== "object" || got === null) return got
  return Object.fromEntries(Object.keys(want).map((k) => [k, pick((want as Inspected)[k], (got as Inspected)[k])]))
}

/**
 * What a user reads back at the end of the sequence, as the model predicts it from the sequence
 * alone: the plan (revision, goal, steps, sources, replaced goals, the findings of edited sources),
 * each study (events, head, candidates and their last decision, the last checkpoint), the
 * monitor's subscriptions and runs, and which subscriptions are due. Checked on every layer, the
 * reference included, so that a slip every layer shares is caught too.
 */
const predictViews = async (m: Model, real: Real): Promise<void> => {
  const read = Effect.all({
    plan: Effect.flatMap(Plan, (p) => p.inspect),
    studies: Effect.flatMap(Journal, (j) => j.studies),
    journals: Effect.forEach(STUDIES, (study) => Effect.either(Effect.flatMap(Journal, (j) => j.inspect(study)))),
    list: Effect.flatMap(Monitor, (s) => s.list),
    due: Effect.flatMap(Monitor, (s) => s.due({ now: new Date(m.now) }))
  })
  const got = json(await real.read(read)) as {
    plan: unknown
    studies: ReadonlyArray<{ study: string; head: unknown }>
    journals: ReadonlyArray<{ _tag: "Left" | "Right"; right?: unknown; left?: { _tag: string } }>
    list: { subscriptions: ReadonlyArray<Inspected>; runs: ReadonlyArray<Inspected> }
    due: { subscriptions: ReadonlyArray<{ id: string; due: boolean }> }
  }
  const expect = (what: string, want: unknown, actual: unknown) => {
    const projected = pick(want, actual)
    if (!isDeepStrictEqual(projected, want)) throw new HarnessMismatch("after the sequence", want, projected, what)
  }
  const plan = planView(m) as { state: string; verification?: { state: string } }
  count(`plan inspect → ${plan.verification?.state ?? plan.state}`)
  expect("plan inspect", plan, got.plan)
  const studies = [...m.studies].filter(([, s]) => s.events.length > 0).map(([study]) => study).sort()
  expect(
    "journal studies",
    studies.map((study) => ({ study, head: (studyView(m.studies.get(study)!) as { head: unknown }).head })),
    got.studies
  )
  STUDIES.forEach((study, i) => {
    const r = got.journals[i]!
    // A study no append has reached is not there.
    const s = m.studies.get(study)
    expect(
      `journal inspect ${study}`,
      s === undefined ? "StudyNotFound" : studyView(s),
      r._tag === "Right" ? r.right : r.left?._tag
    )
  })
  const monitor = monitorView(m) as { subscriptions: unknown; runs: unknown; due: unknown }
  expect("monitor list", { subscriptions: monitor.subscriptions, runs: monitor.runs }, got.list)
  expect("monitor due", monitor.due, got.due.subscriptions.filter((s) => s.due).map((s) => s.id))
}

const checkInvariants = async (m: Model, real: Real, command: string): Promise<void> => {
  const fail = (what: string, expected: unknown, actual: unknown) => {
    throw new HarnessMismatch(command, expected, actual, what)
  }
  await real.run(Effect.gen(function*() {
    const plan = yield* Plan
    const journal = yield* Journal
    const store = yield* FileStore
    // The plan decodes, holds the model's revision, and revisions never go back.
    const doc = yield* Effect.either(plan.read)
    if (Either.isLeft(doc)) return fail("plan.md decodes", "a plan", doc.left._tag)
    const revision = Option.match(doc.right, { onNone: () => 0, onSome: (d) => d.revision })
    if (revision < m.highestRevision) fail("plan revisions only grow", `≥ ${m.highestRevision}`, revision)
    if (revision !== (m.plan?.revision ?? 0)) fail("plan revision", m.plan?.revision ?? 0, revision)
    if (Option.isSome(doc.right)) {
      const d = doc.right.value
      if (d.goal !== m.plan?.goal) fail("plan goal", m.plan?.goal, d.goal)
      const sources = Object.fromEntries(d.sources.map((s) => [s.path, s.sha256]))
      if (!isDeepStrictEqual(sources, Object.fromEntries(m.plan!.sources))) {
        fail("plan sources", Object.fromEntries(m.plan!.sources), sources)
      }
    }
    m.highestRevision = Math.max(m.highestRevision, revision)
    // Every journal line decodes, in order, and holds each event once: the model's events.
    for (const study of STUDIES) {
      const s = m.studies.get(study)
      const bytes = yield* Effect.either(store.read(journalPath(study)))
      if (s === undefined) {
        // No append of this study succeeded: a refused one wrote nothing.
        if (Either.isRight(bytes) && bytes.right.byteLength > 0) {
          fail(`${study}: no events stored`, "", utf8.decode(bytes.right))
        }
        continue
      }
      if (Either.isLeft(bytes)) return fail(`${study}: journal readable`, "bytes", bytes.left._tag)
      const text = utf8.decode(bytes.right)
      if (text !== "" && !text.endsWith("\n")) fail(`${study}: journal ends with a whole line`, "\\n", text.slice(-20))
      const lines = text === "" ? [] : text.slice(0, -1).split("\n")
      const ids: Array<string> = []
      lines.forEach((line, i) => {
        let v: { seq?: unknown; event?: { id?: unknown } }
        try {
          v = JSON.parse(line)
        } catch {
          return fail(`${study}: line ${i + 1} decodes`, "JSON", line)
        }
        if (v.seq !== i + 1) fail(`${study}: line ${i + 1} seq`, i + 1, v.seq)
        ids.push(String(v.event?.id))
      })
      if (new Set(ids).size !== ids.length) fail(`${study}: each event once`, "distinct ids", ids)
      const want = s.events.map((e) => e.id)
      if (!isDeepStrictEqual(ids, want)) fail(`${study}: stored events`, want, ids)
      const inspected = yield* Effect.either(journal.inspect(study))
      if (Either.isLeft(inspected)) return fail(`${study}: journal inspect`, "a projection", inspected.left._tag)
      if (inspected.right.events !== want.length) fail(`${study}: inspect events`, want.length, inspected.right.events)
    }
    // Retained bytes never change (except those the harness edited on purpose).
    for (const [path, sha] of m.retained) {
      if (m.edited.has(path)) continue
      const d = yield* Effect.either(store.hash(path))
      if (Either.isLeft(d)) return fail(`retained ${path}`, sha, d.left._tag)
      if (d.right.sha256 !== sha) fail(`retained ${path} keeps its bytes`, sha, d.right.sha256)
    }
    // One run per window: no two runs of a subscription share a window start.
    if (m.subscriptions.size > 0) {
      const monitor = yield* Monitor
      const list = yield* Effect.either(monitor.list)
      if (Either.isLeft(list)) return fail("monitor list", "a list", list.left._tag)
      const seen = new Set<string>()
      for (const run of list.right.runs) {
        if (run.status === "unreadable") fail("monitor records decode", "a run", run.id)
        const key = `${run.subscriptionId}@${run.windowStart}`
        if (seen.has(key)) fail("one run per window", "one run", key)
        seen.add(key)
      }
      const want = [...m.subscriptions.values()].reduce((n, s) => n + s.runs.size, 0)
      if (list.right.runs.length !== want) fail("monitor runs", want, list.right.runs.length)
      for (const sub of list.right.subscriptions) {
        if (sub.status === "unreadable") fail("monitor records decode", "a subscription", sub.id)
      }
    }
  }))
}

// ---------------------------------------------------------------------------------------------
// Commands

type Cmd = fc.AsyncCommand<Model, Real>

abstract class Base implements Cmd {
  /** The rest of the label (fixed: a command object is run again while shrinking, on other models). */
  protected resolved = ""
  abstract readonly label: string
  check(_m: Readonly<Model>): boolean {
    return true
  }
  abstract step(m: Model, real: Real): Promise<void>
  async run(m: Model, real: Real): Promise<void> {
    await this.step(m, real)
    await checkInvariants(m, real, this.toString())
  }
  toString(): string {
    return `${this.label}${this.resolved}`
  }
}

type RevisionChoice = "current" | "stale" | "ahead" | "none"

/** A revision relative to the model's: the current one, an older or a newer one, or none. */
const pickRevision = (m: Model, choice: RevisionChoice): number | undefined => {
  const rev = m.plan?.revision ?? 1
  switch (choice) {
    case "current":
      return rev
    case "stale":
      return rev > 1 ? rev - 1 : rev + 2
    case "ahead":
      return rev + 1
    case "none":
      return undefined
  }
}

class PlanStart extends Base {
  constructor(readonly goal: string, readonly replace: boolean, readonly expected: RevisionChoice) {
    super()
  }
  get label() {
    return `plan.start(${this.goal}${this.replace ? ", replace" : ""}`
  }
  async step(m: Model, real: Real) {
    const expected = pickRevision(m, this.expected)
    this.resolved = `${this.expected === "none" ? "" : `, expected ${this.expected}`})`
    const actual = await outcomeOf(
      real,
      this.toString(),
      Effect.flatMap(
        Plan,
        (p) =>
          p.start({ goal: this.goal, limits: [], nextAction: "read" }, {
            replaceGoal: this.replace,
            ...(expected === undefined || expected === null ? {} : { expected }),
            now: new Date(m.now)
          })
      ),
      (r) => r
    )
    const want = ((): Outcome => {
      const plan = m.plan
      // A revision goes only with replacing the goal: alone it is refused, never ignored.
      if (!this.replace && expected !== undefined && expected !== null) return err("InvalidInput")
      // Replacing the goal needs the revision reconciled, whatever the dossier holds (no plan, the
      // same goal): never a silent creation or no-op.
      if (this.replace && expected === undefined) return err("InvalidInput")
      // Replacing the goal of a revision that does not exist: there is no plan (revision 0).
      if (plan === null && expected !== undefined && expected !== null) {
        return err("StaleRevision", { expected, actual: 0 })
      }
      if (plan === null) {
        m.plan = {
          revision: 1,
          goal: this.goal,
          updatedAt: m.now,
          stepIds: new Map(),
          sources: new Map(),
          previousGoals: []
        }
        return ok({ revision: 1, created: true })
      }
      if (expected !== undefined && expected !== plan.revision) {
        return err("StaleRevision", { expected, actual: plan.revision })
      }
      if (plan.goal === this.goal) return ok({ revision: plan.revision, created: false })
      if (!this.replace) return err("GoalConflict", { current: plan.goal })
      plan.revision++
      plan.previousGoals.push({ goal: plan.goal, replacedAt: new Date(m.now).toISOString() })
      plan.goal = this.goal
      plan.updatedAt = m.now
      return ok({ revision: plan.revision, created: false, replaced: true })
    })()
    same(this.toString(), want, actual)
  }
}

class PlanCheckpoint extends Base {
  constructor(
    readonly expected: RevisionChoice,
    readonly stepId: string | null,
    /** Register the readable copy of the capture of this page (when captured), or a missing source. */
    readonly source: string | null
  ) {
    super()
  }
  get label() {
    return `plan.checkpoint(${
      [this.stepId === null ? "" : `step ${this.stepId}`, this.source === null ? "" : `source of ${this.source}`]
        .filter((s) => s !== "").join(", ")
    }`
  }
  async step(m: Model, real: Real) {
    const expected = pickRevision(m, this.expected === "none" ? "current" : this.expected)!
    const capture = this.source === null ? undefined : m.captures.get(this.source)
    const sourcePath = this.source === null ? undefined : capture?.sourcePath ?? "research/sources/never-captured.md"
    this.resolved = `${this.stepId === null && this.source === null ? "" : ", "}expected ${
      this.expected === "none" ? "current" : this.expected
    })`
    const input = {
      ...(this.stepId === null ? {} : { completedSteps: [{ summary: `did ${this.stepId}`, id: this.stepId }] }),
      ...(sourcePath === undefined ? {} : { sources: [{ path: sourcePath, origin: "https://example.org/page" }] }),
      nextAction: "continue"
    }
    const actual = await outcomeOf(
      real,
      this.toString(),
      Effect.flatMap(Plan, (p) => p.checkpoint(input, { expected, now: new Date(m.now) })),
      (r) => r
    )
    const want = ((): Outcome => {
      const plan = m.plan
      if (plan === null) return err("NoPlan")
      if (expected !== plan.revision) return err("StaleRevision", { expected, actual: plan.revision })
      if (sourcePath !== undefined) {
        if (capture === undefined) return err("FileNotFound", { path: sourcePath })
        // An edited file is registered, or checked, with the digest of the bytes it now holds.
        const current = m.edited.get(sourcePath) ?? capture.sourceSha
        const registered = plan.sources.get(sourcePath)
        if (registered !== undefined && registered !== current) {
          return err("EditedRetainedFile", { path: sourcePath, expected: registered, actual: current })
        }
        plan.sources.set(sourcePath, current)
      }
      if (this.stepId !== null && !plan.stepIds.has(this.stepId)) plan.stepIds.set(this.stepId, m.now)
      plan.revision++
      plan.updatedAt = m.now
      return ok({ revision: plan.revision })
    })()
    same(this.toString(), want, actual)
  }
}

/** Journal events from a small pool of ids and values, so that retries and conflicts are frequent. */
type EventSpec =
  | { readonly id: string; readonly type: "candidate_created"; readonly candidate: string; readonly title: string }
  | {
    readonly id: string
    readonly type: "evaluation_recorded"
    readonly candidate: string
    readonly decision: "accept" | "reject"
  }
  | { readonly id: string; readonly type: "checkpoint_saved"; readonly summary: string }

const eventOf = (e: EventSpec): Record<string, unknown> => {
  switch (e.type) {
    case "candidate_created":
      return { id: e.id, type: e.type, candidate: { id: e.candidate, title: e.title } }
    case "evaluation_recorded":
      return {
        id: e.id,
        type: e.type,
        candidateId: e.candidate,
        evaluation: { evaluatorVersion: "v1", metrics: { score: 1 }, decision: e.decision }
      }
    case "checkpoint_saved":
      return { id: e.id, type: e.type, checkpoint: { summary: e.summary, nextAction: "next", reviewed: false } }
  }
}

const describeEvent = (e: EventSpec) =>
  e.type === "candidate_created"
    ? `${e.id}:create ${e.candidate}/${e.title}`
    : e.type === "evaluation_recorded"
    ? `${e.id}:eval ${e.candidate} ${e.decision}`
    : `${e.id}:checkpoint ${e.summary}`

class JournalAppend extends Base {
  constructor(readonly study: string, readonly events: ReadonlyArray<EventSpec>, readonly single: boolean) {
    super()
  }
  get label() {
    const body = this.events.map(describeEvent)
    return `journal.append(${this.study}, ${this.single ? body[0] : `[${body.join(", ")}]`})`
  }
  async step(m: Model, real: Real) {
    m.lastAppend = { study: this.study, events: this.events, single: this.single }
    const input = this.single ? eventOf(this.events[0]!) : this.events.map(eventOf)
    const actual = await outcomeOf(
      real,
      this.toString(),
      Effect.flatMap(Journal, (j) => j.append(this.study, input as never)),
      (r) => r
    )
    const want = ((): Outcome => {
      const ids = this.events.map((e) => e.id)
      const twice = ids.find((id, i) => ids.indexOf(id) !== i)
      if (twice !== undefined) return err("DuplicateEventId", { id: twice })
      const s = m.studies.get(this.study) ?? { events: [], candidates: new Set<string>() }
      const appended: Array<StoredEvent> = []
      const skipped: Array<string> = []
      const created = new Set<string>()
      const has = (c: string) => s.candidates.has(c) || created.has(c)
      for (const spec of this.events) {
        const text = canonical(eventOf(spec))
        const stored = s.events.find((e) => e.id === spec.id)
        if (stored !== undefined) {
          if (stored.text !== text) return err("ConflictingEvent", { id: spec.id })
          skipped.push(spec.id)
          continue
        }
        if (spec.type === "candidate_created") {
          if (has(spec.candidate)) return err("InvalidInput")
          created.add(spec.candidate)
        } else if (spec.type === "evaluation_recorded" && !has(spec.candidate)) {
          return err("UnknownCandidate", { eventId: spec.id, candidateId: spec.candidate })
        }
        appended.push({ id: spec.id, text, spec })
      }
      for (const e of appended) s.events.push(e)
      for (const c of created) s.candidates.add(c)
      m.studies.set(this.study, s)
      const last = s.events[s.events.length - 1]!
      return ok({
        study: this.study,
        appended: appended.map((e) => e.id),
        skipped,
        head: { seq: s.events.length, id: last.id }
      })
    })()
    same(this.toString(), want, actual)
  }
}

/** The last append sent again, as a client does when its answer was lost. */
class JournalRetry extends Base {
  private readonly inner: { current: JournalAppend | null } = { current: null }
  get label() {
    return "journal.retry(the last append)"
  }
  override check(m: Readonly<Model>) {
    return m.lastAppend !== null
  }
  async step(m: Model, real: Real) {
    const last = m.lastAppend!
    this.inner.current = new JournalAppend(last.study, last.events, last.single)
    await this.inner.current.step(m, real)
  }
}

/** The pages a capture can import: two with different bytes. */
const PAGES: Record<string, string> = {
  p1:
    "<html><head><title>One</title></head><body><main><h1>One</h1><p>The first page says that the sky is blue on clear days.</p></main></body></html>\n",
  p2:
    "<html><head><title>Two</title></head><body><main><h1>Two</h1><p>The second page says that grass is green in the spring.</p></main></body></html>\n"
}
const inputFile = (page: string) => `inbox/${page}.html`

class CaptureFile extends Base {
  constructor(readonly page: string) {
    super()
  }
  get label() {
    return `ingest.importFile(${this.page})`
  }
  async step(m: Model, real: Real) {
    const actual = await outcomeOf(
      real,
      this.toString(),
      Effect.flatMap(
        Ingest,
        (i) => i.importFile(inputFile(this.page), `https://example.org/${this.page}`, { now: new Date(m.now) })
      ),
      (r) => r
    )
    const known = m.captures.get(this.page)
    if (known === undefined) {
      if (!("ok" in actual)) throw new HarnessMismatch(this.toString(), "a capture", actual)
      const r = actual.ok as {
        original: { path: string; sha256: string }
        source: { path: string; sha256: string }
        reused: boolean
      }
      const c: Capture = {
        originalPath: r.original.path,
        sourcePath: r.source.path,
        originalSha: r.original.sha256,
        sourceSha: r.source.sha256
      }
      // The original holds the page's bytes, and says so by their digest.
      same(
        this.toString(),
        ok({ reused: false, original: createHash("sha256").update(PAGES[this.page]!).digest("hex") }),
        ok({ reused: r.reused, original: r.original.sha256 })
      )
      m.captures.set(this.page, c)
      m.retained.set(c.originalPath, c.originalSha)
      m.retained.set(c.sourcePath, c.sourceSha)
      return
    }
    // The same bytes again: the same files, kept (not rewritten); refused once a copy was edited,
    // naming the first edited file of the capture (the original, then the readable copy).
    const edited = [[known.originalPath, known.originalSha], [known.sourcePath, known.sourceSha]].find(([p]) =>
      m.edited.has(p!)
    )
    const want = edited !== undefined
      ? err("EditedRetainedFile", { path: edited[0], expected: edited[1], actual: m.edited.get(edited[0]!) })
      : ok({ original: known.originalPath, source: known.sourcePath, reused: true })
    const got = "ok" in actual
      ? ok({
        original: (actual.ok as { original: { path: string } }).original.path,
        source: (actual.ok as { source: { path: string } }).source.path,
        reused: (actual.ok as { reused: boolean }).reused
      })
      : actual
    same(this.toString(), want, got)
  }
}

class EditRetained extends Base {
  constructor(readonly page: string, readonly which: "original" | "source") {
    super()
  }
  get label() {
    return `edit(${this.which} of ${this.page})`
  }
  override check(m: Readonly<Model>) {
    return m.captures.has(this.page)
  }
  async step(m: Model, real: Real) {
    const c = m.captures.get(this.page)!
    const path = this.which === "original" ? c.originalPath : c.sourcePath
    const data = `edited by hand ${m.now}\n`
    if (!real.edits) return
    const write = Effect.either(Effect.flatMap(FileStore, (s) => s.writeAtomic(path, data)))
    if (real.edit !== undefined) real.edit(path, data)
    else {
      const r = await real.run(write)
      if (Either.isLeft(r)) return
    }
    // The reference layer's copy is edited the same way (its store takes an overwrite).
    if (real.reference !== undefined) {
      const r = await real.reference(write)
      if (Either.isLeft(r)) throw new HarnessMismatch(this.toString(), "the reference edited", r.left._tag, "edit")
    }
    m.edited.set(path, createHash("sha256").update(data).digest("hex"))
  }
}

/** The model's clock moves on (the monitor's windows are days). */
class Tick extends Base {
  constructor(readonly hours: number) {
    super()
  }
  get label() {
    return `tick(${this.hours}h)`
  }
  async step(m: Model) {
    m.now += this.hours * 3600 * 1000
  }
}

const SUBSCRIPTION_TARGET = "what changed in the field"

/** The latest window of a daily grid starting at `first` that has started at `now` (-1: none). */
const latestWindow = (first: number, now: number) => (now < first ? -1 : Math.floor((now - first) / DAY))

class Subscribe extends Base {
  constructor(readonly id: string, readonly again = false) {
    super()
  }
  /** Window 0 starts at the model's time of the first request (local minutes, UTC): due at once. */
  private anchorAt: string | null = null
  anchor(m: Model) {
    return (this.anchorAt ??= m.subscriptions.get(this.id)?.anchor ?? new Date(m.now).toISOString().slice(0, 16))
  }
  override check(m: Readonly<Model>) {
    return this.again === m.subscriptions.has(this.id)
  }
  get label() {
    return `monitor.subscribe(${this.id})`
  }
  async step(m: Model, real: Real) {
    const actual = await outcomeOf(
      real,
      this.toString(),
      Effect.flatMap(
        Monitor,
        (s) =>
          s.createSubscription({
            id: this.id,
            kind: "literature",
            target: SUBSCRIPTION_TARGET,
            timezone: "UTC",
            cadence: { every: 1, unit: "day" },
            anchor: this.anchor(m)
          }, { now: new Date(m.now) })
      ),
      (r) => ({ created: r.created, nextDueAt: r.subscription.nextDueAt })
    )
    const known = m.subscriptions.get(this.id)
    if (known !== undefined) {
      return same(this.toString(), ok({ created: false, nextDueAt: new Date(known.nextDue).toISOString() }), actual)
    }
    if (!("ok" in actual)) throw new HarnessMismatch(this.toString(), "a subscription", actual)
    const nextDue = Date.parse((actual.ok as { nextDueAt: string }).nextDueAt)
    same(this.toString(), ok({ created: true, nextDueAt: new Date(nextDue).toISOString() }), actual)
    if (nextDue !== Date.parse(`${this.anchor(m)}Z`)) {
      throw new HarnessMismatch(
        this.toString(),
        `window 0 at the anchor ${this.anchor(m)}`,
        new Date(nextDue).toISOString()
      )
    }
    m.subscriptions.set(this.id, {
      id: this.id,
      createdAt: m.now,
      anchor: this.anchor(m),
      first: nextDue,
      runs: new Map(),
      active: null,
      nextDue
    })
  }
}

class DueRun extends Base {
  constructor(readonly id: string) {
    super()
  }
  override check(m: Readonly<Model>) {
    return this.id === "m3" || m.subscriptions.has(this.id)
  }
  get label() {
    return `monitor.createDueRun(${this.id})`
  }
  async step(m: Model, real: Real) {
    const actual = await outcomeOf(
      real,
      this.toString(),
      Effect.flatMap(Monitor, (s) => s.createDueRun({ subscriptionId: this.id }, { now: new Date(m.now) })),
      (r) => ({ created: r.created, runId: r.run.id, windowStart: r.run.windowStart })
    )
    const sub = m.subscriptions.get(this.id)
    if (sub === undefined) {
      return same(this.toString(), err("SubscriptionNotFound", { subscriptionId: this.id }), actual)
    }
    const latest = latestWindow(sub.first, m.now)
    const latestStart = sub.first + latest * DAY
    if (sub.active !== null) {
      // The window's run asked for again (a retry): the same run, nothing created.
      if (sub.active.window === latestStart) {
        return same(
          this.toString(),
          ok({ created: false, runId: sub.active.runId, windowStart: new Date(latestStart).toISOString() }),
          actual
        )
      }
      return same(this.toString(), err("ActiveRunExists", { runId: sub.active.runId }), actual)
    }
    if (m.now < sub.nextDue) {
      return same(this.toString(), err("NotDue", { nextDueAt: new Date(sub.nextDue).toISOString() }), actual)
    }
    const want = ok({ created: true, windowStart: new Date(latestStart).toISOString() })
    if (!("ok" in actual)) return same(this.toString(), want, actual)
    const r = actual.ok as { created: boolean; runId: string; windowStart: string }
    same(this.toString(), want, ok({ created: r.created, windowStart: r.windowStart }))
    sub.runs.set(latestStart, { id: r.runId, createdAt: m.now })
    sub.active = { runId: r.runId, window: latestStart, revision: 1 }
  }
}

class CancelRun extends Base {
  constructor(readonly id: string, readonly expected: "current" | "stale") {
    super()
  }
  get label() {
    return `monitor.cancelRun(active run of ${this.id}, ${this.expected} revision)`
  }
  override check(m: Readonly<Model>) {
    return (m.subscriptions.get(this.id)?.runs.size ?? 0) > 0
  }
  async step(m: Model, real: Real) {
    const sub = m.subscriptions.get(this.id)!
    const runId = sub.active?.runId ?? [...sub.runs.values()].at(-1)!.id
    const revision = sub.active !== null ? sub.active.revision : 2
    const expectedRevision = this.expected === "current" ? revision : revision + 1
    const actual = await outcomeOf(
      real,
      this.toString(),
      Effect.flatMap(
        Monitor,
        (s) => s.transitionRun({ runId, expectedRevision, to: "cancelled" }, { now: new Date(m.now) })
      ),
      (r) => ({ status: r.run.status, revision: r.run.revision })
    )
    const want = ((): Outcome => {
      if (expectedRevision !== revision) return err("StaleRevision", { expected: expectedRevision, actual: revision })
      if (sub.active === null) return err("InvalidTransition", { from: "cancelled", to: "cancelled" })
      sub.active = null
      // The next window is the first that starts after the run ended.
      sub.nextDue = Math.max(sub.nextDue, sub.first + (latestWindow(sub.first, m.now) + 1) * DAY)
      return ok({ status: "cancelled", revision: 2 })
    })()
    same(this.toString(), want, actual)
  }
}

// ---------------------------------------------------------------------------------------------
// Arbitraries

const revisionChoice = fc.constantFrom<RevisionChoice>("current", "current", "stale", "ahead", "none")
const eventId = fc.constantFrom("e1", "e2", "e3", "e4", "e5", "e6")
const eventSpec: fc.Arbitrary<EventSpec> = fc.oneof(
  fc.record({
    id: eventId,
    type: fc.constant("candidate_created" as const),
    candidate: fc.constantFrom("a", "b"),
    title: fc.constantFrom("t1", "t2")
  }),
  fc.record({
    id: eventId,
    type: fc.constant("evaluation_recorded" as const),
    candidate: fc.constantFrom("a", "b"),
    decision: fc.constantFrom<"accept" | "reject">("accept", "reject")
  }),
  fc.record({ id: eventId, type: fc.constant("checkpoint_saved" as const), summary: fc.constantFrom("x", "y") })
)

const page = fc.constantFrom(...Object.keys(PAGES))

const journalAppend: fc.Arbitrary<Cmd> = fc.tuple(
  fc.constantFrom<string>(STUDIES[0], STUDIES[0], STUDIES[1]),
  // Mostly distinct ids in a batch; sometimes one id twice (refused as a whole).
  fc.oneof(
    { arbitrary: fc.uniqueArray(eventSpec, { minLength: 1, maxLength: 3, selector: (e) => e.id }), weight: 4 },
    fc.array(eventSpec, { minLength: 2, maxLength: 3 })
  ),
  fc.boolean()
).map(([study, events, single]) => new JournalAppend(study, events, single && events.length === 1))

/** Every command the harness generates (see the module comment). */
export const commandArbitraries: ReadonlyArray<fc.Arbitrary<Cmd>> = [
  fc.tuple(fc.constantFrom("g1", "g2"), fc.boolean(), revisionChoice).map(([g, r, e]) => new PlanStart(g, r, e)),
  // A plain start (most starts above name a revision, and are refused): so that sequences hold a
  // plan often enough to register sources, edit them and read the findings back.
  fc.constantFrom("g1", "g2").map((g) => new PlanStart(g, false, "none")),
  fc.tuple(revisionChoice, fc.option(fc.constantFrom("s1", "s2"), { nil: null })).map(([e, s]) =>
    new PlanCheckpoint(e, s, null)
  ),
  fc.tuple(
    revisionChoice,
    fc.option(fc.constantFrom("s1", "s2"), { nil: null }),
    fc.option(fc.constantFrom(...Object.keys(PAGES), "p3"), { nil: null })
  )
    .map(([e, s, src]) => new PlanCheckpoint(e, s, src)),
  journalAppend,
  journalAppend,
  fc.constant(null).map(() => new JournalRetry()),
  fc.constant(null).map(() => new JournalRetry()),
  page.map((p) => new CaptureFile(p)),
  fc.tuple(page, fc.constantFrom<"original" | "source">("original", "source")).map(([p, w]) => new EditRetained(p, w)),
  // A capture's readable copy registered at the current revision, and one edited: so that a
  // source edited after it was registered (a finding, then EditedRetainedFile) is met often.
  page.map((p) => new PlanCheckpoint("current", null, p)),
  page.map((p) => new EditRetained(p, "source")),
  fc.constantFrom(1, 7, 25).map((h) => new Tick(h)),
  fc.constantFrom("m1", "m2").map((id) => new Subscribe(id)),
  fc.constantFrom("m1", "m2").map((id) => new Subscribe(id, true)),
  fc.constantFrom("m1", "m1", "m2", "m2", "m3").map((id) => new DueRun(id)),
  fc.constantFrom("m1", "m2").map((id) => new DueRun(id)),
  fc.tuple(fc.constantFrom("m1", "m2"), fc.constantFrom<"current" | "stale">("current", "current", "stale")).map((
    [id, e]
  ) => new CancelRun(id, e)),
  fc.tuple(fc.constantFrom("m1", "m2"), fc.constantFrom<"current" | "stale">("current")).map(([id, e]) =>
    new CancelRun(id, e)
  )
]

/** Sequences of up to `maxCommands` commands (default 40): what `check` takes. */
export const commands = (options: { readonly maxCommands?: number } = {}) =>
  fc.commands(commandArbitraries as Array<fc.Arbitrary<Cmd>>, {
    maxCommands: options.maxCommands ?? 40,
    size: "xlarge"
  })

/**
 * The layer whose whole answers the layer under test must give (`Answer`): by default
 * `DossierMemory`, built afresh for each sequence and run in lockstep, command by command, with
 * the harness's edits made on both. `null`: the model alone judges (its projections of successes
 * and the refusals' tags).
 */
export interface ReferenceOption {
  readonly reference?: Layer.Layer<Services, unknown> | null
}

/** Run one sequence on a fresh layer, the reference layer and the model, in lockstep. */
export const check = async (
  make: () => AdapterUnderTest,
  cmds: Iterable<Cmd>,
  options: ReferenceOption = {}
): Promise<void> => {
  const adapter = make()
  const runtime = ManagedRuntime.make(adapter.layer)
  const referenceLayer = options.reference === undefined ? DossierMemory : options.reference
  const reference = referenceLayer === null ? null : ManagedRuntime.make(referenceLayer)
  const once = <A, E>(effect: Effect.Effect<A, E, Services>): Promise<A> => {
    if (adapter.freshPerCommand !== true) return runtime.runPromise(effect)
    const fresh = ManagedRuntime.make(adapter.layer)
    return fresh.runPromise(effect).finally(() => fresh.dispose())
  }
  const after = adapter.afterCommand
  const run = after === undefined
    ? once
    : <A, E>(effect: Effect.Effect<A, E, Services>): Promise<A> => once(effect).then((a) => after().then(() => a))
  try {
    // The pages a capture imports are files of the work folder.
    const pages = Effect.flatMap(
      FileStore,
      (s) => Effect.forEach(Object.entries(PAGES), ([name, html]) => s.writeAtomic(inputFile(name), html))
    )
    await run(pages)
    if (reference !== null) await reference.runPromise(pages)
    const real: Real = {
      run,
      read: once,
      edit: adapter.edit,
      edits: adapter.edits !== false,
      reference: reference === null ? undefined : (effect) => reference.runPromise(effect)
    }
    const model = emptyModel()
    await fc.asyncModelRun(() => ({ model, real }), cmds)
    await predictViews(model, real)
    await compareViews(model, real)
  } finally {
    await runtime.dispose()
    await reference?.dispose()
    adapter.dispose?.()
  }
}

/** The property: every generated sequence agrees with the model (and the reference layer). */
export const property = (
  make: () => AdapterUnderTest,
  options: { readonly maxCommands?: number } & ReferenceOption = {}
) => fc.asyncProperty(commands(options), (cmds) => check(make, cmds, options))

/**
 * Check `make`'s layer on `numRuns` sequences from `seed` (fast-check's `assert`: a failure is
 * thrown with the shrunk sequence of commands and the seed that replays it).
 */
export const assert = (
  make: () => AdapterUnderTest,
  options: { readonly seed?: number; readonly numRuns?: number; readonly maxCommands?: number } & ReferenceOption = {}
) =>
  fc.assert(property(make, options), {
    numRuns: options.numRuns ?? 50,
    ...(options.seed === undefined ? {} : { seed: options.seed })
  })
