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
 * inside a longer line said before (a feature list saying again a phrase of the description). A
 * line of two sentences or more that is itself new loses each sentence of `MIN_SENTENCE_WORDS` words
 * or more that stands inside an earlier, longer line (a synopsis writing again sentences of the
 * description above it, a second overview the first's, among new ones); a sentence an earlier line
 * said whole stays (a shop's short description, then the long one opening with it: the references
 * keep both), and a line with a link is left whole (its sentences are not cut apart from the link's
 * text). Headings and table rows stay (a
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

/** The fewest words of a sentence left out of a longer line as said before: a claim, not a label. */
const MIN_SENTENCE_WORDS = 6

/**
 * Where a line's sentences part: a space after a sentence's end ("." "!" "?", closing quotes or
 * brackets) and before a capital or an opening quote. "U.S. Mint" parts there too, which only
 * shortens the pieces compared (each still said word for word or not).
 */
const SENTENCE_BREAK = /(?<=[.!?]["'\u201d\u2019)]*)\s+(?=[\p{Lu}"\u201c])/u

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
 * A new line without its sentences of `MIN_SENTENCE_WORDS` words or more that stand inside one of
 * the longer lines said before it (`lines`, without the line itself). A heading, a table row, a
 * line with a link or of one sentence is returned as it is.
 */
const withoutSaidSentences = (line: string, lines: ReadonlyArray<string>): string => {
  if (HEADING.test(line) || TABLE_ROW.test(line) || line.includes("[")) return line
  const sentences = line.split(SENTENCE_BREAK)
  if (sentences.length < 2) return line
  const kept = sentences.filter((sentence) => {
    const words = wordsOf(sentence)
    return words.length < MIN_SENTENCE_WORDS || !saidInside(lines, words.join(" "))
  })
  if (kept.length === sentences.length) return line
  // The indent or list marker before the first sentence stays where the first is cut.
  const lead = /^\s*(?:[-*+] |\d+[.)] |> )?/.exec(line)![0]
  const text = kept.join(" ")
  return kept.length === 0 || text.startsWith(lead) ? text : `${lead}${text.trimStart()}`
}

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
      const cut = withoutSaidSentences(line, lines)
      lines.push(` ${key} `)
      if (cut.length > 0) kept.push(cut)
    }
    if (kept.join("\n") === block) out.push(block)
    else if (kept.some((line) => wordsOf(line).length > 0)) out.push(kept.join("\n"))
  }
  return out
}
