/**
 * A form's notes for after it is sent. Site builders write a form's success and failure messages
 * beside it in the page ("Thank you! Your submission has been received!", "Oops! Something went
 * wrong while submitting the form.") and show one only once the form is sent; the style sheet hides
 * both until then, which the copy does not read. Webflow names them `w-form-done` and `w-form-fail`;
 * other builders `form-success`, `form-error`. Such a short block is left out of the chosen content,
 * and so is a field's placeholder drawn as a box over it (`fieldPlaceholder`).
 *
 * What closes a thread after its reply box: a Q&A or forum page ends its thread with the box to
 * write a reply (a form holding a `textarea`, left out as furniture), then, as the last blocks of
 * the same container, a few short boxes that point elsewhere ("Start asking to get answers",
 * "Ask question", "Explore related questions"). They are the reply box's surroundings, not the
 * thread. The blocks that follow such a form to its parent's end are left out when they hold no
 * text of their own between them and little in all (`withoutComposerTrails`).
 */
import { type El, type Page, withoutEach } from "./tree.js"

/** A class naming a form's message for after it is sent. */
const FORM_NOTE = /(?:^|\s)(?:w-)?form-(?:done|fail|success|error)(?:-message)?(?:$|\s)/i

/** The most text of such a note: a sentence or two. */
const MAX_NOTE = 200

/** Tailwind's class for an element the pointer passes through (`pointer-events-none`): drawn over another. */
const POINTER_THROUGH = /(?:^|\s)pointer-events-none(?:$|\s)/

/** Input types a reader writes text into (no `type`: text too). */
const TEXT_INPUT = new Set(["text", "search", "email", "tel", "url", "number", "password"])

/** The longest text drawn over a field as its placeholder ("Type to search products"). */
const MAX_PLACEHOLDER = 60

/**
 * Whether `el` is a placeholder drawn over a field: a short text (no link) the pointer passes
 * through (`POINTER_THROUGH`), beside a text `input` among its siblings. Themes built with utility
 * classes draw the field's hint as a box laid over it, which the field hides once the reader
 * types; it says what to do with the field, not what the page holds.
 */
const fieldPlaceholder = (el: El): boolean => {
  const cls = el.attribs.class
  if (cls === undefined || el.text > MAX_PLACEHOLDER || el.link > 0 || !POINTER_THROUGH.test(cls)) return false
  return el.parent?.children.some((c) =>
    typeof c !== "number" && c.name === "input" && TEXT_INPUT.has((c.attribs.type ?? "text").toLowerCase())
  ) === true
}

/**
 * The roots without each short block whose class names it a form's message for after it is sent
 * (`FORM_NOTE`), and without each placeholder drawn over a field (`fieldPlaceholder`).
 */
export const withoutFormNotes = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  return withoutEach(page, roots, (el) => {
    const cls = el.attribs.class
    if (cls === undefined) return false
    return fieldPlaceholder(el) || (el.text <= MAX_NOTE && FORM_NOTE.test(cls))
  })
}

/** The most text of the blocks after a reply box: a few short lines. */
const MAX_TRAIL = 300

/** Whether `form` holds a field to write in (`textarea`): a reply box. */
const holdsTextArea = (page: Page, form: El): boolean => {
  for (let i = form.order + 1; i < form.end; i++) if (page.all[i]!.name === "textarea") return true
  return false
}

/**
 * The short blocks after the last form among `parent`'s children, when that form is a reply box
 * and nothing but such blocks follows it (no text of the parent's own, at most `MAX_TRAIL` in all).
 * Read from the end, each parent once: a page of many forms costs one pass.
 */
const trailAfterReplyBox = (page: Page, parent: El): ReadonlyArray<El> => {
  const after: Array<El> = []
  let text = 0
  for (let k = parent.children.length - 1; k >= 0; k--) {
    const c = parent.children[k]!
    if (typeof c === "number") {
      if (page.texts.of(c).trim().length > 0) return []
      continue
    }
    if (c.name === "form") return text > 0 && holdsTextArea(page, c) ? after : []
    if (c.drop) continue
    text += c.text
    if (text > MAX_TRAIL) return []
    after.push(c)
  }
  return []
}

/** The roots without the short blocks that follow a reply box (a form holding a `textarea`) to its parent's end. */
export const withoutComposerTrails = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    for (let i = root.order; i < root.end; i++) {
      const parent = page.all[i]!
      if (parent.children.length < 2) continue
      for (const c of trailAfterReplyBox(page, parent)) c.drop = true
    }
  }
  return roots
}
