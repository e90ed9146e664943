/**
 * Sections named as calls to action that are a page's own sections. Site builders give the name
 * `cta` (`cmp-cta`, `cta-banner`, `cta_block`) to every box drawn as a banner: the "Ready to get
 * started? Contact us" strip under a page, and, on service pages, the sections that describe each
 * service (a heading, paragraphs, a button). The name is strong furniture (boilerplate.ts): the
 * strip is dropped whatever it holds. Boxes so named that each hold a heading and paragraphs of
 * prose well beyond a strip's line or two, two or more of them on the page, are the page's
 * sections built as banners and stay; one such box alone is the closing strip.
 */
import { isHeading } from "./edges.js"
import { type El, namesOf, type Page } from "./tree.js"

/** A call to action's name as a word of its own: `cta`, `cmp-cta`, `cta-v4`, `cta_2`. */
const CTA = /(?:^|[-_\s])cta(?:$|[-_\s\d])/i

/** The least paragraph text outside links a section holds; a strip's invitation is a line or two. */
const MIN_PROSE = 300

/** How many such sections a page builds as banners before they are its sections rather than one closing strip. */
const MIN_SECTIONS = 2

const namedCallToAction = (el: El): boolean => CTA.test(namesOf(el))

const section = (page: Page, el: El): boolean => {
  if (el.prose < MIN_PROSE) return false
  for (let i = el.order + 1; i < el.end; i++) if (isHeading(page.all[i]!.name)) return true
  return false
}

/**
 * The elements named as calls to action to keep (read on the measured page, before furniture is
 * dropped): those holding a section of their own, their outermost at least `MIN_SECTIONS` apart.
 */
export const sectionsNamedCallToAction = (page: Page): ReadonlySet<El> => {
  const kept = new Set<El>()
  let outermost = 0
  let end = -1
  for (const el of page.all) {
    if (el.drop || el.prose < MIN_PROSE || !namedCallToAction(el) || !section(page, el)) continue
    kept.add(el)
    if (el.order >= end) {
      outermost++
      end = el.end
    }
  }
  return outermost >= MIN_SECTIONS ? kept : new Set()
}
