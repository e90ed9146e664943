/**
 * A product page's reviews section that holds no review: a heading naming reviews ("Customer
 * Reviews of the Brand Model 41", "Reviews") over a notice that there are none ("There are no
 * reviews yet.", "Be the first to review …") and the shop's prompt to write one ("Do you own this
 * product?"). Shops print it in the reviews tab of every product nobody reviewed yet; it says
 * nothing of the product, and the reading of the customers' reviews (content.ts `productNames`)
 * leaves out only the reviews themselves. Read on the copy's Markdown blocks, on pages that show one
 * product (Readable.ts): the heading (`##` to `######`, `REVIEWS_HEADING`) and the blocks right
 * under it that are each only the notice (`NO_REVIEWS`, at most `MAX_NOTICE_WORDS` words) or the
 * prompt (`WRITE_PROMPT`) are left out when one of them is the notice. The first block that is
 * neither ends the run and stays, with all after it: a review, a list, a sub-heading or an untitled
 * paragraph (a warranty line, an accordion's title) is never taken for part of the section.
 */
import { wordsOf } from "./tree.js"

/** A heading below the title: its marks (rank) and its text. */
const SUBHEADING = /^(#{2,6}) (.+)$/

/** A heading that names reviews: the word "review" or "reviews" in a heading of 120 characters or less. */
const REVIEWS_HEADING = /^(?=.{0,120}$).*\breviews?\b/i

/**
 * A notice that no one reviewed the product, at the block's start: "no reviews", "no customer
 * reviews" or "no product reviews", with "There are " before it or not and "yet" after it or not,
 * then a full stop, an exclamation mark or the block's end ("There are no reviews yet.", but not
 * "No reviews I read …"); "Be the first to review …", "Be the first to write a review"; "has not
 * been reviewed" or "has not yet been reviewed", with "This product " or "This item " before it or not.
 */
const NO_REVIEWS =
  /^(?:(?:there are )?no (?:customer |product )?reviews(?: yet)?(?:[.!]|$)|be the first to (?:write a )?review\b|(?:this (?:product|item) )?has not (?:yet )?been reviewed\b)/i

/** The most words a notice block may hold: the notice and a few words more (a product's name), no review. */
const MAX_NOTICE_WORDS = 12

/** The shop's prompt to write a review, alone in its block: "Do you own this product?" (or "item"), "Write a review" (or its link). */
const WRITE_PROMPT = /^(?:do you own this (?:product|item)\?|write a review|\[write a review\]\([^)]*\))$/i

/** Whether a block is only the notice that there is no review. */
const isNotice = (block: string): boolean => NO_REVIEWS.test(block) && wordsOf(block).length <= MAX_NOTICE_WORDS

/** `blocks` without each reviews heading over nothing but the notice that there is no review and the prompt to write one. */
export const withoutEmptyReviews = (blocks: ReadonlyArray<string>): ReadonlyArray<string> => {
  const out: Array<string> = []
  for (let i = 0; i < blocks.length; i++) {
    const m = SUBHEADING.exec(blocks[i]!)
    if (m === null || !REVIEWS_HEADING.test(m[2]!)) {
      out.push(blocks[i]!)
      continue
    }
    let j = i + 1
    let notice = false
    for (; j < blocks.length; j++) {
      if (isNotice(blocks[j]!)) notice = true
      else if (!WRITE_PROMPT.test(blocks[j]!)) break
    }
    if (!notice) {
      out.push(blocks[i]!)
      continue
    }
    i = j - 1
  }
  return out
}
