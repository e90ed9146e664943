/**
 * A form's notes for after it is sent. Site builders write a form's success and failure messages
 * beside it in the page ("Thank you! Your submission has been received!", "Oops! Something went
 * wrong while submitting the form.") and show one only once the form is sent; the style sheet hides
 * both until then, which the copy does not read. Webflow names them `w-form-done` and `w-form-fail`;
 * other builders `form-success`, `form-error`. Such a short block is left out of the chosen content.
 */
import { eachKept, type El, type Page } from "./tree.js"

/** A class naming a form's message for after it is sent. */
const FORM_NOTE = /(?:^|\s)(?:w-)?form-(?:done|fail|success|error)(?:-message)?(?:$|\s)/i

/** The most text of such a note: a sentence or two. */
const MAX_NOTE = 200

/** The roots without each short block whose class names it a form's message for after it is sent (`FORM_NOTE`). */
export const withoutFormNotes = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order + 1, root.end, (el) => {
      const cls = el.attribs.class
      if (cls === undefined || el.text > MAX_NOTE || !FORM_NOTE.test(cls)) return false
      el.drop = true
      return true
    })
  }
  return roots
}
