/**
 * Blocks a page shows twice: carousels clone their slides (the first ones again after the last,
 * for the loop), responsive pages write one section for phones and one for wider screens, tabs
 * repeat their panel as an accordion. A reader sees one copy; the readable copy keeps the first
 * and drops each later block identical to an earlier one (`withoutRepeats`). A preview cut to its
 * first lines (by a clamp the copy does not see) written right before the whole text is dropped
 * too: the whole text starts with all of it. A block of any length written three times or more in a
 * row (a card's date and reading time, a label, a "Loading" placeholder, once per screen width, each
 * copy shown at one width only) is kept once; twice in a row may be two values that happen to be
 * equal (two plans' prices side by side), and code is written as the reader should type it. A
 * card written again for another width repeats its title link (long enough to be dropped) and then
 * its short lines (a date, a reading time, a price): the blocks after a repeated link that are,
 * in order, the blocks that followed its first copy go with it. Only after a link alone, or in a
 * section written again right after itself under the same heading (`retitled`): a description two
 * cards share may be followed by a label or a price that happens to be equal. A
 * card's subtitle that other cards write alike (a heading right under the card's own title, a
 * heading of a higher level written there for the first time) is the card's, kept (`subtitle`), and
 * so is a line several cards share among their labelled fields, the field beside it holding another
 * value than beside its first copy (`shared`). A heading written before, word for word, that is
 * left titling nothing once its section's text went as a repeat is dropped too
 * (`withoutEmptyRepeatedHeadings`): short titles ("SOFT WOOL") fall under `MIN_REPEAT`. A run of
 * eight short blocks written before in the same order (a ticker's figures, a variant's facts) goes
 * too (`withoutRepeatedRuns`).
 */
import { HEADING } from "./inline.js"

/** The least length of a block (its Markdown) that is dropped when repeated: shorter ones ("Price", "Add to cart") may repeat in any text. */
const MIN_REPEAT = 40

/** The least length of a block dropped as a preview of the next (`withoutRepeats`): a line or two of text. */
const MIN_PREVIEW = 100

/**
 * The most blocks a section written again may hold (`retitled`: an article's body written twice
 * is a hundred and more), which bounds the blocks each repeat compares.
 */
const MAX_SECTION = 200

/**
 * How many short blocks in a row make a run that is dropped when written again block for block
 * (`withoutRepeatedRuns`): a ticker's figures, a variant's list of facts.
 */
const RUN = 8

/** The most characters of each block of such a run: labels and values, not paragraphs. */
const MAX_RUN_BLOCK = 60

/**
 * A block that is one link and nothing else: `[text](url)`, as `/^\[[^\n]*\]\([^\s)]*\)$/`
 * reads it. The regex tries the target after every `](` of the line, each up to the next space or
 * `)`: the square of the length for a block of `[a](` again and again. The last `](` has the
 * shortest target, and any earlier one's holds it: that one alone decides.
 */
export const isLinkOnly = (b: string): boolean => {
  if (b[0] !== "[" || !b.endsWith(")") || b.includes("\n")) return false
  const at = b.lastIndexOf("](", b.length - 3)
  return at > 0 && !/[\s)]/.test(b.slice(at + 2, b.length - 1))
}
/** How many blocks after a link its card's heading may come. */
const HEADING_WITHIN = 4

/**
 * `blocks` without each block identical to an earlier one of at least `MIN_REPEAT` characters, and
 * without each block that is only a link repeated as one of the next few headings: a card's link
 * stretched over the whole card (for the click, or for screen readers) before the card's own title,
 * and without each block of at least `MIN_PREVIEW` characters that the next block starts with and
 * goes on from (a preview before the whole), and without each later copy of a block written three times
 * or more in a row (`thrice`), and, after a repeated link alone, without the blocks that repeat, in
 * order, those that followed its first copy (the rest of a card written again).
 */
