/**
 * A page's questions and answers that its schema.org data declares (`FAQPage`): a shop's category
 * page, a service page or a guide closes with its frequently asked questions, often as an
 * accordion (the answers hidden until a question is clicked) in a section of its own, apart from
 * the grid or the text that scores; and it names those questions in its JSON-LD, saying they are
 * what the page answers. The block that holds them (the questions' closest common ancestor, with
 * the section's heading over it) joins the content (`declaredFaq`), where the accordion's answers
 * are shown (accordions.ts) and its questions, written as buttons, too (`withDeclaredQuestions`).
 */
import { concealing } from "./boilerplate.js"
import { isHeading } from "./edges.js"
import {
  collapsedText,
  dropsItself,
  type El,
  holdsLink,
  inside,
  keptUnder,
  measure,
  nextSibling,
  type Page,
  textContent
} from "./tree.js"

/** The fewest declared questions the page must show (fewer, and the block cannot be told). */
const MIN_FOUND = 2
/** The least share of the declared questions the page must show. */
const FOUND_SHARE = 0.5
/** The most text a block around the questions may add to them (the section's heading, a line). */
const MAX_FRAME = 150
/** The largest share of the page's text the questions' block may hold (more, and it is the page). */
const MAX_SHARE = 0.5

/** A question as compared: lowercase letters and digits only (entities, marks and spaces aside). */
const key = (s: string): string => s.replace(/&#?\w+;/g, "").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "")

/**
 * The content's roots with the block of the page's declared questions (`questions`: meta.ts
 * `faq`) added in document order, when at least `MIN_FOUND` of them, and `FOUND_SHARE` of those
 * declared, stand each as the whole text of an element the copy shows; their closest common
 * ancestor, taken up through parents that add at most `MAX_FRAME` characters (the section's
 * heading), holding at most `MAX_SHARE` of the page's text, neither inside the content nor holding
 * it.
 */
export const declaredFaq = (
  page: Page,
  roots: ReadonlyArray<El>,
  questions: ReadonlyArray<string> | undefined
): ReadonlyArray<El> => {
  if (questions === undefined || roots.length === 0) return roots
  const found = questionsShown(page, questions)
  if (found.length < MIN_FOUND || found.length < FOUND_SHARE * questions.length) return roots
  let block: El | undefined = found[0]!
  while (block !== undefined && !found.every((f) => inside(f, block!))) block = block.parent
  if (block === undefined || block.drop) return roots
  while (block.parent !== undefined && !block.parent.drop && block.parent.text - block.text <= MAX_FRAME) {
    block = block.parent
  }
  if (block.text > MAX_SHARE * page.root.text) return roots
  if (roots.some((r) => inside(block, r) || inside(r, block))) return roots
  joined.set(page, block)
  return [...roots, ...guidesBefore(page, roots, block), block].sort((a, b) => a.order - b.order)
}

/** The most text (characters) a guide's section before the questions may show while its panels are closed. */
const MAX_CLOSED_GUIDE = 200

/**
 * The sections between the content and the declared questions' block, its siblings, that are
 * accordions of their own (a heading over toggles that say whether they are expanded and name the
 * panel they open: `aria-expanded`, `aria-controls`), all of them closed (`MAX_CLOSED_GUIDE`
 * characters shown at most): a shop's category closes with a guide's sections ("How to choose …")
 * and then its questions, built alike.
 */
const guidesBefore = (page: Page, roots: ReadonlyArray<El>, block: El): Array<El> => {
  const out: Array<El> = []
  for (const c of block.parent?.children ?? []) {
    if (c === block) break
    if (typeof c === "number" || !roots.some((r) => r.end <= c.order)) continue
    if (roots.some((r) => inside(c, r) || inside(r, c))) continue
    if (closedGuide(page, c)) out.push(c)
  }
  return out
}

/**
 * Whether `el` holds a heading over two toggles or more that say whether they are expanded and name
 * their panels; with `titles`, toggles most of which do not ask a question (a guide's titles, not
 * an FAQ's questions, which a page that does not declare them leaves as its reference reads them).
 */
const closedAccordion = (page: Page, el: El, titles = false): boolean => {
  let heading = false
  let toggles = 0
  let asked = 0
  for (let i = el.order + 1; i < el.end; i++) {
    const d = page.all[i]!
    if (isHeading(d.name) && !d.drop) heading = true
    if (d.attribs["aria-expanded"] === undefined || d.attribs["aria-controls"] === undefined) continue
    toggles++
    if (titles && textContent(page.texts, d).trim().endsWith("?")) asked++
  }
  return heading && toggles >= 2 && 2 * asked < toggles
}

/** A kept block showing text, `MAX_CLOSED_GUIDE` characters at most, that is a closed accordion (`closedAccordion`). */
const closedGuide = (page: Page, el: El, titles = false): boolean =>
  !el.drop && el.text > 0 && el.text <= MAX_CLOSED_GUIDE && closedAccordion(page, el, titles)

/** How many of the last root's ancestors are read for a guide right after them. */
const GUIDE_LEVELS = 3

/**
 * On a page that shows no one product and does not say when it was published (content.ts asks),
 * whether or not it declares questions, the guide's closed accordion (`closedAccordion`, at most
 * `MAX_CLOSED_GUIDE` characters shown) that comes right after the content's last root or one of
 * its nearest ancestors, added to the roots.
 */
export const guideAfter = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  const last = roots[roots.length - 1]
  if (last === undefined) return roots
  let a: El | undefined = last
  for (let level = 0; a !== undefined && level <= GUIDE_LEVELS; level++, a = a.parent) {
    let next = nextSibling(page, a)
    while (next !== undefined && (next.drop || next.text === 0)) next = nextSibling(page, next)
    if (next === undefined) continue
    if (closedGuide(page, next, true)) return [...roots, next]
  }
  return roots
}

