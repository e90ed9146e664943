/**
 * A post's poster line on a discussion page. Forum engines write over each post who wrote it and
 * when, marked as schema.org microdata (`itemprop="author"` around the poster's name, a `time`
 * beside it), inside a block whose name says byline (`post-meta`, `crawler-post-meta`): the
 * cleaning drops such short blocks as an article's byline. On a page that says it is a discussion
 * (its schema.org data names a forum posting or a Q&A page: meta.ts), the poster is who speaks in
 * each reply, and most references keep the name and date over each post.
 */
import type { El, Page } from "./tree.js"

/**
 * On a discussion page, a byline-named block (furniture 3) holding an element whose microdata
 * names the author is no byline: its marks are cleared, so it stays with its post. The post's
 * place in the thread written inside it (`itemprop="position"`, a bare number) is left out.
 */
export const keepPosterLines = (page: Page): void => {
  const kept = new Set<El>()
  for (const el of page.all) {
    if (el.marks.furniture !== 3 || !holdsAuthor(page, el)) continue
    el.marks = { weight: el.marks.weight, furniture: 0 }
    kept.add(el)
  }
  if (kept.size === 0) return
  for (const el of page.all) {
    if (el.attribs.itemprop === "position" && under(kept, el)) el.drop = true
  }
}

/** Whether an element inside `el` is marked as the author (`itemprop="author"`). */
const holdsAuthor = (page: Page, el: El): boolean => {
  for (let i = el.order + 1; i < el.end; i++) {
    if (page.all[i]!.attribs.itemprop === "author") return true
  }
  return false
}

/** Whether one of `el`'s ancestors is among the poster lines kept (`kept`). */
const under = (kept: ReadonlySet<El>, el: El): boolean => {
  for (let a = el.parent; a !== undefined; a = a.parent) if (kept.has(a)) return true
  return false
}