export const withoutRepeats = (written: ReadonlyArray<string>): Array<string> => {
  const blocks = withoutRepeatedRuns(written)
  const seen = new Map<string, number>()
  const out: Array<string> = []
  // After a repeated block, the index of the block that followed its first copy: the copy goes on
  // while the blocks after the repeat are those (a card's date and price, written again with it).
  let follow = -1
  // The index of each block's first copy, of any length (a card's title written once).
  const firsts = new Map<string, number>()
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!
    if (!firsts.has(b)) firsts.set(b, i)
    if (follow >= 0 && follow < i && blocks[follow] === b && !b.startsWith("```")) {
      follow++
      continue
    }
    follow = -1
    if (thrice(blocks, i)) continue
    if (b.length >= MIN_REPEAT) {
      const first = seen.get(b)
      if (first !== undefined && !subtitle(blocks, i, out, firsts) && !shared(blocks, i, first)) {
        if (isLinkOnly(b)) follow = first + 1
        else if (retitled(blocks, i, first, out)) follow = first + 1
        continue
      }
      seen.set(b, i)
    }
    if (isLinkOnly(b) && headedBy(blocks, i, b)) continue
    const next = blocks[i + 1]
    if (b.length >= MIN_PREVIEW && next !== undefined && next.length > b.length && next.startsWith(b)) continue
    out.push(b)
  }
  return withoutEmptyRepeatedHeadings(out)
}

/**
 * `blocks` without each run of `RUN` short blocks in a row (each `MAX_RUN_BLOCK` characters or
 * less, no code, `MIN_REPEAT` characters or more together) written before, block for block, and
 * not overlapping its first copy. A ticker written twice or more for its endless scroll ("30+
 * million", "app downloads", "2+ billion" …), or a product's facts written once per variant
 * ("MATERIAL", "6061-T6 aluminum", "WEIGHT", "2 oz" …), repeats lines each too short to be dropped
 * as a repeat alone; eight of them in the same order are the same run shown again.
 */
const withoutRepeatedRuns = (blocks: ReadonlyArray<string>): Array<string> => {
  const firsts = new Map<string, number>()
  const out: Array<string> = []
  let i = 0
  while (i < blocks.length) {
    // The run's length as joined (each block and the blank lines between), or -1 where a block
    // does not fit: only runs long enough to drop are looked up, so a page of tiny lines costs a scan.
    let joined = i + RUN <= blocks.length ? 2 * (RUN - 1) : -1
    for (let k = i; joined >= 0 && k < i + RUN; k++) {
      const b = blocks[k]!
      joined = b.length > 0 && b.length <= MAX_RUN_BLOCK && !b.startsWith("```") ? joined + b.length : -1
    }
    if (joined >= MIN_REPEAT) {
      const key = blocks.slice(i, i + RUN).join("\n\n")
      const first = firsts.get(key)
      if (first === undefined) firsts.set(key, i)
      else if (first + RUN <= i) {
        i += RUN
        continue
      }
    }
    out.push(blocks[i]!)
    i++
  }
  return out
}

/**
 * Whether `blocks[i]`, a copy of `blocks[first]`, opens a section written again right after itself
 * under the same title: the block right before each copy is one heading, word for word, the copy
 * kept (`out` ends with it), and the run from the first heading up to the second is written again,
 * block for block, from the second on. A section drawn once per screen width (a heading, a
 * paragraph, a row of short selling points, each copy shown at one width only) comes back whole
 * and at once; plans or products that share a title and a description differ in a price or a
 * line, and a section titled alike further on ("Cons" under each product) stands among others.
 */
const retitled = (blocks: ReadonlyArray<string>, i: number, first: number, out: ReadonlyArray<string>): boolean => {
  const before = blocks[i - 1]
  if (first < 1 || before === undefined || !HEADING.test(before) || blocks[first - 1] !== before) return false
  if (out[out.length - 1] !== before) return false
  const run = i - first
  if (run > MAX_SECTION || i - 1 + run > blocks.length) return false
  for (let k = 0; k < run; k++) if (blocks[first - 1 + k] !== blocks[i - 1 + k]) return false
  return true
}

