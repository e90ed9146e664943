/**
 * A documentation page's version switcher: manuals kept for several releases of their software
 * show above the page the same page in the other releases ("Supported Versions: Current (18) / 17
 * / 16", "Development Versions: devel", a row of "5.1 / 5.2 / dev"). Each link goes to this page's
 * own address with one part of its path, the release, changed. It is the site's way between
 * copies of the page, not the page's text, and in the copy it is a line of numbers. A block whose
 * links are all such addresses, each a short text, and hold at least half its text, is left out
 * (`withoutVersionSwitchers`); a sentence that names another release in a link holds more prose
 * than links and stays.
 */
import { eachKept, type El, type Page } from "./tree.js"

/** A part of a path that names a release: a number ("18", "9.6", "v2", "5.1.x") or a release's name. */
const RELEASE = /^(?:v?\d+(?:\.(?:\d+|x))*|current|latest|stable|dev|devel|main|master|next|nightly)$/i
/** The longest text of a link read as a release's name (visible characters). */
const MAX_NAME = 20
/** The longest block read as a switcher (visible characters). */
const MAX_SWITCHER = 1500
/** The least share of a switcher's text in its links. */
const MIN_LINKED = 0.5

const segments = (url: URL): Array<string> => url.pathname.split("/")

/**
 * How `href` stands to this page's address: 1 when it is the address with one part of its path, a
 * release, changed for another; 0 when it is the address itself (the release shown); -1 otherwise.
 */
const release = (href: string, base: URL, page: URL): number => {
  let url: URL
  try {
    url = new URL(href, base)
  } catch {
    return -1
  }
  if (url.host !== page.host) return -1
  const a = segments(url)
  const b = segments(page)
  if (a.length !== b.length) return -1
  let changed = 0
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue
    if (++changed > 1 || !RELEASE.test(a[i]!) || !RELEASE.test(b[i]!)) return -1
  }
  return changed
}

/** Whether the links of `el` all go to this page in a release (one at least in another), each named in a short text. */
const switcher = (page: Page, el: El, base: URL, url: URL): boolean => {
  let others = 0
  for (let i = el.order + 1; i < el.end; i++) {
    const d = page.all[i]!
    if (d.name !== "a" || d.drop || d.text === 0) continue
    const href = d.attribs.href
    if (href === undefined || d.text > MAX_NAME) return false
    const r = release(href, base, url)
    if (r < 0) return false
    others += r
  }
  return others > 0
}

/** The roots without the blocks that link this page in its software's other releases. */
export const withoutVersionSwitchers = (
  page: Page,
  roots: ReadonlyArray<El>,
  base: URL | undefined,
  pageUrl: string
): ReadonlyArray<El> => {
  let url: URL
  try {
    url = new URL(pageUrl)
  } catch {
    return roots
  }
  if (base === undefined || !/\/[^/]/.test(url.pathname)) return roots
  for (const root of roots) {
    eachKept(page.all, root.order, root.end, (el) => {
      if (el.block !== undefined || el.link === 0) return false
      if (el.text > MAX_SWITCHER || el.link < MIN_LINKED * el.text) return false
      if (!switcher(page, el, base, url)) return false
      el.drop = true
      return true
    })
  }
  return roots
}
