/**
 * A shop's line naming the wallets it takes, set as a line of its own in a product's buy box: "Pay
 * with ease using Apple Pay or Google Pay", "Check out faster with Shop Pay", "We accept PayPal".
 * The shop writes it beside every product: it says how to pay, nothing of the product, and the
 * references leave it out. Read on the copy's Markdown blocks, on pages that show one product
 * (Readable.ts), like the promise of free delivery beside it (shippingPromise.ts): a plain paragraph
 * (no heading, list item, quote, table or code: `inline.ts` `opensBlock`) of at most `MAX_WORDS`
 * words that names two wallets, or one beside a checkout's words (`namesWallets`), and holds no
 * digit is left out. A lender's offer to pay over
 * time ("Pay in 4 interest-free payments of $12.25 with Klarna") holds a figure and stays: the
 * references keep such lines on some shops and leave them out on others (the thirty-seventh round
 * measured them). A line that denies a wallet ("PayPal is not accepted for this item":
 * shippingPromise.ts `NEGATION`) says something of this product and stays.
 */
import { isPlainLine, withoutEachBlock } from "./shippingPromise.js"

/** A wallet a shop's checkout takes, by its name. */
const WALLET = /\b(?:apple pay|google pay|paypal|shop pay|amazon pay|samsung pay)\b/gi

/** Words of a shop's checkout: "check out", "checkout", "accept", "express". */
const CHECKOUT = /\b(?:check ?out|accept(?:s|ed)?|express)\b/i

/**
 * Words of what a product does with a wallet: a watch or a phone "works with Google Pay", "supports
 * Apple Pay", is "compatible with" it, or makes "contactless" payments.
 */
const FEATURE = /\b(?:works? with|supports?|supported|compatible|contactless|tap to pay)\b/i

/**
 * Whether a line names the wallets a shop's checkout takes: two wallets or more, or one beside a
 * checkout's words (`CHECKOUT`), and no word of a product's feature (`FEATURE`: "Contactless
 * payments with Google Pay" on a watch's page is the watch's).
 */
const namesWallets = (block: string): boolean => {
  const wallets = block.match(WALLET)?.length ?? 0
  return (wallets >= 2 || (wallets === 1 && CHECKOUT.test(block))) && !FEATURE.test(block)
}

/** The most words a wallets' line holds: a verb, two or three names, no sentence. */
const MAX_WORDS = 12

/**
 * Whether a block is a plain line (shippingPromise.ts `isPlainLine`) that only names the wallets a shop takes
 * (`namesWallets`, at most `MAX_WORDS` words, no digit, no `NEGATION`).
 */
const isWalletLine = (block: string): boolean =>
  namesWallets(block) && !/\d/.test(block) && isPlainLine(block, MAX_WORDS)

/** `blocks` without each paragraph that only names the wallets the shop takes; the body is never emptied. */
export const withoutWalletLines = (blocks: ReadonlyArray<string>): ReadonlyArray<string> =>
  withoutEachBlock(blocks, isWalletLine)
