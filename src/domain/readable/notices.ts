/**
 * A site's notice shown above a page until the reader dismisses it: a forum's announcements over
 * every thread ("Scam alert…", "Meetups this summer…"). The element that can be dismissed names
 * itself so (`alert-dismissible`), or holds the control that dismisses it (a link or button whose
 * class or address says `dismiss`). Standing before the page's first heading, it is the site's
 * word to every visitor, not the page's, and is left out of the copy (`withoutDismissibleNotices`);
 * after the heading, a dismissible block may be the page's own (a listing's note on its filters)
 * and stays.
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
