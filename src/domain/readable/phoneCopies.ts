/**
 * A table row written for two screen widths: a responsive table shows all its columns on a wide
 * screen and, on a phone, hides all but the first and writes what the hidden cells hold again
 * under the first cell's title, in a box the framework shows on phones only (Bootstrap's
 * `hidden-md-up` or `d-md-none`, Tailwind's `md:hidden`, `visible-xs`). The copy read both, so each
 * row said its difficulty and its place twice ("#1 Anthills Intermediate Addicks, TX |
 * Intermediate | Addicks, TX"). A box for phones only inside a row's cell whose every word the rest
 * of the row writes too is left out (`withoutPhoneRowCopies`): the cells say it once.
 *
 * A date written for two widths: a `time` may hold its date twice, in a long form and a short one
 * (Invision-like boards' `ipsTime__long` "June 14, 2024" and `ipsTime__short` "1 yr"), its style
 * showing one by the screen's width. The copy read both as one word ("June 14, 20241 yr"). In a
 * `time` holding a part named long and a part named short (the word `long` or `short` in its
 * class, alone or after `-` or `_`), the short part is left out (`withoutShortTimes`).
 *
 * A section written once per screen, in sibling boxes whose class is only `desktop`, `tablet` or
 * `mobile`: the tablet's and the phone's copies are left out beside the desktop's
 * (`withoutScreenCopies`).
 */
import { SHOWN_FROM } from "./boilerplate.js"
import { collapsedText, eachKept, type El, leadingChild, type Page, shownChildren, wordsOf } from "./tree.js"

/** A class that shows an element on phones only, hiding it from a width up. */
const PHONE_ONLY =
  /(?:^|\s)(?:hidden-(?:sm|md|lg|xl)-up|d-(?:sm|md|lg|xl)-none|(?:sm|md|lg|xl):hidden|visible-xs(?:-[a-z]+)?)(?=$|\s)/

/** The words of a text, counted (lowercase, letters and digits). */
const words = (text: string): Map<string, number> => {
  const bag = new Map<string, number>()
  for (const w of wordsOf(text)) bag.set(w, (bag.get(w) ?? 0) + 1)
  return bag
}

/** Whether every word of `part` is written in `row` at least twice as often as in `part` (once in it, once outside). */
const writtenAgain = (part: Map<string, number>, row: Map<string, number>): boolean => {
  if (part.size === 0) return false
  for (const [w, n] of part) if ((row.get(w) ?? 0) < 2 * n) return false
  return true
}

/** The boxes for phones only in a row's cells (the outermost, with text, not inside a table of their own). */
const phoneBoxes = (page: Page, row: El): Array<El> => {
  const found: Array<El> = []
  eachKept(page.all, row.order + 1, row.end, (el) => {
    if (el.name === "table") return true
    if (el.text === 0 || !PHONE_ONLY.test(el.attribs.class ?? "")) return false
    if (el.name === "td" || el.name === "th") return true
    found.push(el)
    return true
  })
  return found
}

/** The roots without each box for phones only in a table row whose words the row's other cells write. */
export const withoutPhoneRowCopies = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order, root.end, (el) => {
      if (el.name !== "tr") return false
      const boxes = phoneBoxes(page, el)
      if (boxes.length === 0) return false
      const row = words(collapsedText(page, el))
      for (const box of boxes) {
        if (writtenAgain(words(collapsedText(page, box)), row)) box.drop = true
      }
      return false
    })
  }
  return roots
}

/** A class naming a part by its length: `long` or `short` as a word of its own (`ipsTime__short`, `time-long`). */
const LENGTH_NAME = /(?:^|\s|[-_])(long|short)(?=$|\s|[-_])/i

/** The length a part's class names (`long`, `short`), or `undefined`. */
const lengthName = (el: El): string | undefined => LENGTH_NAME.exec(el.attribs.class ?? "")?.[1]?.toLowerCase()

/** The roots without the short form of each date a `time` writes twice, long and short. */
export const withoutShortTimes = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order, root.end, (el) => {
      if (el.name !== "time") return false
      const parts = shownChildren(el)
      const short = parts.filter((c) => lengthName(c) === "short")
      if (short.length > 0 && parts.some((c) => lengthName(c) === "long")) { for (const c of short) c.drop = true }
      return true
    })
  }
  return roots
}

/**
 * Class words (whole words of a class, alone or among others) that draw a box for wide screens
 * alone (`desktop`, `desktop-only`, `show-desktop`, `hide-mobile`…) or for narrow ones alone
 * (`mobile`, `tablet`, `mobile-only`, `show-mobile`, `hide-desktop`…). Longer words
 * (`mobile-menu`, `elementor-hidden-mobile`) are none of them.
 */
const DESKTOP_WORD = /^(?:desktop|desktop-only|only-desktop|show-desktop|visible-desktop|hide-mobile)$/i
const PHONE_WORD = /^(?:tablet|mobile|mobile-only|only-mobile|show-mobile|visible-mobile|hide-desktop)$/i

