/**
 * A line a product's page says again inside another block: a spec sheet written once per operating
 * system or per variant ("Memory: 8 GB RAM" under each tab), a feature list repeated under a
 * second heading, a shop's guarantee written in the buy box and again under the description, a
 * seller's rating filter ("Past 6 months") per tab. `withoutRepeats` (repeats.ts) drops a whole
 * block written again when it is long; these repeats are single lines of blocks that differ, and
 * short. A reader of one product's page reads each such line once. Read on the copy's Markdown
 * blocks, on pages that show one product (Readable.ts): a list item or a line of a paragraph of
 * `MIN_WORDS` words or more whose words, in order, an earlier line of the copy said is left out
 * (`withoutRepeatedLines`), unless that line is the one right before it (two values side by side
 * that happen to be equal: two kits' cells in a comparison grid); a block left with no line goes.
 * So is a line of `MIN_PART_WORDS` words or more whose words stand, in order and side by side,
 * inside a longer line said before (a feature list saying again a phrase of the description). Headings and table rows stay (a
 * heading may title a section per variant; a table row is part of the table's grid), and code is
 * written as the reader should type it; each of them still counts as said for the lines after it.
 */
import { HEADING } from "./inline.js"
import { wordsOf } from "./tree.js"

/** The fewest words of a line left out as a repeat: shorter ones ("Yes", "Free", "In stock") say a value again. */
const MIN_WORDS = 3

/**
 * The fewest words of a line left out as part of an earlier, longer line (a spec's value said again
 * after the sentence that holds it): fewer ("Free returns", "Made in Italy") are a label's words.
 */
const MIN_PART_WORDS = 4

/** Whether the words `key` stand, in order and side by side, in one of the lines said before. */
const saidInside = (lines: ReadonlyArray<string>, key: string): boolean => {
  const part = ` ${key} `
  return lines.some((said) => said.length > part.length && said.includes(part))
}

/** A line of a table (a row or its rule). */
const TABLE_ROW = /^\s*\|/

/** Whether a block is fenced code. */
const CODE = /^(?:```|~~~)/

/**
 * `blocks` without each line (not a heading or a table row) of `MIN_WORDS` words or more an earlier
 * line said word for word, or of `MIN_PART_WORDS` or more an earlier line holds.
 */
export const withoutRepeatedLines = (blocks: ReadonlyArray<string>): ReadonlyArray<string> => {
  const said = new Set<string>()
  // Each line said so far, its words between spaces, for a line said again inside a longer one.
  const lines: Array<string> = []
  // The words of the line before, for a value said twice side by side (two kits' equal cells).
  let previous = ""
  const out: Array<string> = []
  for (const block of blocks) {
    if (CODE.test(block)) {
      out.push(block)
      continue
    }
    const kept: Array<string> = []
    for (const line of block.split("\n")) {
      const words = wordsOf(line)
      if (words.length < MIN_WORDS) {
        if (words.length > 0) previous = ""
        kept.push(line)
        continue
      }
      const key = words.join(" ")
      const after = previous
      previous = key
      if (
        (said.has(key) || (words.length >= MIN_PART_WORDS && saidInside(lines, key))) && key !== after &&
        !HEADING.test(line) && !TABLE_ROW.test(line)
      ) continue
      said.add(key)
      lines.push(` ${key} `)
      kept.push(line)
    }
    if (kept.length === block.split("\n").length) out.push(block)
    else if (kept.some((line) => wordsOf(line).length > 0)) out.push(kept.join("\n"))
  }
  return out
}
