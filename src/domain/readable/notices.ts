/**
 * A site's notice shown above a page until the reader dismisses it: a forum's announcements over
 * every thread ("Scam alert…", "Meetups this summer…"). The element that can be dismissed names
 * itself so (`alert-dismissible`), or holds the control that dismisses it (a link or button whose
 * class or address says `dismiss`). Standing before the page's first heading, it is the site's
 * word to every visitor, not the page's, and is left out of the copy (`withoutDismissibleNotices`);
 * after the heading, a dismissible block may be the page's own (a listing's note on its filters)
 * and stays. A box that opens with its own close control is a lightbox laid over the page, left
 * out wherever it stands (`withoutClosableBoxes`). An alert that waits hidden by its class for a
 * script to show it (a deleted thread's notice) is left out too (`withoutWaitingAlerts`).
 */
import { isHeading } from "./edges.js"
import { eachKept, type El, type Page } from "./tree.js"

/** A name or address that says "dismiss" (`notice-dismiss`, `alert-dismissible`, `/dismiss-notice?id=30`). */
const DISMISS = /dismiss/i

/** Whether `el` is the control that dismisses its parent: a link or button named or going so. */
const dismisser = (el: El): boolean =>
  (el.name === "a" || el.name === "button") &&
  (DISMISS.test(el.attribs.class ?? "") || DISMISS.test(el.attribs.href ?? ""))

/** Whether `el` names itself dismissible (and is no control). */
const dismissible = (el: El): boolean => DISMISS.test(el.attribs.class ?? "") && !dismisser(el)

/** The roots without the notices a reader can dismiss before the first heading they hold (never a root itself). */
export const withoutDismissibleNotices = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  const notices: Array<El> = []
  let heading: number | undefined
  for (const root of roots) {
    eachKept(page.all, root.order + 1, root.end, (el) => {
      if (heading === undefined && isHeading(el.name) && el.text > 0) heading = el.order
      if (dismissible(el)) {
        notices.push(el)
        return true
      }
      if (dismisser(el) && el.parent !== undefined && el.parent !== root) notices.push(el.parent)
      return false
    })
  }
  if (heading === undefined) return roots
  for (const el of notices) if (el.end <= heading) el.drop = true
  return roots
}

/** A class word of a control that closes its box: `close`, `close-btn`, `btn-close`, `modal__close`, `closeButton`. */
const CLOSE_NAME = /^(?:[\w-]*[-_])?close(?:[-_]?(?:btn|button|icon|x)|Btn|Button|Icon)?$/i

/** The most text of such a control ("×", "Close", an icon font's "clear"). */
const MAX_CLOSE_TEXT = 8

/**
 * Whether `el` is a control that closes its box: named so, with little text of its own, and no
 * link (a link that closes a notice dismisses it for good: `withoutDismissibleNotices` reads it).
 */
const closer = (el: El): boolean =>
  el.name !== "a" && el.text <= MAX_CLOSE_TEXT && (el.attribs.class ?? "").split(/\s+/).some((c) => CLOSE_NAME.test(c))

/** The largest share of the content's text such a box may hold. */
const MAX_BOX_SHARE = 0.25

/** Whether an `h1` lies in `el`'s subtree. */
const holdsTitle = (page: Page, el: El): boolean => {
  for (let i = el.order + 1; i < el.end; i++) if (page.all[i]!.name === "h1") return true
  return false
}

/**
 * The roots without each box that opens with its own close control: a lightbox or a dialog laid
 * over the page (a shop's delivery terms, a sign-up offer), which the style sheet hides until a
 * click opens it; its first element is the "×" that closes it. Never a root itself.
 */
export const withoutClosableBoxes = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  const total = roots.reduce((n, r) => n + r.text, 0)
  for (const root of roots) {
    eachKept(page.all, root.order + 1, root.end, (el) => {
      if ((el.name !== "div" && el.name !== "section") || el.text <= MAX_CLOSE_TEXT) return false
      // A box holding most of the content, or its title, is the page shown over its frame.
      if (el.text > MAX_BOX_SHARE * total) return false
      const first = el.children.find((c): c is El => typeof c !== "number")
      if (first !== undefined && closer(first) && !holdsTitle(page, el)) {
        el.drop = true
        return true
      }
      return false
    })
  }
  return roots
}

/** A class word of an alert box: `alert` as a whole word (Bootstrap's; `alert-warning` only colours it). */
const ALERT = /^alert$/i

/** A class word that hides its element until a script shows it: `hidden`, `d-none`, `hide`, `is-hidden`. */
const WAITING = /^(?:hidden|hide|d-none|is-hidden)$/i

/**
 * The roots without the alerts that wait hidden for a script: a box whose classes say it is an
 * alert (`alert`) and hidden (`hidden`, `d-none`) is a status message the page shows only in a
 * state it is not in ("This topic has been deleted. Only users with … privileges can see it.",
 * a form's error). The copy does not read a class as hiding (pages styled with utility classes
 * show such elements from a breakpoint up); a hidden alert is never one of those.
 */
export const withoutWaitingAlerts = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order + 1, root.end, (el) => {
      const words = (el.attribs.class ?? "").split(/\s+/)
      if (!words.some((w) => ALERT.test(w)) || !words.some((w) => WAITING.test(w))) return false
      el.drop = true
      return true
    })
  }
  return roots
}
