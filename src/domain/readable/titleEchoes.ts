/**
 * The page's title written again beside the copy's own: a shop's product name set once as the
 * page's `h1` and again as a line of the buy box ("Brand Model 41" over its price), or as a link
 * to the page itself (a theme's title for its quick-view window), an article's headline as the
 * `h1` and again as the first heading of its body, a thread's subject over the first post. A
 * reader sees one title; the copy keeps its `# ` heading and leaves out a block of one line, among
 * the `TITLE_NEAR` blocks on either side of it, whose words are the title's, word for word
 * (`withoutTitleEchoes`): a heading, a paragraph or a link, never a quote, a list's item, code or
 * a table, nor the body's only block. Longer blocks, and lines that hold the title and more
 * ("Brand Model 41 – Natural White"), stay.
 */
import { HEADING, opensBlock } from "./inline.js"
import { wordsOf } from "./tree.js"

/** How many blocks on either side of the copy's title are read for its echo. */
const TITLE_NEAR = 3

/**
 * A block that is a quote, a list's item, code, a table's row or a rule: what it says is its own,
 * never an echo. A heading opens a block of its own too, and may still echo the title.
 */
const ownBlock = (block: string): boolean => opensBlock(block) && !HEADING.test(block)

/**
 * The block without its links' addresses: each `](…)` becomes `]`, as `/\]\([^)]*\)/g` would
 * replace. The regex scans from every `](` to the end when no `)` follows, the square of the
 * length for a page that writes `](` over and over; here the scan stops at the first `](` with no
 * `)` after it (none after it has one either).
 */
export const withoutLinkTargets = (block: string): string => {
  let out = ""
  let at = 0
  for (let open = block.indexOf("](", at); open >= 0; open = block.indexOf("](", at)) {
    const close = block.indexOf(")", open + 2)
    if (close < 0) break
    out += block.slice(at, open + 1)
    at = close + 1
  }
  return at === 0 ? block : out + block.slice(at)
}

/** A block's words, its Markdown marks (heading, emphasis, a link's address) left out. */
export const wordsOfBlock = (block: string): string => wordsOf(withoutLinkTargets(block)).join(" ")

/**
 * The blocks without each one-line block near the copy's title (`at`, its index) that repeats its
 * words; `from` is the first block of the body (after the front matter). A body that would be left
 * with nothing but its title keeps its blocks.
 */
export const withoutTitleEchoes = (
  blocks: ReadonlyArray<string>,
  at: number,
  from: number
): ReadonlyArray<string> => {
  if (at < 0 || at >= blocks.length) return blocks
  const title = wordsOfBlock(blocks[at]!)
  if (title.length === 0) return blocks
  const out: Array<string> = []
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!
    const near = i !== at && i >= from && Math.abs(i - at) <= TITLE_NEAR
    if (near && !b.includes("\n") && !ownBlock(b) && wordsOfBlock(b) === title) continue
    out.push(b)
  }
  // The front matter and the title are all that would be left: the page says nothing but its title.
  return out.length - from <= 1 ? blocks : out
}
