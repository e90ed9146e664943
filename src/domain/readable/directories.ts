/**
 * A directory's lists of links: a resource page (court forms by topic, a library's guides, a
 * project's documents) is built as sections, each a heading over a list of the links it names.
 * The cleaning pass drops a list that is mostly links as a menu or an article's strip of related
 * links (content.ts, step 4); where the content holds `MIN_DIRECTORY_LISTS` such lists or more,
 * each right after a heading of its own and of at most `MAX_DIRECTORY_ITEMS` items, they are what
 * the page lists and stay. An article's one "Related" list under its heading is still judged as
 * before, and so is a site map's list of hundreds of places.
 */
import { isHeading, isList } from "./edges.js"
import type { El } from "./tree.js"

/** The fewest lists of links, each under a heading of its own, that make the content a directory. */
const MIN_DIRECTORY_LISTS = 4
/** The most items of such a list: a section names a few resources; hundreds of places are a site map. */
const MAX_DIRECTORY_ITEMS = 25
/** The least share of a list's text in links for it to be one of the directory's lists. */
const LINK_SHARE = 0.5

/** Items (element children not dropped) of a list, counted up to one past `MAX_DIRECTORY_ITEMS`. */
const items = (list: El): number => {
  let n = 0
  for (const c of list.children) if (typeof c !== "number" && !c.drop && ++n > MAX_DIRECTORY_ITEMS) break
  return n
}

/**
 * The lists of links in the roots' subtrees that sit right after a section's heading (their
 * previous kept sibling; not the page's `h1`, after which a list is the page's own tools), when
 * there are `MIN_DIRECTORY_LISTS` of them or more; else none.
 */
export const headedLinkLists = (roots: ReadonlyArray<El>): ReadonlySet<El> => {
  const out = new Set<El>()
  const stack: Array<El> = [...roots]
  while (stack.length > 0) {
    const el = stack.pop()!
    let prev: El | undefined
    for (const c of el.children) {
      if (typeof c === "number" || c.drop) continue
      if (isList(c)) {
        if (
          prev !== undefined && isHeading(prev.name) && prev.name !== "h1" && c.link > LINK_SHARE * c.text &&
          items(c) <= MAX_DIRECTORY_ITEMS
        ) {
          out.add(c)
        }
      } else stack.push(c)
      prev = c
    }
  }
  return out.size >= MIN_DIRECTORY_LISTS ? out : new Set()
}
