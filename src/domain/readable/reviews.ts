/**
 * Customer reviews on a page that does not say it shows a product (no schema.org Product, no Open
 * Graph type: a large marketplace's pages say nothing of themselves). On a product page meta.ts
 * names them and content.ts reads every `review` name as furniture; elsewhere a `review` name may
 * be a review article's body or a service page's testimonials, which the page's text is. What
 * tells a shop's customer reviews apart is how they are built: a run of siblings of one shape
 * named as reviews, where the reviews carry a rating (stars) — testimonials quote a customer
 * without one, and a review article is one text, not a run of them.
 */
import { shapeOf, siblingsOfShape } from "./cards.js"
import type { El, Page } from "./tree.js"

/** A class that names reviews (`review`, `customer_review`, `review-card`; not `preview`). */
const REVIEW = /(?<!p)review/i
/** A class token that names a rating: `star`, `stars`, `rating`, alone or as a part (`a-icon-star`, `review-rating`). */
const RATING = /(?:^|[\s_-])(?:stars?|rating)(?:$|[\s_-])/i

/** Whether an element holds a rating (an element whose class names one). */
const rated = (page: Page, el: El): boolean => {
  for (let i = el.order + 1; i < el.end; i++) if (RATING.test(page.all[i]!.attribs.class ?? "")) return true
  return false
}

/**
 * The review cards of a page: each element whose class names reviews (`REVIEW`) among three or
 * more siblings of its shape (cards.ts `siblingsOfShape`, links not counted against them), when
 * one of those siblings or more shows a rating (`RATING`); and the cards of a run whose reviews
 * are one part of each card (`reviewCards`).
 */
export const ratedReviews = (page: Page): Array<El> => {
  const out: Array<El> = []
  const judged = new Map<string, boolean>()
  for (const el of page.all) {
    if (el.parent === undefined || !REVIEW.test(el.attribs.class ?? "")) continue
    const key = `${el.parent.order} ${shapeOf(el)}`
    let yes = judged.get(key)
    if (yes === undefined) {
      const same = siblingsOfShape(el.parent, el, 1)
      yes = same !== undefined && same.some((c) => rated(page, c))
      judged.set(key, yes)
    }
    if (yes) {
      out.push(el)
      continue
    }
    const card = el.parent
    if (card.parent === undefined) continue
    const partKey = `${card.parent.order} ${shapeOf(card)} part`
    if (judged.has(partKey)) continue
    const cards = reviewCards(page, card)
    judged.set(partKey, cards !== undefined)
    if (cards === undefined) continue
    for (const c of cards) out.push(c)
  }
  return out
}

/** The least share of a run of review cards' text their parts named as reviews hold. */
const REVIEW_PART_SHARE = 0.5

/**
 * The run of `card`'s shape, when it is a run of reviews built as cards whose review is one part
 * (a carousel's item holding its review, its reviewer and the product reviewed side by side): three
 * or more siblings of one shape (`siblingsOfShape`, links not counted against them), one of them
 * or more showing a rating, where the children named as reviews hold at least
 * `REVIEW_PART_SHARE` of the cards' text (a product card's rating line, "4.8 (51 reviews)", is a
 * small part of it); else `undefined`.
 */
const reviewCards = (page: Page, card: El): Array<El> | undefined => {
  const same = siblingsOfShape(card.parent!, card, 1)
  if (same === undefined || !same.some((c) => rated(page, c))) return undefined
  let text = 0
  let reviews = 0
  for (const c of same) {
    text += c.text
    let part = 0
    for (const k of c.children) {
      if (typeof k !== "number" && !k.drop && REVIEW.test(k.attribs.class ?? "")) part = Math.max(part, k.text)
    }
    reviews += part
  }
  return reviews >= REVIEW_PART_SHARE * text ? same : undefined
}
