/**
 * A shop's promise of free delivery, set as a line of its own in a product's page: "Free US
 * Shipping Over $50 | Hassle Free Returns", "Free Shipping on Domestic Orders $75+", "€9 Flat Rate |
 * Free Shipping €150+", "Free shipping & returns on all robots". The shop prints the same line on
 * every product (in the buy box, under the price, in a strip of badges): it says what the shop does
 * for every order, nothing of the product, and the references leave it out. Read on the copy's
 * Markdown blocks, on pages that show one product (Readable.ts): a plain paragraph (no heading, list
 * item, quote, table or code) of at most `MAX_WORDS` words that is nothing but such a promise
 * (`PROMISE`) is left out. The promise must say its reach (a sum or "over", "on orders", "on all",
 * "and returns"): "Free Standard Shipping" alone is this product's delivery, as a buy box writes it
 * beside the price and the availability, and so does "Free delivery in 3-5 working days" (a number
 * with no currency is no reach), as does any sentence about shipping (a full stop before a space,
 * "?" or "!" inside the line ends the match: "Free shipping over $50. Our kettles …"; the dots of
 * "$49.99" and "U.S." do not).
 */
import { PRICE } from "./grids.js"
import { opensBlock } from "./inline.js"
import { wordsOf } from "./tree.js"

/**
 * One character of a promise's line: anything but a sentence's end ("!", "?", or a "." that is
 * followed by a space and is no abbreviation's), a link's brackets, an emphasis or an escape. A "."
 * with no space after it ("$49.99", the first of "U.S.") or after a lone letter (the last of "U.S.")
 * is part of the line.
 */
const CHAR = String.raw`(?:[^.!?[\]*_\\\`]|\.(?=\S)|(?<=\b[a-z])\.)`

/**
 * The whole block a promise: it opens with "Free" or a flat rate ("€9 Flat Rate", "Flat rate"), names
 * shipping or delivery within 40 characters, then its reach — "over", "on orders", "on all
 * orders", "on domestic orders", "on all …", "returns" within 40 characters, or a sum within 10
 * characters (`PRICE`, a currency's sign or code beside a number: "€150+", "$75"; a bare number such
 * as "in 2 days" is no reach) — and at most 40 characters more (`CHAR`: no sentence's end), with one
 * full stop allowed last. The pipes or slashes between a shop's badges ("… | Hassle Free Returns")
 * are such characters; a link, an emphasis or an escaped mark (`\|`) is not read as part of one, so
 * a block holding any Markdown stays.
 */
const PROMISE = new RegExp(
  String.raw`^(?:free|(?:\S{1,4} )?flat rate)\b${CHAR}{0,40}\b(?:shipping|delivery)\b` +
    String.raw`(?:${CHAR}{0,40}\b(?:over|on (?:all |domestic )?orders|on all|returns)\b|` +
    String.raw`${CHAR}{0,10}(?:${PRICE.source}))` +
    String.raw`${CHAR}{0,40}\.?$`,
  "i"
)

/** The most words a promise's line holds: a badge strip's two or three promises, no sentence. */
const MAX_WORDS = 12

/**
 * Whether a block is a plain paragraph (not `opensBlock`) that is only a shop's promise of free delivery
 * (`PROMISE`, at most `MAX_WORDS` words).
 */
const isPromise = (block: string): boolean =>
  !opensBlock(block) && PROMISE.test(block) && wordsOf(block).length <= MAX_WORDS

/** `blocks` without each block `drops` names; the body is never emptied (all of them, and it keeps them). */
export const withoutEachBlock = (
  blocks: ReadonlyArray<string>,
  drops: (block: string) => boolean
): ReadonlyArray<string> => {
  const out = blocks.filter((b) => !drops(b))
  return out.length > 0 ? out : blocks
}

/** `blocks` without each paragraph that is only a shop's promise of free delivery; the body is never emptied. */
export const withoutShippingPromises = (blocks: ReadonlyArray<string>): ReadonlyArray<string> =>
  withoutEachBlock(blocks, isPromise)

