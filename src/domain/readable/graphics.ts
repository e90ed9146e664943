/**
 * A picture drawn in HTML: a product's home page shows its interface beside each section, not as
 * an image but as markup (an issue tracker's backlog with its issue keys and labels, a chart's
 * months and counts, an editor's tabs and code, a checkout's fields), in a box the page names for
 * what it is: the section's illustration or graphic (`PageSection_illustration__…`,
 * `ProductFeatureCard__graphic`, `hero-graphic-container`). A reader sees a picture; the copy read
 * every label in it as text, and the page's own sentences drowned in them. A box whose class names
 * it a graphic or an illustration (the last word of one of its classes, after `-`, `_` or `__`,
 * with a CSS module's hash or `-container` after it), a block holding no heading, is left out
 * (`withoutDrawnGraphics`). A hero named so holds the page's title, and stays; `has-graphic` says
 * an element holds a picture, not that it is one.
 */
import { headingBelow } from "./edges.js"
import { type El, type Page, withoutEach } from "./tree.js"

/** A class naming a box as a graphic or an illustration (`…-graphic`, `…__graphic`, `…_illustration__hash`). */
const DRAWN =
  /(?:^|\s)(?!has-)[\w-]*[a-z0-9][-_]+(?:graphic|illustration)(?:__[a-z0-9_-]+|-(?:container|wrapper|wrap))?(?=$|\s)/i

/** The roots without each block named as a drawn graphic (`DRAWN`) that holds no heading. */
export const withoutDrawnGraphics = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  return withoutEach(page, roots, (el) => {
    if (el.block !== undefined || el.text === 0 || !DRAWN.test(el.attribs.class ?? "")) return false
    return !headingBelow(page, el)
  })
}
