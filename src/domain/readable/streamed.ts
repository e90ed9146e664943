/**
 * Parts of a page streamed after its frame (React's server rendering with Suspense, which every
 * site built on Next.js's app router sends): the frame holds a placeholder where a part will go —
 * a `<template id="B:x">` that opens a boundary, its fallback ("Loading…", a grey skeleton) after
 * it up to the boundary's closing comment `<!--/$-->`, or a bare `<template id="P:x">` — and the
 * part itself comes later in the page, in `<div hidden id="S:x">`, which a small script moves into
 * the placeholder once it arrives. A reader sees each part in its place; the saved page holds it
 * hidden at the end of the body, out of the article it belongs to (an article's sections, each
 * its own boundary, stood apart from the text around them and were dropped as hidden).
 *
 * Before the page is read, each such part is written where its placeholder is, in place of the
 * placeholder and its fallback (parts inside parts too, as the script would move them), and
 * dropped from where it came. A part no placeholder names stays where it is (hidden).
 */
import { htmlParser } from "../HtmlText.js"

/** A streamed part's id, a placeholder's id (`B:` a boundary with its fallback, `P:` a bare placeholder). */
const SEGMENT = /^S:([0-9a-z]+)$/
const HOLE = /^([BP]):([0-9a-z]+)$/

/** The boundary comments: `$` (done), `$?` (waiting), `$!` (failed) open one; `/$` closes it. */
const OPENS = new Set(["$", "$?", "$!"])
const CLOSES = "/$"

interface Span {
  readonly start: number
  end: number
}

interface Segment extends Span {
  readonly innerStart: number
  innerEnd: number
}

interface Hole extends Span {
  readonly id: string
  /** Boundaries left open after this placeholder until its own closes (`B:` only; 0 once closed). */
  open: number
}

/** Whether the page may hold a streamed part and its placeholder (a cheap test before parsing). */
const mayStream = (html: string): boolean =>
  html.includes("<div hidden") && html.includes("id=\"S:") && (html.includes("id=\"B:") || html.includes("id=\"P:"))

/** The page with each streamed part moved into its placeholder (or the page itself). */
export const streamedInPlace = (html: string): string => {
  if (!mayStream(html)) return html
  const segments = new Map<string, Segment>()
  const holes: Array<Hole> = []
  const stack: Array<Segment | Hole | undefined> = []
  const parser = new (htmlParser())({
    onopentag(name, attribs) {
      const id = attribs.id ?? ""
      let mark: Segment | Hole | undefined
      if (name === "div" && attribs.hidden !== undefined && SEGMENT.test(id)) {
        const key = SEGMENT.exec(id)![1]!
        if (!segments.has(key)) {
          mark = { start: parser.startIndex, end: -1, innerStart: parser.endIndex + 1, innerEnd: -1 }
          segments.set(key, mark)
        }
      } else if (name === "template" && HOLE.test(id)) {
        const [, kind, key] = HOLE.exec(id)!
        mark = { id: key!, start: parser.startIndex, end: -1, open: kind === "B" ? 1 : 0 }
        holes.push(mark)
      }
      stack.push(mark)
    },
    onclosetag() {
      const mark = stack.pop()
      if (mark === undefined) return
      mark.end = parser.endIndex + 1
      if ("innerEnd" in mark) mark.innerEnd = parser.startIndex
    },
    oncomment(data) {
      const opens = OPENS.has(data)
      if (!opens && data !== CLOSES) return
      for (let i = holes.length - 1; i >= 0; i--) {
        const hole = holes[i]!
        if (hole.open === 0) continue
        if (opens) hole.open++
        else if (--hole.open === 0) hole.end = parser.endIndex + 1
      }
    }
  })
  parser.write(html)
  parser.end()
  const used = new Map<string, Segment>()
  for (const hole of holes) {
    const segment = segments.get(hole.id)
    if (segment === undefined || segment.innerEnd < 0 || hole.end < 0 || used.has(hole.id)) continue
    if (hole.start >= segment.start && hole.start < segment.end) continue
    used.set(hole.id, segment)
  }
  if (used.size === 0) return html
  const filled = holes.filter((h) => used.has(h.id))
  const moved = [...used.values()]
  const cuts: Array<{ readonly span: Span; readonly with: Segment | undefined }> = [
    ...filled.map((h) => ({ span: h as Span, with: used.get(h.id) })),
    ...moved.map((s) => ({ span: s as Span, with: undefined }))
  ].sort((a, b) => a.span.start - b.span.start)
  /** `html[from, to)` with each cut in it replaced (placeholders by their parts, moved parts by nothing). */
  const write = (from: number, to: number, depth: number): string => {
    let out = ""
    let at = from
    for (const cut of cuts) {
      if (cut.span.start < at || cut.span.end > to) continue
      out += html.slice(at, cut.span.start)
      if (cut.with !== undefined && depth < MAX_NESTING) out += write(cut.with.innerStart, cut.with.innerEnd, depth + 1)
      at = cut.span.end
    }
    return out + html.slice(at, to)
  }
  return write(0, html.length, 0)
}

/** How deep parts inside parts are written in (a page whose parts name each other in a ring stops there). */
const MAX_NESTING = 16
