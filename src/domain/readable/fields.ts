/**
 * Template fields a script never filled in:
 *
 * A shop's raw template fields printed into the page: a data list whose terms are the names a
 * program gives its fields (`retail_price_tier1:`, `cat_thumb_Bone:`, `quizell_id:`), each with a
 * value for a script to read (an image's address, a list of ids, a colour code). A style sheet
 * hides it; the saved page does not say so, and the readable copy kept it as facts. Terms written
 * for readers have spaces, not underscores joining words; and a field's value is a word or two
 * (an address, an id, `yes`), where a reference's list of parameters explains each in a sentence.
 *
 * A client-side template's slots left as written (`{{ board.errors[0].message }}`,
 * `Original price: {{ price.original }}`): the page was saved before its script rendered them (or
 * the slot is a message shown only on an error), so a reader never sees the braces. A short block
 * that holds one outside code is dropped (`withoutTemplateSlots`); code showing a template keeps it.
 *
 * A date written for a program: a post's `time` element (or an element microdata names its
 * `datePublished`, or one whose class names a date, as a theme's hidden microformat `updated` does)
 * whose whole text is the machine form of an instant (`2019-01-21T21:40:59.62Z`),
 * kept in the page for a script or a search engine and hidden by a style sheet the copy does not
 * read, while the date a reader sees ("Over a year ago") stands beside it. Such an element is left
 * out (`withoutMachineDates`); a date a page writes for readers has no `T` between day and hour.
 *
 * A message key a template failed to look up: a block whose whole text is the key's dotted name
 * (`label.custom.product.value` under each of a shop's buttons), not the words it names
 * (`withoutMessageKeys`).
 *
 * A script's data left in the markup: a block whose one text is a JSON object or array (a buy
 * box's prices and offer ids, hidden by a class the style sheet gives), outside code and less than
 * half of the chosen content (`withoutScriptData`).
 */
import { BLOCKS, eachKept, type El, type Page, textContent } from "./tree.js"

/** A field name as code writes it: letters and digits joined by at least one underscore, a colon after it or not. */
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?:[ -][A-Za-z0-9+]+)*:?$/

/** The least share of a list's terms that are field names. */
const FIELD_SHARE = 0.5
/** The fewest terms of such a list (two or three may be a table of codes a reader looks up). */
const MIN_TERMS = 4

/** The most words of a field's value: a reference's parameter list explains each name in a sentence. */
const MAX_VALUE_WORDS = 4
/** The largest share of the fields' values that may be longer (`MAX_VALUE_WORDS`). */
const LONG_VALUES = 0.25

const isFieldList = (page: Page, dl: El): boolean => {
  let terms = 0
  let fields = 0
  let long = 0
  let field = false
  for (const c of dl.children) {
    if (typeof c === "number" || c.drop) continue
    if (c.name === "dt") {
      terms++
      field = FIELD_NAME.test(textContent(page.texts, c).trim())
      if (field) fields++
    } else if (c.name === "dd" && field && textContent(page.texts, c).trim().split(/\s+/).length > MAX_VALUE_WORDS) {
      long++
    }
  }
  return terms >= MIN_TERMS && fields >= FIELD_SHARE * terms && long <= LONG_VALUES * fields
}

/** The roots with each data list of template fields (`FIELD_NAME`) inside them dropped. */
export const withoutTemplateFields = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order, root.end, (el) => {
      if (el.name !== "dl" || !isFieldList(page, el)) return false
      el.drop = true
      return true
    })
  }
  return roots
}

/** A template's slot: double braces around a field's path (`user.name`, `errors[0].message`). */
const SLOT = /\{\{\s*[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[\d+\])*\s*\}\}/
/** The longest block dropped for a slot it holds: a label and its slot, not a paragraph that shows one. */
const MAX_SLOT_BLOCK = 120
/** Elements whose text is code, where a template is shown as written. */
const CODE = new Set(["code", "pre", "kbd", "samp", "textarea"])

const inCode = (el: El): boolean => {
  for (let p: El | undefined = el; p !== undefined; p = p.parent) if (CODE.has(p.name)) return true
  return false
}

/** The roots with each short block (`MAX_SLOT_BLOCK`) holding an unfilled template slot (`SLOT`) outside code dropped. */
export const withoutTemplateSlots = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order, root.end, (el) => {
      let slot = false
      for (const c of el.children) if (typeof c === "number" && SLOT.test(page.texts.of(c))) slot = true
      if (!slot || inCode(el)) return false
      const block = el.block ?? el
      if (block.text <= MAX_SLOT_BLOCK) block.drop = true
      return false
    })
  }
  return roots
}

/** An instant as a program writes it (ISO 8601): the day, `T`, the hour and minutes, seconds and zone or not. */
const MACHINE_DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)*$/
/** Microdata's names for a date. */
const DATE_PROPS = /(?:^|\s)date(?:published|created|modified)(?:\s|$)/i
/** The longest such text (characters). */
const MAX_MACHINE_DATE = 40

/**
 * A class that names its element a date: a microformat's (`updated`, `published`, h-entry's
 * `dt-published`) or a theme's (`entry-date`, `post_time`, `timestamp`), as a word or a part.
 */
