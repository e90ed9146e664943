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
import { siblingsOfShape } from "./cards.js"
import { collapsedText, eachKept, eachShortLine, type El, type Page } from "./tree.js"

/** The line: the reader must log in (or register) to reply, and at most where ("here", "this question"). */
const PROMPT =
  /^(?:you (?:must|need to|have to)|please) (?:first )?(?:log ?in|sign ?in|register|be logged in|be signed in)(?: or (?:register|sign up|create an account))? to (?:reply|answer|comment|post|respond)(?: (?:here|this \w+|to this \w+|in this \w+))?\s*[.!]?$/i
/** The longest such line (characters). */
const MAX_PROMPT = 100
/** The most characters after the line that go with it. */
const MAX_TAIL = 400

/**
 * A guest's prompt to sign in to use the page's own controls: a line opening with a link that reads
 * only "Sign in" or "Log in" (the way to the login page) and going on to say what a member could do
 * ("Sign in to add this item to your wishlist, follow it, or mark it as ignored", "Log in to save
 * this recipe"). A shop's, a store's or a recipe site's word to its visitors, where a member sees
 * the buttons themselves; no reference of the development set keeps one. The element whose whole
 * text it is (`MAX_PROMPT` characters at most) is left out, alone.
 */
const SIGN_IN_PROMPT = /^(?:sign|log) ?in(?: or (?:register|sign up|create an account))? to \w[^.!?]*[.!]?$/i
/** The link that opens such a line: its words only. */
const SIGN_IN_LINK = /^(?:sign|log) ?in$/i

/** Whether the element is a sign-in line (`SIGN_IN_PROMPT`) opening with its link (`SIGN_IN_LINK`). */
const signInPrompt = (page: Page, el: El, text: string): boolean => {
  if (!SIGN_IN_PROMPT.test(text)) return false
  const first = el.children.find((c) => typeof c !== "number" || page.texts.of(c).trim() !== "")
  return first !== undefined && typeof first !== "number" && first.name === "a" &&
    SIGN_IN_LINK.test(collapsedText(page, first))
}

/** The roots without a guest's prompt to log in to reply, and the short rest of the content after it. */
export const withoutGuestPrompts = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    let prompt: El | undefined
    eachShortLine(page, [root], MAX_PROMPT, (el, text) => {
      if (signInPrompt(page, el, text)) {
        el.drop = true
        return true
      }
      if (!PROMPT.test(text)) return false
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

/**
 * A box asking a guest to log in or to make an account: a page's gate or a site's panel, kept in
 * the page's markup whether or not it shows ("Join the Community! It's FREE / Already have an
 * account? Login", "Unlock the full experience … Log In / Don't have an account? Register" over
 * what a member gets). It is the site's word to its visitors, not the page's. A short line
 * (`MAX_PROMPT` characters at most) holding the question "Already have an account?" or "Don't have
 * an account?" (a site's name may stand before "account"), with a link in the same box that leads
 * to logging in or signing up, is left out with the largest box around it that shows at most
 * `MAX_ACCOUNT_BOX` characters (`withoutAccountBoxes`); never one of a group of cards. The same
 * words inside a sentence ("… even if they don't have an account.") end with no question mark.
 */
const ACCOUNT_QUESTION = /(?:^|[.!?:]\s|\s)(?:already|don['\u2019]t|do not) have an? (?:[\p{L}\p{N}]+ )?account\?/iu
/** A link's text that leads to logging in or signing up. */
const ACCOUNT_LINK = /^(?:log ?in|sign ?in|sign ?up|register|create (?:an |your )?account|join|get started)\b/i
/** The most characters the box around the question shows: a heading, a line or two, its buttons. */
const MAX_ACCOUNT_BOX = 600

/** Whether a link inside `box` reads as the way to log in or sign up (`ACCOUNT_LINK`). */
const holdsAccountLink = (page: Page, box: El): boolean => {
  let found = false
  eachKept(page.all, box.order, box.end, (el) => {
    if (found) return true
    if (el.name !== "a" && el.name !== "button") return false
    if (ACCOUNT_LINK.test(collapsedText(page, el))) found = true
    return true
  })
  return found
}

/** The roots without a box asking a guest to log in or make an account. */
export const withoutAccountBoxes = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachShortLine(page, [root], MAX_PROMPT, (el, text) => {
      if (!ACCOUNT_QUESTION.test(text)) return false
      let box = el
      for (let up = el.parent; up !== undefined && up !== root && up.text <= MAX_ACCOUNT_BOX; up = up.parent) {
        box = up
      }
      if (!holdsAccountLink(page, box)) return false
      // One of a group of cards is the card's, not the site's box.
      if (box.parent !== undefined && siblingsOfShape(box.parent, box, 1) !== undefined) return false
      box.drop = true
      return true
    })
  }
  return roots
}

/**
 * A locked thread's status: boards that close a thread to replies say so in a line over the posts
 * and again under them ("Status: Not open for further replies.", "This topic is locked, you cannot
 * edit posts or make further replies."), a term and its value or a line of its own. It is the
 * board's state of the thread, not a post. Where the copy holds the same such line twice or more,
 * each element whose whole text is it is left out, with the term that labels it (a `dt` of
 * `MAX_TERM` characters at most before it) (`withoutLockedStatus`). A closing post written once
 * into the thread ("This topic was automatically closed… New replies are no longer allowed.") is
 * a post, and its references keep it.
 */
const LOCKED =
  /^(?:not open for further replies|closed to (?:new|further) replies|this (?:thread|topic) is (?:closed|locked)(?:, you cannot edit posts or make further replies| to (?:new|further) replies)?)\s*[.!]?$/i
/** The longest label of the status. */
const MAX_TERM = 20

/** The roots without a locked thread's status lines said twice or more, and their labels. */
export const withoutLockedStatus = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  const found = new Map<string, Array<El>>()
  eachShortLine(page, roots, MAX_PROMPT, (el, text) => {
    if (!LOCKED.test(text)) return false
    const key = text.toLowerCase()
    found.set(key, [...(found.get(key) ?? []), el])
    return true
  })
  for (const els of found.values()) {
    if (els.length < 2) continue
    for (const el of els) {
      el.drop = true
      const siblings = el.parent?.children ?? []
      const at = siblings.indexOf(el)
      for (let i = at - 1; i >= 0; i--) {
        const s = siblings[i]!
        if (typeof s === "number") continue
        if (s.name === "dt" && s.text <= MAX_TERM) s.drop = true
        break
      }
    }
  }
  return roots
}
