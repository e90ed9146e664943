/** Shared by the extraction bench and the readable-copy tests. */
import { visibleText } from "../src/domain/VisibleText.js"

/**
 * The text a reader sees in a readable copy, exactly as the gate's matcher reads it (spec README
 * "Quote matching", src/domain/VisibleText.ts): link syntax `[text](url)` counts as `text`;
 * heading marks, list markers, quote marks, table pipes, code fences and backslash escapes do not
 * count. Scoring with the matcher itself means a snippet counts as found only where a quote of
 * it would verify.
 */
export const readerText = (md: string): string => visibleText("markdown", md).text

/** A readable copy without the front matter at its top (`---` … `---`), when it has one. */
export const withoutFrontMatter = (md: string): string => {
  if (!md.startsWith("---\n")) return md
  const end = md.indexOf("\n---\n", 3)
  return end < 0 ? md : md.slice(end + 5)
}