const DATE_CLASS = /(?:^|[\s_-])(?:updated|published|modified|date|time|timestamp|datetime)(?:$|[\s_-])/i

/** The fewest characters of such a text (a day, `T`, an hour and minutes). */
const MIN_MACHINE_DATE = 16

/**
 * The roots without the elements whose whole text is a machine's instant (`MACHINE_DATE`): a `time`
 * element, one microdata names a date, or one whose class does (`DATE_CLASS`). A theme writes its
 * page's microformat (hAtom's `updated` and `entry-title`) into spans its style sheet hides
 * (`<span class="updated rich-snippet-hidden">2025-12-08T13:42:59-08:00</span>`), and the copy wrote
 * the stamp under the title or run into the author's name. A stamp in an element not named as a
 * date stays: a manual's example of the format, a program's output.
 */
export const withoutMachineDates = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order, root.end, (el) => {
      if (el.text < MIN_MACHINE_DATE || el.text > MAX_MACHINE_DATE) return false
      if (
        el.name !== "time" && !DATE_PROPS.test(el.attribs.itemprop ?? "") &&
        // A class alone names no stamp in a table's cell (its place in the row) or in code.
        (!DATE_CLASS.test(el.attribs.class ?? "") || el.name === "td" || el.name === "th" || inCode(el))
      ) {
        return false
      }
      if (!MACHINE_DATE.test(textContent(page.texts, el, true, true).trim())) return false
      el.drop = true
      return true
    })
  }
  return roots
}

/**
 * A message key as a template names the text it looks up (`label.custom.product.value`): three
 * words or more joined by dots, in lowercase or camelCase, the last no file's or site's ending.
 */
const MESSAGE_KEY = /^[a-z][a-zA-Z]*(?:\.[a-z][a-zA-Z]*){2,}$/
/** Endings of a file's or a site's name, which a dotted name may well be (`sub.example.com`, `app.config.json`). */
const NAME_ENDING =
  /\.(?:com|org|net|edu|gov|io|co|uk|de|fr|au|ai|dev|app|info|html?|php|aspx?|jsx?|tsx?|json|ya?ml|xml|py|rb|go|rs|java|md|txt|pdf|csv|png|jpe?g|gif|svg|webp)$/i
/** The longest element read as a message key (characters). */
const MAX_MESSAGE_KEY = 60
/** Headings and terms, where a reference names a module's path (`urllib.parse.urljoin`) as its own title. */
const NAMING = new Set(["h1", "h2", "h3", "h4", "h5", "h6", "dt", "th"])

/**
 * The roots without the blocks whose whole text is a message key the page's template failed to
 * look up (`MESSAGE_KEY`; a button's price line left as `label.custom.product.value` under each of
 * a shop's links): the name of a text, not the text. A block only, outside code and never a
 * heading or a term: a module's path linked in a sentence (`urllib.request.getproxies`) and a
 * word spelled with dots for effect ("every.single.time") are inline.
 */
export const withoutMessageKeys = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order, root.end, (el) => {
      if (el.text === 0 || el.text > MAX_MESSAGE_KEY || el.children.length !== 1) return false
      const only = el.children[0]
      if (typeof only !== "number") return false
      const text = page.texts.of(only).trim()
      if (!BLOCKS.has(el.name) || NAMING.has(el.name)) return false
      if (!MESSAGE_KEY.test(text) || NAME_ENDING.test(text) || inCode(el)) return true
      el.drop = true
      return true
    })
  }
  return roots
}

/** The fewest characters of a block read as a script's data (a short `{"a":1}` may be a manual's example). */
const MIN_SCRIPT_DATA = 80
/** How a script's data opens: an object's first key, or a list of objects or strings. */
const DATA_OPENING = /^(?:\{\s*"|\[\s*[{"])/

/** Whether `text` is the whole of a JSON object or array, as a program writes it. */
const isScriptData = (text: string): boolean => {
  if (!DATA_OPENING.test(text)) return false
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === "object" && value !== null
  } catch {
    return false
  }
}

/**
 * The roots without the blocks whose one text is a JSON object or array, outside code: the
 * data a shop's script reads, left in the page's markup and hidden by a class the style sheet
 * gives (a buy box's prices and offer ids, `{"buybox_group":[{"displayPrice":"EUR 15.49",…`),
 * which the copy wrote as a paragraph. A reader never sees it; a manual showing JSON puts it in
 * code, and a short one (`MIN_SCRIPT_DATA`) stays.
 */
export const withoutScriptData = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order, root.end, (el) => {
      if (el.text < MIN_SCRIPT_DATA) return true
      // Data that is most of what was chosen says the choice went wrong; the page's text is elsewhere.
      if (el.text * 2 > root.text) return false
      const only = el.children.length === 1 ? el.children[0] : undefined
      if (typeof only !== "number" || !BLOCKS.has(el.name) || inCode(el)) return false
      if (!isScriptData(page.texts.of(only).trim())) return false
      el.drop = true
      return true
    })
  }
  return roots
}
