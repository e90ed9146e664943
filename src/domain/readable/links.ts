/**
 * Links of the readable copy: the page's base URL and the absolute form of each `href`
 * (http, https and mailto only, by the WHATWG URL parser), written as a Markdown link target.
 */

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
    if (base !== undefined && href.charCodeAt(1) !== 47 && isPlainPath(href)) {
      const prefix = prefixOf(base)
      if (prefix !== undefined) return prefix + href
    }
  } else if (href.startsWith("http")) {
    const m = PLAIN_ABSOLUTE.exec(href)
    if (m !== null && !m[2]!.includes("xn--") && (m[3] === undefined || isPlainPath(m[3]))) return m[3] === undefined ? `${href}/` : href
  }
  return resolveHrefGeneric(href, base)
}

const PLAIN_ABSOLUTE = /^(https?:\/\/)((?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*)(\/.*)?$/
const PLAIN_PATH = /^(?:\/[A-Za-z0-9\-._~!$&'()*+,;=:@]*)+$/
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/
const isPlainPath = (path: string): boolean => PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path)

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

const LINK_TARGET_ESCAPE = /[()\s]/

/** A URL as a Markdown link target: parentheses and whitespace percent-encoded. */
export const linkTarget = (url: string): string =>
  LINK_TARGET_ESCAPE.test(url) ? url.replace(/[()\s]/g, (c) => encodeURIComponent(c)) : url

/** Link text with its brackets escaped, so `[text](url)` stays one link. */
export const escapeLinkText = (text: string): string =>
  text.indexOf("[") < 0 && text.indexOf("]") < 0 ? text : text.replace(/([[\]])/g, "\\$1")

/** The Markdown of a link whose visible text is `text` (already on one line). */
export const markdownLink = (text: string, href: string | undefined, base: URL | undefined): string => {
  if (text.length === 0) return ""
  const target = href === undefined ? undefined : resolveHref(href.trim(), base)
  return target === undefined ? text : `[${escapeLinkText(text)}](${linkTarget(target)})`
}
