/**
 * Menus that open on a click without a script: a checkbox drawn as a button (`<input
 * type="checkbox" role="button">`, its label the button's face) and, after it, the menu that
 * CSS shows only while the box is checked (a page's languages, a site's sections). The menu is
 * closed when the page is read, so the readable copy leaves it out (`withoutPopupMenus`).
 */
import type { El, Page } from "./tree.js"

/** The least share of its text a menu holds in links. */
const MENU_LINKS = 0.5

/** Whether `el` is a checkbox drawn as a button: the switch of a menu. */
const menuSwitch = (el: El): boolean =>
  el.name === "input" && el.attribs.type?.toLowerCase() === "checkbox" && el.attribs.role?.toLowerCase() === "button"

/**
 * The roots without each menu a checkbox drawn as a button opens: an element after the switch
 * among its siblings, mostly links (`MENU_LINKS` of its text).
 */
export const withoutPopupMenus = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    // The switch itself is a form control the tree drops: every element is looked at.
    for (let i = root.order; i < root.end; i++) {
      const el = page.all[i]!
      if (!menuSwitch(el) || el.parent === undefined || el.parent.drop) continue
      let after = false
      for (const s of el.parent.children) {
        if (s === el) after = true
        else if (after && typeof s !== "number" && !s.drop && s.text > 0 && s.link >= MENU_LINKS * s.text) s.drop = true
      }
    }
  }
  return roots
}
