/**
 * The rules over the journal's Schemas (./Journal.ts): decoding an event or a batch with issue
 * paths, the check replay runs on every line, and the manifest v1 validator and bytes.
 *
 * Replay checks each line with `eventProblem`, a hand-written copy of the Schemas' rules, and
 * not with `compileGuard(JournalEvent)` (src/domain/Guard.ts), which would leave one description
 * of the language: measured on 100,000 parsed `evaluation_recorded` events in one process
 * (medians of 15 interleaved rounds on a loaded 2-core machine), the compiled guard took 1.8–2.3×
 * the hand check (after its union dispatch and key walk made it 5× faster than before), and
 * `journal inspect` of 100,000 events took 1.11–1.20× as long with it (interleaved A/B through
 * the service): over the 10% the benchmarks may lose. The generic guard calls a closure per
 * node, where the hand check reads each field by name. Kept in step by: `eventRules`, a record
 * over every event type (a new type fails to compile until it has rules), and
 * test/journal/validate.test.ts, which property-tests the hand check, the compiled guard and the
 * Schemas against each other on events generated from the Schemas themselves and on mutations.
 */
import * as Either from "effect/Either"
import type * as Schema from "effect/Schema"
import { decodeWith, issueOf, jsonProblem, MAX_DOCUMENT_DEPTH, MAX_FREE_DEPTH } from "./Decode.js"
import { InvalidInput, type Issue } from "./Errors.js"
import { isRealInstant } from "./Instant.js"
import {
  CandidateStatus,
  EVENT_SCHEMAS,
  EVENT_TYPES,
  type EventType,
  ID_PATTERN,
  isRelativePath,
  type JournalEvent,
  ManifestV1,
  MAX_TEXT,
  SHA256_PATTERN
} from "./Journal.js"

const decoders = Object.fromEntries(
  EVENT_TYPES.map((t) => [t, decodeWith(EVENT_SCHEMAS[t] as Schema.Schema<JournalEvent, any, never>)])
) as Record<EventType, (u: unknown) => Either.Either<JournalEvent, InvalidInput>>

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const join = (prefix: string, path: string) => (prefix === "" ? path : path === "" ? prefix : `${prefix}.${path}`)

const NOT_PLAIN = Symbol("not plain")

/**
 * A copy of JSON-like data, as `structuredClone` makes it, in one walk: plain objects (prototype
 * `Object.prototype` or null) and arrays without holes, of strings, numbers, booleans, null and
 * undefined, at most `MAX_DOCUMENT_DEPTH` levels deep. Anything else (another prototype, a
 * function, a symbol, a bigint, a hole, deeper nesting or a cycle, a `__proto__` key that an
 * assignment would not copy as data) is `NOT_PLAIN`, left to `structuredClone`.
 */
const copyJsonLike = (v: unknown, depth: number): unknown => {
  if (v === null || typeof v !== "object") {
    return typeof v === "function" || typeof v === "symbol" || typeof v === "bigint" ? NOT_PLAIN : v
  }
  if (depth > MAX_DOCUMENT_DEPTH) return NOT_PLAIN
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype) return NOT_PLAIN
    const out: Array<unknown> = new Array(v.length)
    for (let i = 0; i < v.length; i++) {
      if (!(i in v)) return NOT_PLAIN
      const c = copyJsonLike(v[i], depth + 1)
      if (c === NOT_PLAIN) return NOT_PLAIN
      out[i] = c
    }
    return out
  }
  const proto: unknown = Object.getPrototypeOf(v)
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(v)) {
    if (k === "__proto__") return NOT_PLAIN
    const c = copyJsonLike((v as Record<string, unknown>)[k], depth + 1)
    if (c === NOT_PLAIN) return NOT_PLAIN
    out[k] = c
  }
  return out
}

/** A private copy of plain data (JSON-like values), or undefined when it cannot be copied that way. */
const plainCopy = (value: unknown): unknown => {
  const copy = copyJsonLike(value, 1)
  if (copy !== NOT_PLAIN) return copy
  try {
    return structuredClone(value)
  } catch {
    return undefined
  }
}

/**
 * Decode one event; issue paths are prefixed with `prefix` (the event's index in a batch).
 *
 * Fast path: a structured clone of the value (a private copy, so a caller changing its object
 * later changes nothing here) that passes `eventProblem` is the event, as the Schema would
 * decode it (the two checks agree: validate.test.ts). Anything else goes through the Schema,
 * which decides and words the issues.
 */
export const decodeEvent = (value: unknown, prefix = ""): Either.Either<JournalEvent, ReadonlyArray<Issue>> => {
  if (isRecord(value)) {
    const copy = plainCopy(value)
    if (copy !== undefined && eventProblem(copy) === null) return Either.right(copy as JournalEvent)
  }
  return decodeEventBySchema(value, prefix)
}

