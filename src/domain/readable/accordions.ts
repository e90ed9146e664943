/**
 * An accordion's answers (a product page's or a service page's FAQ, a shop's "details" and "care"
 * sections): each question is a heading, and the answer right after it waits hidden (`hidden`, an
 * inline `display: none`) until the reader clicks the question. Inside the chosen content such an
 * answer is shown, with its question (which the cleaning dropped as a heading with nothing under
 * it), as content.ts shows the other tabs of a tab panel. So is a panel that a control names as
 * the one it opens (`aria-controls` on a button, or beside `aria-expanded`), with no heading before
 * it, even where the cleaning dropped the accordion around it for showing nothing but its
 * questions while every panel was closed. A panel hidden from screen readers only
 * (`aria-hidden="true"`, a design system's accordion) is shown when a control that says whether it
 * is expanded names it or is named by it as its label (`aria-labelledby`), unless it is a tab's
 * panel (content.ts `tabPanels` reads those) or is named as furniture (a share button's list). A
 * closed dialog (`dialog`, `role="dialog"`) is never an answer, whatever control opens it. A
 * shop's FAQ also writes its questions as plain lines
 * ("Can I track my order?", `div.faq-question`): a hidden answer right after a short block that
 * asks a question is shown too, on pages that do not say when they were published (an article's
 * FAQ is left as its reference reads it: questions only). So is the rest of a text a closed
 * "Read more" right after it opens (`disclosed`: a toggle that names no panel).
 */
import { collapseWhitespace } from "../Quote.js"
import { concealing, droppedTag, tabPanel } from "./boilerplate.js"
import { TOGGLE } from "./controls.js"
import { isHeading } from "./edges.js"
import { dropsItself, type El, measure, type Page, textContent } from "./tree.js"

const IMPORTANT = /!\s*important/i

/** The element just before `el` among its parent's children, if any. */
const previousElement = (el: El): El | undefined => {
  const siblings = el.parent?.children ?? []
  let prev: El | undefined
  for (const c of siblings) {
    if (c === el) return prev
    if (typeof c !== "number") prev = c
  }
  return undefined
}

/** Whether an element that names what it controls is a toggle: it says whether it is expanded, or it is a button. */
const toggles = (el: El): boolean =>
  el.attribs["aria-expanded"] !== undefined || el.name === "button" ||
  el.attribs.role?.trim().toLowerCase() === "button"

/**
 * The ids of the panels the page's controls open and close: a control (a button, a link) that says
 * whether it is expanded (`aria-expanded`) names the panel it toggles (`aria-controls`), the
 * accordion of WAI-ARIA's authoring practices. Its question is the control's own text; the panel
 * needs no heading before it. A control that says whether it is expanded is also kept by its own
 * id after a `#` (a panel may name it as its label, `aria-labelledby`, instead of being named), and
 * the panels it names after a `!`: only those may be hidden from screen readers alone (a
 * carousel's slide, hidden the same way, is named by buttons that say nothing of expanding).
 */
const controlledPanels = (page: Page): Set<string> => {
  const ids = new Set<string>()
  for (const el of page.all) {
    if (el.attribs["aria-expanded"] !== undefined && el.attribs.id !== undefined) ids.add(`#${el.attribs.id}`)
    const controls = el.attribs["aria-controls"]
    if (controls === undefined || !toggles(el)) continue
    const expanding = el.attribs["aria-expanded"] !== undefined
    for (const id of controls.split(/\s+/)) {
      if (id.length === 0) continue
      ids.add(id)
      if (expanding) ids.add(`!${id}`)
    }
  }
  return ids
}

/** Roles of a window drawn over the page (WAI-ARIA's dialog pattern). */
const DIALOG_ROLES = new Set(["dialog", "alertdialog"])

/**
 * Whether `el` is a dialog: a `dialog` element, or a box whose role says so. A dialog the page's
 * reading dropped (closed, hidden until a control opens it) is drawn over the page when it opens (a
 * share drawer listing the networks again, a cart, a sign-in form), not unfolded into it: no
 * accordion's answer.
 */
const isDialog = (el: El): boolean =>
  el.name === "dialog" || DIALOG_ROLES.has(el.attribs.role?.trim().toLowerCase() ?? "")

/**
 * An answer's question to show with it, and the ancestors to show around them (`reopened`).
 */
interface Answer {
  readonly question: El
  readonly reopened: ReadonlyArray<El>
}

