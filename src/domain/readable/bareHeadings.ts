/**
 * A heading the copy closes on: a product page's last section ("More to explore", "Customer
 * questions") whose links, cards or script-filled box the reading left out keeps its heading over
 * nothing. A heading says what follows it; at the end of the copy nothing does. The copy's last
 * block, when it is a heading below the title (`##` to `######`) and the block before it is no
 * heading, is left out (`withoutClosingHeading`). A run of headings at the end is kept whole: a
 * specifications list set in headings' type writes each label and value as one ("#### Image
 * sensor", "#### 1/2.8 inch"), and its last value is no heading over nothing. Read on product
 * pages only (Readable.ts): a listing's or a service page's copy may close on a heading that names
 * the last of its entries, written as headings.
 */
import { HEADING } from "./inline.js"

/** A heading block below the title. */
const SUBHEADING = /^#{2,6} /

/** `blocks` without the lone heading it ends on (one after a block that is no heading). */
export const withoutClosingHeading = (blocks: ReadonlyArray<string>): ReadonlyArray<string> => {
  const n = blocks.length
  if (n < 2 || !SUBHEADING.test(blocks[n - 1]!) || HEADING.test(blocks[n - 2]!)) return blocks
  return blocks.slice(0, n - 1)
}
