/** Shared by the extraction bench and the readable-copy tests. */

/**
 * The text a reader sees in a readable copy: link syntax `[text](url)` counts as `text` (with the
 * copy's `\[`/`\]` escapes undone), heading marks, list markers, quote marks, table pipes and code
 * fences do not count. Good enough for snippet scoring (the gate's matcher is the reference).
 */
export const readerText = (md: string): string =>
  md
    .split("\n")
    .filter((line) => !/^\s*(?:`{3,}|~{3,})\S*\s*$/.test(line) && !/^\|(?: --- \|)+$/.test(line))
    .map((line) =>
      line
        .replace(/^(?:> ?)+/, "")
        .replace(/^#{1,6} /, "")
        .replace(/^\s*(?:[-*]|\d+\.) /, "")
        .replace(/^\| | \|$/g, "")
        .replace(/ \| /g, " ")
    )
    .join("\n")
    .replace(/\[((?:[^\]\\]|\\.)*)\]\([^)\s]*\)/g, "$1")
    .replace(/\\([[\]|])/g, "$1")