/**
 * `decodeEvent` of `value` whose private copy `copy` `jsonProblem` already found plain: only the
 * event's own rules are left to check on the copy; what they refuse, the Schema decides and words
 * on `value` itself, as `decodeEvent` does.
 */
const decodeCopiedEvent = (
  copy: unknown,
  value: unknown,
  prefix: string
): Either.Either<JournalEvent, ReadonlyArray<Issue>> =>
  isRecord(copy) && rulesProblem(copy) === null
    ? Either.right(copy as JournalEvent)
    : decodeEventBySchema(value, prefix)

/** `decodeEvent` through the Schemas only (the reference the fast path is tested against). */
export const decodeEventBySchema = (value: unknown, prefix = ""): Either.Either<JournalEvent, ReadonlyArray<Issue>> => {
  if (!isRecord(value)) return Either.left([{ path: prefix, message: "expected an event object" }])
  const type = value["type"]
  if (typeof type !== "string" || !(EVENT_TYPES as ReadonlyArray<string>).includes(type)) {
    return Either.left([{ path: join(prefix, "type"), message: `expected one of ${EVENT_TYPES.join(", ")}` }])
  }
  return Either.mapLeft(
    decoders[type as EventType](value),
    (e) => mergeIssues(e.issues).map((i) => ({ path: join(prefix, i.path), message: i.message }))
  )
}

const LITERAL_MISS = /^Expected (".*"), actual (.*)$/

/** One issue per path: the alternatives of a literal union are listed in one message. */
export const mergeIssues = (issues: ReadonlyArray<Issue>): ReadonlyArray<Issue> => {
  const byPath = new Map<string, Array<string>>()
  for (const i of issues) {
    const list = byPath.get(i.path)
    if (list === undefined) byPath.set(i.path, [i.message])
    else if (!list.includes(i.message)) list.push(i.message)
  }
  return [...byPath].map(([path, messages]) => {
    if (messages.length === 1) return { path, message: messages[0]! }
    const literals = messages.map((m) => LITERAL_MISS.exec(m))
    if (literals.every((m) => m !== null && m[2] === literals[0]![2])) {
      return { path, message: `Expected one of ${literals.map((m) => m![1]).join(", ")}, actual ${literals[0]![2]}` }
    }
    return { path, message: messages.join("; ") }
  })
}

export const MAX_BATCH = 10_000

/** Decode an append input (one event or a non-empty array) as a whole; every issue is reported. */
export const decodeBatch = (input: unknown): Either.Either<ReadonlyArray<JournalEvent>, InvalidInput> => {
  // One private copy of the whole input (a caller changing its objects later, or a getter
  // answering differently the second time, changes nothing here), checked once for plain data
  // (depth, `__proto__`, lone surrogates) as every other input is; its events then need only
  // their own rules. Input that cannot be copied is checked as given, event by event.
  const copy = typeof input === "object" && input !== null ? plainCopy(input) : undefined
  const problem = jsonProblem(copy ?? input, MAX_DOCUMENT_DEPTH)
  if (problem !== null) return Either.left(new InvalidInput({ issues: [issueOf(problem)] }))
  const decode = (i: number | undefined) => {
    const value = i === undefined ? input : (input as ReadonlyArray<unknown>)[i]
    const prefix = i === undefined ? "" : String(i)
    return copy === undefined
      ? decodeEvent(value, prefix)
      : decodeCopiedEvent(i === undefined ? copy : (copy as ReadonlyArray<unknown>)[i], value, prefix)
  }
  if (!Array.isArray(input)) {
    return Either.mapBoth(decode(undefined), { onLeft: (issues) => new InvalidInput({ issues }), onRight: (e) => [e] })
  }
  if (input.length === 0) {
    return Either.left(new InvalidInput({ issues: [{ path: "", message: "a batch holds at least one event" }] }))
  }
  if (input.length > MAX_BATCH) {
    return Either.left(
      new InvalidInput({ issues: [{ path: "", message: `a batch holds at most ${MAX_BATCH} events` }] })
    )
  }
  const issues: Array<Issue> = []
  const events: Array<JournalEvent> = []
  input.forEach((_, i) => {
    const r = decode(i)
    if (Either.isLeft(r)) { for (const issue of r.left) issues.push(issue) }
    else events.push(r.right)
  })
  return issues.length > 0 ? Either.left(new InvalidInput({ issues })) : Either.right(events)
}

// ---------------------------------------------------------------------------------------------
// The check replay runs on every line: the Schemas' rules written out by hand (see the top).