/**
 * Whether `el` is an answer hidden until its question is clicked: dropped only because it is
 * concealed (not for its tag), and either right after a heading that nothing but the cleaning
 * dropped, under an ancestor that is kept (the heading is the question), or toggled by a control
 * (`controlled`; `el` is its own question) under ancestors that are kept or that the cleaning
 * dropped only for holding nothing shown (`closedAbove`: those are reopened), or (`asked`) right
 * after a line that asks a question (`askedQuestion`; that line is the question).
 */
const hiddenAnswer = (
  page: Page,
  el: El,
  root: El,
  controlled: ReadonlySet<string>,
  asked: boolean
): Answer | undefined => {
  if (!el.drop || el.name === "noscript" || isDialog(el)) return undefined
  const id = el.attribs.id
  // A panel a control names, or labelled by an expanding control (`aria-labelledby`: a feature
  // tour's panel whose button does not name it back).
  const labelled = el.attribs["aria-labelledby"]?.split(/\s+/).some((l) => l.length > 0 && controlled.has(`#${l}`)) ??
    false
  const named = (id !== undefined && controlled.has(id)) || labelled ||
    (concealing(el.name, el.attribs) && disclosed(page, el))
  // Such a panel, when the control says it expands, hidden from screen readers only (`aria-hidden`)
  // while it is closed. (A tab's panel is content.ts `tabPanels`'s.)
  const unread = (labelled || (id !== undefined && controlled.has(`!${id}`))) && !tabPanel(el.attribs) &&
    el.attribs["aria-hidden"]?.trim().toLowerCase() === "true"
  const attribs = unread ? { ...el.attribs, "aria-hidden": undefined } : el.attribs
  if (!unread && !concealing(el.name, attribs)) return undefined
  // Such a panel named as furniture is a control's menu (a share button's list of networks).
  if (unread && (el.marks.weight < 0 || el.marks.furniture !== 0)) return undefined
  // A script toggles `display: none`; `display: none !important` is meant to stay (a template's unused part).
  if (droppedTag(el.name, attribs, true) || IMPORTANT.test(el.attribs.style ?? "")) return undefined
  const question = el.parent?.drop === true ? undefined : previousElement(el)
  if (question !== undefined && isHeading(question.name) && !dropsItself(page, question)) {
    // A heading named as furniture (a teaser's title) was dropped for its name, not for standing alone.
    return question.marks.weight < 0 || question.marks.furniture !== 0 ? undefined : { question, reopened: [] }
  }
  if (asked && question !== undefined && askedQuestion(page, question)) return { question, reopened: [] }
  const reopened = named ? closedAbove(page, el, root) : undefined
  return reopened === undefined ? undefined : { question: el, reopened }
}

/** The least text (characters, whitespace aside) of a panel opened by a toggle beside it (`disclosed`). */
const MIN_DISCLOSED = 100

/** Whether `el` is a toggle that says it is closed (`aria-expanded="false"`) and names no panel (`aria-controls`). */
const closedToggle = (el: El): boolean =>
  el.attribs["aria-expanded"]?.trim().toLowerCase() === "false" && el.attribs["aria-controls"] === undefined

/** The element just after `el` among its parent's children (the next in document order after its subtree), if any. */
const nextElement = (page: Page, el: El): El | undefined => {
  const next = page.all[el.end]
  return next?.parent === el.parent ? next : undefined
}

/** The most elements a box holding only a toggle may count (itself, the toggle, an icon or two). */
const MAX_TOGGLE_BOX = 8

/** Whether `box` is a closed "Read more" toggle (controls.ts `TOGGLE`), or a small box holding one and no text but the toggle's. */
const holdsOnlyToggle = (page: Page, box: El): boolean => {
  if (box.end - box.order > MAX_TOGGLE_BOX) return false
  const text = collapseWhitespace(textContent(page.texts, box)).trim()
  if (!TOGGLE.test(text)) return false
  for (let j = box.order; j < box.end; j++) {
    const d = page.all[j]!
    if (closedToggle(d)) return collapseWhitespace(textContent(page.texts, d)).trim() === text
  }
  return false
}

/**
 * Whether `el` is the rest of a text that a disclosure (WAI-ARIA's pattern) opens in place without
 * naming it: right after it stands, alone or in a box of its own, a toggle that says it is closed
 * (`aria-expanded="false"`), names no panel (`aria-controls`: those are `controlledPanels`') and
 * says only "Read more" or its kin (controls.ts `TOGGLE`): a shop's "Read more" under the first
 * lines of a book's description. The panel holds a text (`MIN_DISCLOSED`, a sentence's end in it),
 * not a picker's options. A toggle before a hidden box ("Sizes", "Share") opens a menu as often as
 * a text, and stays as it was.
 */
