/**
 * A product page's details opened over the page: a shop writes the product's specifications,
 * materials and care ("Product details", "Measurements") into a block named as a dialog
 * (`product-details-modal`) inside the page's `main`, beside the description, and a link shows
 * it over the page. The name `modal` marks strong furniture (boilerplate.ts: a site's newsletter
 * or cookie dialog), which there left the product's facts out. Inside the `main` of a page that
 * says it shows one product, the name `modal` is read as if absent (`productDetailModals`); a
 * site's dialogs sit outside the `main`, at the end of the body, and stay furniture.
 */
import { markOf } from "./boilerplate.js"
import { hasAncestorNamed, type Page } from "./tree.js"

const MODAL = /modal/gi

/** Reads the names of each block named `modal` inside the `main` (and no dialog by its role) without that word. */
export const productDetailModals = (page: Page): void => {
  for (const el of page.all) {
    const { class: cls, id } = el.attribs
    if (el.attribs.role !== undefined || !`${cls ?? ""} ${id ?? ""}`.match(MODAL) || !hasAncestorNamed(el, "main")) {
      continue
    }
    const strip = (s: string | undefined) => s?.replace(MODAL, " ")
    el.marks = markOf(el.name, { ...el.attribs, class: strip(cls), id: strip(id) })
  }
}
