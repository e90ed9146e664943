/**
 * A shop's loyalty offer, set as a line of its own in a product's buy box: "Earn $13.70 in
 * rewards, with 5% back, plus more exclusive perks", "Members get an est. $9.99 in rewards",
 * "Collect 120 points with this order". The shop's programme writes the same line on every product
 * (only the sum follows the price): it says what a member gets back, nothing of the product, and
 * the references leave it out. Read on the copy's Markdown blocks, on pages that show one product
 * (Readable.ts), like the promise of free delivery beside it (shippingPromise.ts): a plain paragraph
 * (no heading, list item, quote, table or code: `inline.ts` `opensBlock`) of at most `MAX_WORDS`
 * words that names the reader's gain (`OFFER`: "earn", "get", "collect" or "receive", then within
 * 40 characters "rewards", "points", "cash back" or "cashback") with its figure (`FIGURE`: a sum, a
 * share, or a count of points) is left out. A line that denies the gain ("This item does not earn
 * rewards", "Gift cards aren't eligible for points": shippingPromise.ts `NEGATION`) says something
 * of this product and stays, as does a line with no figure ("Join to earn rewards on every order").
 */
import { PRICE } from "./grids.js"
import { isPlainLine, withoutEachBlock } from "./shippingPromise.js"

/**
 * The reader's gain: a verb of getting, then within 40 characters what a loyalty programme pays out.
 * "Points of …" are a product's own ("Get 4 points of adjustment"), not a programme's.
 */
const OFFER = /\b(?:earn|get|collect|receive)\b.{0,40}?\b(?:rewards?|points(?! of\b)|cash ?back)\b/i

/** The offer's figure: a sum (grids.ts `PRICE`), a share ("5%") or a count of points ("120 points"). */
const FIGURE = new RegExp(String.raw`${PRICE.source}|\d\s?%|\b\d[\d,.]*\s(?:reward\s)?points\b(?! of\b)`, "i")

/** The most words an offer's line holds: the sum, the share and a promise of perks, no sentence. */
const MAX_WORDS = 14

/**
 * Whether a block is a plain line (shippingPromise.ts `isPlainLine`) that is only a loyalty offer (`OFFER`
 * with its `FIGURE`, at most `MAX_WORDS` words, no `NEGATION`).
 */
const isRewardOffer = (block: string): boolean =>
  OFFER.test(block) && FIGURE.test(block) && isPlainLine(block, MAX_WORDS)

/** `blocks` without each paragraph that is only a loyalty offer; the body is never emptied. */
export const withoutRewardOffers = (blocks: ReadonlyArray<string>): ReadonlyArray<string> =>
  withoutEachBlock(blocks, isRewardOffer)