const disclosed = (page: Page, el: El): boolean => {
  const after = nextElement(page, el)
  if (!(after !== undefined && holdsOnlyToggle(page, after))) return false
  const text = textContent(page.texts, el)
  return text.replace(/\s+/g, "").length >= MIN_DISCLOSED && SENTENCE.test(text)
}

/** A sentence's end inside a text: a full stop, an exclamation or a question mark, closing marks, then a space or the end. */
const SENTENCE = /[.!?]["'\u201d\u2019)]*(?:\s|$)/

/**
 * The ancestors of `el` below `root` that are dropped, when each was dropped by the cleaning only
 * and holds no text shown but hidden panels (an accordion whose every panel is closed reads as an
 * empty block); `undefined` when one is not.
 */
const closedAbove = (page: Page, el: El, root: El): Array<El> | undefined => {
  const out: Array<El> = []
  for (let p = el.parent; p !== undefined && p !== root; p = p.parent) {
    if (p.order < root.order) return undefined
    if (!p.drop) continue
    if (dropsItself(page, p) || shownText(page, p)) return undefined
    out.push(p)
  }
  return root.drop ? undefined : out
}

/**
 * Whether an element holds text that its tags would show (the cleaning's decisions aside), besides
 * the controls' own (an accordion's questions).
 */
const shownText = (page: Page, el: El): boolean => {
  const all = page.all
  for (let j = el.order + 1; j < el.end;) {
    const d = all[j]!
    if (dropsItself(page, d) || (d.attribs["aria-controls"] !== undefined && toggles(d))) {
      j = d.end
      continue
    }
    if (d.selfText > 0) return true
    j++
  }
  return false
}

/** The longest question (its characters) read as an accordion's: a longer block is a paragraph that ends by asking. */
const MAX_QUESTION = 200

/**
 * A block that is one question a reader clicks: not a heading (those are read above), not
 * dropped for its tag or named as furniture, no link in it, its text ending with "?".
 */
const askedQuestion = (page: Page, el: El): boolean => {
  if (isHeading(el.name) || dropsItself(page, el) || el.marks.weight < 0 || el.marks.furniture !== 0) return false
  for (let i = el.order; i < el.end; i++) if (page.all[i]!.name === "a") return false
  const text = textContent(page.texts, el).trim()
  return text.length <= MAX_QUESTION && text.endsWith("?")
}

/** Show what `el` holds as its tags allow (its own concealing ignored). */
const show = (page: Page, el: El): void => {
  el.drop = false
  const all = page.all
  for (let j = el.order + 1; j < el.end; j++) {
    const d = all[j]!
    d.drop = d.parent!.drop || dropsItself(page, d)
  }
}

/** The most of an answer's text that may sit in links: an answer is read, not a list of pointers ("keep reading"). */
const MAX_LINKED = 0.5

/**
 * The roots, with the accordions' hidden answers inside them shown (and the page measured again
 * when one was); `asked`: also those after a line asking a question (`askedQuestion`).
 */
export const accordionAnswers = (page: Page, roots: ReadonlyArray<El>, asked = false): ReadonlyArray<El> => {
  const all = page.all
  const shown: Array<readonly [El, El]> = []
  let controlled: Set<string> | undefined
  for (const root of roots) {
    if (root.drop) continue
    for (let i = root.order + 1; i < root.end; i++) {
      const el = all[i]!
      if (!el.drop) continue
      controlled ??= controlledPanels(page)
      const answer = hiddenAnswer(page, el, root, controlled, asked)
      if (answer === undefined) continue
      const { question, reopened } = answer
      for (const p of reopened) p.drop = false
      show(page, question)
      show(page, el)
      shown.push([question, el])
      i = el.end - 1
    }
  }
  if (shown.length === 0) return roots
  measure(page)
  const links = shown.filter(([, answer]) => answer.link > MAX_LINKED * answer.text)
  if (links.length > 0) {
    for (const [question, answer] of links) {
      hide(page, question)
      hide(page, answer)
    }
    measure(page)
  }
  return roots
}

/** Leave `el` out again, with its subtree. */
const hide = (page: Page, el: El): void => {
  for (let j = el.order; j < el.end; j++) page.all[j]!.drop = true
}
