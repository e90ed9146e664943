/**
 * The page's own header and footer where an app puts them inside its `main` (content.ts
 * `furnitureTag` spares a header or footer inside `main` or a `section`: an article's, a
 * section's). A shop built as one app renders its banner, its product and its footer as siblings
 * in one layout box under `main`; on a product page whose product says little, the footer's
 * columns of help links and the banner's account and cart links outweigh it, hold more than the
 * share that spares furniture (content.ts `SHARE_KEEPING_FURNITURE`), and were the copy.
 */
import { type El, h1Within, hasAncestorNamed, type Page } from "./tree.js"

/**
 * Whether `el` is a `header` or `footer` (in no `article`) framing the page's title: it holds no
 * `h1`, and one of its siblings' subtrees does. An article's or a section's header holds the
 * title, or stands where there is none beside it; the page's frame stands beside it. Read on a
 * page that says it shows one product only: a homepage or a listing whose entries a script fills
 * shows little but its footer, which is then the best copy there is.
 */
export const pageFrame = (page: Page, el: El): boolean =>
  (el.name === "header" || el.name === "footer") && !hasAncestorNamed(el, "article") && framesTitle(page, el)

/**
 * Whether `el` stands beside the page's title: it holds no `h1`, and one of its siblings' subtrees
 * does (`pageFrame`; content.ts reads a box named as the site's footer so too).
 */
export const framesTitle = (page: Page, el: El): boolean =>
  el.parent !== undefined && !h1Within(page, el.order, el.end) &&
  (h1Within(page, el.parent.order, el.order) || h1Within(page, el.end, el.parent.end))
