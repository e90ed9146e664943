/**
 * A product page's reviews section that holds no review: a heading naming reviews ("Customer
 * Reviews of the Brand Model 41", "Reviews") over a notice that there are none ("There are no
 * reviews yet.", "Be the first to review …") and the shop's prompt to write one ("Do you own this
 * product?"). Shops print it in the reviews tab of every product nobody reviewed yet; it says
 * nothing of the product, and the reading of the customers' reviews (content.ts `productNames`)
 * leaves out only the reviews themselves. Read on the copy's Markdown blocks, on pages that show one
 * product (Readable.ts): the heading (`##` to `######`, `REVIEWS_HEADING`) and the blocks under it
 * up to the next heading of its rank or above are left out when those blocks are only short
 * paragraphs (no list, quote, table or code; `MAX_NOTICE_WORDS` words in all) and one of them says
 * there is no review (`NO_REVIEWS`). A section with a review, a list or a sub-heading stays whole.
 */
import { wordsOf } from "./tree.js"

/** A heading below the title: its marks (rank) and its text. */
const SUBHEADING = /^(#{2,6}) (.+)$/

/** A heading that names reviews: the word "review" or "reviews" in a heading of 120 characters or less. */
const REVIEWS_HEADING = /^.{0,120}\breviews?\b.{0,120}$/i

/**
 * A notice that no one reviewed the product: "There are no reviews yet", "No customer reviews",
 * "Be the first to review …", "Be the first to write a review", "This product has not been reviewed".
 */
const NO_REVIEWS =
  /\b(?:no (?:customer |product )?reviews(?: yet)?|be the first to (?:write a )?review|(?:has|have) not (?:yet )?been reviewed)\b/i

/** A block that is no plain paragraph: a heading, a list item, a quote, a table, a code block or a rule. */
const NOT_PARAGRAPH = /^(?:#|[-*+] |\d+[.)] |>|\||```|---)/

/** The most words the blocks under the heading may hold: a notice and a prompt, no review. */
const MAX_NOTICE_WORDS = 25

/** `blocks` without each reviews section that holds no review but the notice that there is none. */
export const withoutEmptyReviews = (blocks: ReadonlyArray<string>): ReadonlyArray<string> => {
  const out: Array<string> = []
  for (let i = 0; i < blocks.length; i++) {
    const m = SUBHEADING.exec(blocks[i]!)
    if (m === null || !REVIEWS_HEADING.test(m[2]!)) {
      out.push(blocks[i]!)
      continue
    }
    const rank = m[1]!.length
    let j = i + 1
    while (j < blocks.length) {
      const h = SUBHEADING.exec(blocks[j]!) ?? /^(#) /.exec(blocks[j]!)
      if (h !== null && h[1]!.length <= rank) break
      j++
    }
    const under = blocks.slice(i + 1, j)
    const empty = under.length > 0 && under.every((b) => !NOT_PARAGRAPH.test(b)) &&
      under.some((b) => NO_REVIEWS.test(b)) &&
      under.reduce((n, b) => n + wordsOf(b).length, 0) <= MAX_NOTICE_WORDS
    if (!empty) {
      out.push(blocks[i]!)
      continue
    }
    i = j - 1
  }
  return out
}
