/**
 * The copy's title without the site's name. A page whose body does not open with its own
 * first-level heading gets the document's title as its `# ` heading, and sites write their name
 * into that title after a separator ("Payroll Services | Example Accountants & Advisors",
 * "Cloud Functions | Example Cloud") or before it ("Example – We make dev tools …"). The name is
 * the front matter's `site`, not the page's text; the heading keeps the rest. A part is the site's
 * name when, letters and digits only, it is the front matter's `site` or starts with a label of
 * the page's host name (three letters or more, not its last: `exampleaccountants` of
 * `exampleaccountants.com`); a leading part only when it is such a name whole (`example`,
 * `exampleai`), since a page's subject may open with the site's name ("Example Functions").
 * Only words are left out: the rest of the title is kept as written.
 */
import { wordsOf } from "./tree.js"

/** Separators between a title and the site's name: a bar, a dash, a middle dot, a guillemet, spaced. */
const SEPARATOR = /\s+[|\-\u2013\u2014\u00b7\u2022\u00bb:]{1,2}\s+/g

/** Letters and digits only, lowercased. */
const compact = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "")

/** The shortest name a part may match. */
const MIN_NAME = 3

/** The names a site goes by: its `site` field and its host name's labels (not `www`, not the last). */
const siteNames = (site: string | undefined, pageUrl: string): ReadonlyArray<string> => {
  const names: Array<string> = []
  if (site !== undefined && compact(site).length >= MIN_NAME) names.push(compact(site))
  let host = ""
  try {
    host = new URL(pageUrl).hostname.toLowerCase()
  } catch {
    host = ""
  }
  const labels = host.split(".").filter((l) => l.length > 0)
  for (const label of labels.slice(0, -1)) {
    const c = compact(label)
    if (c !== "www" && c.length >= MIN_NAME) names.push(c)
  }
  const whole = compact(labels.slice(-2).join("."))
  if (labels.length >= 2 && whole.length >= MIN_NAME) names.push(whole)
  return names
}

/** A trailing part that names the site: it starts with one of its names, or is the start of its `site`. */
const trailingName = (part: string, names: ReadonlyArray<string>): boolean => {
  const c = compact(part)
  return c.length > 0 && names.some((n) => c.startsWith(n) || n.startsWith(c) && c.length >= MIN_NAME)
}

/** A leading part that is one of the site's names whole. */
const leadingName = (part: string, names: ReadonlyArray<string>): boolean => {
  const c = compact(part)
  return c.length > 0 && names.includes(c)
}

/**
 * The document's title as the copy's heading: without the site's name after its last separator,
 * else before its first; the title as it was when no such part is found or nothing would be left.
 * A part the body's first headings (`headings`: each one's words, `wordsOf` joined by spaces) say
 * word for word is the page's own title, whatever the rest names ("Defining Traits - The Book"
 * over a heading "Defining Traits"): the copy writes that part once, not the title over its echo.
 */
export const titleWithoutSiteName = (
  title: string,
  site: string | undefined,
  pageUrl: string,
  body: string,
  headings: ReadonlyArray<string> = []
): string => {
  const seps = [...title.matchAll(SEPARATOR)]
  if (seps.length === 0) return title
  const last = seps[seps.length - 1]!
  const head = title.slice(0, last.index).trim()
  const firstSep = seps[0]!
  const rest = title.slice(firstSep.index + firstSep[0].length).trim()
  const saidByHeading = (part: string): boolean => part.length > 0 && headings.includes(wordsOf(part).join(" "))
  if (saidByHeading(head)) return head
  if (saidByHeading(rest)) return rest
  const names = siteNames(site, pageUrl)
  if (names.length === 0) return title
  const said = (part: string): boolean => {
    const words = wordsOf(part)
    return words.some((w) => w.length >= MIN_NAME && bodyWords.has(w))
  }
  const bodyWords = new Set(wordsOf(body))
  const trailing = title.slice(last.index + last[0].length)
  if (head.length > 0 && trailingName(trailing, names) && !said(trailing)) return head
  const first = seps[0]!
  const tail = title.slice(first.index + first[0].length).trim()
  const leading = title.slice(0, first.index)
  if (tail.length > 0 && leadingName(leading, names) && !said(leading)) return tail
  return title
}