/** The screen a box's class draws it for: `desktop`, `phone` (a tablet's or a phone's), or `undefined`. */
const screenOf = (el: El): "desktop" | "phone" | undefined => {
  const words = (el.attribs.class ?? "").split(/\s+/)
  if (words.some((w) => DESKTOP_WORD.test(w))) return "desktop"
  return words.some((w) => PHONE_WORD.test(w)) ? "phone" : undefined
}

/**
 * A section written once per screen: a page builder writes the same block two or three times side
 * by side, in boxes whose class names the screen each is drawn for (`<div class="desktop">`,
 * `<div class="tablet">`, `<div class="mobile">`, or such a word among others: `col desktop-only`,
 * `hero mobile`), its style sheet showing one. The copy read all of them (a wallet's
 * specifications, its headings and its selling lines, each three times). Where a box so named for
 * the desktop stands among its parent's children, the siblings named for the tablet or the phone
 * are left out (`withoutScreenCopies`): the desktop's copy says it once.
 */
export const withoutScreenCopies = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order, root.end, (el) => {
      const boxes = shownChildren(el)
      if (!boxes.some((c) => screenOf(c) === "desktop")) return false
      for (const c of boxes) if (screenOf(c) === "phone") c.drop = true
      return false
    })
  }
  return roots
}

/** The most characters of a row's label. */
const MAX_LABEL = 60

/**
 * A class that draws a box for wide screens only: a hiding word (`hidden`, `d-none`) beside one
 * that shows the box from a width up (Tailwind's `md:flex`, `lg:block`; Bootstrap's `d-md-block`),
 * as in `hidden md:flex` or `d-none d-md-block`.
 */
const HIDDEN_WORD = /^(?:hidden|d-none)$/

/**
 * The label a box writes for wide screens only (`HIDDEN_WORD` beside boilerplate.ts `SHOWN_FROM`), when short
 * (at most 60 characters), lowercase; else `undefined`. The box is read even when already left out
 * (its `hidden` counts against it), as its text is what the row's cells write again.
 */
const wideLabel = (page: Page, el: El): string | undefined => {
  const classes = (el.attribs.class ?? "").split(/\s+/)
  if (!classes.some((w) => HIDDEN_WORD.test(w)) || !classes.some((w) => SHOWN_FROM.test(w))) return undefined
  if (el.text > MAX_LABEL) return undefined
  const text = collapsedText(page, el)
  return text.length > 0 && text.length <= MAX_LABEL ? text.toLowerCase() : undefined
}

/**
 * The label a cell writes for phones and its box: the element the cell opens with, no text before
 * it (`leadingChild`), when that element is drawn for phones only (`PHONE_ONLY`) and short (at most
 * 60 characters); else `undefined`. The label is lowercase.
 */
const phoneLabel = (page: Page, cell: El): [El, string] | undefined => {
  const first = leadingChild(page, cell)
  if (first === undefined || !PHONE_ONLY.test(first.attribs.class ?? "") || first.text > MAX_LABEL) return undefined
  const text = collapsedText(page, first)
  return text.length > 0 ? [first, text.toLowerCase()] : undefined
}

/**
 * A comparison grid's row label written again in each cell for phones: a grid built of boxes
 * (not a table) heads each row with its label in a box for wide screens only (`hidden md:flex`,
 * `d-none d-md-block`) and opens each of the row's cells with the same label in a box shown on
 * phones only (`md:hidden`, any of `PHONE_ONLY`), where the cells stack under each other. The copy
 * read every cell's label ("Bit Count 16 Bit Count 32 Bit Count 64"). Where a box for wide screens
 * only holding a label of at most 60 characters is followed, among its siblings, by two or more
 * cells that each open (no text before it) with a box for phones only holding the same label
 * (letter case aside), the label stays in the first of those cells and is left out of the others
 * (`withoutRepeatedPhoneLabels`): the row reads "Bit Count 16 32 64". The run ends at the first
 * shown sibling that is not such a cell. Cells whose phone-only boxes differ (each its own label), and
 * boxes for phones only with no such row label before them (a plan's price on each card), stay as
 * they are.
 */
export const withoutRepeatedPhoneLabels = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order, root.end, (el) => {
      let label: string | undefined
      let cells = 0
      for (const child of el.children) {
        if (typeof child === "number") continue
        if (child.drop) {
          const wide = wideLabel(page, child)
          if (wide !== undefined) [label, cells] = [wide, 0]
          continue
        }
        if (child.text === 0) continue
        const phone = label === undefined ? undefined : phoneLabel(page, child)
        if (phone !== undefined && phone[1] === label) {
          if (++cells > 1) phone[0].drop = true
          continue
        }
        label = wideLabel(page, child)
        cells = 0
      }
      return false
    })
  }
  return roots
}
