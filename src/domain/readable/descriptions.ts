/**
 * A category's description in a box named so, above the grid: shop and blog platforms write the
 * text that says what a category, a collection or an archive holds into a box they name for it
 * (`category-description`, `term-description`, `collection__description`, `listing__desc`),
 * between the page's title and its grid. When the scoring picks the guide under the grid, the
 * description lies apart from it, past the title and its lead (a slider of sub-categories or a
 * toolbar between them), and was left out. The name says what the box is: its text joins the
 * content (`categoryDescription`).
 */
import { type El, inside, measure, namesOf, type Page } from "./tree.js"

/**
 * Class or id names of a listing's description: a word for the kind of page (category,
 * collection, term, taxonomy, archive, listing, catalog) joined to `desc` or `description`.
 */
const DESCRIPTION =
  /(?:^|[\s_-])(?:category|collection|term|taxonomy|archive|listing|catalog)(?:[-_]+)desc(?:ription)?(?:$|[\s_-])/i

/** The least text of a description read back in: a sentence or two, not a label or a count. */
const MIN_DESCRIPTION = 100

/** The most share of its text a description may hold in links (its sentences name sub-categories). */
const MAX_LINKED = 0.5

/**
 * The visible characters of `el`'s subtree and those inside links, leaving out what `hidden` (a
 * tag that hides itself or is furniture) drops: the box's text as it reads once shown again.
 */
const shownText = (page: Page, el: El, hidden: (e: El) => boolean): { text: number; link: number } => {
  let text = 0
  let link = 0
  const links: Array<number> = []
  for (let i = el.order; i < el.end; i++) {
    const e = page.all[i]!
    if (e !== el && hidden(e)) {
      i = e.end - 1
      continue
    }
    while (links.length > 0 && i >= links[links.length - 1]!) links.pop()
    if (e.name === "a") links.push(e.end)
    text += e.selfText
    if (links.length > 0) link += e.selfText
  }
  return { text, link }
}

/**
 * The first box named as the page's description (`DESCRIPTION`), standing before the chosen
 * content (`first`) and outside every root (`roots`), with `MIN_DESCRIPTION` characters or more,
 * at most `MAX_LINKED` of them in links; or none. It may have been dropped with a box around it
 * named weakly as furniture (the page's `product-list-header`, holding the title and the
 * description), not by a strong name, a furniture tag or a hiding tag (`strong`): then it is
 * shown again, but for what its own tags hide (`hidden`), and the page measured again.
 */
export const categoryDescription = (
  page: Page,
  first: El,
  roots: ReadonlyArray<El>,
  hidden: (e: El) => boolean,
  strong: (e: El) => boolean
): El | undefined => {
  for (let i = 0; i < first.order; i++) {
    const el = page.all[i]!
    if (el.attribs.class === undefined && el.attribs.id === undefined) continue
    if (!DESCRIPTION.test(namesOf(el))) continue
    if (el.end > first.order || roots.some((r) => inside(el, r) || inside(r, el))) continue
    let weak = true
    for (let a: El | undefined = el; a !== undefined && a.drop && weak; a = a.parent) weak = !strong(a)
    if (!weak) continue
    const { link, text } = shownText(page, el, hidden)
    if (text < MIN_DESCRIPTION || link > MAX_LINKED * text) continue
    if (el.drop) {
      for (let j = el.order; j < el.end; j++) {
        const e = page.all[j]!
        if (e === el || !e.parent!.drop) e.drop = hidden(e)
        else e.drop = true
      }
      measure(page)
    }
    return el
  }
  return undefined
}
