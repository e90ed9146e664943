/**
 * A post's poster line on a discussion page. Forum engines write over each post who wrote it and
 * when, marked as schema.org microdata (`itemprop="author"` around the poster's name, a `time`
 * beside it), inside a block whose name says byline (`post-meta`, `crawler-post-meta`): the
 * cleaning drops such short blocks as an article's byline. On a page that says it is a discussion
 * (its schema.org data names a forum posting or a Q&A page: meta.ts), the poster is who speaks in
 * each reply, and most references keep the name and date over each post.
 */
import { forumPanel, FURNITURE_TAGS } from "./boilerplate.js"
import { shapeOf } from "./cards.js"
import { collapsedText, dropsItself, type El, inside, namesOf, nextSibling, type Page, wordsOf } from "./tree.js"

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

/**
 * A poster's name in the panel beside each post. Board engines draw who wrote a post in a panel
 * beside it (`message-userDetails`, `user-info`: the poster's name, then a title, a banner, counts
 * of posts), which the cleaning drops whole as a poster panel (boilerplate.ts `forumPanel`), so
 * a thread's copy lost who speaks in each post, which most references keep over it. Where a page
 * holds `MIN_HEADS` or more panels of one shape (tag and first class name), not inside another
 * panel, each opening with a heading that holds the panel's first words, a short name
 * (`MAX_NAME_WORDS` words at most), and those names differ (who wrote each), each panel's name is
 * found here, before the content is chosen (what the tags alone drop is all that is dropped), and
 * shown after (`showPosterNames`): the names are links, and counted in the choice they weighed on
 * a short thread's share of links (its scoring then chose one short post). A name drawn as a bare
 * link (phpBB's `postprofile`) is not read: those references keep it no more often than not.
 */
export const posterNames = (page: Page): ReadonlyArray<PosterName> => {
  const byShape = new Map<string, Array<PosterName>>()
  let outer: El | undefined
  for (const el of page.all) {
    if (el.drop || el.marks.furniture !== 2 || !forumPanel(namesOf(el))) continue
    if (outer !== undefined && inside(el, outer)) continue
    outer = el
    const name = nameIn(page, el)
    if (name === undefined) continue
    const shape = shapeOf(el)
    const list = byShape.get(shape)
    const entry = { panel: el, name, text: collapsedText(page, name) }
    if (list === undefined) byShape.set(shape, [entry])
    else list.push(entry)
  }
  return [...byShape.values()]
    .filter((list) => list.length >= MIN_HEADS && new Set(list.map((e) => e.text)).size >= 2)
    .flat()
}

/** A poster's panel and the element in it drawing the poster's name (`posterNames`). */
export interface PosterName {
  readonly panel: El
  readonly name: El
  readonly text: string
}

/** The most words of a poster's name. */
const MAX_NAME_WORDS = 4

/** Tags that draw a poster's name in a panel: a heading. */
const NAME_TAGS = new Set(["h2", "h3", "h4", "h5", "h6"])

/**
 * The element drawing the poster's name in `panel`: its first heading with text, when
 * that text opens the panel's text and holds `MAX_NAME_WORDS` words at most.
 */
const nameIn = (page: Page, panel: El): El | undefined => {
  for (let i = panel.order + 1; i < panel.end; i++) {
    const el = page.all[i]!
    if (el.drop || !NAME_TAGS.has(el.name)) continue
    const text = collapsedText(page, el)
    if (text.length === 0) continue
    const words = wordsOf(text).length
    return words > 0 && words <= MAX_NAME_WORDS && collapsedText(page, panel).startsWith(text) ? el : undefined
  }
  return undefined
}

/**
 * Shows the posters' names (`posterNames`) of the posts kept: a name whose panel was left out
 * while its post stays is shown with the elements down to it, the rest of its panel (title,
 * banner, counts) staying out. Its post is the panel's nearest kept ancestor, inside one of
 * `roots`; the boxes between (a cell holding the avatar and the panel) may have been left out
 * for holding nothing once the panel was, but not for their names or tags, nor while they hold
 * text of their own (a post left out). Run on the chosen content's drops, before it is measured.
 */
export const showPosterNames = (page: Page, roots: ReadonlyArray<El>, names: ReadonlyArray<PosterName>): void => {
  for (const { panel, name } of names) {
    if (!panel.drop || hiddenDown(page, panel, name)) continue
    const boxes = boxesUp(page, panel, roots)
    if (boxes === undefined) continue
    for (let a: El | undefined = name; a !== undefined && a !== boxes.post; a = a.parent) {
      a.drop = false
      if (a === name) continue
      for (const c of a.children) if (typeof c !== "number" && !inside(name, c)) c.drop = true
    }
    for (let i = name.order + 1; i < name.end; i++) {
      const el = page.all[i]!
      el.drop = el.parent!.drop || dropsItself(page, el)
    }
  }
}

/** Whether an element from `panel` down to `name` is left out by its own tag (hidden, a script's). */
const hiddenDown = (page: Page, panel: El, name: El): boolean => {
  for (let a: El | undefined = name; a !== undefined && inside(a, panel); a = a.parent) {
    if (dropsItself(page, a)) return true
  }
  return false
}

/**
 * The panel's nearest shown ancestor (its post: neither it nor any ancestor up to one of `roots`
 * left out), when each box between it and the panel holds no text but the panel's and
 * furniture's and is left out neither by its tag nor by a furniture name.
 */
const boxesUp = (page: Page, panel: El, roots: ReadonlyArray<El>): { post: El } | undefined => {
  const post = shownAncestor(panel, roots)
  if (post === undefined) return undefined
  let below = panel
  for (let a = panel.parent; a !== undefined && a !== post; below = a, a = a.parent) {
    if (dropsItself(page, a) || a.marks.furniture > 0 || FURNITURE_TAGS.has(a.name) || ownText(page, a, below)) {
      return undefined
    }
  }
  return { post }
}

/** The nearest ancestor of `el` that is shown: it and its ancestors up to one of `roots` are kept. */
const shownAncestor = (el: El, roots: ReadonlyArray<El>): El | undefined => {
  let shown: El | undefined
  for (let a = el.parent; a !== undefined; a = a.parent) {
    if (a.drop) shown = undefined
    else if (shown === undefined) shown = a
    if (roots.includes(a)) return shown
  }
  return undefined
}

/**
 * Whether `box` holds visible text outside `part` (the box below it, holding the panel) and
 * outside the elements left out by their tags or furniture names.
 */
const ownText = (page: Page, box: El, part: El): boolean => {
  for (let i = box.order + 1; i < box.end; i++) {
    const el = page.all[i]!
    if (el === part || el.marks.furniture > 0 || dropsItself(page, el)) {
      i = el.end - 1
      continue
    }
    if (el.selfText > 0) return true
  }
  return box.selfText > 0
}