/** The block of questions `declaredFaq` joined to each page's content. */
const joined = new WeakMap<Page, El>()

/** The most elements a question's element holds (a heading, a button, a label and an icon). */
const MAX_QUESTION_ELEMENTS = 24

/**
 * The outermost element standing for each of `questions` (its whole text the question), in
 * document order: not hidden nor dropped as furniture, but a button's label is read (an
 * accordion's question is the button that opens its answer).
 */
const questionsShown = (page: Page, questions: ReadonlyArray<string>): Array<El> => {
  const wanted = new Set(questions.map(key).filter((k) => k.length > 0))
  const found: Array<El> = []
  const all = page.all
  for (let i = 0; i < all.length && wanted.size > 0; i++) {
    const el = all[i]!
    if (el.drop && el.name !== "button" && el.parent?.drop !== true) {
      i = el.end - 1
      continue
    }
    if (el.end - el.order > MAX_QUESTION_ELEMENTS) continue
    const k = key(textContent(page.texts, el, true, false))
    if (!wanted.has(k)) continue
    wanted.delete(k)
    found.push(el)
    i = el.end - 1
  }
  return found
}

/**
 * The declared questions (meta.ts `faq`) in the block `declaredFaq` joined, when it is still in the
 * content, shown where the page writes them as buttons (an accordion's toggles, dropped with the
 * form controls): the button's label is the question, on screen over its answer. (Questions the
 * scored content holds stay as the cleaning left them.)
 */
export const withDeclaredQuestions = (
  page: Page,
  roots: ReadonlyArray<El>,
  questions: ReadonlyArray<string> | undefined
): ReadonlyArray<El> => {
  const block = joined.get(page)
  if (questions === undefined || block === undefined || !roots.some((r) => inside(block, r))) return roots
  const all = page.all
  let shown = false
  for (const q of questionsShown(page, questions)) {
    if (!inside(q, block)) continue
    for (let i = q.order; i < q.end; i++) {
      const b = all[i]!
      if (b.name !== "button" || !b.drop || (b !== q && b.parent!.drop)) continue
      showButton(page, b)
      shown = true
    }
  }
  if (shown) measure(page)
  return roots
}

/**
 * Shows `button`, dropped for its tag, with what it holds, each element kept unless its own tag or
 * style drops it (`dropsItself`) or its parent stays dropped. The caller measures the page again.
 */
const showButton = (page: Page, button: El): void => {
  button.drop = false
  for (let j = button.order + 1; j < button.end; j++) {
    const d = page.all[j]!
    d.drop = d.parent!.drop || dropsItself(page, d)
  }
}

/**
 * The roots with the buttons `shows` picks shown (`showButton`), among those the cleaning dropped
 * for their tag alone under a kept parent, with no link in them, in each kept root (`root`, given
 * to `shows`); measured again when one is.
 */
const showButtons = (
  page: Page,
  roots: ReadonlyArray<El>,
  shows: (button: El, root: El) => boolean
): ReadonlyArray<El> => {
  let shown = false
  for (const root of roots) {
    if (root.drop) continue
    for (let i = root.order + 1; i < root.end; i++) {
      const b = page.all[i]!
      if (b.name !== "button" || !b.drop || b.parent?.drop !== false) continue
      i = b.end - 1
      if (holdsLink(page, b) || !shows(b, root)) continue
      showButton(page, b)
      shown = true
    }
  }
  if (shown) measure(page)
  return roots
}

/** The longest label (its characters) read as a question a button asks: longer, it is a control's prose. */
const MAX_ASKED = 200
/** The least text (characters) the block after the button must show for it to be the question's answer. */
const MIN_ANSWER = 40

/**
 * A question the page declares (meta.ts `faq`) written as the button that opens its answer, the
 * answer shown right after it, inside the scored content: a shop's category that closes its guide
 * with an accordion (`<button><span>How long should everyday shoes last?</span></button><div>As a
 * general rule…</div>`) whose block `declaredFaq` did not join, being already in the content (so
 * `withDeclaredQuestions` leaves it). The cleaning drops the button with the form controls and
 * keeps the answer, which then reads as a paragraph with no question over it. Such a button
 * (dropped for its tag alone, under a kept parent) is shown when its label is a declared question
 * (ends with "?", at most `MAX_ASKED` characters, no link in it) and the element after it is kept
 * and shows at least `MIN_ANSWER` characters. Only on a page that does not say when it was
 * published (an article's FAQ is left as its reference reads it, the answers without those
 * questions) nor that it shows one product (whose FAQ is the maker's, below the product).
 */