/** A heading block's rank (1 for `#` to 6 for `######`), 7 for any other block. */
const rankOfBlock = (b: string): number => (HEADING.test(b) ? b.indexOf(" ") : 7)

/**
 * `blocks` without each heading written before, word for word, that now titles nothing: the next
 * block is a heading of the same or a higher rank, or there is none. A section written again (for
 * phones, for a carousel's clone, once per colour of a product) loses its text as a repeat above
 * and leaves its title alone, a line that says again what the copy already said.
 */
const withoutEmptyRepeatedHeadings = (blocks: ReadonlyArray<string>): Array<string> => {
  const headings = new Set<string>()
  const out: Array<string> = []
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!
    const rank = rankOfBlock(b)
    if (rank < 7) {
      const next = blocks[i + 1]
      if (headings.has(b) && (next === undefined || rankOfBlock(next) <= rank)) continue
      headings.add(b)
    }
    out.push(b)
  }
  return out
}

/** Whether one of the `HEADING_WITHIN` blocks after `blocks[i]` is a heading of exactly `link`. */
const headedBy = (blocks: ReadonlyArray<string>, i: number, link: string): boolean => {
  for (let j = i + 1; j <= i + HEADING_WITHIN && j < blocks.length; j++) {
    const h = blocks[j]!
    if (HEADING.test(h) && h.slice(h.indexOf(" ") + 1) === link) return true
  }
  return false
}

/** Whether `blocks[i]` (no code) repeats the block before it in a run of three or more of the same block. */
const thrice = (blocks: ReadonlyArray<string>, i: number): boolean => {
  const b = blocks[i]!
  return i > 0 && b === blocks[i - 1] && !b.startsWith("```") && (blocks[i - 2] === b || blocks[i + 1] === b)
}

/**
 * Whether `blocks[i]`, a heading, is a card's subtitle under the card's own title: the block
 * before it is a heading of a higher level, kept (`out` ends with it) and written there for the
 * first time (`firsts`: no repeat of any length). Every
 * card of a listing may write the same subtitle (its kind and place, "Tech conference in San
 * Francisco, California"), each under a title of its own; a copy of a whole card, or of a section,
 * repeats its title first, and goes with it.
 */
const subtitle = (
  blocks: ReadonlyArray<string>,
  i: number,
  out: ReadonlyArray<string>,
  firsts: ReadonlyMap<string, number>
): boolean => {
  const b = blocks[i]!
  const before = blocks[i - 1]
  if (before === undefined || out[out.length - 1] !== before || firsts.get(before) !== i - 1) return false
  const level = HEADING.test(b) ? b.indexOf(" ") : 0
  const above = HEADING.test(before) ? before.indexOf(" ") : 0
  return level > 0 && above > 0 && above < level
}

/** A card's field: one short line, a label of words, a colon, its value ("Screen Size: Up to 43\""). */
const FIELD = /^(\p{L}[\p{L}\p{N} ]{0,29}):[ \t]+[^\n]{1,60}$/u

/** Whether two blocks are one card field's two values: the same label, another value. */
const sameField = (a: string | undefined, b: string | undefined): boolean => {
  if (a === undefined || b === undefined || a === b) return false
  const la = FIELD.exec(a)?.[1]
  return la !== undefined && la === FIELD.exec(b)?.[1]
}

/**
 * Whether `blocks[i]`, a copy of `blocks[first]`, is a line several cards share (a product line's
 * description among each model's figures): it does not follow its first copy right away, and the
 * block before it, or the block after it, is the same field of a card as the one beside its first
 * copy with another value ("Screen Size: Up to 65\"" where the first copy had "… 43\""). A block
 * written again for another width, or a carousel's cloned slide, comes back with what stood
 * beside it, or among other blocks.
 */
const shared = (blocks: ReadonlyArray<string>, i: number, first: number): boolean => {
  const b = blocks[i]!
  if (i - first < 2 || isLinkOnly(b) || HEADING.test(b) || b.startsWith("```")) return false
  return sameField(blocks[i - 1], blocks[first - 1]) || sameField(blocks[i + 1], blocks[first + 1])
}
