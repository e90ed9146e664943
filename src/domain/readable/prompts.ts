/**
 * A thread's close as a guest sees it: where a member finds the form to reply, a reader who is not
 * logged in reads a line saying that they must log in (or register) to take part ("You must log in
 * to answer this question.", "You must log in or register to reply here.", "Please sign in to
 * comment."). It is the site's word to its visitors, not the thread's, and no reference of the
 * development set keeps it. An element whose whole text is such a line (`MAX_PROMPT` characters at
 * most) is left out, and so is what follows it to the end of the chosen content when that is short
 * (`MAX_TAIL`: a box inviting the reader to ask a question of their own, the thread's tags offered
 * as related questions) (`withoutGuestPrompts`). A post that says so inside a sentence holds more
 * than the line and stays.
 */
import { collapsedText, eachKept, type El, type Page } from "./tree.js"

/** The line: the reader must log in (or register) to reply, and at most where ("here", "this question"). */
const PROMPT =
  /^(?:you (?:must|need to|have to)|please) (?:first )?(?:log ?in|sign ?in|register|be logged in|be signed in)(?: or (?:register|sign up|create an account))? to (?:reply|answer|comment|post|respond)(?: (?:here|this \w+|to this \w+|in this \w+))?\s*[.!]?$/i
/** The longest such line (characters). */
const MAX_PROMPT = 100
/** The most characters after the line that go with it. */
const MAX_TAIL = 400

/** The roots without a guest's prompt to log in to reply, and the short rest of the content after it. */
export const withoutGuestPrompts = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    let prompt: El | undefined
    eachKept(page.all, root.order + 1, root.end, (el) => {
      if (el.text === 0) return true
      if (el.text > MAX_PROMPT) return false
      if (!PROMPT.test(collapsedText(page, el))) return false
      prompt = el
      el.drop = true
      return true
    })
    if (prompt === undefined) continue
    const tail: Array<El> = []
    let shown = 0
    eachKept(page.all, prompt.end, root.end, (el) => {
      tail.push(el)
      shown += el.text
      return true
    })
    if (shown <= MAX_TAIL) { for (const el of tail) el.drop = true }
  }
  return roots
}