/** A time an order must come by: "4pm", "4 PM", "14:00", "10 hours", "30 minutes". */
const TIME = String.raw`\b(?:\d{1,2}\s?(?:am|pm)|\d{1,2}:\d\d|\d+ (?:hours?|minutes?))\b`

/** One character of a cut-off's line: anything but a sentence's end as `CHAR` reads it (a link or an emphasis may stand). */
const CUT_OFF_CHAR = String.raw`(?:[^.!?]|\.(?=\S)|(?<=\b[a-z])\.)`

/**
 * A shop's hour for dispatch, set as a line of its own by the buy box: "Same day shipping if ordered
 * by 4PM Eastern.", "In stock and Shipping Now Order within 1 day 10 hours to have it shipped
 * tomorrow." (a countdown its script keeps running). Like the promise above it is the same on every
 * product and the references leave it out. The line names same-day or next-day shipping, dispatch
 * or delivery, "ships same day", or an order "within", "by", "before" or "in the next" a time
 * (`TIME`: "4pm", "14:00", "10 hours", "30 minutes") followed within 40 characters by "ship",
 * "dispatch", "deliver" or "get it"; "Order by phone and we will ship it" names no time and stays.
 * It holds no sentence's end but its last (`CUT_OFF_CHAR`: the dot of "$49.99" is none) (`CUT_OFF`).
 */
const CUT_OFF = new RegExp(
  String.raw`^${CUT_OFF_CHAR}*\b(?:(?:same|next)[- ]day (?:shipping|dispatch|delivery)|ships? (?:the )?same day|` +
    String.raw`order (?:within|by|before|in the next)\b${CUT_OFF_CHAR}{0,40}?${TIME}` +
    String.raw`${CUT_OFF_CHAR}{0,40}\b(?:ship|dispatch|deliver|get it))` +
    String.raw`${CUT_OFF_CHAR}*[.!]?$`,
  "i"
)

/**
 * A word that denies: "This item is not eligible for next day delivery", "Oversized item: no same
 * day shipping", "doesn’t ship same day" say what this product does not get, and stay. The
 * contractions in "n't" are read with a straight, a typographic or a modifier apostrophe ("isn't",
 * "isn’t", "isnʼt").
 */
export const NEGATION = /\b(?:not|no|never|cannot|\w+n['\u2019\u02bc]t|excluded|unavailable)\b/i

/**
 * Whether a block is a plain one-line paragraph (not `opensBlock`, no line break) of at most
 * `maxWords` words that denies nothing (`NEGATION`): the shape of a buy box's line of its own
 * (rewards.ts, protectionPlans.ts, paymentMethods.ts).
 */
export const isPlainLine = (block: string, maxWords: number): boolean =>
  !opensBlock(block) && !block.includes("\n") && wordsOf(block).length <= maxWords && !NEGATION.test(block)

/**
 * A call to hurry that opens the line with a negation and denies nothing of the product: "Don’t
 * miss out, order within 3 hours…", "Don't wait: order by 2pm…", "Won't last!". It is read past
 * before `NEGATION` is looked for.
 */
const URGING = /^(?:don|won)['\u2019\u02bc]t (?:miss|wait|delay|last|forget)\b/i

/** The most words a cut-off's line holds: a stock note, the countdown and its promise. */
const MAX_CUT_OFF_WORDS = 20

/** The most characters, for text without spaces between its words. */
const MAX_CUT_OFF_CHARS = 140

/** Whether a block is a plain paragraph giving the shop's hour for dispatch (`CUT_OFF`, no `NEGATION` past an `URGING`). */
const isCutOff = (block: string): boolean =>
  !opensBlock(block) && block.length <= MAX_CUT_OFF_CHARS && wordsOf(block).length <= MAX_CUT_OFF_WORDS &&
  CUT_OFF.test(block) && !NEGATION.test(block.replace(URGING, ""))

/** `blocks` without each paragraph that gives only the shop's hour for dispatch; the body is never emptied. */
export const withoutDispatchCutOffs = (blocks: ReadonlyArray<string>): ReadonlyArray<string> =>
  withoutEachBlock(blocks, isCutOff)
