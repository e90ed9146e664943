/**
 * The receipt digest of a run: the SHA-256 of the canonical JSON (RFC 8785) of its frozen content
 * with its id and window. Every scan re-verifies every run's digest, hence the direct writer.
 */
import { canonicalJson, normalizeTimestamp, sha256Hex } from "./Canonical.js"
import type { RunRecord } from "./MonitorSchema.js"

/** What the receipt digest covers: the frozen content, the run's id and its window. */
export const receiptOf = (
  run: Pick<
    RunRecord,
    | "id"
    | "subscriptionId"
    | "gridVersion"
    | "windowIndex"
    | "windowStart"
    | "coalescedWindows"
    | "createdAt"
    | "frozen"
  >
) => ({
  id: run.id,
  subscriptionId: run.subscriptionId,
  gridVersion: run.gridVersion,
  windowIndex: run.windowIndex,
  windowStart: run.windowStart,
  coalescedWindows: run.coalescedWindows,
  createdAt: run.createdAt,
  frozen: run.frozen
})

/**
 * `canonicalJson(receiptOf(run))` for the receipt's known shape, computed without the generic
 * walk (`next` recomputes every run's digest, and the walk dominated it): every field's type is
 * checked and the text is written directly with the keys in RFC 8785 order, each string by
 * JSON.stringify (which writes strings as RFC 8785 does) and each safe integer in decimal (as
 * RFC 8785 does; -0 is written 0 by both), the one timestamp key (`createdAt`) normalized as
 * canonicalJson does, and `scope` (free-form) through the generic `canonicalJson` unless it is
 * empty. Anything off-shape, or a lone surrogate (which JSON.stringify writes as a lowercase
 * `\udXXX` escape: the output is checked once; escaped backslashes may match too, and then fall
 * back needlessly with the same result), falls back to the generic `canonicalJson`. A property
 * test checks that both give the same text.
 */
class OffShape extends Error {}
const ESCAPED_SURROGATE = /\\ud[89a-f]/
const str = (x: unknown): string => {
  if (typeof x !== "string") throw new OffShape()
  return x
}
/** A string as JSON text. */
const q = (x: unknown): string => JSON.stringify(str(x))
const int = (x: unknown): number => {
  if (typeof x !== "number" || !Number.isSafeInteger(x)) throw new OffShape()
  return x
}
const nullableQ = (x: unknown): string => (x === null ? "null" : q(x))
const obj = (x: unknown): Record<string, unknown> => {
  if (typeof x !== "object" || x === null || Array.isArray(x)) throw new OffShape()
  return x as Record<string, unknown>
}
const fastReceiptJson = (run: Parameters<typeof receiptOf>[0]): string => {
  const f = obj(run.frozen)
  const budget = obj(f["budget"])
  const cadence = obj(f["cadence"])
  const scope = obj(f["scope"])
  const units = f["units"]
  if (!Array.isArray(units)) throw new OffShape()
  let unitsJson = "["
  for (let i = 0; i < units.length; i++) unitsJson += i === 0 ? q(units[i]) : `,${q(units[i])}`
  unitsJson += "]"
  if (Object.keys(f).length !== 15 || Object.keys(budget).length !== 2 || Object.keys(cadence).length !== 2) {
    throw new OffShape()
  }
  const out =
    `{"coalescedWindows":${int(run.coalescedWindows)},"createdAt":${q(normalizeTimestamp(str(run.createdAt)))},` +
    `"frozen":{"anchor":${q(f["anchor"])},` +
    `"budget":{"maxMinutes":${int(budget["maxMinutes"])},"maxSources":${int(budget["maxSources"])}},` +
    `"cadence":{"every":${int(cadence["every"])},"unit":${q(cadence["unit"])}},` +
    `"contentDigest":${q(f["contentDigest"])},"kind":${q(f["kind"])},"mode":${q(f["mode"])},` +
    `"preference":${nullableQ(f["preference"])},"program":${nullableQ(f["program"])},` +
    `"scope":${Object.keys(scope).length === 0 ? "{}" : canonicalJson(scope)},"scopeDigest":${q(f["scopeDigest"])},` +
    `"subscriptionRevision":${int(f["subscriptionRevision"])},"survey":${nullableQ(f["survey"])},` +
    `"target":${q(f["target"])},"timezone":${q(f["timezone"])},"units":${unitsJson}},` +
    `"gridVersion":${int(run.gridVersion)},"id":${q(run.id)},"subscriptionId":${q(run.subscriptionId)},` +
    `"windowIndex":${int(run.windowIndex)},"windowStart":${q(run.windowStart)}}`
  if (ESCAPED_SURROGATE.test(out)) throw new OffShape()
  return out
}

export const receiptJsonOf = (run: Parameters<typeof receiptOf>[0]): string => {
  try {
    return fastReceiptJson(run)
  } catch (e) {
    if (!(e instanceof OffShape)) throw e
    return canonicalJson(receiptOf(run))
  }
}

export const receiptDigestOf = (run: Parameters<typeof receiptOf>[0]): string => sha256Hex(receiptJsonOf(run))
