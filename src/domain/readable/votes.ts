/**
 * A post's vote count: a question-and-answer thread shows beside each post a block holding only a
 * number (its score between the up and down arrows, the arrows being buttons the copy drops). It
 * counts the readers' clicks, it is not what anyone wrote; on a page that says it is a discussion
 * (meta.ts) such a block is left out (`withoutVoteCounts`). The counts of readers' reactions
 * under posts ("7 Likes") go the same way (`withoutReactionCounts`), and so do the names of who
 * reacted ("Reactions: Ann and Bo": `withoutReactionNames`).
 */
import type { PageMeta } from "./meta.js"
import { eachShortLine, type El, type Page, textContent, withoutEach } from "./tree.js"

/** A number alone: a score, signed or not, with thousands written as `1.2k`. */
const COUNT = /^\s*[-+\u2212]?\d[\d,.]*\s*k?\s*$/i

/** The roots without the blocks, on a discussion's page, whose whole text is one number. */
export const withoutVoteCounts = (
  page: Page,
  roots: ReadonlyArray<El>,
  says: Partial<Pick<PageMeta, "discussion">> = {}
): ReadonlyArray<El> => {
  if (says.discussion !== true) return roots
  return withoutEach(page, roots, (el) => {
    if (el.block !== undefined || el.text === 0 || el.text > 8 || el.link > 0) return false
    return COUNT.test(textContent(page.texts, el, true, true))
  })
}

/**
 * A post's score marked as such: a question-and-answer page that describes itself in schema.org
 * microdata names the number between each post's arrows `itemprop="upvoteCount"` (or
 * `downvoteCount`), whether or not its JSON-LD says it is a discussion; the same pages write how
 * many comments a post has (`commentCount`) and how many answers the question has (`answerCount`)
 * as numbers alone beside them, for a program (a style sheet hides them). Such an element whose
 * whole text is a number is left out (`withoutMarkedVoteCounts`); a marked count that holds words
 * ("12 votes") is not a number alone and stays.
 */
const VOTE_PROPS = /(?:^|\s)(?:upvotecount|downvotecount|commentcount|answercount)(?:\s|$)/i
/** The longest marked score (characters of text). */
const MAX_SCORE = 12

/** The roots without the elements microdata names a post's score whose whole text is one number. */
export const withoutMarkedVoteCounts = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  return withoutEach(page, roots, (el) => {
    const prop = el.attribs.itemprop
    if (prop === undefined || !VOTE_PROPS.test(prop)) return false
    return el.text > 0 && el.text <= MAX_SCORE && COUNT.test(textContent(page.texts, el, true, true))
  })
}

/**
 * A post's reactions: boards write under each post how many readers reacted to it, as a count and
 * the reaction's name ("1 Like", "7 Likes", "[ 3 ] Thanks", "1109 likes"), often on the control
 * that adds one (a link with no address; with no reaction yet it shows the name alone). Like the
 * score, it counts clicks; no reference of the development set keeps it. Where the copy holds at
 * least `MIN_REACTIONS` such counts, the elements whose whole text is one are left out, and so are
 * the links with no address whose whole text is a reaction's name alone
 * (`withoutReactionCounts`). A reply that says "Thanks" in a paragraph is not a link and stays.
 */
const REACTION = /^\[?\s*\d[\d,.]*\s*k?\s*\]?\s*(?:likes?|thanks|upvotes?|reactions?|hearts?)$/i
/** A reaction's name alone, on its control. */
const REACTION_NAME = /^(?:likes?|thanks)$/i
/** The longest reaction (visible characters). */
const MAX_REACTION = 20
/** The fewest counted reactions that make a thread's. */
const MIN_REACTIONS = 2

/** Whether `el` is a control that goes nowhere: a link with no address, or a button. */
const addressless = (el: El): boolean => (el.name === "a" && el.attribs.href === undefined) || el.name === "button"

/** The roots without the counts of readers' reactions under posts and their unaddressed controls. */
export const withoutReactionCounts = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  const counted: Array<El> = []
  const named: Array<El> = []
  eachShortLine(page, roots, MAX_REACTION, (el, text) => {
    if (REACTION.test(text)) counted.push(el)
    else if (addressless(el) && REACTION_NAME.test(text)) named.push(el)
    else return false
    return true
  })
  if (counted.length < MIN_REACTIONS) return roots
  for (const el of counted) el.drop = true
  for (const el of named) el.drop = true
  return roots
}

/**
 * Who reacted to a post: forum software writes under a liked post the names of the members who
 * liked it, after a label a screen reader reads ("Reactions: Ann, Bo and 3 others"), the names one
 * link to the list of reactions. It is the readers' clicks again, with their names; no reference
 * of the development set keeps it. An element whose whole text is the label and names
 * (`MAX_REACTORS` characters at most), the names in links, is left out (`withoutReactionNames`);
 * a sentence that opens with "Reactions:" is not links and stays.
 */
const REACTORS = /^reactions:\s*\S/i
/** The names, then that they like the post ("Ann, Bo and 3 others like this."). */
const LIKERS = /^(\S.*?)\s+(?:likes?|liked|thanked)\s+this(?:\s+post)?\s*[.!]$/i
/** One name of such a list, or the count of the others after them. */
const LIKER = /^(?:\d[\d,]*\s+others?|[^\s,][^,]{0,29})$/i
/** The least share of such names that is links (a count of others may be plain text). */
const MIN_LINKED_LIKERS = 0.5
/** The longest line of names (characters). */
const MAX_REACTORS = 200
/** The least share of the names that is links. */
const MIN_LINKED = 0.8

/** The roots without the lines naming who reacted to a post. */
export const withoutReactionNames = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  eachShortLine(page, roots, MAX_REACTORS, (el, text) => {
    if (REACTORS.test(text)) {
      const names = el.text - "Reactions:".length
      if (el.link < MIN_LINKED * names) return false
      el.drop = true
      return true
    }
    const liked = LIKERS.exec(text)
    if (liked === null || el.link < MIN_LINKED_LIKERS * liked[1]!.replace(/[\s,]/g, "").length) return false
    if (!liked[1]!.split(/\s*,\s*|\s+and\s+/i).every((name) => LIKER.test(name))) return false
    el.drop = true
    return true
  })
  return roots
}
