/**
 * A gallery's pictures: themes build a gallery (a product's colours, a shop's lookbook) as links
 * to the full-size picture file, each around its thumbnail (`img`) and a caption, which a
 * lightbox script opens over the page. The copy leaves pictures and figure captions out
 * (boilerplate.ts drops `img` and `figcaption`), but such a caption is a link's text, and the
 * copy wrote each as a link to an image file: a row of colour names above a shop's text. A link
 * whose address is a picture file (`PICTURE`), holding a picture and at most `MAX_CAPTION`
 * characters of text, is left out; a link to a picture written in a sentence holds no `img` and
 * stays. The counter a gallery or a carousel writes of where it stands ("Image 1 of 5") is left
 * out too (`withoutGalleryCounters`).
 */
import { BLOCKS, collapsedText, eachKept, eachShortLine, type El, type Page } from "./tree.js"

/** An address of a picture file: its path ends in a picture's extension (a query or fragment after it). */
const PICTURE = /\.(?:jpe?g|png|gif|webp|avif)(?:[?#].*)?$/i

/** The most text of a picture's caption. */
const MAX_CAPTION = 100

/** Whether an `img` lies in `el`'s subtree (dropped or not: the picture is dropped by its tag). */
const holdsPicture = (page: Page, el: El): boolean => {
  for (let i = el.order + 1; i < el.end; i++) if (page.all[i]!.name === "img") return true
  return false
}

/** The roots without each link to a picture file around its picture and a short caption. */
export const withoutPictureLinks = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order + 1, root.end, (el) => {
      if (el.name !== "a") return false
      const href = el.attribs.href
      if (
        href !== undefined && el.text > 0 && el.text <= MAX_CAPTION && PICTURE.test(href.trim()) &&
        holdsPicture(page, el)
      ) {
        el.drop = true
      }
      return true
    })
  }
  return roots
}

/**
 * A video's stand-in: boards embed a pasted video or post from another site in a frame their
 * script fills, and write under the empty frame a link to it whose text is "View:" and its own
 * address, for a reader whose browser did not run the script. In the copy the frame is gone and
 * the link is a line of address. A link whose whole text is "View:" then the address it leads to
 * is left out (`withoutMediaFallbacks`); a link that names its address otherwise stays.
 */
const VIEW = /^view:\s*(\S+)$/i

/** The roots without the links that stand in for an embedded video or post. */
export const withoutMediaFallbacks = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order + 1, root.end, (el) => {
      if (el.name !== "a") return false
      const href = el.attribs.href?.trim()
      const shown = VIEW.exec(collapsedText(page, el))
      if (href !== undefined && shown !== null && shown[1] === href) el.drop = true
      return true
    })
  }
  return roots
}

/**
 * A gallery's or a carousel's counter: a product's gallery writes under each picture where it
 * stands ("Image 1 of 5", often for screen readers only), a carousel announces its slide ("Slide 1
 * of 5") or shows it over the pictures ("1 of 3"). It says where the gallery is, not what the page
 * says, and no reference of the development set keeps one. An element whose whole text is such a
 * counter (`COUNTER`: a position no greater than the count, at most a word naming what is counted
 * before it, written as one line) is left out; a counter inside a sentence ("photo 2 of 5 shows the
 * hinge") stays, and so does a list's number set as two blocks ("1" over "of 15") in an article.
 */
const COUNTER = /^(?:(?:slide|image|photo|picture|item)\s+)?(\d{1,3})\s+of\s+(\d{1,3})$/i

/** The most visible characters of such a counter ("Picture 100 of 100" holds 15). */
const MAX_COUNTER = 20

/**
 * Whether a block inside the element shows text: a counter written as blocks of its own ("1" over
 * "of 15": a list's number in an article's heading) is read as the page's own words.
 */
const holdsTextBlock = (page: Page, el: El): boolean => {
  for (let i = el.order + 1; i < el.end; i++) {
    const d = page.all[i]!
    if (!d.drop && d.text > 0 && BLOCKS.has(d.name)) return true
  }
  return false
}

/** Whether `text`, the element's whole text, is a gallery's counter (`COUNTER`), written as one line. */
const galleryCounter = (page: Page, el: El, text: string): boolean => {
  if (holdsTextBlock(page, el)) return false
  const m = COUNTER.exec(text)
  return m !== null && Number(m[1]) >= 1 && Number(m[1]) <= Number(m[2]) && Number(m[2]) >= 2
}

/** The roots without each element whose whole text is a gallery's or a carousel's counter. */
export const withoutGalleryCounters = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  eachShortLine(page, roots, MAX_COUNTER, (el, text) => {
    if (!galleryCounter(page, el, text)) return false
    el.drop = true
    return true
  })
  return roots
}
