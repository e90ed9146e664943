/**
 * JournalArtifacts over a FileStore: the digest `journal append` computes for an
 * `artifact_linked` event, and `journal inspect --verify` (every linked artifact hashed again,
 * every linked dossier execution checked against its record).
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { unsafePathWhy } from "../../domain/Errors.js"
import { checkSignature } from "../../domain/Evidence.js"
import { EvidenceKeyUnavailable } from "../../domain/ExecErrors.js"
import { EXECUTION_ID, executionPaths, type ExecutionRecord } from "../../domain/Execution.js"
import type { ArtifactFinding, ExecutionCheck, ExecutionFinding } from "../../domain/JournalOutput.js"
import type { Projection } from "../../domain/JournalProjection.js"
import { EvidenceKey, type EvidenceKeyShape } from "../../services/EvidenceKey.js"
import type { FileStoreShape } from "../../services/FileStore.js"
import { FileStore } from "../../services/FileStore.js"
import { JournalArtifacts, type JournalArtifactsShape } from "../../services/ports/JournalStore.js"
import { type ExecRecords, makeExecRecords } from "../ExecRecords.js"
import { type ExecutionFolderError, makeExecutionStoreFolder } from "./ExecutionStoreFolder.js"
import { type GrantFolderError, makeGrantStoreFolder } from "./GrantStoreFolder.js"

/**
 * What the journal's execution_linked says that the record does not (the study and the candidate the
 * run was made for, when the record names them; status, exit code), or null: a run is evidence for
 * its own candidate of its own study, not for any that links its id (a candidate id is unique only
 * within its study).
 */
const linkMismatch = (
  study: string | undefined,
  candidateId: string,
  link: { readonly status: string; readonly exitCode?: number | null },
  record: ExecutionRecord
): string | null => {
  if (study !== undefined && record.study !== undefined && record.study !== study) {
    return `the journal of study '${study}' links it, the record was run for study '${record.study}'`
  }
  if (record.candidateId !== null && record.candidateId !== candidateId) {
    return `the journal links it to candidate '${candidateId}', the record was run for candidate '${record.candidateId}'`
  }
  if (link.status !== record.status) return `the journal says status '${link.status}', the record '${record.status}'`
  if (link.exitCode !== undefined && link.exitCode !== record.exitCode) {
    return `the journal says exit code ${link.exitCode}, the record ${record.exitCode}`
  }
  return null
}

