/**
 * The text-only copy of a page too deeply nested to parse into a tree: one linear pass over its
 * tags (no regular expression that could backtrack), block boundaries as paragraph breaks.
 */
import { load } from "cheerio/slim"
import { collapseWhitespace as collapse } from "../Quote.js"
import { BLOCKS } from "./tree.js"

const RAW_TEXT = new Set([
  "script",
  "style",
  "template",
  "noscript",
  "textarea",
  "title",
  "xmp",
  "iframe",
  "noembed",
  "noframes"
])

const isNameChar = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45 || c === 58

const rawTextEnd = new Map<string, RegExp>()

/**
 * Visit the tags of a page in one linear pass: `onText` gets the text between tags, `onTag` each
 * tag's lowercased name. Comments and raw-text elements (script, style…) are skipped.
 */
const scanTags = (html: string, onTag: (name: string) => void, onText: (text: string) => void): void => {
  let i = 0
  while (i < html.length) {
    const lt = html.indexOf("<", i)
    if (lt < 0) break
    if (lt > i) onText(html.slice(i, lt))
    if (html.startsWith("<!--", lt)) {
      const end = html.indexOf("-->", lt + 4)
      if (end < 0) return
      i = end + 3
      continue
    }
    const gt = html.indexOf(">", lt + 1)
    if (gt < 0) {
      onText(html.slice(lt))
      return
    }
    const closing = html.charCodeAt(lt + 1) === 47 /* / */
    let j = closing ? lt + 2 : lt + 1
    const nameStart = j
    while (j < gt && isNameChar(html.charCodeAt(j))) j++
    i = gt + 1
    const first = html.charCodeAt(nameStart) | 0x20
    if (j === nameStart || first < 97 || first > 122) {
      onText(" ")
      continue
    }
    const name = html.slice(nameStart, j).toLowerCase()
    onTag(name)
    if (!closing && RAW_TEXT.has(name)) {
      let end = rawTextEnd.get(name)
      if (end === undefined) {
        end = new RegExp(`</${name}`, "gi")
        rawTextEnd.set(name, end)
      }
      end.lastIndex = i
      const m = end.exec(html)
      if (m === null) return
      i = m.index
    }
  }
  if (i < html.length) onText(html.slice(i))
}

/** The page's text as paragraphs, character references decoded. */
export const flatBlocks = (html: string): ReadonlyArray<string> => {
  const parts: Array<string> = []
  scanTags(
    html,
    (name) => parts.push(BLOCKS.has(name) || name === "br" ? "\n" : " "),
    (text) => parts.push(text.replace(/</g, "&lt;"))
  )
  // Decode character references with the same parser (a tag-free body parses in linear time).
  const text = load(`<pre>${parts.join("")}</pre>`)("pre")
    .text()
    .split("\n")
    .map((line) => collapse(line).trim())
    .filter((line) => line.length > 0)
    .join("\n\n")
  return text.length === 0 ? [] : [text]
}
