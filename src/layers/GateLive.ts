/**
 * Gate on the FileStore, the Lock, the Plan, the attempts log (the `GateAttempts` port: the
 * folder's file, or a shared dossier's events) and the capture log (the `CaptureStore` port: the
 * folder's `.dossier/captures.jsonl`, or a shared dossier's log, whichever host captured): gathers
 * the evidence (state, research output, context, descriptor, registered sources' current bytes,
 * the capture log), lets the pure
 * domain decide, and writes the state atomically under the lock with a compare-and-set on the
 * bytes it read, appending the attempt (with --record-attempt) in the same locked region.
 *
 * Over 400 lines: gathering every piece of evidence the pure decision needs, each with its own
 * refusal; the decisions themselves are in src/domain/GateDecision.ts.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { sha256Hex } from "../domain/Canonical.js"
import { decodeWith, parseJsonBytes } from "../domain/Decode.js"
import { InputTooLarge, InvalidInput, LimitExceeded, UnsafePath } from "../domain/Errors.js"
import {
  type CitedSource,
  commentQuoteTexts,
  Descriptor,
  type GapKind,
  limitComments,
  type LimitedComments,
  MaturitySnapshot,
  ResearchContext,
  ResearchOutput,
  ResearchRecord,
  RunState,
  VERIFICATION_NOTE
} from "../domain/Gate.js"
import {
  ceilingRecord,
  checkFreshness,
  describeWithFindings,
  evaluate,
  isActive,
  nextState,
  recheck as recheckPure,
  researchRecord,
  roundsUsed,
  route,
  targetsOf
} from "../domain/GateDecision.js"
import { BlockersRemain, NoVerdict, StaleStateFile } from "../domain/GateErrors.js"
import { citedSourcePaths, type Evidence, makeVerifier, type SourceEvidence } from "../domain/GateVerify.js"
import { isFetched } from "../domain/IngestContent.js"
import {
  optionalBoolean,
  optionalInteger,
  optionalNow,
  optionalText,
  readArgs,
  readOptions,
  text
} from "../domain/Options.js"
import { ownerOf } from "../domain/Ownership.js"
import { FileStore } from "../services/FileStore.js"
import {
  DEFAULT_ATTEMPTS_LOG,
  DEFAULT_MAX_ASK_ROUNDS,
  DEFAULT_RESEARCH_DIR,
  Gate,
  type GateRecheckResult,
  type GateRunResult,
  type GateShape,
  MAX_GATE_FILE_BYTES
} from "../services/Gate.js"
import { Lock } from "../services/Lock.js"
import { Plan } from "../services/Plan.js"
import { CaptureStore } from "../services/ports/CaptureStore.js"
import { GateAttempts } from "../services/ports/GateAttempts.js"
import { CaptureStoreFolder } from "./folder/CaptureStoreFolder.js"
import { GateAttemptsFolder } from "./folder/GateAttemptsFolder.js"
import { dateOr } from "./Now.js"
import { spanned } from "./Spans.js"

/** A cited file's own text: a leading byte-order mark kept, so offsets count it (src/domain/Quote.ts). */
const fileText = new TextDecoder("utf-8", { ignoreBOM: true })

type Json = Record<string, unknown>

/** What the recheck needs of `state.research` (decoded leniently). */
const Rest = Schema.Record({ key: Schema.String, value: Schema.Unknown })
const RecordedGap = Schema.Struct(
  {
    id: Schema.String,
    category: Schema.optional(Schema.NullOr(Schema.String)),
    status: Schema.String,
    answer: Schema.optional(Schema.NullOr(Schema.String)),
    sources: Schema.Array(
      Schema.Struct({ label: Schema.optional(Schema.String), ref: Schema.String, quote: Schema.String }, Rest)
    )
  },
  Rest
)
const RecordedResearch = Schema.Struct(
  {
    kind: Schema.optional(Schema.String),
    dir: Schema.optional(Schema.String),
    gaps: Schema.optional(Schema.Array(RecordedGap)),
    maturityBefore: Schema.optional(Schema.NullOr(MaturitySnapshot))
  },
  Rest
)
const decodeRecorded = Schema.decodeUnknownEither(RecordedResearch, { onExcessProperty: "ignore" })
/** `state.research` as the gate wrote it (a proceed a retry keeps). */
const decodeResearchRecord = Schema.decodeUnknownOption(ResearchRecord)

