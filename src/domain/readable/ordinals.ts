/**
 * The numbers of a thread's posts: forum software links each post to itself under its number
 * ("#1", "#2", … beside the date), for a reader to copy the post's address. Read in the copy they
 * are a column of numbers between the posts, which say nothing of the discussion. A run of such
 * links counting up, mostly one by one (a post deleted or left out skips a number), is left out
 * (`withoutPostNumbers`); numbers cited as links elsewhere (issues' "#1234" in release notes) do
 * not count up so and stay.
 */
import { collapsedText, eachKept, type El, type Page } from "./tree.js"

/** A post's number as its link shows it: `#` and the number. */
const POST_NUMBER = /^#\s?(\d{1,6})$/
/** The fewest numbered links that make a thread's count. */
const MIN_NUMBERS = 3
/** The least share of the steps from one numbered link to the next that add one (the others add more). */
const COUNTING_SHARE = 0.5

/**
 * The roots without the links that number a thread's posts: at least `MIN_NUMBERS` links whose
 * whole text is `#` and a number (`POST_NUMBER`), each greater than the one before (in the page's
 * order), where at least `COUNTING_SHARE` of the steps add one.
 */
export const withoutPostNumbers = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  const numbered: Array<[El, number]> = []
  for (const root of roots) {
    eachKept(page.all, root.order, root.end, (el) => {
      if (el.name !== "a" || el.text === 0 || el.text > 8) return false
      const m = POST_NUMBER.exec(collapsedText(page, el))
      if (m !== null) numbered.push([el, Number(m[1])])
      return true
    })
  }
  if (numbered.length < MIN_NUMBERS) return roots
  let counting = 0
  for (let i = 1; i < numbered.length; i++) {
    const step = numbered[i]![1] - numbered[i - 1]![1]
    if (step <= 0) return roots
    if (step === 1) counting++
  }
  if (counting < COUNTING_SHARE * (numbered.length - 1)) return roots
  for (const [el] of numbered) el.drop = true
  return roots
}
