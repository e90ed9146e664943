/**
 * The text a reader sees (spec README "Quote matching"), with a map back to the file's own text.
 *
 * - Markdown (a readable copy, any `.md` file), as CommonMark renders it: a link or image
 *   `[text](url)`, or `[text][id]` / `[text][]` / `[id]` where `id` is defined, counts as its
 *   text; heading marks, list markers, block-quote marks, table pipes and delimiter rows, code
 *   fences, thematic breaks, emphasis marks (`*`, `_`, `~~` runs that open and close as in
 *   CommonMark), code-span backticks, backslash escapes, link reference definitions, HTML
 *   comments and raw HTML tags do not count (the text between tags does); an autolink counts as
 *   its address and a character reference (`&amp;`) as its character, except in code
 *   (`MarkdownText.ts`).
 * - HTML/XHTML: the text content (tags and comments removed, character references decoded,
 *   `script`/`style`/`template` dropped, a block element's boundaries as whitespace).
 * - text/plain: the text itself.
 *
 * `sourceStart`/`sourceEnd` give, for each UTF-16 unit of the result, the range of the file's
 * text it came from (a decoded `&amp;` maps to all five characters; whitespace a block boundary
 * added maps to an empty range at the tag). `normalizeMapped` then applies the matcher's
 * normalization (NFC, whitespace runs to one space, trim) keeping the map. Every step is one
 * pass over the text (no step rescans what an earlier one consumed), so matching stays linear.
 */
import { htmlVisible } from "./HtmlText.js"
import { identity, type MappedText } from "./MappedText.js"
import { markdownVisible } from "./MarkdownText.js"

export { type MappedText, normalizeMapped, sourceEnd, sourceStart, WHITESPACE_TO_COLLAPSE } from "./MappedText.js"

export type TextFormat = "markdown" | "html" | "xhtml" | "text"

/** The format a file is read in, from its name: `.md` Markdown, `.html`/`.htm`, `.xhtml`, anything else text. */
export const formatOfPath = (path: string): TextFormat => {
  const dot = path.lastIndexOf(".")
  const ext = dot < 0 || dot < path.lastIndexOf("/") ? "" : path.slice(dot + 1).toLowerCase()
  switch (ext) {
    case "md":
    case "markdown":
      return "markdown"
    case "html":
    case "htm":
      return "html"
    case "xhtml":
      return "xhtml"
    default:
      return "text"
  }
}

/** The text a reader sees in a file of this format, mapped to the file's own text. */
export const visibleText = (format: TextFormat, text: string): MappedText => {
  switch (format) {
    case "markdown":
      return markdownVisible(text)
    case "html":
      return htmlVisible(text, false)
    case "xhtml":
      return htmlVisible(text, true)
    case "text":
      return identity(text)
  }
}