export const makeGateLive = Effect.gen(function*() {
  const store = yield* FileStore
  const lock = yield* Lock
  const plan = yield* Plan
  const attemptsLog = yield* GateAttempts
  const captureLog = yield* CaptureStore

  /** Bytes of a file the command names: inside the work folder, at most 16 MiB. */
  const readBounded = (path: string) =>
    store.read(path, { maxBytes: MAX_GATE_FILE_BYTES }).pipe(
      Effect.catchTag("LimitExceeded", (e) => Effect.fail(new InputTooLarge({ path, max: e.max, actual: e.actual })))
    )

  const decodeJson = <A, I>(schema: Schema.Schema<A, I, never>, bytes: Uint8Array) =>
    Either.flatMap(parseJsonBytes(bytes), decodeWith(schema))

  const readState = (path: string) =>
    Effect.gen(function*() {
      const bytes = yield* readBounded(path)
      const json = yield* parseJsonBytes(bytes)
      const state = yield* decodeWith(RunState)(json)
      return { raw: json as Json, state, sha256: sha256Hex(bytes) }
    })

  const readDescriptor = (path: string, item: string) =>
    Effect.gen(function*() {
      const bytes = yield* readBounded(path)
      const descriptor = yield* decodeJson(Descriptor, bytes)
      if (descriptor.item !== item) {
        return yield* new InvalidInput({
          issues: [{
            path: "item",
            message: `the descriptor is for item '${descriptor.item}', the state for '${item}'`
          }]
        })
      }
      const limited = limitComments(descriptor.comments ?? [], descriptor.commentsTotal)
      return { descriptor, limited }
    })

  /** A research-folder file: absent → None; unusable → NoVerdict (the state is not touched). */
  const readResearchFile = <A, I>(schema: Schema.Schema<A, I, never>, path: string, what: string) =>
    store.read(path, { maxBytes: MAX_GATE_FILE_BYTES }).pipe(
      Effect.map(Option.some),
      Effect.catchTags({
        FileNotFound: () => Effect.succeed(Option.none<Uint8Array>()),
        LimitExceeded: (e) =>
          Effect.fail(new NoVerdict({ reason: `${what} at ${path} has ${e.actual} bytes (at most ${e.max})` })),
        UnsafePath: (e) => Effect.fail(new NoVerdict({ reason: `${what} at ${path} was refused (${e.reason})` }))
      }),
      Effect.flatMap(
        Option.match({
          onNone: () => Effect.succeed(Option.none<A>()),
          onSome: (bytes) =>
            Either.match(decodeJson(schema, bytes), {
              onLeft: (e) => {
                const first = e.issues[0]
                return Effect.fail(
                  new NoVerdict({
                    reason: `${what} at ${path} is invalid${
                      first === undefined ? "" : ` at '${first.path || "(root)"}': ${first.message}`
                    }`
                  })
                )
              },
              onRight: (a) => Effect.succeed(Option.some(a))
            })
        })
      )
    )

  const readContext = (dir: string) =>
    Effect.flatMap(readResearchFile(ResearchContext, `${dir}/context.json`, "context.json"), (context) => {
      const docs = new Map<string, string>()
      if (Option.isNone(context)) return Effect.succeed(docs)
      for (const d of context.value.documents) {
        if (docs.has(d.ref)) {
          return Effect.fail(new NoVerdict({ reason: `context.json lists the document '${d.ref}' twice` }))
        }
        docs.set(d.ref, d.text)
      }
      return Effect.succeed(docs)
    })

  /**
   * (path, sha256) pairs the fetcher recorded, in the capture log the port keeps (a shared
   * dossier's, never this host's view of it); an imported file (`via: "file"`) is no claim of
   * the fetcher's, so it verifies as `registered`. A folder's log that cannot be read only loses
   * claims; a shared store that does not answer (`StoreUnavailable`, `LockTimeout`) is refused as
   * every other read of the command is (retryable), never a quietly lost `capture` origin.
   */
  const captureIndex = captureLog.records.pipe(
    Effect.map((records) => new Set(records.filter(isFetched).map((r) => `${r.path}\u0000${r.sha256}`))),
    Effect.catchTags({
      IoError: () => Effect.succeed(new Set<string>()),
      UnsafePath: () => Effect.succeed(new Set<string>()),
      LimitExceeded: () => Effect.succeed(new Set<string>())
    })
  )

  /** The current state of each cited source file, against the plan's registry. */
  const sourceEvidence = (paths: ReadonlyArray<string>) =>
    Effect.gen(function*() {
      const out = new Map<string, SourceEvidence>()
      if (paths.length === 0) return out
      const doc = yield* plan.read
      const registry = new Map(
        Option.match(doc, { onNone: () => [], onSome: (d) => d.sources }).map((s) => [s.path, s] as const)
      )
      const captures = yield* captureIndex
      const read = (path: string) =>
        Effect.gen(function*() {
          const registered = registry.get(path)
          if (registered === undefined) return [path, { _tag: "Unregistered" }] as const
          const evidence = yield* store.read(path, { maxBytes: MAX_GATE_FILE_BYTES, requireSingleLink: true }).pipe(
            Effect.map((bytes): SourceEvidence => {
              const sha256 = sha256Hex(bytes)
              if (sha256 !== registered.sha256) return { _tag: "Changed" }
              return {
                _tag: "Current",
                origin: captures.has(`${path}\u0000${sha256}`) ? "capture" : "registered",
                text: fileText.decode(bytes)
              }
            }),
            Effect.catchTags({
              FileNotFound: () => Effect.succeed<SourceEvidence>({ _tag: "Missing" }),
              UnsafePath: () => Effect.succeed<SourceEvidence>({ _tag: "Unreadable" }),
              LimitExceeded: () => Effect.succeed<SourceEvidence>({ _tag: "Unreadable" })
            })
          )
          return [path, evidence] as const
        })
      const entries = yield* Effect.forEach(paths, read, { concurrency: 4 })
      for (const [p, e] of entries) out.set(p, e)
      return out
    })

  const descriptorTexts = (
    limited: LimitedComments,
    description: string | null | undefined
  ): Evidence["descriptor"] => ({
    description: description ?? null,
    comments: commentQuoteTexts(limited)
  })

  /** What the descriptor's comment limits kept, as the answer reports it. */
  const commentsUsed = (limited: LimitedComments): GateRecheckResult["comments"] => ({
    total: limited.total,
    used: limited.comments.length,
    truncated: limited.truncated,
    dropped: limited.dropped
  })

  /** Replace the state file if it still holds the bytes that were read; else StaleStateFile (tag StaleRevision). */
  const compareAndWrite = (path: string, expected: string, next: Json) =>
    Effect.gen(function*() {
      // Hashed as a stream, whatever its size: a file grown past what the gate reads is still named by its digest.
      const current = yield* store.hash(path, { maxBytes: Number.MAX_SAFE_INTEGER }).pipe(
        Effect.map((d) => d.sha256 as string | null),
        Effect.catchTag("FileNotFound", () => Effect.succeed(null))
      )
      if (current !== expected) return yield* new StaleStateFile({ expected, actual: current })
      // The gate never writes a state it would then refuse to read (16 MiB).
      const text = `${JSON.stringify(next, null, 2)}\n`
      const bytes = Buffer.byteLength(text, "utf8")
      if (bytes > MAX_GATE_FILE_BYTES) {
        return yield* new LimitExceeded({ limit: "state-bytes", max: MAX_GATE_FILE_BYTES, actual: bytes })
      }
      yield* store.writeAtomic(path, text)
    })

  /**
   * The gate writes its state and (with --record-attempt) its attempts log at paths it was given:
   * neither may be a file that belongs to something else (dossier's own state, the plan, a retained
   * capture, a journal and its derived files, a registered source or output): `UnsafePath` naming
   * why, before anything is read beyond the state. The default attempts log is the gate's own.
   */
  const checkWritable = (statePath: string, attempts: string, recordAttempt: boolean) =>
    Effect.gen(function*() {
      const doc = yield* plan.read
      const registered = new Set(Option.match(doc, {
        onNone: () => [],
        onSome: (d) => [...d.sources.map((s) => s.path), ...d.outputs.map((o) => o.path)]
      }))
      const stateOwner = ownerOf(statePath, registered)
      if (stateOwner !== null) return yield* new UnsafePath({ path: statePath, reason: stateOwner })
      if (!recordAttempt) return
      if (attempts === statePath) return yield* new UnsafePath({ path: attempts, reason: "run-state" })
      const attemptsOwner = attempts === DEFAULT_ATTEMPTS_LOG ? null : ownerOf(attempts, registered)
      if (attemptsOwner !== null) return yield* new UnsafePath({ path: attempts, reason: attemptsOwner })
    })

  /** `run`'s arguments, checked and with their defaults. */
  interface RunArgs {
    readonly state: string
    readonly researchDir: string
    readonly descriptor: Option.Option<string>
    readonly attempts: string
    readonly recordAttempt: boolean
    readonly maxAskRounds: number
    readonly unattended: boolean
    readonly now: Date | undefined
  }

  const run = (options: RunArgs) =>
    Effect.gen(function*() {
      const read = yield* readState(options.state)
      const { state, raw } = read
      if (!isActive(options.unattended ? "1" : undefined, state)) return { active: false } as GateRunResult
      const attemptsPath = yield* store.normalize(options.attempts)
      yield* checkWritable(yield* store.normalize(options.state), attemptsPath, options.recordAttempt)
      const kind: GapKind = yield* route(state)
      const targets = targetsOf(state, kind)
      const at = (yield* dateOr(options.now)).toISOString()

      const log = yield* attemptsLog.read(attemptsPath, MAX_GATE_FILE_BYTES).pipe(
        Effect.catchTag("LimitExceeded", (e) =>
          Effect.fail(new InputTooLarge({ path: options.attempts, max: e.max, actual: e.actual })))
      )
      const used = roundsUsed(log, state.item)
      const parts = { kind, dir: options.researchDir, at }

      // Nothing left to research (a retry after a proceed): nothing is read or counted and the
      // ceiling does not apply. The proceed already recorded for this kind is kept as it is, with
      // the closures --recheck re-verifies; it is never replaced by an empty record.
      if (targets.length === 0) {
        const recorded = decodeResearchRecord(state.research)
        const kept = Option.filter(recorded, (r) =>
          r.kind === kind && r.decision === "proceed")
        if (Option.isSome(kept)) {
          if (options.recordAttempt) {
            const row = { item: state.item, at, researchRounds: 0, decision: "proceed" }
            yield* lock.withLock(attemptsLog.append(attemptsPath, `${JSON.stringify(row)}\n`))
          }
          return {
            active: true,
            kind,
            decision: "proceed",
            reason: "nothing-blocking",
            researchRounds: 0,
            research: kept.value,
            note: VERIFICATION_NOTE
          } as GateRunResult
        }
      }

      let record: ResearchRecord
      let comments: GateRecheckResult["comments"] | undefined
      if (targets.length === 0) {
        const nothing = { gaps: [], closed: [], candidates: [], open: [], ignored: [], resolved: [] }
        record = researchRecord(state, nothing, { ...parts, round: used + 1 })
      } else if (used >= options.maxAskRounds) {
        record = ceilingRecord(state, targets, { ...parts, round: used })
      } else {
        const output = yield* readResearchFile(ResearchOutput, `${options.researchDir}/research.json`, "research.json")
          .pipe(
            Effect.flatMap(
              Option.match({
                onNone: () =>
                  Effect.fail(new NoVerdict({ reason: `no research output at ${options.researchDir}/research.json` })),
                onSome: Effect.succeed
              })
            )
          )
        yield* checkFreshness(output, state.item, kind)
        const targetIds = new Set(targets.map((t) => t.id))
        const cited: Array<CitedSource> = output.gaps.filter((g) => targetIds.has(g.id)).flatMap((g) => g.sources)
        const context = yield* readContext(options.researchDir)
        const descriptor = Option.isSome(options.descriptor)
          ? (yield* readDescriptor(options.descriptor.value, state.item))
          : undefined
        if (descriptor !== undefined) comments = commentsUsed(descriptor.limited)
        const sources = yield* sourceEvidence(citedSourcePaths(cited))
        const verify = makeVerifier({
          descriptor: descriptor === undefined
            ? undefined
            : descriptorTexts(descriptor.limited, descriptor.descriptor.description),
          sources,
          context
        })
        record = researchRecord(state, evaluate(targets, output.gaps, verify), { ...parts, round: used + 1 })
      }

      // A round counts when research was evaluated: not at the ceiling, and not on a state with
      // nothing left to research (after a proceed).
      const researchRounds = record.reason === "maxAskRounds" || targets.length === 0 ? 0 : 1
      const next = nextState(raw, state, record, targets)
      yield* lock.withLock(
        Effect.gen(function*() {
          yield* compareAndWrite(options.state, read.sha256, next)
          if (options.recordAttempt) {
            const row = { item: state.item, at, researchRounds, decision: record.decision }
            yield* attemptsLog.append(attemptsPath, `${JSON.stringify(row)}\n`)
          }
        })
      )
      return {
        active: true,
        kind,
        decision: record.decision,
        reason: record.reason,
        researchRounds,
        research: record,
        ...(comments === undefined ? {} : { comments }),
        note: VERIFICATION_NOTE
      } as GateRunResult
    })

  const recheck = (options: { readonly state: string; readonly descriptor: string; readonly now: Date | undefined }) =>
    Effect.gen(function*() {
      const { state } = yield* readState(options.state)
      const { descriptor, limited } = yield* readDescriptor(options.descriptor, state.item)
      const decoded = decodeRecorded(state.research ?? {})
      if (Either.isLeft(decoded)) {
        return yield* new InvalidInput({
          issues: [{ path: "research", message: "state.research is not a gate record" }]
        })
      }
      const research = decoded.right
      const recorded = research.kind === "maturity"
        ? {
          closedGaps: (research.gaps ?? [])
            .filter((g) => g.status === "closed")
            .map((g) => ({ id: g.id, category: g.category ?? null, answer: g.answer ?? null, sources: g.sources })),
          maturityBefore: research.maturityBefore ?? null
        }
        : null
      const cited = (recorded?.closedGaps ?? []).flatMap((g) => g.sources)
      const citesContext = cited.some((s) => !s.ref.startsWith("descriptor:") && citedSourcePaths([s]).length === 0)
      const context = citesContext && research.dir !== undefined
        ? yield* readContext(research.dir).pipe(
          Effect.catchTag("NoVerdict", () => Effect.succeed(new Map<string, string>()))
        )
        : new Map<string, string>()
      const sources = yield* sourceEvidence(citedSourcePaths(cited))
      const verify = makeVerifier({ descriptor: descriptorTexts(limited, descriptor.description), sources, context })
      const outcome = recheckPure({ state, recorded, verify })
      if (outcome.remaining.length > 0) return yield* new BlockersRemain({ blockers: outcome.remaining })
      return {
        continue: true,
        description: describeWithFindings(descriptor.description ?? "", outcome.findings),
        findings: outcome.findings,
        maturity: outcome.maturity,
        comments: commentsUsed(limited),
        note: VERIFICATION_NOTE
      } satisfies GateRecheckResult
    })

  // A library caller's arguments are checked as the CLI's are (src/domain/Options.ts): paths
  // non-empty strings, `now` a real date, the ceiling a count; wrong ones are InvalidInput.
  const fromEither = <A, E>(e: Either.Either<A, E>) => Either.match(e, { onLeft: Effect.fail, onRight: Effect.succeed })
  return {
    run: (state, options) =>
      Effect.flatMap(
        fromEither(readArgs(
          text(state, "state"),
          readOptions(options, {
            researchDir: optionalText,
            descriptor: optionalText,
            attempts: optionalText,
            recordAttempt: optionalBoolean,
            maxAskRounds: optionalInteger(0, Number.MAX_SAFE_INTEGER),
            unattended: optionalBoolean,
            now: optionalNow
          })
        )),
        ([s, o]) =>
          run({
            state: s,
            researchDir: o.researchDir ?? DEFAULT_RESEARCH_DIR,
            descriptor: Option.fromNullable(o.descriptor),
            attempts: o.attempts ?? DEFAULT_ATTEMPTS_LOG,
            recordAttempt: o.recordAttempt === true,
            maxAskRounds: o.maxAskRounds ?? DEFAULT_MAX_ASK_ROUNDS,
            unattended: o.unattended === true,
            now: o.now
          })
      ),
    recheck: (state, descriptor, options) =>
      Effect.flatMap(
        fromEither(
          readArgs(text(state, "state"), text(descriptor, "descriptor"), readOptions(options, { now: optionalNow }))
        ),
        ([s, d, o]) => recheck({ state: s, descriptor: d, now: o.now })
      )
  } satisfies GateShape
})

/** The gate over the attempts and capture logs of the context (`GateAttempts`, `CaptureStore`): a shared dossier's, say. */
export const GateFromStore: Layer.Layer<Gate, never, FileStore | Lock | Plan | GateAttempts | CaptureStore> = Layer
  .effect(
    Gate,
    Effect.map(makeGateLive, spanned("Gate"))
  )

/** The gate over the work folder's attempts and capture logs. */
export const GateLive: Layer.Layer<Gate, never, FileStore | Lock | Plan> = GateFromStore.pipe(
  Layer.provide(Layer.merge(GateAttemptsFolder, CaptureStoreFolder))
)
