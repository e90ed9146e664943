/**
 * A product's rating summary: a shop writes beside the product's name, over its buy box, how its
 * customers rated it and how many did ("4.9 (2,695 reviews)", "4.8 out of 5 stars", "Rated 5 out
 * of 5 stars. 4 total votes", "5 reviews"), a link down to the reviews or a widget's line. It is
 * the shop's count, not what the page says of the product, and the product pages' references
 * leave it out. On a page that says it shows one product (meta.ts), an element of `MAX_SUMMARY`
 * characters or less whose whole text is such a summary (`SUMMARY`: a rating out of five, a count
 * of reviews, ratings or votes, or both) is left out (`withoutRatingSummaries`); a sentence that
 * cites a rating ("rated 4.8 out of 5 by testers") and a review's own text stay.
 */
import { type El, type Page, withoutShortLines } from "./tree.js"

/** A rating out of five: "4.8 out of 5 stars", "4.9/5", "Rated 5 out of 5 stars.". */
const SCORE = String.raw`(?:rated\s+)?\d(?:[.,]\d{1,2})?(?:\s*(?:out\s+of|\/)\s*5)?(?:\s*stars?)?`
/** A count of reviews: "(2,695 reviews)", "4 total votes", "44 ratings". */
const COUNT = String.raw`\(?\s*\d[\d,.]*\s*(?:total\s+)?(?:reviews?|ratings?|votes?)\s*\)?`

/**
 * The whole text of a summary: a score and a count, a count alone, or a score alone written "out
 * of 5" ("1/5" alone is as often a carousel's counter or a step of a scale the page explains).
 */
const SUMMARY = new RegExp(
  String
    .raw`^(?:(?:${SCORE})[.,]?\s*${COUNT}|${COUNT}|(?:rated\s+)?\d(?:[.,]\d{1,2})?\s*out\s+of\s*5(?:\s*stars?)?)\.?$`,
  "i"
)

/** The most visible characters of such a summary. */
const MAX_SUMMARY = 60

/** The roots without each element whose whole text is a product's rating summary, on a product page. */
export const withoutRatingSummaries = (page: Page, roots: ReadonlyArray<El>, product: boolean): ReadonlyArray<El> =>
  product ? withoutShortLines(page, roots, MAX_SUMMARY, SUMMARY) : roots