const makeJournalVerify = (store: FileStoreShape, executions: ExecRecords<GrantFolderError, ExecutionFolderError>) => {
  /**
   * Every execution_linked whose runtimeId names a dossier execution: its record exists, its
   * receipt digest holds, it is signed with this machine's key, and it ended as the link says
   * (status, exit code); each artifact of the candidate at one of its output paths has the digest
   * of one of the candidate's executions that are not tampered. Other runtime ids are external.
   */
  const verifyExecutions = (
    p: Projection,
    study: string | undefined,
    findings: Array<ArtifactFinding | ExecutionFinding>
  ) =>
    Effect.gen(function*() {
      const checks: Array<ExecutionCheck> = []
      for (const c of p.candidates) {
        const considered: Array<ExecutionRecord> = []
        for (const e of c.executions) {
          const base = { candidateId: c.id, eventId: e.eventId, runtimeId: e.runtimeId }
          if (!EXECUTION_ID.test(e.runtimeId)) {
            checks.push({ ...base, check: "external" })
            continue
          }
          const path = executionPaths(e.runtimeId).record
          const r = yield* Effect.either(executions.inspectHere(e.runtimeId))
          if (Either.isRight(r)) {
            const { record, verdict } = r.right
            if (verdict.authenticity === "tampered") {
              checks.push({ ...base, check: "tampered" })
              findings.push({ kind: "execution-tampered", ...base, path, detail: verdict.detail })
              continue
            }
            // Not tampered: its outputs are what the record says, signed or not; only a signed record is verified.
            considered.push(record)
            const linkSays = linkMismatch(study, c.id, e, record)
            // A lost run's record says what was left of its processes when it was recorded.
            const left = record.leftProcesses === undefined ? {} : { leftProcesses: record.leftProcesses.outcome }
            if (linkSays !== null) {
              checks.push({ ...base, check: "tampered" })
              findings.push({ kind: "execution-tampered", ...base, path, detail: linkSays })
            } else if (verdict.authenticity === "signed") {
              checks.push({ ...base, check: "verified", ...left })
            } else {
              checks.push({ ...base, check: verdict.authenticity, ...left })
              findings.push({ kind: `execution-${verdict.authenticity}`, ...base, path, detail: verdict.detail })
            }
          } else if (r.left._tag === "ExecutionNotFound") {
            checks.push({ ...base, check: "missing" })
            findings.push({ kind: "execution-missing", ...base, path })
          } else if (
            r.left._tag === "ExecutionDigestMismatch" || r.left._tag === "UnsafePath" || r.left._tag === "LimitExceeded"
          ) {
            checks.push({ ...base, check: "tampered" })
            findings.push({ kind: "execution-tampered", ...base, path, detail: r.left.message })
          } else return yield* r.left
        }
        for (const a of c.artifacts) {
          const producers = considered.filter((x) => x.outputs.some((o) => o.path === a.path))
          if (producers.length === 0) continue
          if (
            producers.some((x) =>
              x.outputs.some((o) => o.path === a.path && o.sha256 === a.sha256 && o.bytes === a.bytes)
            )
          ) continue
          const x = producers[producers.length - 1]!
          const o = x.outputs.find((o) => o.path === a.path)!
          findings.push({
            kind: "artifact-not-from-execution",
            candidateId: c.id,
            eventId: a.eventId,
            runtimeId: x.id,
            path: a.path,
            expected: { sha256: o.sha256, bytes: o.bytes },
            actual: { sha256: a.sha256, bytes: a.bytes }
          })
        }
      }
      return checks
    })

  const verifyArtifacts = (p: Projection, study?: string) =>
    Effect.gen(function*() {
      const findings: Array<ArtifactFinding | ExecutionFinding> = []
      let checked = 0
      for (const c of p.candidates) {
        for (const a of c.artifacts) {
          checked++
          const base = {
            candidateId: c.id,
            eventId: a.eventId,
            path: a.path,
            expected: { sha256: a.sha256, bytes: a.bytes }
          }
          const got = yield* Effect.either(
            store.hash(a.path, { maxBytes: Number.MAX_SAFE_INTEGER, requireSingleLink: false })
          )
          if (Either.isRight(got)) {
            if (got.right.sha256 !== a.sha256 || got.right.bytes !== a.bytes) {
              findings.push({ kind: "artifact-changed", ...base, actual: { ...got.right } })
            }
            continue
          }
          const e = got.left
          if (e._tag === "FileNotFound") findings.push({ kind: "artifact-missing", ...base, actual: null })
          else if (e._tag === "UnsafePath") {
            findings.push({
              kind: "artifact-changed",
              ...base,
              actual: null,
              detail: `refused to read it (${e.reason}): ${unsafePathWhy(e.reason)}`
            })
          } else if (e._tag === "IoError") return yield* e
          else return yield* Effect.die(e)
        }
      }
      const executions = yield* verifyExecutions(p, study, findings)
      return {
        checked,
        findings,
        executions,
        note: "A matching digest shows the file is the one that was linked, not that the result is correct. " +
          "Executions of other runtimes are listed as external: nothing checks them."
      }
    })

  return verifyArtifacts
}

/**
 * Without an EvidenceKey in the context (a FileStore and Lock composed by hand), signatures cannot
 * be checked: a signed execution is `unverifiable`, never `verified`.
 */
const NO_KEY: EvidenceKeyShape = {
  sign: () => Effect.fail(new EvidenceKeyUnavailable({ reason: "no evidence key in this composition" })),
  check: (kind, digest, signature) =>
    Effect.sync(() => checkSignature({ missing: "no evidence key in this composition" }, kind, digest, signature))
}

export const makeJournalArtifacts = (store: FileStoreShape, key: EvidenceKeyShape = NO_KEY): JournalArtifactsShape => ({
  digest: (path, maxBytes) => store.hash(path, { maxBytes, requireSingleLink: false }),
  verify: makeJournalVerify(
    store,
    makeExecRecords(makeGrantStoreFolder(store), makeExecutionStoreFolder(store), key)
  )
})

/** JournalArtifacts over the FileStore (and the EvidenceKey, when the context has one). */
export const JournalArtifactsFolder: Layer.Layer<JournalArtifacts, never, FileStore> = Layer.effect(
  JournalArtifacts,
  Effect.map(
    Effect.all([FileStore, Effect.serviceOption(EvidenceKey)]),
    ([store, key]) => makeJournalArtifacts(store, Option.getOrElse(key, () => NO_KEY))
  )
)
