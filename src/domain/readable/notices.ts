/**
 * A site's notice shown above a page until the reader dismisses it: a forum's announcements over
 * every thread ("Scam alert…", "Meetups this summer…"). The element that can be dismissed names
 * itself so (`alert-dismissible`), or holds the control that dismisses it (a link or button whose
 * class, address or label for screen readers says `dismiss`: an icon's button `aria-label="Dismiss
 * region banner"`). Standing before the page's first heading, it is the site's
 * word to every visitor, not the page's, and is left out of the copy (`withoutDismissibleNotices`);
 * after the heading, a dismissible block may be the page's own (a listing's note on its filters)
 * and stays. A box that opens with its own close control is a lightbox laid over the page, left
 * out wherever it stands (`withoutClosableBoxes`). An alert that waits hidden by its class for a
 * script to show it (a deleted thread's notice, a feedback form's thanks in a live region) is left
 * out too (`withoutWaitingAlerts`), and on a
 * product page so is a short box its template shows only once a state flag is set, saved before
 * the script ran (`withoutStateBoxes`).
 */
import { NAMESPACE, SHOWN_FROM } from "./boilerplate.js"
import { holdsHeading, isHeading } from "./edges.js"
import { eachKept, type El, type Page, withoutEach } from "./tree.js"

/** A name or address that says "dismiss" (`notice-dismiss`, `alert-dismissible`, `/dismiss-notice?id=30`). */
const DISMISS = /dismiss/i

/** A label for screen readers that opens with "Dismiss" ("Dismiss region suggestion banner"; not "… unfair dismissal"). */
const DISMISS_LABEL = /^\s*dismiss\b/i

/**
 * Whether `el` is the control that dismisses its parent: a link or button named or going so, or
 * labelled so for screen readers (an icon's "×" whose only name is its `aria-label`).
 */
const dismisser = (el: El): boolean =>
  (el.name === "a" || el.name === "button") &&
  (DISMISS.test(el.attribs.class ?? "") || DISMISS.test(el.attribs.href ?? "") ||
    DISMISS_LABEL.test(el.attribs["aria-label"] ?? ""))

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
      // The box of a control that dismisses it. A control the page's reading dropped (every
      // `button`, for its tag) is passed over by the walk: its box is found from the box.
      if (dismisser(el) && el.parent !== undefined && el.parent !== root) notices.push(el.parent)
      else if (el.children.some((c) => typeof c !== "number" && c.drop && dismisser(c))) notices.push(el)
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

/**
 * A class word of an alert box: `alert` as a whole word (Bootstrap's; `alert-warning` only colours
 * it), or behind a design system's short namespace (`c-alert`, `ds-alert`; `NAMESPACE`). A
 * colour's, a button's or a state's prefix (`bg-alert`, `btn-alert`, `has-alert`) is none.
 */
const ALERT = new RegExp(`^(?:(?!(?:bg|btn|has)-)${NAMESPACE})?alert$`, "i")

/**
 * A class word that hides its element until a script shows it: `hidden`, `d-none`,
 * `display-none`, `hide`, `is-hidden`, alone or behind a design system's short namespace
 * (`u-hidden`, `ds-display-none`; `NAMESPACE`: not a screen width's, `sm-hidden` hides the box on
 * small screens only, nor a negation's, `un-hidden`).
 */
const WAITING = new RegExp(`^(?:${NAMESPACE})?(?:hidden|hide|d-none|display-none|is-hidden)$`, "i")

/**
 * Whether `el`, or an ancestor of it below `root`, carries a class word that hides it until a
 * script shows it (`WAITING`) and none that shows it from a screen width up (`SHOWN_FROM`).
 */
const waitingWithin = (el: El, root: El): boolean => {
  for (let p: El | undefined = el; p !== undefined && p !== root; p = p.parent) {
    const words = (p.attribs.class ?? "").split(/\s+/)
    if (words.some((w) => WAITING.test(w)) && !words.some((w) => SHOWN_FROM.test(w))) return true
  }
  return false
}

/** The most characters of a live region read as a status message: a form's "Thank you for your feedback". */
const MAX_STATUS_TEXT = 200

