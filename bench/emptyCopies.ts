/**
 * Copies that lost the page: `node scripts/run-ts.mjs bench/emptyCopies.ts [listed]` runs the
 * readable copy over every page of both real-page sets (`../shared/extraction/` and
 * `../shared/extraction-wcxb/`) and counts:
 *
 * - copies whose body (the copy without its front matter, as a reader sees it) is empty or holds
 *   only the title, on pages whose visible text (the gate's reading of the original) holds more
 *   than the title: the copy must never be empty or title-only there;
 * - copies that hold named furniture: the text (30 characters or more) of a `nav`, a `header` or a
 *   `footer` outside the page's `main` and articles, an element whose role is `navigation`,
 *   `banner` or `contentinfo`, or one named as a cookie, consent, newsletter or subscription
 *   banner; not one holding a heading (a page's title in its header). Each is marked by how the
 *   copy was made: `fallback` (the page's visible text: no root is a part the scorer picked or
 *   holds its best candidate) or `chosen` (the scored choice).
 *
 * Each listed page is named with its set and file, so a person can run `dossier ingest --file` on
 * it. Where a set is absent (a user's clone has none) it prints one line and skips that set.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import * as zlib from "node:zlib"
import { htmlToMarkdown, pageAsRead } from "../src/domain/Readable.js"
import { chooseContent, scoredChoices } from "../src/domain/readable/content.js"
import { baseOf } from "../src/domain/readable/links.js"
import { pageMeta } from "../src/domain/readable/meta.js"
import { collapsedText, type El, inside } from "../src/domain/readable/tree.js"
import { visibleText } from "../src/domain/VisibleText.js"
import { readerText, withoutFrontMatter } from "./readerText.js"

interface Page {
  readonly set: string
  readonly file: string
  readonly url: string
}

const pagesOf = (dir: string, urls: (index: Record<string, Record<string, unknown>>) => Array<[string, string]>) => {
  const at = path.resolve(dir)
  if (!fs.existsSync(path.join(at, "cases.json"))) {
    console.log(`skipped: no set at ${dir} (it is not part of the repository)`)
    return []
  }
  const index = JSON.parse(fs.readFileSync(path.join(at, "cases.json"), "utf8")) as Record<
    string,
    Record<string, unknown>
  >
  return urls(index).filter(([file]) => fs.existsSync(path.join(at, "pages", file))).map(([file, url]): Page => ({
    set: dir,
    file,
    url
  }))
}

const pages: Array<Page> = [
  ...pagesOf(
    "../shared/extraction",
    (index) => Object.entries(index).map(([url, c]) => [String(c.page), url] as [string, string])
  ),
  ...pagesOf(
    "../shared/extraction-wcxb",
    (index) =>
      Object.entries(index).filter(([, c]) => typeof c.url === "string").map(([id, c]) =>
        [`${id}.html.gz`, String(c.url)] as [string, string]
      )
  )
]
const listed = Number(process.argv[2] ?? "20")

const WORDS = /[\p{L}\p{N}]+/gu
const wordsOf = (s: string): Array<string> => s.toLowerCase().match(WORDS) ?? []
const normalize = (s: string): string => s.normalize("NFC").replace(/\s+/g, " ").trim()

/** The copy's title: the front matter's, else its first `# ` heading. */
const titleOf = (copy: string): string => {
  const fm = /^---\n(?:.*\n)*?title: (".*")\n/.exec(copy)
  if (fm !== null) return JSON.parse(fm[1]!) as string
  return /^# (.*)$/m.exec(copy)?.[1] ?? ""
}

const FURNITURE_ROLES = new Set(["navigation", "banner", "contentinfo"])
const FURNITURE_NAMES = /cookie|consent|gdpr|newsletter|subscri/i
const outsideContent = (el: El): boolean => {
  for (let at = el.parent; at !== undefined; at = at.parent) {
    if (at.name === "main" || at.name === "article" || at.attribs.role === "main") return false
  }
  return true
}
const holdsHeading = (all: ReadonlyArray<El>, el: El): boolean => {
  for (let i = el.order + 1; i < el.end; i++) if (/^h[1-6]$/.test(all[i]!.name)) return true
  return false
}
const named = (all: ReadonlyArray<El>, el: El): boolean =>
  ((["nav", "header", "footer"].includes(el.name) && outsideContent(el)) ||
    FURNITURE_ROLES.has(el.attribs.role ?? "") ||
    FURNITURE_NAMES.test(`${el.attribs.class ?? ""} ${el.attribs.id ?? ""}`)) && !holdsHeading(all, el)

const empty: Array<string> = []
const furnished: Array<string> = []
let fallbacks = 0
let seen = 0
for (const p of pages) {
  const html = new TextDecoder("utf-8").decode(zlib.gunzipSync(fs.readFileSync(path.join(p.set, "pages", p.file))))
  seen++
  const copy = htmlToMarkdown(html, p.url)
  const title = wordsOf(titleOf(copy)).join(" ")
  const body = wordsOf(readerText(withoutFrontMatter(copy))).join(" ")
  const shown = wordsOf(visibleText("html", html).text).join(" ")
  if ((body === "" || body === title) && shown.length > title.length) {
    empty.push(
      `${p.set}/pages/${p.file} ${p.url}: ${body === "" ? "empty" : "title only"} (${shown.length} characters shown)`
    )
  }
  // The page as the copy reads it: streamed parts in place, concealed text revealed, no frame.
  const { page } = pageAsRead(html, p.url)
  if (page === undefined) continue
  const roots = chooseContent(page, pageMeta(page, baseOf(page.baseHref, p.url)))
  const choice = scoredChoices.get(page)
  // The scored choice made the copy when a root is one it picked or holds its best candidate.
  const fellBack = choice === undefined ||
    !roots.some((r) => choice.picked.includes(r) || inside(choice.best, r) || inside(r, choice.best))
  if (fellBack) fallbacks++
  const text = normalize(readerText(withoutFrontMatter(copy)))
  const kept = page.all.filter((el) => named(page.all, el)).map((el) => normalize(collapsedText(page, el, false)))
    .filter((t) => t.length >= 30 && text.includes(t))
  if (kept.length > 0) {
    furnished.push(`${fellBack ? "fallback" : "chosen"} ${p.set}/pages/${p.file} ${p.url}: "${kept[0]!.slice(0, 80)}"`)
  }
}

console.log(`pages: ${seen}; copies empty or title-only on a page with visible text: ${empty.length}`)
for (const line of empty.slice(0, listed)) console.log(`  ${line}`)
console.log(
  `copies from the visible-text fallback: ${fallbacks}; copies keeping named furniture: ${furnished.length} (${
    furnished.filter((f) => f.startsWith("fallback")).length
  } from the fallback)`
)
for (const line of furnished.slice(0, listed)) console.log(`  ${line}`)
