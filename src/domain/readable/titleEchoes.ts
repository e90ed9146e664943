/**
 * The page's title written again beside the copy's own: a shop's product name set once as the
 * page's `h1` and again as a line of the buy box ("Men's Wool Runner" over its price), an
 * article's headline as the `h1` and again as the first heading of its body, a thread's subject
 * over the first post. A reader sees one title; the copy keeps its `# ` heading and leaves out a
 * block of one line, among the `TITLE_NEAR` blocks on either side of it, whose words are the
 * title's, word for word (`withoutTitleEchoes`). Longer blocks, and lines that hold the title and
 * more ("Men's Wool Runner – Natural White"), stay.
 */

/** How many blocks on either side of the copy's title are read for its echo. */
const TITLE_NEAR = 3

/** A block's words, lowercase, its Markdown marks (heading, list, emphasis, link) left out. */
const wordsOf = (block: string): string =>
  block.replace(/\]\([^)]*\)/g, "]").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim()

/**
 * The blocks without each one-line block near the first `# ` title that repeats its words
 * (`from`: the first block of the body, after the front matter).
 */
export const withoutTitleEchoes = (blocks: ReadonlyArray<string>, from: number): ReadonlyArray<string> => {
  let at = -1
  for (let i = from; i < blocks.length; i++) {
    if (blocks[i]!.startsWith("# ")) {
      at = i
      break
    }
  }
  if (at < 0) return blocks
  const title = wordsOf(blocks[at]!)
  if (title.length === 0) return blocks
  const out: Array<string> = []
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!
    const near = i !== at && i >= from && Math.abs(i - at) <= TITLE_NEAR
    if (near && !b.includes("\n") && wordsOf(b) === title) continue
    out.push(b)
  }
  return out
}
