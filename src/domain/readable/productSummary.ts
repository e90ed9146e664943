/**
 * A product's summary where the copy holds none of it. A shop whose product page a script builds
 * in the browser saves a page whose markup holds only its frame (a sign-up box, the footer's
 * notices): the product's text lives in the page's data. The one place the saved markup says it
 * in words is the description the page's JSON-LD `Product` gives of itself (meta.ts
 * `productDescription`; not the page's `description` meta tag, which may be the shop's blurb on
 * every page). On a page that shows one product, when the copy's body is short (300 words or
 * less, and 2,400 characters or less for a script written without spaces) and holds under a fifth
 * of that description's distinct words of four letters or more, the description (twenty words or
 * more) is written under the title. A copy that already says the product's text holds a fifth of
 * those words or more and is left as it is; so is a long copy, and a copy with no body
 * (Readable.ts writes the page's description as its body).
 */
import { paragraphText } from "./render.js"
import { wordsOf } from "./tree.js"

/** The least description read in: two sentences or so, not a tagline or a site's slogan. */
const MIN_WORDS = 20

/**
 * The most words the body may hold: a frame's copy (a sign-up box, the footer's notices) is short;
 * a copy of hundreds of words is a page whose markup says something of its own (a grid of the
 * shop's products on a category page that calls itself a product, its description the shop's
 * slogan).
 */
const MAX_BODY_WORDS = 300

/** The most characters the body may hold: `MAX_BODY_WORDS` for a script written without spaces (a word is a run between them). */
const MAX_BODY_CHARS = 2400

/** The most share of the description's distinct words the body may hold for it to be added. */
const MAX_HELD = 0.2

/** A word that says something of its own: four letters or more ("and", "the", "for" are in any text). */
const long = (w: string): boolean => w.length >= 4

/**
 * `all` (front matter, title, body) with the page's description written after the title at
 * `at` (or first, after the front matter, when there is no title) when the body from `from`
 * holds under `MAX_HELD` of its distinct words.
 */
export const withProductSummary = (
  all: ReadonlyArray<string>,
  at: number,
  from: number,
  description: string | undefined
): ReadonlyArray<string> => {
  if (description === undefined) return all
  const described = wordsOf(description)
  if (described.length < MIN_WORDS) return all
  const said = new Set(described.filter(long))
  const body = new Set<string>()
  let count = 0
  let chars = 0
  for (let i = from; i < all.length; i++) {
    if (i === at) continue
    const words = wordsOf(all[i]!)
    count += words.length
    chars += all[i]!.length
    for (const w of words) body.add(w)
  }
  if (count > MAX_BODY_WORDS || chars > MAX_BODY_CHARS) return all
  let held = 0
  for (const w of said) if (body.has(w)) held++
  if (held >= MAX_HELD * said.size) return all
  const after = at < 0 ? from : at + 1
  return [...all.slice(0, after), paragraphText(description), ...all.slice(after)]
}
