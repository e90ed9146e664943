/**
 * A post's poster line on a discussion page. Forum engines write over each post who wrote it and
 * when, marked as schema.org microdata (`itemprop="author"` around the poster's name, a `time`
 * beside it), inside a block whose name says byline (`post-meta`, `crawler-post-meta`): the
 * cleaning drops such short blocks as an article's byline. On a page that says it is a discussion
 * (its schema.org data names a forum posting or a Q&A page: meta.ts), the poster is who speaks in
 * each reply, and most references keep the name and date over each post.
 */
import { shapeOf } from "./cards.js"
import { collapsedText, type El, namesOf, nextSibling, type Page } from "./tree.js"

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

/**
 * A thread's post heads named as authors. Board engines whose pages carry no schema.org data
 * (phpBB's `author`) write over each post's text, in a short block whose name says author, who
 * wrote it and when ("by Ann » Tue Aug 27, 2019 1:47 am"): strong furniture by its name (an
 * article's author box), so every post lost the line most references keep over it. Such a block
 * is a post's head when the page holds `MIN_HEADS` or more of one shape (tag and first class
 * name), each at most `MAX_HEAD` characters with a digit in it (the date), each followed by a
 * sibling of `MIN_POST` characters or more (the post), and their texts differ (who wrote each).
 * Their furniture mark is cleared.
 */
export const keepPostHeads = (page: Page): void => {
  const byShape = new Map<string, Array<El>>()
  for (const el of page.all) {
    if (el.marks.furniture !== 2 || !AUTHOR_NAME.test(namesOf(el))) continue
    const shape = shapeOf(el)
    const list = byShape.get(shape)
    if (list === undefined) byShape.set(shape, [el])
    else list.push(el)
  }
  for (const list of byShape.values()) {
    if (list.length < MIN_HEADS) continue
    const texts = new Set<string>()
    let heads = true
    for (const el of list) {
      const text = collapsedText(page, el)
      if (text.length > MAX_HEAD || !/\d/.test(text) || !postAfter(page, el)) {
        heads = false
        break
      }
      texts.add(text)
    }
    if (!heads || texts.size < 2) continue
    for (const el of list) el.marks = { weight: el.marks.weight, furniture: 0 }
  }
}

/** A name that says author, as a name's own word (`author`, `post-author`; not `authorStats`). */
const AUTHOR_NAME = /(?:^|[-_\s])author(?:$|[-_\s])/i
/** The fewest heads of one shape that make a thread. */
const MIN_HEADS = 3
/** The longest head: a name and a date. */
const MAX_HEAD = 120
/** The least characters of the post after a head. */
const MIN_POST = 20

/**
 * Whether the element after `el` among its parent's children holds a post (`MIN_POST` characters
 * or more): the first element after `el`'s subtree, when it has the same parent.
 */
const postAfter = (page: Page, el: El): boolean => {
  const next = nextSibling(page, el)
  return next !== undefined && collapsedText(page, next).length >= MIN_POST
}