const hasOwn = Object.prototype.hasOwnProperty
const str = (u: unknown): u is string => typeof u === "string"
const isId = (u: unknown) => str(u) && ID_PATTERN.test(u)
const isText = (u: unknown) => str(u) && u.length >= 1 && u.length <= MAX_TEXT
const onlyKeys = (o: Record<string, unknown>, required: ReadonlyArray<string>, optional: ReadonlyArray<string>) => {
  let seen = 0
  for (const k in o) {
    if (required.includes(k)) seen++
    else if (!optional.includes(k)) return false
  }
  return seen === required.length
}
const allStrings = (o: Record<string, unknown>) => {
  for (const k in o) if (!str(k)) return false
  return true
}

/** Each event type's rules (after `id` and `at`): a new member of the event union fails to compile until it has its own. */
const eventRules: { readonly [K in EventType]: (u: Record<string, unknown>) => string | null } = {
  candidate_created: (u) => {
    if (!onlyKeys(u, ["id", "type", "candidate"], ["at"])) return "unexpected fields"
    const k = u["candidate"]
    if (!isRecord(k) || !onlyKeys(k, ["id", "title"], ["protocolVersion", "params"])) return "bad candidate"
    if (!isId(k["id"]) || !isText(k["title"])) return "bad candidate"
    if ("protocolVersion" in k && !isText(k["protocolVersion"])) return "bad candidate"
    if (
      "params" in k &&
      !(isRecord(k["params"]) && allStrings(k["params"]) && jsonProblem(k["params"], MAX_FREE_DEPTH) === null)
    ) {
      return "bad candidate"
    }
    return null
  },
  execution_linked: (u) => {
    if (!onlyKeys(u, ["id", "type", "candidateId", "execution"], ["at"]) || !isId(u["candidateId"])) {
      return "unexpected fields"
    }
    const x = u["execution"]
    if (!isRecord(x) || !onlyKeys(x, ["runtimeId", "status"], ["exitCode", "logRef"])) return "bad execution"
    if (!isText(x["runtimeId"]) || !isText(x["status"]) || ("logRef" in x && !isText(x["logRef"]))) {
      return "bad execution"
    }
    if (
      "exitCode" in x && x["exitCode"] !== null &&
      !(typeof x["exitCode"] === "number" && Number.isSafeInteger(x["exitCode"]))
    ) return "bad execution"
    return null
  },
  artifact_linked: (u) => {
    if (!onlyKeys(u, ["id", "type", "candidateId", "artifact"], ["at"]) || !isId(u["candidateId"])) {
      return "unexpected fields"
    }
    const a = u["artifact"]
    if (!isRecord(a) || !onlyKeys(a, ["path", "sha256", "bytes"], [])) return "bad artifact"
    const p = a["path"]
    const s = a["sha256"]
    const b = a["bytes"]
    if (!str(p) || !isRelativePath(p) || !str(s) || !SHA256_PATTERN.test(s)) return "bad artifact"
    if (typeof b !== "number" || !Number.isSafeInteger(b) || b < 0) return "bad artifact"
    return null
  },
  evaluation_recorded: (u) => {
    if (!onlyKeys(u, ["id", "type", "candidateId", "evaluation"], ["at"]) || !isId(u["candidateId"])) {
      return "unexpected fields"
    }
    const e = u["evaluation"]
    if (!isRecord(e) || !onlyKeys(e, ["evaluatorVersion", "metrics", "decision"], [])) return "bad evaluation"
    if (!isText(e["evaluatorVersion"])) return "bad evaluation"
    const d = e["decision"]
    if (d !== "accept" && d !== "reject" && d !== "inconclusive") return "bad evaluation"
    const m = e["metrics"]
    if (!isRecord(m)) return "bad evaluation"
    for (const k in m) {
      const v = m[k]
      if (typeof v !== "number" || !Number.isFinite(v)) return "bad evaluation"
    }
    return null
  },
  candidate_selected: (u) => {
    if (
      !onlyKeys(u, ["id", "type", "candidateId", "reason"], ["at"]) || !isId(u["candidateId"]) || !isText(u["reason"])
    ) {
      return "bad selection"
    }
    return null
  },
  checkpoint_saved: (u) => {
    if (!onlyKeys(u, ["id", "type", "checkpoint"], ["at"])) return "unexpected fields"
    const k = u["checkpoint"]
    if (!isRecord(k) || !onlyKeys(k, ["summary", "nextAction", "reviewed"], [])) return "bad checkpoint"
    if (!isText(k["summary"]) || !isText(k["nextAction"]) || typeof k["reviewed"] !== "boolean") return "bad checkpoint"
    return null
  },
  legacy_imported: (u) => {
    if (
      !onlyKeys(
        u,
        ["id", "type", "manifestSha256", "snapshotPath", "protocolVersion", "candidates", "completed", "selected"],
        ["at"]
      )
    ) return "unexpected fields"
    const s = u["manifestSha256"]
    const p = u["snapshotPath"]
    if (!str(s) || !SHA256_PATTERN.test(s) || !str(p) || !isRelativePath(p)) return "bad legacy import"
    if (u["protocolVersion"] !== null && !isText(u["protocolVersion"])) return "bad legacy import"
    if (u["selected"] !== null && !isId(u["selected"])) return "bad legacy import"
    const done = u["completed"]
    if (!Array.isArray(done) || !done.every(isId)) return "bad legacy import"
    const cs = u["candidates"]
    if (!Array.isArray(cs)) return "bad legacy import"
    for (const k of cs) {
      if (!isRecord(k) || !onlyKeys(k, ["id", "status", "resultPaths"], [])) return "bad legacy import"
      if (!isId(k["id"]) || !(CandidateStatus.literals as ReadonlyArray<unknown>).includes(k["status"])) {
        return "bad legacy import"
      }
      const rp = k["resultPaths"]
      if (!Array.isArray(rp) || !rp.every((x) => str(x) && isRelativePath(x))) return "bad legacy import"
    }
    return null
  }
}

