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

/** The absolute form of a link (`href` already trimmed) against a base, by the URL parser; `undefined` for other schemes and unparsable links. */
export const resolveHref = (href: string, base: URL | undefined): string | undefined => {
  try {
    const u = base === undefined ? new URL(href) : new URL(href, base)
    return u.protocol === "http:" || u.protocol === "https:" || u.protocol === "mailto:" ? u.href : undefined
  } catch {
    return undefined
  }
}

/**
 * A URL as a Markdown link target: parentheses and whitespace percent-encoded (an unbalanced
 * parenthesis would end the link early; `encodeURIComponent` leaves parentheses as they are).
 */
export const linkTarget = (url: string): string =>
  url.replace(/[()\s]/g, (c) => (c === "(" ? "%28" : c === ")" ? "%29" : encodeURIComponent(c)))

/** Link text with its brackets escaped, so `[text](url)` stays one link. */
export const escapeLinkText = (text: string): string =>
  text.indexOf("[") < 0 && text.indexOf("]") < 0 ? text : text.replace(/([[\]])/g, "\\$1")

/** The Markdown of a link whose visible text is `text` (already on one line). */
export const markdownLink = (text: string, href: string | undefined, base: URL | undefined): string => {
  if (text.length === 0) return ""
  const target = href === undefined ? undefined : resolveHref(href.trim(), base)
  return target === undefined ? text : `[${escapeLinkText(text)}](${linkTarget(target)})`
}
