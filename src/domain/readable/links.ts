/**
 * Links of the readable copy: the page's base URL and the absolute form of each `href`
 * (http, https and mailto only, by the WHATWG URL parser), written as a Markdown link target.
 */
import { isWideSpace } from "../Quote.js"

/** The URL links resolve against: a usable http(s) `<base href>` (resolved against the page), else the page URL. */
export const baseOf = (baseHref: string | undefined, pageUrl: string): URL | undefined => {
  let page: URL | undefined
  try {
    page = new URL(pageUrl)
  } catch {
    page = undefined
  }
  if (baseHref !== undefined) {
    try {
      const u = page === undefined ? new URL(baseHref) : new URL(baseHref, page)
      if (u.protocol === "http:" || u.protocol === "https:") return u
    } catch {
      // an unusable <base> is ignored
    }
  }
  return page
}

/**
 * The absolute form of a link (`href` already trimmed) against a base, or `undefined` for other
 * schemes and unparsable links. Equal to `resolveHrefGeneric` (a property test compares them);
 * the two shapes most links have are written out without the URL parser, which took about a sixth
 * of the rendering of a large page:
 * - a path-absolute link (`/a/b.html`) against an http(s) base: the base's scheme, userinfo, host
 *   and port, then the path as it is;
 * - an http(s) link to a host of lowercase letters, digits and hyphens whose last label starts
 *   with a letter (never an IPv4 number, no `xn--` label to validate), without port or userinfo:
 *   as it is, with `/` for an empty path.
 * In both the path holds only characters the parser keeps as they are (no `%`, `\\`, `?`, `#`, no
 * `.` or `..` segment, nothing it would encode). Anything else goes to the parser.
 */
export const resolveHref = (href: string, base: URL | undefined): string | undefined => {
  if (href.charCodeAt(0) === 47 /* / */) {
    if (base !== undefined && href.charCodeAt(1) !== 47 && isPlainPath(href, 0)) {
      const prefix = prefixOf(base)
      if (prefix !== undefined) return prefix + href
    }
  } else if (href.startsWith("http")) {
    const plain = plainAbsolute(href)
    if (plain !== undefined) return plain
  }
  return resolveHrefGeneric(href, base)
}

/** Characters a plain path holds besides `/` (`A-Za-z0-9-._~!$&'()*+,;=:@`: the parser keeps them as they are). */
const PATH_CHAR = new Uint8Array(128)
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@") {
  PATH_CHAR[c.charCodeAt(0)] = 1
}

/** Whether `s` from `from` is a plain path: `/`, then segments of `PATH_CHAR`s, none of them `.` or `..`. */
const isPlainPath = (s: string, from: number): boolean => {
  const n = s.length
  if (from >= n || s.charCodeAt(from) !== 47) return false
  let segment = from + 1
  for (let i = segment; i <= n; i++) {
    const c = i < n ? s.charCodeAt(i) : 47
    if (c === 47) {
      const len = i - segment
      if ((len === 1 || len === 2) && s.charCodeAt(segment) === 46 && s.charCodeAt(i - 1) === 46) return false
      segment = i + 1
    } else if (c >= 128 || PATH_CHAR[c] === 0) return false
  }
  return true
}

const isHostChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45

/**
 * The second shape: `http(s)://`, a host of dot-separated non-empty labels of lowercase letters,
 * digits and hyphens whose last label starts with a letter and none holds `xn--`, then nothing
 * (`/` is added) or a plain path; else `undefined`.
 */
const plainAbsolute = (href: string): string | undefined => {
  const hostStart = href.startsWith("https://") ? 8 : href.startsWith("http://") ? 7 : -1
  if (hostStart < 0) return undefined
  const n = href.length
  let label = hostStart
  let i = hostStart
  for (; i < n; i++) {
    const c = href.charCodeAt(i)
    if (c === 47) break
    if (c === 46) {
      if (i === label) return undefined
      label = i + 1
    } else if (!isHostChar(c)) return undefined
  }
  const first = href.charCodeAt(label)
  if (label >= i || first < 97 || first > 122) return undefined
  const xn = href.indexOf("xn--", hostStart)
  if (xn >= 0 && xn + 4 <= i) return undefined
  if (i === n) return `${href}/`
  return isPlainPath(href, i) ? href : undefined
}

/** What `new URL("/x", base).href` starts with before `/x`, for http(s) bases (kept per base). */
const prefixes = new WeakMap<URL, string | null>()
const prefixOf = (base: URL): string | undefined => {
  let prefix = prefixes.get(base)
  if (prefix === undefined) {
    prefix = base.protocol === "http:" || base.protocol === "https:" ? new URL("/", base).href.slice(0, -1) : null
    prefixes.set(base, prefix)
  }
  return prefix ?? undefined
}

/** `resolveHref` by the WHATWG URL parser alone. */
export const resolveHrefGeneric = (href: string, base: URL | undefined): string | undefined => {
  try {
    const u = base === undefined ? new URL(href) : new URL(href, base)
    return u.protocol === "http:" || u.protocol === "https:" || u.protocol === "mailto:" ? u.href : undefined
  } catch {
    return undefined
  }
}

/** Whether a URL holds a parenthesis or whitespace (as `\s` reads it): a scan of its codes, mostly printable ASCII. */
const needsTargetEscape = (url: string): boolean => {
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i)
    if (c > 41 && c < 160) continue
    if (c === 40 || c === 41 || c === 32 || (c >= 9 && c <= 13) || (c >= 160 && isWideSpace(c))) return true
  }
  return false
}

/** A URL as a Markdown link target: parentheses and whitespace percent-encoded. */
export const linkTarget = (url: string): string =>
  needsTargetEscape(url) ? url.replace(/[()\s]/g, (c) => encodeURIComponent(c)) : url

/** Link text with its brackets escaped, so `[text](url)` stays one link. */
export const escapeLinkText = (text: string): string =>
  text.indexOf("[") < 0 && text.indexOf("]") < 0 ? text : text.replace(/([[\]])/g, "\\$1")

/** The Markdown of a link whose visible text is `text` (already on one line). */
export const markdownLink = (text: string, href: string | undefined, base: URL | undefined): string => {
  if (text.length === 0) return ""
  const target = href === undefined ? undefined : resolveHref(href.trim(), base)
  return target === undefined ? text : `[${escapeLinkText(text)}](${linkTarget(target)})`
}