export const withAskedButtons = (
  page: Page,
  roots: ReadonlyArray<El>,
  says: { readonly published?: unknown; readonly product?: boolean; readonly faq?: ReadonlyArray<string> | undefined }
): ReadonlyArray<El> => {
  if (says.published !== undefined || says.product === true || says.faq === undefined) return roots
  const declared = new Set(says.faq.map(key).filter((k) => k.length > 0))
  return showButtons(page, roots, (b) => {
    const answer = nextSibling(page, b)
    if (answer === undefined || answer.drop || answer.text < MIN_ANSWER) return false
    const text = textContent(page.texts, b).trim()
    return text.length <= MAX_ASKED && text.endsWith("?") && declared.has(key(text))
  })
}

/** The longest label (its characters) read as the title of the panel a button opens: longer, it is a control's prose. */
const MAX_PANEL_TITLE = 80

/**
 * The characters of a button's label as the copy shows it once the button is shown (`showButton`):
 * its text without that of the elements inside it that drop themselves (a style sheet a framework
 * writes inside the button, a script, an icon's hidden text), each run of whitespace one space
 * (the source's line breaks and indents inside a label are not characters a reader sees), trimmed.
 */
const labelLength = (page: Page, b: El): number => collapsedText(page, b, (d) => dropsItself(page, d)).length

/**
 * Whether `panel` stands right after the button `b`: it is, or holds, the first element with text
 * after the button or after the boxes that hold nothing but the button and not the panel
 * (`<h3><button>…</button></h3><div id="panel-2">`). Empty elements between (an icon, a divider)
 * are passed over.
 */
const panelAfter = (page: Page, b: El, panel: El, root: El): boolean => {
  const label = textContent(page.texts, b).trim()
  let x = b
  while (
    x.parent !== undefined && x.parent !== root && !inside(panel, x.parent) &&
    textContent(page.texts, x.parent).trim() === label
  ) x = x.parent
  for (let s = nextSibling(page, x); s !== undefined; s = nextSibling(page, s)) {
    if (inside(panel, s)) return true
    if (textContent(page.texts, s).trim().length > 0) return false
  }
  return false
}

/**
 * On a page that shows one product, the titles of the accordion's panels the copy shows: a shop
 * writes its "Description", "Dimensions & Materials", "Safety, Care, and Use" as the buttons of an
 * accordion (WAI-ARIA's pattern: `<button aria-expanded="false" aria-controls="panel-2">`), each
 * followed by the panel it opens. The cleaning drops the buttons with the form controls, and the
 * panels (shown by accordions.ts and the tab panels' reading) ran together with no title between
 * them. Such a button — dropped for its tag alone under a kept parent, saying whether it is
 * expanded, naming by `aria-controls` (the first of its ids that does) a panel right after it
 * (`panelAfter`) that the copy keeps (shown or not: a closed panel a script fills when it opens is
 * empty on the saved page, and its title still says what the product's page holds, as the
 * references keep it), its label `MAX_PANEL_TITLE` characters or less with no link in it — is
 * shown over its panel. Not a tab (`role="tab"`: a tab list writes its titles in a row before the
 * panels) nor a control that opens a menu or a list to pick from (`aria-haspopup`: "Select a
 * size"). Elsewhere
 * (a service's FAQ, an article's) the references leave such questions out, and they stay out.
 */
export const withPanelTitles = (page: Page, roots: ReadonlyArray<El>, oneProduct: boolean): ReadonlyArray<El> => {
  if (!oneProduct) return roots
  let ids: Map<string, El> | undefined
  return showButtons(page, roots, (b, root) => {
    const controls = b.attribs["aria-controls"]?.trim().split(/\s+/).filter((id) => id.length > 0) ?? []
    if (controls.length === 0 || b.attribs["aria-expanded"] === undefined) return false
    if (b.attribs.role?.trim().toLowerCase() === "tab" || b.attribs["aria-haspopup"] !== undefined) return false
    if (concealing(b.name, b.attribs) || b.marks.weight < 0 || b.marks.furniture !== 0) return false
    if (ids === undefined) {
      ids = new Map()
      // The first element of an id is the one it names, as in a browser.
      for (const el of page.all) if (el.attribs.id !== undefined && !ids.has(el.attribs.id)) ids.set(el.attribs.id, el)
    }
    const opened = ids
    const panel = controls.map((id) => opened.get(id)).find((p) =>
      p !== undefined && p.order >= b.end && inside(p, root) && keptUnder(p, root) && panelAfter(page, b, p, root)
    )
    if (panel === undefined) return false
    const label = labelLength(page, b)
    return label !== 0 && label <= MAX_PANEL_TITLE
  })
}
