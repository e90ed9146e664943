/**
 * A cookie or consent banner known by its build, not only by its name: an element whose class or
 * id names cookies, consent or the GDPR (`eu-cookie-law`, `cookie-notice`, `onetrust-consent-sdk`)
 * and that is built as a banner: a dialog (`role="dialog"`, `aria-modal="true"`), a box fixed
 * over the window (`position: fixed` or `sticky` in its style), or one holding the controls a
 * reader answers it with (a form, a button, a submit input: "Accept", "Reject", "Close"), of at
 * most `MAX_BANNER` characters and holding no `h1` or `main`. Such a banner is furniture whatever
 * share of a short page it holds (content.ts `dropFurniture`), and stays out when a short post's
 * own text is too little to choose and the page is scored again without its names (content.ts
 * `keepFurniture`): its sentence about cookies is not the post. A cookie policy is named the same
 * way, but is longer, or opens with its title.
 */
import { type El, type Page, textContent } from "./tree.js"

const CONSENT = /cookie|consent|gdpr/i
const DIALOG = /^(?:dialog|alertdialog)$/i
const FIXED = /position\s*:\s*(?:fixed|sticky)/i

/** The most characters of text a banner holds (a policy's page holds more). */
const MAX_BANNER = 1500

/**
 * Whether `el` is built as a banner: it holds a control a reader answers it with, or is a dialog
 * or fixed over the window; and it holds no `h1` or `main` (a page's title or its main).
 */
const bannerBuild = (page: Page, el: El): boolean => {
  const a = el.attribs
  let built = DIALOG.test(a.role ?? "") || a["aria-modal"] === "true" || FIXED.test(a.style ?? "")
  for (let i = el.order; i < el.end; i++) {
    const d = page.all[i]!
    if (d.name === "h1" || d.name === "main") return false
    if (d.name === "form" || d.name === "button") built = true
    else if (d.name === "input" && /^(?:submit|button)$/i.test(d.attribs.type ?? "")) built = true
  }
  return built
}

/** Whether `el` is a cookie or consent banner by its name and its build. */
export const consentBanner = (page: Page, el: El): boolean => {
  const a = el.attribs
  if (!(a.class !== undefined && CONSENT.test(a.class)) && !(a.id !== undefined && CONSENT.test(a.id))) return false
  return textContent(page.texts, el, true, false).length <= MAX_BANNER && bannerBuild(page, el)
}
