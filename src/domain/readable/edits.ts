/**
 * A post's edit note: forum software writes under a post its author changed after posting who
 * changed it and when ("Last edited by Ann on Sun Feb 22, 2026 2:08 am, edited 2 times in
 * total."; "Last edited by Ann; 12-03-2024 at 10:12 AM."; "Last edited: Mar 3, 2024"; "Edited
 * June 19, 2024 by Ann", when and then who). It is the board's bookkeeping, not what the post
 * says, and reads in the copy as a line between posts. An element whose whole text is such a note
 * is left out (`withoutEditNotes`); a sentence of a post that starts with the same words holds
 * more and stays. A board that renders its notes in the browser writes the template with the
 * dates empty for its script to fill ("wrote on", "last edited by" and a name or none, beside an
 * empty `time` or an element named `timeago`): such an element is a note too.
 *
 * A section's edit link: a wiki writes beside each section's heading a link that opens that
 * section in its editor ("[edit]", "[edit source]"), a control for its editors that reads in the
 * copy as a line of its own under each heading. A link whose whole text says so, whose address
 * opens an editor (`action=edit`, or a path ending in `/edit`), standing inside a heading or
 * beside one (a sibling of the heading or of an element around it), is left out with the
 * brackets around it (`withoutSectionEditLinks`).
 */
import { isHeading } from "./edges.js"
import { collapsedText, eachKept, eachShortLine, type El, type Node, type Page } from "./tree.js"

/** An edit note: "Last edited" and who or when, with a date or a time in it; or "Edited", a date, then "by" and who. */
const NOTE = /^(?:last edited\s*(?:by\b|:|on\b)(?=.*\d)|edited\s+(?:on\s+)?\S*\s*\d.{0,60}\bby\b)/i
/** The longest note (visible characters). */
const MAX_NOTE = 200
/** A note whose date a script writes: "wrote on", "last edited by" and at most a name, the dates empty. */
const TEMPLATE_NOTE = /^(?:wrote\s+on\s+)?last\s+edited\s+by(?:\s+\S{1,40})?$/i
/** An element a script fills with a time: a `time`, or one named `timeago` (the jQuery plugin's convention). */
const TIME_SLOT = /(?:^|\s)timeago(?:\s|$)/i

/** Whether `el` holds an empty slot for a time (`TIME_SLOT`). */
const holdsEmptyTime = (page: Page, el: El): boolean => {
  for (let i = el.order + 1; i < el.end; i++) {
    const d = page.all[i]!
    if (d.text === 0 && (d.name === "time" || TIME_SLOT.test(d.attribs.class ?? ""))) return true
  }
  return false
}

/** The roots without the elements whose whole text is a post's edit note (`NOTE`, at most `MAX_NOTE` characters). */
export const withoutEditNotes = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  eachShortLine(page, roots, MAX_NOTE, (el, text) => {
    if (!NOTE.test(text) && !(TEMPLATE_NOTE.test(text) && holdsEmptyTime(page, el))) return false
    el.drop = true
    return true
  })
  return roots
}

/** A section's edit link's words. */
const EDIT_LINK = /^(?:edit|edit source|edit section)$/i
/** An address that opens an editor. */
const EDITOR = /[?&]action=edit\b|\/edit\/?(?:[?#]|$)/i
/** What may stand around an edit link in its wrapper: brackets, bars and spaces. */
const FRAME = /^[\s[\]()|]*$/

/**
 * Whether `el`, or an element around it that holds little more text (the brackets), is a heading
 * or stands beside one: a sibling that is a heading or holds one as its child.
 */
const besideHeading = (el: El): boolean => {
  for (let e: El | undefined = el; e !== undefined; e = e.parent) {
    if (isHeading(e.name)) return true
    const parent: El | undefined = e.parent
    if (parent === undefined) return false
    for (const c of parent.children) {
      if (typeof c === "number" || c === e) continue
      if (isHeading(c.name) || c.children.some((g: Node) => typeof g !== "number" && isHeading(g.name))) return true
    }
    if (parent.text > e.text + 4) return false
  }
  return false
}

/** The roots without each section's edit link beside its heading (`EDIT_LINK`, `EDITOR`), with the brackets around it. */
export const withoutSectionEditLinks = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order + 1, root.end, (el) => {
      if (el.name !== "a") return false
      const href = el.attribs.href
      if (href === undefined || !EDITOR.test(href) || !EDIT_LINK.test(collapsedText(page, el))) return true
      if (!besideHeading(el)) return true
      let out = el
      while (out.parent !== undefined && out.parent !== root && !isHeading(out.parent.name)) {
        const words = collapsedText(page, out.parent).replace(collapsedText(page, el), "")
        if (!FRAME.test(words)) break
        out = out.parent
      }
      out.drop = true
      return true
    })
  }
  return roots
}
