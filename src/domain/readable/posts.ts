/**
 * The posts of a thread: a forum shows each post as one of a run of siblings of one shape, opening
 * with its author's name as a link to the author's profile and followed by what the author wrote.
 * A short post (a line or two) sits among its author's link, its date and number links and a row
 * of "quote / reply / report" links, so it reads as link-dense furniture and the cleaning pass
 * (content.ts, step 4) dropped it while the long posts of the same thread stayed. A block that is a
 * post (`posts`), and each block inside it, is dropped there only when links outweigh its other
 * text (or it is shorter than a paragraph), not past the 0.2 share of links of short blocks.
 * A link of signs only ("[–]" folding a comment, "▲") before the author's is a control, read past.
 */
import { shapeOf, siblingsOfShape } from "./cards.js"
import { eachKept, type El, type Page, textContent } from "./tree.js"

/** Where a link to a member's profile goes: `/u/name`, `/members/name.12/`, `?action=profile;u=12`, `/user/name`. */
const PROFILE = /(?:^|[/?&;=])(?:u|users?|members?|profiles?|people|authors?)(?:[/=;.]|$)/i
/** Names of the author's link (`author`, `username`, `poster`, `user-name`). */
const AUTHOR = /author|user-?name|poster/i
/** A letter or digit: what a name holds and a control's sign ("[–]", "▲") does not. */
const NAMED = /[\p{L}\p{N}]/u
/** The fewest characters outside links a post holds after its author (a line of its own). */
const MIN_WRITTEN = 20

const pathOf = (href: string): string => {
  const start = href.indexOf("//")
  if (start < 0) return href
  const slash = href.indexOf("/", start + 2)
  return slash < 0 ? "" : href.slice(slash)
}

/** Whether a link names an author: by its names or by where it goes (a member's profile). */
const authorLink = (a: El): boolean =>
  AUTHOR.test(`${a.attribs.class ?? ""} ${a.attribs.itemprop ?? ""} ${a.attribs.rel ?? ""}`) ||
  (a.attribs.href !== undefined && PROFILE.test(pathOf(a.attribs.href)))

/**
 * Whether `el` opens with its author: its first link with text names an author, and text outside
 * links follows it (`MIN_WRITTEN`).
 */
const authored = (page: Page, el: El): boolean => {
  let author: boolean | undefined
  let written = 0
  eachKept(page.all, el.order + 1, el.end, (d) => {
    if (author === false) return true
    if (author === true) {
      if (d.name === "a") return true
      written += d.selfText
      return false
    }
    if (d.name !== "a" || d.text === 0) return d.name === "a"
    // A link without a letter or digit ("[–]", "↑", "#") is a control beside the name, not a name.
    if (!NAMED.test(textContent(page.texts, d))) return true
    author = authorLink(d)
    return true
  })
  return author === true && written >= MIN_WRITTEN
}

/**
 * The blocks in `roots` that are posts of a thread: one of at least three siblings of one shape
 * (cards.ts `siblingsOfShape`, links included), opening with its author (`authored`).
 */
export const posts = (page: Page, roots: ReadonlyArray<El>): ReadonlySet<El> => {
  const found = new Set<El>()
  const judged = new Map<El, Set<string>>()
  for (const root of roots) {
    eachKept(page.all, root.order + 1, root.end, (el) => {
      const parent = el.parent
      if (parent === undefined) return false
      const shapes = judged.get(parent) ?? new Set<string>()
      judged.set(parent, shapes)
      const shape = shapeOf(el)
      if (shapes.has(shape)) return false
      shapes.add(shape)
      const run = siblingsOfShape(parent, el, 1)
      if (run !== undefined) { for (const post of run) if (authored(page, post)) found.add(post) }
      return false
    })
  }
  return found
}

/** Whether `el` is one of the posts or inside one. */
export const inPost = (found: ReadonlySet<El>, el: El): boolean => {
  if (found.size === 0) return false
  for (let p: El | undefined = el; p !== undefined; p = p.parent) if (found.has(p)) return true
  return false
}
