/**
 * Blocks a page shows twice: carousels clone their slides (the first ones again after the last,
 * for the loop), responsive pages write one section for phones and one for wider screens, tabs
 * repeat their panel as an accordion. A reader sees one copy; the readable copy keeps the first
 * and drops each later block identical to an earlier one (`withoutRepeats`).
 */

/** The least length of a block (its Markdown) that is dropped when repeated: shorter ones ("Price", "Add to cart") may repeat in any text. */
const MIN_REPEAT = 40

/** `blocks` without each block identical to an earlier one of at least `MIN_REPEAT` characters. */
export const withoutRepeats = (blocks: ReadonlyArray<string>): Array<string> => {
  const seen = new Set<string>()
  const out: Array<string> = []
  for (const b of blocks) {
    if (b.length >= MIN_REPEAT) {
      if (seen.has(b)) continue
      seen.add(b)
    }
    out.push(b)
  }
  return out
}
