/**
 * The monitor's methods that write: subscriptions (create, update, pause/resume/complete) and
 * runs (create the due run, transitions, finish, outcome dispositions). Each runs under the
 * lock after recovery (`locked`); a change of two records or more is one `commit` of the store
 * (all or nothing). The decisions are the pure rules of src/domain/MonitorRules.ts; storage is
 * the ports of src/services/ports/MonitorStore.ts, nothing else.
 *
 * Over 400 lines: every writing method of one closure over the same record access and `commit`;
 * split further, each file would repeat that setup.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { canonicalJson, sha256Hex } from "../domain/Canonical.js"
import { FileNotFound } from "../domain/Errors.js"
import {
  ActiveRunExists,
  BindingMismatch,
  CitationNotFound,
  ConflictingSubscription,
  DigestMismatch,
  InvalidTransition,
  MissingUnits,
  NotDue,
  OutcomeNotFound,
  RunNotFound,
  SubscriptionCompleted,
  SubscriptionNotFound
} from "../domain/MonitorErrors.js"
import { reportEvent } from "../domain/MonitorLayout.js"
import {
  afterRunEnded,
  ALLOWED_TRANSITIONS,
  checkDisposition,
  checkFinishInput,
  checkTransition,
  dispositionOf,
  isActiveRun,
  isDue,
  latestWindow,
  missingUnits,
  newRun,
  newSubscription,
  outcomeCounts,
  runIdOf,
  statusChange,
  updateSubscription
} from "../domain/MonitorRules.js"
import type { FinishRunInput, ReportLine, RunRecord, SubscriptionRecord } from "../domain/MonitorSchema.js"
import { makeFileQuoteMatcher, type QuoteCheck } from "../domain/Quote.js"
import type { MonitorServiceError, MonitorShape } from "../services/Monitor.js"
import type { MonitorFilesShape, MonitorStoreShape, MonitorWrite } from "../services/ports/MonitorStore.js"
import { unansweredLook } from "./LookBeforeLock.js"
import { checkRevision, inRange, type NowGiven, type RecordAccess, textOf } from "./MonitorRecordAccess.js"

export const makeCommands = (
  store: MonitorStoreShape,
  files: MonitorFilesShape,
  records: RecordAccess,
  locked: <A, E>(self: Effect.Effect<A, E>) => Effect.Effect<A, E | MonitorServiceError>
) => {
  /** Every write of a command, checked for its times first: one record, or several as one. */
  const commit = (writes: ReadonlyArray<MonitorWrite>) =>
    Effect.zipRight(
      Effect.forEach(writes, (w) => (w._tag === "Report" ? Effect.void : Effect.asVoid(inRange(w.record))), {
        discard: true
      }),
      store.commit(writes)
    )
  const putSubscription = (record: SubscriptionRecord, expected: number | null) =>
    commit([{ _tag: "Subscription", record, expected }])
  const putRun = (record: RunRecord, expected: number | null) => commit([{ _tag: "Run", record, expected }])

  /**
   * A command on a subscription that does not exist is refused before the lock, so a typo
   * creates nothing (not even the lock file). Sound because a subscription record only ever
   * appears through createSubscription's single write, never through a transaction's recovery;
   * the record is still loaded and checked again under the lock (a record there that does not
   * read is left for that check).
   */
  const lockedOn = (subscriptionId: string) => <A, E>(self: Effect.Effect<A, E>) =>
    Effect.flatMap(
      Effect.either(store.subscriptions.get(subscriptionId)),
      (got) =>
        Either.isRight(got) && Option.isNone(got.right)
          ? Effect.fail(new SubscriptionNotFound({ subscriptionId }))
          : Either.isLeft(got) && unansweredLook(got.left)
          ? Effect.fail(got.left)
          : locked(self)
    )

  /**
   * A command on a run that does not exist, of a subscription that does not exist, is refused
   * before the lock, so a typo creates nothing (not even the lock file). Sound for the same reason:
   * a run is only ever written together with its subscription, which exists before the run
   * (`create-due-run` runs on a subscription), so a transaction's recovery may bring the run in
   * only when the subscription is there. Both are loaded and checked again under the lock.
   */
  const lockedOnRun = (runId: string) => <A, E>(self: Effect.Effect<A, E>) =>
    Effect.flatMap(
      Effect.either(Effect.zip(store.runs.get(runId), store.subscriptions.get(runId.split(".")[0]!))),
      (got) =>
        Either.isRight(got) && Option.isNone(got.right[0]) && Option.isNone(got.right[1])
          ? Effect.fail(new RunNotFound({ runId }))
          : Either.isLeft(got) && unansweredLook(got.left)
          ? Effect.fail(got.left)
          : locked(self)
    )

  const createSubscription: NowGiven<MonitorShape["createSubscription"]> = (input, now) =>
    locked(
      Effect.gen(function*() {
        yield* newSubscription(input, now) // the input's own rules first, then its files
        const survey = input.survey === undefined ? undefined : yield* records.requireFile(input.survey)
        const resolved = { ...input, ...(survey === undefined ? {} : { survey }) }
        const record = yield* newSubscription(resolved, now)
        const existing = yield* records.findSubscription(record.id)
        if (Option.isSome(existing)) {
          const same = existing.value.requestDigest === record.requestDigest ||
            existing.value.contentDigest === record.contentDigest
          if (same) return { created: false, subscription: existing.value }
          return yield* new ConflictingSubscription({ id: record.id })
        }
        yield* putSubscription(record, null)
        return { created: true, subscription: record }
      })
    )

  const editSubscription: NowGiven<MonitorShape["updateSubscription"]> = (input, now) =>
    lockedOn(input.subscriptionId)(
      Effect.gen(function*() {
        const sub = yield* records.loadSubscription(input.subscriptionId)
        yield* checkRevision(input.expectedRevision, sub.revision)
        if (sub.status === "completed") return yield* new SubscriptionCompleted({ subscriptionId: sub.id })
        const { gridChanged, record } = updateSubscription(sub, input.changes, now)
        yield* putSubscription(record, sub.revision)
        return { gridChanged, subscription: record }
      })
    )

  const setSubscriptionStatus: NowGiven<MonitorShape["setSubscriptionStatus"]> = (input, now) =>
    lockedOn(input.subscriptionId)(
      Effect.gen(function*() {
        const sub = yield* records.loadSubscription(input.subscriptionId)
        yield* checkRevision(input.expectedRevision, sub.revision)
        const change = statusChange(sub.status, input.status)
        if (change === "same") return { changed: false, subscription: sub }
        if (change === "from-completed") return yield* new SubscriptionCompleted({ subscriptionId: sub.id })
        if (input.status === "completed" && sub.activeRunId !== null) {
          return yield* new ActiveRunExists({ runId: sub.activeRunId })
        }
        const record: SubscriptionRecord = {
          ...sub,
          status: input.status,
          revision: sub.revision + 1,
          updatedAt: now.toISOString()
        }
        yield* putSubscription(record, sub.revision)
        return { changed: true, subscription: record }
      })
    )

  const createDueRun: NowGiven<MonitorShape["createDueRun"]> = (input, now) => {
    const attempt = Effect.gen(function*() {
      const sub = yield* records.loadSubscription(input.subscriptionId)
      const latest = latestWindow(sub, now)
      if (latest >= 0) {
        // An active run for the latest window that has started: answer it (a retry). A run of
        // that window that has ended is no answer: the subscription is then not due (NotDue).
        const existing = yield* records.findRun(runIdOf(sub.id, sub.gridVersion, latest))
        if (Option.isSome(existing) && isActiveRun(existing.value.status)) {
          return { created: false, run: existing.value }
        }
      }
      if (sub.activeRunId !== null) return yield* new ActiveRunExists({ runId: sub.activeRunId })
      if (!isDue(sub, now)) {
        return yield* new NotDue({ nextDueAt: sub.status === "completed" ? null : sub.nextDueAt, status: sub.status })
      }
      const run = newRun(sub, latest, now)
      const updated: SubscriptionRecord = {
        ...sub,
        activeRunId: run.id,
        lastRunId: run.id,
        revision: sub.revision + 1,
        updatedAt: now.toISOString()
      }
      // The run's id names its window: creating it is refused (StaleRevision) if another
      // command created it first, as is the subscription's change if it changed meanwhile.
      yield* commit([
        { _tag: "Run", record: run, expected: null },
        { _tag: "Subscription", record: updated, expected: sub.revision }
      ])
      return { created: true as boolean, run }
    })
    // One run per window, whoever asks: a store shared by several hosts may lose this race to
    // another command; reading again then answers the run it created (or why there is none).
    return lockedOn(input.subscriptionId)(Effect.catchTag(attempt, "StaleRevision", () => attempt))
  }

  const transitionRun: NowGiven<MonitorShape["transitionRun"]> = (input, now) =>
    lockedOnRun(input.runId)(
      Effect.gen(function*() {
        const run = yield* records.loadRun(input.runId)
        yield* checkRevision(input.expectedRevision, run.revision)
        yield* checkTransition(run.status, input.to)
        const updated: RunRecord = {
          ...run,
          status: input.to,
          revision: run.revision + 1,
          updatedAt: now.toISOString(),
          transitions: [...run.transitions, {
            from: run.status,
            to: input.to,
            at: now.toISOString(),
            reason: input.reason ?? null
          }]
        }
        const writes: Array<MonitorWrite> = [{ _tag: "Run", record: updated, expected: run.revision }]
        if (input.to === "cancelled") {
          const sub = yield* records.findSubscription(run.subscriptionId)
          if (Option.isSome(sub) && sub.value.activeRunId === run.id) {
            writes.push({ _tag: "Subscription", record: afterRunEnded(sub.value, now), expected: sub.value.revision })
          }
        }
        yield* commit(writes)
        return { run: updated }
      })
    )

  /** Does `input` say exactly what the completed run's finish recorded (paths compared normalized)? */
  const sameFinish = (run: RunRecord, input: FinishRunInput) =>
    Effect.gen(function*() {
      const c = run.completion
      if (c === null) return false
      const normalized = (p: string) => files.normalize(p).pipe(Effect.orElseSucceed(() => p))
      const citations: Array<{ path: string; quote: string }> = []
      for (const o of input.outcomes) {
        for (const x of o.citations) citations.push({ path: yield* normalized(x.path), quote: x.quote })
      }
      // A sha256 left out was computed at finish time: the repeat names the file's current bytes.
      const bound = (f: { readonly path: string; readonly sha256?: string | undefined }) =>
        Effect.gen(function*() {
          const path = yield* normalized(f.path)
          const sha256 = f.sha256 ?? (yield* files.digest(path))
          return { path, sha256 }
        })
      let i = 0
      const given = {
        binding: input.binding,
        stage: yield* bound(input.stage),
        survey: input.survey === undefined ? null : yield* bound(input.survey),
        units: input.units === undefined ? [] : input.units,
        outcomes: input.outcomes.map((o) => ({
          id: o.id,
          label: o.label,
          reason: o.reason,
          citations: o.citations.map(() => citations[i++]!)
        }))
      }
      const recorded = {
        binding: c.binding,
        stage: c.stage,
        survey: c.survey,
        units: c.units,
        outcomes: run.outcomes.map((o) => ({ id: o.id, label: o.label, reason: o.reason, citations: o.citations }))
      }
      return canonicalJson(given) === canonicalJson(recorded)
    })

  const finishRun: NowGiven<MonitorShape["finishRun"]> = (input, now) =>
    lockedOnRun(input.runId)(
      Effect.gen(function*() {
        const run = yield* records.loadRun(input.runId)
        // An exact repeat of the finish that completed this run (a retry after a lost answer)
        // answers the completed run, unchanged.
        if (
          run.status === "completed" && input.expectedRevision === run.revision - 1 && (yield* sameFinish(run, input))
        ) {
          const sub = yield* records.loadSubscription(run.subscriptionId)
          return {
            changed: false,
            run,
            subscription: { id: sub.id, revision: sub.revision, nextDueAt: sub.nextDueAt },
            reported: false
          }
        }
        yield* checkRevision(input.expectedRevision, run.revision)
        if (run.status !== "running") {
          return yield* new InvalidTransition({
            from: run.status,
            to: "completed",
            allowed: ALLOWED_TRANSITIONS[run.status]
          })
        }
        yield* checkFinishInput(run, input)
        if (input.binding.runId !== run.id) {
          return yield* new BindingMismatch({ reason: "binding.runId does not name this run" })
        }
        if (input.binding.taskDigest !== run.receiptDigest) {
          return yield* new BindingMismatch({ reason: "binding.taskDigest is not the run's receiptDigest" })
        }
        // The stage file: its bytes, read once, must have the SHA-256 given and carry the binding.
        const stagePath = yield* files.normalize(input.stage.path)
        const givenStage = input.stage.sha256
        const stageRead = yield* files.read(stagePath)
        if (Option.isNone(stageRead)) {
          return yield* (givenStage === undefined
            ? new FileNotFound({ path: stagePath })
            : new DigestMismatch({ path: stagePath, expected: givenStage, actual: null }))
        }
        const stageBytes = stageRead.value
        const stageSha = sha256Hex(stageBytes)
        if (givenStage !== undefined && stageSha !== givenStage) {
          return yield* new DigestMismatch({ path: stagePath, expected: givenStage, actual: stageSha })
        }
        const stageText = textOf(stageBytes)
        if (!stageText.includes(run.id) || !stageText.includes(run.receiptDigest)) {
          return yield* new BindingMismatch({
            reason: "the stage file does not contain the run id and its receipt digest"
          })
        }
        let survey: { path: string; sha256: string } | null = null
        if (input.survey !== undefined) {
          const surveyPath = yield* files.normalize(input.survey.path)
          if (surveyPath !== run.frozen.survey) {
            return yield* new BindingMismatch({ reason: "the survey path is not the run's frozen survey" })
          }
          const actual = yield* files.digest(surveyPath)
          const given = input.survey.sha256
          if (given === undefined && actual === null) return yield* new FileNotFound({ path: surveyPath })
          if (given !== undefined && actual !== given) {
            return yield* new DigestMismatch({ path: surveyPath, expected: given, actual })
          }
          survey = { path: surveyPath, sha256: actual! }
        }
        const missing = missingUnits(run, input.units)
        if (missing.length > 0) return yield* new MissingUnits({ missing })
        // Every quote must occur in its cited file (the shared quote matcher).
        const matchers = new Map<string, ((quote: string) => QuoteCheck) | null>()
        const outcomes = []
        for (const o of input.outcomes) {
          const citations = []
          for (const c of o.citations) {
            const path = yield* files.normalize(c.path)
            let matcher = matchers.get(path)
            if (matcher === undefined) {
              // A cited file is evidence: a hard-linked one is refused, as every retained file is.
              const text = Option.map(yield* files.read(path, { singleLink: true }), textOf)
              matcher = Option.match(text, {
                onNone: () => null,
                onSome: (t) => makeFileQuoteMatcher(path, t)
              })
              matchers.set(path, matcher)
            }
            if (matcher === null) {
              return yield* new CitationNotFound({ outcome: o.id, path, reason: "file-missing" })
            }
            const check = matcher(c.quote)
            if (!check.matched) return yield* new CitationNotFound({ outcome: o.id, path, reason: check.reason })
            citations.push({ path, quote: c.quote })
          }
          outcomes.push({ id: o.id, label: o.label, reason: o.reason, citations, disposition: null })
        }
        const sub = yield* records.loadSubscription(run.subscriptionId)
        const at = now.toISOString()
        const completed: RunRecord = {
          ...run,
          status: "completed",
          revision: run.revision + 1,
          updatedAt: at,
          transitions: [...run.transitions, { from: run.status, to: "completed", at, reason: null }],
          completion: {
            at,
            binding: { runId: input.binding.runId, taskDigest: input.binding.taskDigest },
            stage: { path: stagePath, sha256: stageSha },
            survey,
            units: input.units === undefined ? [] : [...input.units]
          },
          outcomes
        }
        const nextSub = sub.activeRunId === run.id ? afterRunEnded(sub, now) : sub
        const writes: Array<MonitorWrite> = [
          { _tag: "Run", record: completed, expected: run.revision },
          { _tag: "Subscription", record: nextSub, expected: sub.revision }
        ]
        const program = sub.program
        if (program !== null) {
          const line: ReportLine = {
            at,
            event: "run-completed",
            program,
            subscriptionId: sub.id,
            runId: run.id,
            windowIndex: run.windowIndex,
            outcomes: outcomes.length,
            outcomeCounts: outcomeCounts(outcomes)
          }
          writes.push({ _tag: "Report", event: reportEvent(line) })
        }
        yield* commit(writes)
        return {
          changed: true,
          run: completed,
          subscription: { id: nextSub.id, revision: nextSub.revision, nextDueAt: nextSub.nextDueAt },
          reported: program !== null
        }
      })
    )

  const setOutcomeDisposition: NowGiven<MonitorShape["setOutcomeDisposition"]> = (input, now) =>
    lockedOnRun(input.runId)(
      Effect.gen(function*() {
        const run = yield* records.loadRun(input.runId)
        const outcome = run.outcomes.find((o) => o.id === input.outcomeId)
        if (outcome === undefined) return yield* new OutcomeNotFound({ runId: run.id, outcomeId: input.outcomeId })
        const decision = yield* checkDisposition(outcome, input)
        if (decision === "noop") return { changed: false, runId: run.id, runRevision: run.revision, outcome }
        const unitPath = input.unitPath === undefined ? undefined : yield* records.requireFile(input.unitPath)
        const reviewItem = input.reviewItem === undefined ? undefined : yield* records.requireFile(input.reviewItem)
        const disposition = dispositionOf(
          {
            ...input,
            ...(unitPath === undefined ? {} : { unitPath }),
            ...(reviewItem === undefined ? {} : { reviewItem })
          },
          now
        )
        const updatedOutcome = { ...outcome, disposition }
        const updated: RunRecord = {
          ...run,
          revision: run.revision + 1,
          updatedAt: now.toISOString(),
          outcomes: run.outcomes.map((o) => (o.id === outcome.id ? updatedOutcome : o))
        }
        yield* putRun(updated, run.revision)
        return { changed: true, runId: run.id, runRevision: updated.revision, outcome: updatedOutcome }
      })
    )

  return {
    createSubscription,
    updateSubscription: editSubscription,
    setSubscriptionStatus,
    createDueRun,
    transitionRun,
    finishRun,
    setOutcomeDisposition
  }
}
