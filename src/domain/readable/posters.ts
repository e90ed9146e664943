/**
 * A poster's facts: forum software writes beside every post, under its author's name, what the
 * board knows of the author ("Join Date: Aug 2008", "Registered: 2024-01-27", "Posts: 1,077",
 * "Location: Singapore"), each fact an element of its own. They are the board's record of the
 * member, not what the post says, and in the copy they are the same lines again beside every post
 * the member wrote. An element whose whole text is such a fact is left out when the copy holds at
 * least `MIN_FACTS` of them that name a member's joining or count of posts (`withoutPosterFacts`):
 * a lone "Location:" or "Posts:" line elsewhere (an event's place, a blog's count) stays.
 */
import { eachShortLine, type El, namesOf, type Page } from "./tree.js"

/** A fact that only a member's record holds: when they joined, how many posts they wrote, with a digit in its value. */
const MEMBER_FACT = /^(?:join(?:ed)?(?:\s+date)?|registered|member\s+since|posts|messages)\s*:\s*(?=.*\d)\S.{0,30}$/i
/** A member's count of posts written after the number ("4931 posts"). */
const POST_COUNT = /^\d[\d,.]*\s*k?\s+(?:posts|messages)$/i
/** A fact boards write beside those, kept unless one of `MEMBER_FACT` stands beside it. */
const SIDE_FACT = /^(?:location|from|reputation|reaction\s+score|karma|points|gender|age)\s*:\s*\S.{0,40}$/i
/** The longest fact (visible characters). */
const MAX_FACT = 60
/** The fewest member facts in the copy that make a thread's posters. */
const MIN_FACTS = 3

/** The roots without the elements whose whole text is a poster's fact beside a post. */
export const withoutPosterFacts = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  const member: Array<El> = []
  const side: Array<El> = []
  eachShortLine(page, roots, MAX_FACT, (el, text) => {
    if (MEMBER_FACT.test(text) || POST_COUNT.test(text)) member.push(el)
    else if (SIDE_FACT.test(text)) side.push(el)
    else return false
    return true
  })
  if (member.length < MIN_FACTS) return roots
  const parents = new Set(member.map((el) => el.parent))
  for (const el of member) el.drop = true
  for (const el of side) if (parents.has(el.parent)) el.drop = true
  return roots
}

/**
 * A poster's presence: boards mark beside each post's author whether the member is on the board
 * now, as a word ("Offline", "Online"; often for screen readers only, beside a coloured dot on the
 * avatar). It is the board's state of the member when the page was saved, not the post's. Where
 * the copy holds at least `MIN_PRESENCE` such words and one of them says "Offline", each element
 * whose whole text is one is left out (`withoutPosterPresence`): a course's or an event's lone
 * "Online" badge, or a listing's "Online" formats with no "Offline" among them, stay.
 */
const PRESENCE = /^(?:offline|online)$/i
/** The longest presence word with the spaces around it (visible characters). */
const MAX_PRESENCE = 12
/** The fewest presence words that make a thread's posters. */
const MIN_PRESENCE = 2

/** The roots without the elements whose whole text is a poster's presence ("Offline"). */
export const withoutPosterPresence = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  const found: Array<El> = []
  let offline = false
  eachShortLine(page, roots, MAX_PRESENCE, (el, text) => {
    if (!PRESENCE.test(text)) return false
    if (/^offline$/i.test(text)) offline = true
    found.push(el)
    return true
  })
  if (found.length < MIN_PRESENCE || !offline) return roots
  for (const el of found) el.drop = true
  return roots
}

/**
 * The thread starter's badge: boards mark each post its starter wrote with a badge ("OP",
 * "Original Poster", "Thread starter"), a ribbon over the avatar or a label beside the name. It says
 * who started the thread, not what the post says. Where the copy holds at least `MIN_BADGES` such
 * elements, each whose whole text is one is left out (`withoutStarterBadges`); "OP" in a sentence
 * holds more and stays.
 */
const STARTER = /^(?:original\s+poster|(?:thread|topic)\s+(?:starter|author))$/i
/** The badge's abbreviation, in capitals (a code span "op" in a reference's sentence is a name). */
const STARTER_ABBREVIATION = "OP"
/** The longest badge (visible characters). */
const MAX_BADGE = 20
/** The fewest badges in the copy that make a thread's. */
const MIN_BADGES = 2

/** The roots without the badges that mark the thread starter's posts. */
export const withoutStarterBadges = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  const found: Array<El> = []
  eachShortLine(page, roots, MAX_BADGE, (el, text) => {
    if (/^h[1-6]$/.test(el.name) || (text !== STARTER_ABBREVIATION && !STARTER.test(text))) return false
    found.push(el)
    return true
  })
  if (found.length < MIN_BADGES) return roots
  for (const el of found) el.drop = true
  return roots
}

/**
 * A poster's letter avatar: a member with no picture is drawn as a coloured disc holding the
 * initial of their name, written as text in an element named as an avatar (`avatar`,
 * `avatar-u123-m`). In the copy it is a capital letter alone before each post. An element named so
 * whose whole text is one or two letters is left out (`withoutLetterAvatars`).
 */
const AVATAR_NAME = /(?:^|\s)avatar(?:$|[-_\s])/i
/** An initial or two. */
const INITIALS = /^\p{L}{1,2}$/u

/** The roots without the initials drawn as a poster's avatar. */
export const withoutLetterAvatars = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  eachShortLine(page, roots, 2, (el, text) => {
    if (!AVATAR_NAME.test(namesOf(el)) || !INITIALS.test(text)) return false
    el.drop = true
    return true
  })
  return roots
}