/**
 * Whether `el` is a live region that announces a short status: `aria-live="polite"` or
 * `"assertive"` (not `"off"`), or `role="status"`, holding 200 characters or less. Screen readers
 * read such a box aloud when a script changes it, so pages fill it or show it as the reader acts
 * (a feedback form's "Thank you for your feedback", "You selected \"Yes, it is useful\""). A
 * longer live region is a part of the page that updates (a carousel's track, a cart's list).
 */
const liveStatus = (el: El): boolean => {
  const live = el.attribs["aria-live"]?.trim().toLowerCase()
  const status = live === "polite" || live === "assertive" || el.attribs.role?.trim().toLowerCase() === "status"
  return status && el.text <= MAX_STATUS_TEXT
}

/**
 * The roots without the alerts that wait hidden for a script: a box whose classes say it is an
 * alert (`alert`) and hidden (`hidden`, `d-none`), or so named behind a design system's short
 * prefix (`ds-alert`, `ds-display-none`), is a status message the page shows only in a state it
 * is not in ("This topic has been deleted. Only users with … privileges can see it.", a form's
 * error: "There was a problem calculating your shipping"). An alert is also a box whose role says
 * so (`role="alert"`), and it waits hidden when a box around it inside the content is so named (a
 * gallery's "Image unavailable" in a slide hidden until a colour without a picture is picked).
 * A short live region (`liveStatus`: `aria-live`, `role="status"`) hidden so is a status message
 * too: a feedback form's thanks, shown once the reader has answered.
 * The copy does not read a class as hiding (pages styled with utility classes show such elements
 * from a breakpoint up); a hidden alert is never one of those, and a box whose classes also show
 * it from a screen width up (`SHOWN_FROM`: `d-none d-md-block`) is not waiting.
 */
export const withoutWaitingAlerts = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  return withoutEach(page, roots, (el, root) => {
    const words = (el.attribs.class ?? "").split(/\s+/)
    const alert = words.some((w) => ALERT.test(w)) || el.attribs.role?.trim().toLowerCase() === "alert" ||
      liveStatus(el)
    return alert && waitingWithin(el, root)
  })
}

/**
 * A condition that is one state flag of the page's script, a name alone (`open`, `isTooltipOpen`):
 * not negated, not the constant `true` (always shown), no comparison, no path into the page's data
 * (`item.address.street` shows a field when the record has it, as it has on the saved page).
 */
const STATE_FLAG = /^\s*(?!true\s*$)[A-Za-z_$][\w$]*\s*$/

/** The most characters of a box shown on a state flag that is left out: a tooltip's line, a form's message. */
const MAX_STATE_TEXT = 200

/**
 * Whether `el` is shown only while its script's state flag is set: Vue's `v-if` and `v-show`,
 * Alpine's `x-show`, whose condition is one flag. Once the script runs, an element so marked whose
 * flag is unset is taken out (`v-if`) or hidden by a style (`v-show`, `x-show`), and the
 * attribute stays in the saved page only where the script had not run when it was saved.
 */
const shownOnFlag = (el: El): boolean => {
  const when = el.attribs["v-if"] ?? el.attribs["v-show"] ?? el.attribs["x-show"]
  return when !== undefined && STATE_FLAG.test(when)
}

/**
 * The roots without the short boxes a page's script shows only in a state the reader brings about:
 * a tooltip opened by a click (`v-if="isTooltipOpen"`: "Final sale items cannot be returned"), a
 * form's "Thanks for subscribing", a "Link copied!". A flag is unset when the page loads (nobody
 * has opened, copied or sent anything), so a browser shows none of them; the saved page, written
 * before its script ran, holds them all. Only a box of 200 characters or less, holding no
 * heading: a longer one is text folded away (the rest of a post under "Show more"), the page's
 * own, as accordions.ts shows a closed answer. A negated flag (`!open`) or a comparison (`tab ===
 * 'specs'`) is shown at load, or is one of several, and stays. Only on a page that says it shows
 * one product (`product`): a shop's buy box is built of such tooltips and popups; on every page a
 * board's thread lost a short box its reference keeps (which flags are set at load is the
 * script's to say, and a thread's may be its posts' own).
 */
export const withoutStateBoxes = (page: Page, roots: ReadonlyArray<El>, product: boolean): ReadonlyArray<El> => {
  if (!product) return roots
  return withoutEach(
    page,
    roots,
    (el) => shownOnFlag(el) && el.text <= MAX_STATE_TEXT && !holdsHeading(page, el)
  )
}