/** `null` when `u` is a valid event, else a short reason. Agrees with the Schemas (validate.test.ts). */
export const eventProblem = (u: unknown): string | null =>
  // The plain-data rules every decoded input obeys (depth, no `__proto__` key, no lone surrogate), then the event's own.
  jsonProblem(u, MAX_DOCUMENT_DEPTH) !== null ? "not plain JSON data" : rulesProblem(u)

/**
 * `eventProblem` of a value parsed from one journal line's `text`. Text decoded from UTF-8 holds
 * no lone surrogate and a key spells `__proto__` only as itself or through a `\u` escape, so
 * the plain-data walk runs only when the text has either; depth is bounded by the event's shape
 * (its one free field, `params`, is walked by its own rule).
 */
export const lineEventProblem = (u: unknown, text: string): string | null =>
  text.includes("\\u") || text.includes("__proto__") ? eventProblem(u) : rulesProblem(u)

const rulesProblem = (u: unknown): string | null => {
  if (!isRecord(u)) return "not an object"
  if (!isId(u["id"])) return "bad id"
  if ("at" in u && !(str(u["at"]) && isRealInstant(u["at"]))) return "bad at"
  const type = u["type"]
  if (typeof type !== "string" || !hasOwn.call(eventRules, type)) return "unknown type"
  return eventRules[type as EventType](u)
}

/** The candidate an event refers to (`candidateId`), if any. */
export const candidateRef = (e: JournalEvent): string | undefined => ("candidateId" in e ? e.candidateId : undefined)

// ---------------------------------------------------------------------------------------------
// Manifest v1 (the Schema is ./Journal.ts's ManifestV1)

const decodeManifestShape = decodeWith(ManifestV1)

/**
 * The strict validator of manifest v1: the exact six-field shape (excess fields refused), plus
 * its internal consistency: unique candidate ids, `completed` and `selected` naming candidates,
 * no repeated completed id.
 */
export const validateManifest = (value: unknown): Either.Either<ManifestV1, ReadonlyArray<Issue>> => {
  const shape = decodeManifestShape(value)
  if (Either.isLeft(shape)) return Either.left(mergeIssues(shape.left.issues))
  const m = shape.right
  const issues: Array<Issue> = []
  const ids = new Set<string>()
  m.candidates.forEach((c, i) => {
    if (ids.has(c.id)) issues.push({ path: `candidates.${i}.id`, message: `the candidate id '${c.id}' is repeated` })
    ids.add(c.id)
  })
  const done = new Set<string>()
  m.completed.forEach((id, i) => {
    if (!ids.has(id)) issues.push({ path: `completed.${i}`, message: `'${id}' is not a candidate of the manifest` })
    if (done.has(id)) issues.push({ path: `completed.${i}`, message: `'${id}' is repeated` })
    done.add(id)
  })
  if (m.selected !== null && !ids.has(m.selected)) {
    issues.push({ path: "selected", message: `'${m.selected}' is not a candidate of the manifest` })
  }
  return issues.length > 0 ? Either.left(issues) : Either.right(m)
}

/** Deterministic manifest bytes: the six fields in their documented order, 2-space JSON, final newline. */
export const manifestBytes = (m: ManifestV1): string =>
  `${
    JSON.stringify(
      {
        version: 1,
        study: m.study,
        protocolVersion: m.protocolVersion,
        candidates: m.candidates.map((c) => ({ id: c.id, status: c.status, resultPaths: c.resultPaths })),
        completed: m.completed,
        selected: m.selected
      },
      null,
      2
    )
  }\n`

/** The id of the `legacy_imported` event of a manifest with this digest (stable: import is idempotent). */
export const legacyEventId = (manifestSha256: string) => `legacy:${manifestSha256}`
