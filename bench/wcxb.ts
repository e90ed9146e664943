/**
 * The WCXB development set (`../shared/extraction-wcxb/`: 1,497 pages of seven types with their
 * human-reviewed main text; see its README) and its metric, shared by the bench area and the
 * development loop (bench/extractionWcxbLoop.ts).
 *
 * Metric (WCXB's own): lowercase both texts, take `\w+` tokens (Unicode letters, digits, `_`) as
 * bags; precision = overlap / predicted, recall = overlap / reference, F1 their harmonic mean (an
 * empty prediction scores 0). Means over pages, overall and per page type.
 *
 * Each page falls in one of two halves by the first byte of the SHA-256 of its id: "held" (about
 * 30%, never looked at while the rules were written) and "tuned" (the rest), so a figure on the
 * held half says whether a rule is general; the held pages of sites with no tuned page
 * (`heldOnOtherSites`) say it more strictly.
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import * as zlib from "node:zlib"

export const WCXB = path.resolve("../shared/extraction-wcxb")

export interface WcxbCase {
  readonly id: string
  readonly url: string
  readonly type: string
  readonly reference: string
  readonly held: boolean
  readonly html: string
}

/** Whether a page id falls in the held-back half (about 30% of pages, fixed by the id alone). */
export const isHeld = (id: string): boolean => createHash("sha256").update(id).digest()[0]! < 77

/**
 * The held pages whose site (the address's host) has no page in the tuned half. The halves are
 * drawn by page, so a site can have pages in both (52 sites, 61 of the 426 held pages): a rule
 * written for one site's pages can lift its held pages too, and on those the held figure says
 * little of how general the rule is. The figure on these pages alone does.
 */
export const heldOnOtherSites = (cases: ReadonlyArray<Pick<WcxbCase, "id" | "url" | "held">>): ReadonlySet<string> => {
  // A page whose address does not parse has no known site: it is not counted as another site's.
  const site = (url: string): string | undefined => URL.canParse(url) ? new URL(url).host : undefined
  const tuned = new Set(cases.filter((c) => !c.held).map((c) => site(c.url)))
  return new Set(
    cases.filter((c) => {
      const host = c.held ? site(c.url) : undefined
      return host !== undefined && !tuned.has(host)
    }).map((c) => c.id)
  )
}

/** The set's scored pages, the first `limit` of them (all by default). */
export const loadWcxb = (limit = Infinity): Array<WcxbCase> => {
  const index = JSON.parse(fs.readFileSync(path.join(WCXB, "cases.json"), "utf8")) as Record<
    string,
    { url: string; type: string; main_content: string }
  >
  // Some cases of the published split lack a page of their own (id "undefined", no url) or a
  // reference with any word in it (nothing to recall: every copy would count as lost): skipped.
  return Object.entries(index).filter(([id, c]) =>
    typeof c.url === "string" && typeof c.main_content === "string" && /[\p{L}\p{N}]/u.test(c.main_content) &&
    fs.existsSync(path.join(WCXB, "pages", `${id}.html.gz`))
  ).slice(0, limit).map(([id, c]) => ({
    id,
    url: c.url,
    type: c.type,
    reference: c.main_content,
    held: isHeld(id),
    html: new TextDecoder("utf-8").decode(zlib.gunzipSync(fs.readFileSync(path.join(WCXB, "pages", `${id}.html.gz`))))
  }))
}

const WORD = /[\p{L}\p{N}\p{M}_]+/gu

const bag = (s: string): Map<string, number> => {
  const m = new Map<string, number>()
  for (const w of s.toLowerCase().match(WORD) ?? []) m.set(w, (m.get(w) ?? 0) + 1)
  return m
}

const size = (b: Map<string, number>): number => {
  let n = 0
  for (const v of b.values()) n += v
  return n
}

export interface WordScore {
  readonly precision: number
  readonly recall: number
  readonly f1: number
}

/** WCXB's word-bag precision, recall and F1 of `predicted` against `reference`. */
export const wordScore = (predicted: string, reference: string): WordScore => {
  const p = bag(predicted)
  const r = bag(reference)
  const np = size(p)
  const nr = size(r)
  if (np === 0 || nr === 0) return { precision: 0, recall: 0, f1: 0 }
  let overlap = 0
  for (const [w, n] of p) overlap += Math.min(n, r.get(w) ?? 0)
  const precision = overlap / np
  const recall = overlap / nr
  return { precision, recall, f1: overlap === 0 ? 0 : (2 * precision * recall) / (precision + recall) }
}

export interface PageResult extends WordScore {
  readonly id: string
  readonly type: string
  readonly held: boolean
}

export interface Summary {
  readonly pages: number
  readonly f1: number
  readonly lost: number
}

export const summarize = (rs: ReadonlyArray<PageResult>): Summary => ({
  pages: rs.length,
  f1: rs.length === 0 ? 0 : rs.reduce((n, r) => n + r.f1, 0) / rs.length,
  lost: rs.filter((r) => r.recall < 0.1).length
})

export const TYPES = ["article", "forum", "documentation", "product", "collection", "listing", "service"] as const
