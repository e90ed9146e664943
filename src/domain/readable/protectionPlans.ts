/**
 * A shop's offer of a protection plan, set as a line of its own in a product's buy box: "Add a
 * protection plan from $79.99", "Get an extended warranty for $49", "Accident protection plans from
 * $12.99". The shop sells the same plan beside every product it covers (only the sum follows the
 * price): an add-on offered at checkout, nothing of the product, and the references leave it out.
 * Read on the copy's Markdown blocks, on pages that show one product (Readable.ts), like the promise
 * of free delivery and the loyalty offer beside it (shippingPromise.ts, rewards.ts): a plain
 * paragraph (no heading, list item, quote, table or code: `inline.ts` `opensBlock`) of at most
 * `MAX_WORDS` words that names a plan (`PLAN`) and offers it (`OFFERED`: "add", "get", "buy",
 * "choose", "include" or "from", or a sum) is left out. A line that denies it ("Protection plans are
 * not available for this item": shippingPromise.ts `NEGATION`) says something of this product and
 * stays, as does the product's own warranty ("Two-year warranty included": no plan), and a sentence
 * going on about the plan.
 */
import { PRICE } from "./grids.js"
import { isPlainLine, withoutEachBlock } from "./shippingPromise.js"

/** A plan of cover sold with a product: a protection, warranty, care or accident plan, or an extended warranty. */
const PLAN = /\b(?:(?:protection|warranty|care|accident(?: protection)?) plans?|extended warrant(?:y|ies))\b/i

/** The plan offered: a verb of adding or getting, "from" before its price, or a sum (grids.ts `PRICE`). */
const OFFERED = new RegExp(String.raw`\b(?:add|get|buy|choose|include|from)\b|${PRICE.source}`, "i")

/** The most words a plan's line holds: the offer, the plan's name and its starting price. */
const MAX_WORDS = 12

/**
 * Whether a block is a plain line (shippingPromise.ts `isPlainLine`) that only offers a protection plan
 * (`PLAN` and `OFFERED`, at most `MAX_WORDS` words, no `NEGATION`).
 */
const isPlanOffer = (block: string): boolean => PLAN.test(block) && OFFERED.test(block) && isPlainLine(block, MAX_WORDS)

/** `blocks` without each paragraph that only offers a protection plan; the body is never emptied. */
export const withoutPlanOffers = (blocks: ReadonlyArray<string>): ReadonlyArray<string> =>
  withoutEachBlock(blocks, isPlanOffer)
