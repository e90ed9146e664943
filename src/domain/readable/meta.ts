/**
 * The page's metadata for the front matter of the readable copy: title, author, published date,
 * site name, canonical URL and language, from its JSON-LD (schema.org), its meta tags (Open Graph,
 * `name=author`, `article:published_time`, …), `<link rel=canonical>` and `<html lang>`, then its
 * schema.org microdata (`fromMicrodata`: the date and author of the one article it marks). The
 * first source that names a field wins, in that order; every value is one line of at most
 * `MAX_VALUE` characters. Pure and total: JSON-LD that does not parse is ignored.
 *
 * Over 400 lines: the four sources (JSON-LD, meta tags, links, microdata) are read under one
 * precedence, and each source's reading sits beside the others so the order a field is taken in
 * reads in one file.
 */
import { htmlVisible } from "../HtmlText.js"
import { collapseWhitespace as collapse } from "../Quote.js"
import { resolveHref } from "./links.js"
import { type El, type Page, textContent } from "./tree.js"

export interface PageMeta {
  readonly title: string | undefined
  readonly author: string | undefined
  readonly published: string | undefined
  readonly site: string | undefined
  readonly canonical: string | undefined
  readonly language: string | undefined
  /** The page's own summary (`description` meta tags): not front matter; the body of a page that shows no text (Readable.ts). */
  readonly description?: string | undefined
  /** The page says it is a discussion (`discussion`): not front matter; content.ts reads its replies as content. */
  readonly discussion?: boolean
  /** The page says it shows one product (`productPage`): not front matter; content.ts reads its reviews as furniture. */
  readonly product?: boolean
  /** The page's Open Graph type says it shows a group of products (`product.group`): not front matter; content.ts keeps its grid. */
  readonly productGroup?: boolean
  /**
   * The description a JSON-LD `Product` gives of itself: the product's own text, where the page's
   * `description` may be the shop's (productSummary.ts). Not front matter.
   */
  readonly productDescription?: string | undefined
  /** The questions the page's schema.org data declares it answers (`FAQPage`): not front matter; faqs.ts finds them. */
  readonly faq?: ReadonlyArray<string> | undefined
}

const MAX_VALUE = 300
/** JSON-LD blocks read (a page can hold many; the article's is among the first). */
const MAX_LD = 8
const MAX_LD_CHARS = 512 * 1024

const one = (s: unknown): string | undefined => {
  if (typeof s !== "string") return undefined
  const v = collapse(s).trim()
  return v.length === 0 ? undefined : v.length > MAX_VALUE ? `${v.slice(0, MAX_VALUE - 1)}…` : v
}

/**
 * A tag of the markup a CMS leaves in a name: text-level tags and line and paragraph breaks (not a
 * lone `<`, "a < b", nor another element's name, "The <template> element", which is a title's words).
 */
const TAG = /<\/?(?:wbr|br|p|a|abbr|b|cite|em|i|mark|small|span|strong|sub|sup|u)(?:\s[^<>]*)?\/?>/gi
/** Tags a browser shows inside a line of text, which join the words on either side (`Staubsaugerzub<wbr/>ehör`). */
const INLINE_TAG = /^<\/?(?!br|p)[a-z]/i

/**
 * A text value of the page's JSON-LD as a reader would see it: its HTML tags taken out (an inline
 * one joins the words beside it, another one parts them) and its character references decoded
 * once. JSON-LD is JSON, but CMSs and SEO plugins fill its `headline` and `name` from the page's
 * HTML, escaped ("Create &#038; Market", "Black, White &amp; Green") or with the markup the page
 * shows (a shop's product name with a line-break hint, `<wbr/>`); a reader sees "&" and no tag, and
 * the copy's heading written from that title read "amp" or "8211" as words. A `<` that opens no
 * tag is kept as written, and a value with no `&` or tag is left as it is.
 */
const oneDecoded = (s: unknown): string | undefined => {
  if (typeof s !== "string") return undefined
  const shown = s.includes("<") ? s.replace(TAG, (t) => (INLINE_TAG.test(t) ? "" : " ")) : s
  return shown.includes("&") ? one(htmlVisible(shown.replace(/</g, "&lt;"), false).text) : one(shown)
}

/** A JSON-LD text that may be written as HTML (a shop's product description: `<p>…</p>`, `&amp;`): its visible text. */
const markupText = (s: unknown): string | undefined =>
  typeof s === "string" && /[&<]/.test(s) ? one(htmlVisible(s, false).text) : one(s)

const ARTICLE_TYPES =
  /article|posting|blog|report|webpage|qapage|product|course|event|recipe|howto|creativework|faqpage|itempage|collectionpage/i

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [k: string]: Json }

const isObject = (j: Json | undefined): j is { readonly [k: string]: Json } =>
  typeof j === "object" && j !== null && !Array.isArray(j)

/** The schema.org objects of a JSON-LD value (top level, arrays and `@graph`), breadth-first, at most 64. */
const ldObjects = (root: Json): Array<{ readonly [k: string]: Json }> => {
  const out: Array<{ readonly [k: string]: Json }> = []
  const queue: Array<Json> = [root]
  while (queue.length > 0 && out.length < 64) {
    const j = queue.shift()!
    if (Array.isArray(j)) { for (const item of (j as ReadonlyArray<Json>).slice(0, 64)) queue.push(item) }
    else if (isObject(j)) {
      out.push(j)
      const graph = j["@graph"]
      if (graph !== undefined) queue.push(graph)
    }
  }
  return out
}

const typeOf = (o: { readonly [k: string]: Json }): string => {
  const t = o["@type"]
  return typeof t === "string" ? t : Array.isArray(t) ? t.filter((x) => typeof x === "string").join(" ") : ""
}

/** A JSON-LD value that may be given as a list of values (`"headline": ["…"]`): the first of them. */
const firstOf = (j: Json | undefined): Json | undefined =>
  Array.isArray(j) ? (j as ReadonlyArray<Json>).find((x) => typeof x === "string") : j

/** The page's JSON-LD objects by their `@id` (`ldIds`): what a reference `{"@id": …}` names. */
type Ids = ReadonlyMap<string, { readonly [k: string]: Json }>

/**
 * The objects of the page's JSON-LD blocks that carry an `@id` and say more than it, by that id
 * (the first of each). SEO plugins write a post's graph as nodes that name each other by id: the
 * article's `author` is `{"@id": "…#/schema/person/…"}`, the person a node of its own.
 */
const ldIds = (objects: ReadonlyArray<{ readonly [k: string]: Json }>): Ids => {
  const ids = new Map<string, { readonly [k: string]: Json }>()
  for (const o of objects) {
    const id = o["@id"]
    if (typeof id === "string" && Object.keys(o).length > 1 && !ids.has(id)) ids.set(id, o)
  }
  return ids
}

/** An object, or the object a reference to it (`{"@id": …}` and nothing else) names in `ids`. */
const resolved = (j: Json | undefined, ids: Ids): Json | undefined => {
  if (!isObject(j) || typeof j["@id"] !== "string" || j.name !== undefined) return j
  return ids.get(j["@id"]) ?? j
}

/**
 * A person's or organization's name (`oneDecoded`): a string, `{name}` (or a reference to one), or
 * the names of an array of them.
 */
const nameOf = (j: Json | undefined, ids: Ids): string | undefined => {
  if (typeof j === "string") return oneDecoded(j)
  if (Array.isArray(j)) {
    const names = (j as ReadonlyArray<Json>).slice(0, 8).map((x) => nameOf(x, ids)).filter((n): n is string =>
      n !== undefined
    )
    return names.length === 0 ? undefined : one(names.join(", "))
  }
  const o = resolved(j, ids)
  return isObject(o) ? oneDecoded(o.name) : undefined
}

/** schema.org types of a discussion: a forum thread, a question and its answers. */
const DISCUSSION = /discussionforumposting|qapage/i
/** schema.org types of one product on sale (`Offer` alone is a price, not a product page). */
const PRODUCT = /^(?:product|productgroup|individualproduct|productmodel)$/i
/** schema.org types of a page that is writing about something (a review of a product is an article). */
const WRITING = /^(?:article|newsarticle|blogposting|review|techarticle|reportagenewsarticle|howto|recipe)$/i

/** A page's schema.org type (one or more, space-separated: `typeOf`) of which one is matched by `pattern`. */
const isA = (type: string, pattern: RegExp): boolean => type.split(" ").some((t) => pattern.test(t))

/** schema.org types of a web page. */
const WEB_PAGE = /^(?:webpage|itempage)$/i

/** How many steps from a page's main entity, through what it offers, a product may lie (`mainProduct`). */
const OFFER_STEPS = 3

/**
 * Whether a web page's JSON-LD says its main entity is a product, or offers one: an auction site's
 * item page declares a `WebPage` whose `mainEntity` is an element with `offers` whose
 * `itemOffered` is the `Product` (followed `OFFER_STEPS` steps, the first of each list).
 */
const mainProduct = (o: { readonly [k: string]: Json }): boolean => {
  if (!isA(typeOf(o), WEB_PAGE)) return false
  let j: Json | undefined = o.mainEntity
  for (let step = 0; step <= OFFER_STEPS && j !== undefined; step++) {
    if (Array.isArray(j)) j = (j as ReadonlyArray<Json>)[0]
    if (!isObject(j)) return false
    if (isA(typeOf(j), PRODUCT)) return true
    j = j.itemOffered ?? j.offers
  }
  return false
}

const fromLd = (
  texts: ReadonlyArray<string>
): Pick<
  PageMeta,
  "title" | "author" | "published" | "site" | "discussion" | "product" | "productDescription" | "faq"
> => {
  let discussion = false
  let productDescription: string | undefined
  const faq: Array<string> = []
  let product = false
  let writing = false
  let title: string | undefined
  let author: string | undefined
  let published: string | undefined
  let site: string | undefined
  const blocks: Array<Array<{ readonly [k: string]: Json }>> = []
  for (const text of texts) {
    try {
      blocks.push(ldObjects(JSON.parse(text) as Json))
    } catch {
      continue
    }
  }
  const ids = ldIds(blocks.flat())
  for (const objects of blocks) {
    for (const o of objects) {
      const type = typeOf(o)
      if (DISCUSSION.test(type)) discussion = true
      if (isA(type, PRODUCT) || mainProduct(o)) product = true
      if (isA(type, PRODUCT)) productDescription ??= markupText(o.description)
      if (isA(type, WRITING)) writing = true
      if (/^faqpage$/i.test(type)) { for (const q of questionsOf(o.mainEntity)) faq.push(q) }
      if (!ARTICLE_TYPES.test(type)) continue
      title ??= oneDecoded(firstOf(o.headline)) ??
        (/webpage|collectionpage|itempage/i.test(type) ? undefined : oneDecoded(firstOf(o.name)))
      author ??= nameOf(o.author, ids)
      published ??= one(firstOf(o.datePublished))
      site ??= isObject(o.publisher) ? nameOf(o.publisher, ids) : undefined
    }
  }
  return { title, author, published, site, discussion, product: product && !writing, productDescription, faq }
}

/** The most questions of an `FAQPage` read. */
const MAX_QUESTIONS = 32

/** The names of the `Question`s of an `FAQPage`'s `mainEntity` (one, or an array of them). */
const questionsOf = (j: Json | undefined): Array<string> => {
  const items = Array.isArray(j) ? (j as ReadonlyArray<Json>).slice(0, MAX_QUESTIONS) : j === undefined ? [] : [j]
  const out: Array<string> = []
  for (const q of items) {
    if (!isObject(q) || !/^question$/i.test(typeOf(q))) continue
    const name = one(q.name)
    if (name !== undefined) out.push(name)
  }
  return out
}

/** An HTML character reference (`&amp;`, `&#8211;`, `&#x2019;`). */
const CHARACTER_REFERENCE = /&(?:#\d+|#x[\da-f]+|[a-z]+\d*);/i

/** An author's name without the byline's "By " before it ("By Jo Writer" is "Jo Writer"). */
const withoutBy = (s: string | undefined): string | undefined => {
  const name = s?.replace(/^by[\s:]+(?=\S)/i, "")
  return name === undefined || name.length === 0 ? s : name
}

/** A meta value that is a name, not a link to a profile (`article:author` is often a URL). */
const notUrl = (
  s: string | undefined
): string | undefined => (s !== undefined && /^https?:\/\//i.test(s) ? undefined : s)

/**
 * WordPress marks the page of one post with the class `single-<post type>` on its `body`; a shop
 * built on it (WooCommerce) gives its products the type `product`. Such a page shows one product
 * even where the site's SEO plugin sets the Open Graph type `article` on every page.
 */
const SINGLE_PRODUCT = /(?:^|\s)single-product(?:\s|$)/

/**
 * A reply's own anchor (`id="comment-123"`): how comment engines and thread apps name each post
 * under the first, so that a link can open the page at it. Counted on `article` elements only: a
 * reply drawn as a self-contained post of its own, where a Q&A network's short comments under
 * each answer are list items.
 */
const COMMENT_ANCHOR = /^comment-\d+$/i

/**
 * Replies anchored one by one that make a page a discussion where its Open Graph type says it is
 * a website, not an article: a thread app drawn without schema.org data (a post and its tree of
 * comments), where an article's comments come under a page that calls itself an article.
 */
const MIN_ANCHORED_REPLIES = 3

/**
 * schema.org types of writing whose microdata names its date and author (the last part of an
 * `itemtype`: `http://schema.org/BlogPosting`); not a `Blog` or a `WebPage`, which hold many posts.
 */
const MICRODATA_WRITING =
  /^(?:article|newsarticle|blogposting|socialmediaposting|techarticle|scholarlyarticle|reportagenewsarticle|analysisnewsarticle|opinionnewsarticle|backgroundnewsarticle|reviewnewsarticle|report|review)$/i

/** A name longer than this is a block of text marked as the author, not a name. */
const MAX_NAME = 100
/** A date written as text (`<span itemprop="datePublished">`) longer than this is not a date. */
const MAX_DATE_TEXT = 64
/** A date in its machine form, as a microformat's `abbr title` holds it (`2017-09-09T10:52:00+02:00`). */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}/

/** Whether the space-separated tokens of an `itemprop` or `itemtype` hold `token` (its last path part for a type). */
const hasToken = (value: string | undefined, test: (token: string) => boolean): boolean =>
  value !== undefined && value.split(/\s+/).some((t) => t.length > 0 && test(t))

/** The nearest element above `el` that opens a microdata item (`itemscope`): the item `el`'s property belongs to. */
const itemOf = (el: El): El | undefined => {
  for (let at = el.parent; at !== undefined; at = at.parent) if (at.attribs.itemscope !== undefined) return at
  return undefined
}

/** Whether `item` is a piece of writing (`MICRODATA_WRITING`). */
const isWriting = (item: El | undefined): boolean =>
  item !== undefined && hasToken(item.attribs.itemtype, (t) => MICRODATA_WRITING.test(t.replace(/^.*[/#]/, "")))

/** A microdata property's text as written: a `meta`'s `content`, else the element's text (one line). */
const propText = (page: Page, el: El): string | undefined =>
  el.name === "meta" ? one(el.attribs.content) : one(textContent(page.texts, el, true, false))

/**
 * The date a microdata `datePublished` gives: a `meta`'s `content`, a `time`'s `datetime`, an
 * element's `title` holding the date's machine form (a blog theme's `<abbr title="2017-09-09T…">`
 * showing only the hour), else its text when short and holding a digit.
 */
const microdataDate = (page: Page, el: El): string | undefined => {
  const a = el.attribs
  if (el.name === "meta") return one(a.content)
  if (el.name === "time" && one(a.datetime) !== undefined) return one(a.datetime)
  if (a.title !== undefined && ISO_DATE.test(a.title.trim())) return one(a.title)
  const text = propText(page, el)
  return text !== undefined && text.length <= MAX_DATE_TEXT && /\d/.test(text) ? text : undefined
}

/**
 * The name a microdata `author` gives: the `name` property of the person it opens (`itemscope`),
 * or its own text when it opens none; `undefined` for text too long to be a name.
 */
const microdataAuthor = (page: Page, el: El): string | undefined => {
  let name: string | undefined
  if (el.attribs.itemscope === undefined) name = propText(page, el)
  else {
    for (let i = el.order + 1; i < el.end && name === undefined; i++) {
      const d = page.all[i]!
      if (hasToken(d.attribs.itemprop, (t) => t === "name") && itemOf(d) === el) name = propText(page, d)
    }
  }
  // A byline's punctuation after the name ("Jo Writer," before a second name outside the item).
  const trimmed = name?.replace(/[\s,;:|\u00b7\u2022\u2013\u2014-]+$/u, "")
  return trimmed !== undefined && trimmed.length <= MAX_NAME && /\p{L}/u.test(trimmed) ? withoutBy(trimmed) : undefined
}

/**
 * The published date and author the page's schema.org microdata gives of the one piece of writing
 * it marks (an element `itemscope` whose `itemtype` is an `Article`, a `BlogPosting`…: its
 * `itemprop="datePublished"` and `itemprop="author"` properties, `props`); none when the
 * properties belong to two items or more (a blog's front page of posts). Authors are read from
 * the block of the first (co-authors of one byline), not from further down the item.
 */
const fromMicrodata = (
  page: Page,
  props: ReadonlyArray<El>
): { readonly author: string | undefined; readonly published: string | undefined } => {
  let item: El | undefined
  let published: string | undefined
  let byline: El | undefined
  const authors: Array<string> = []
  for (const el of props) {
    const owner = itemOf(el)
    if (!isWriting(owner)) continue
    if (item !== undefined && owner !== item) return { author: undefined, published: undefined }
    item = owner
    if (hasToken(el.attribs.itemprop, (t) => t === "datePublished")) published ??= microdataDate(page, el)
    // Co-authors share the first author's line; an author further down the item is another
    // piece's (a teaser's byline inside a `body` that is the article's item).
    if (hasToken(el.attribs.itemprop, (t) => t === "author") && (byline ??= el.block ?? el) === (el.block ?? el)) {
      const name = microdataAuthor(page, el)
      if (name !== undefined && !authors.includes(name) && authors.length < 8) authors.push(name)
    }
  }
  return { author: authors.length === 0 ? undefined : one(authors.join(", ")), published }
}

/** The page's metadata (`base` resolves a relative canonical link). */
export const pageMeta = (page: Page, base: URL | undefined): PageMeta => {
  const meta = new Map<string, string>()
  const ld: Array<string> = []
  let ldChars = 0
  let canonical: string | undefined
  let lang: string | undefined
  let singleProduct = false
  let anchoredReplies = 0
  const microdata: Array<El> = []
  for (const el of page.all) {
    const name = el.name
    const a = el.attribs
    if (hasToken(a.itemprop, (t) => t === "datePublished" || t === "author")) microdata.push(el)
    if (name === "article" && a.id !== undefined && COMMENT_ANCHOR.test(a.id)) anchoredReplies++
    if (name === "meta") {
      const key = (a.property ?? a.name ?? a.itemprop ?? a["http-equiv"])?.toLowerCase()
      const value = one(a.content)
      if (key !== undefined && value !== undefined && !meta.has(key)) meta.set(key, value)
    } else if (
      name === "link" && canonical === undefined && a.href !== undefined &&
      (a.rel ?? "").toLowerCase().split(/\s+/).includes("canonical")
    ) {
      canonical = a.href
    } else if (name === "body" && SINGLE_PRODUCT.test(a.class ?? "")) {
      singleProduct = true
    } else if (name === "html" && lang === undefined) {
      lang = one(a.lang ?? a["xml:lang"])
    } else if (
      name === "script" && ld.length < MAX_LD && (a.type ?? "").toLowerCase().trim() === "application/ld+json"
    ) {
      const text = textContent(page.texts, el, false)
      ldChars += text.length
      if (ldChars <= MAX_LD_CHARS) ld.push(text)
    }
  }
  const fromLdMeta = fromLd(ld)
  const md = microdata.length === 0 ? undefined : fromMicrodata(page, microdata)
  const m = (k: string) => meta.get(k)
  // A text meta tag escaped twice (`content="Notes &amp;amp; Queries"`, as some themes write
  // them) holds a character reference after the parser's decoding: a reader is meant to see "&".
  const t = (k: string) => {
    const v = meta.get(k)
    return v !== undefined && CHARACTER_REFERENCE.test(v) ? oneDecoded(v) : v
  }
  const href = canonical ?? m("og:url")
  return {
    title: fromLdMeta.title ?? t("og:title") ?? t("twitter:title") ?? t("dc.title") ?? t("citation_title"),
    author: withoutBy(
      fromLdMeta.author ?? t("author") ?? notUrl(t("article:author")) ?? t("dc.creator") ??
        t("citation_author") ?? t("byl") ?? md?.author
    ),
    published: fromLdMeta.published ?? m("article:published_time") ?? m("datepublished") ?? m("date") ?? m("pubdate") ??
      m("publish-date") ?? m("dc.date") ?? m("citation_publication_date") ?? md?.published,
    site: t("og:site_name") ?? fromLdMeta.site ?? t("application-name"),
    canonical: href === undefined ? undefined : one(resolveHref(href, base)),
    language: lang ?? m("og:locale") ?? m("content-language"),
    description: m("description") ?? m("og:description") ?? m("twitter:description"),
    discussion: fromLdMeta.discussion === true ||
      (anchoredReplies >= MIN_ANCHORED_REPLIES && /^website$/i.test(m("og:type") ?? "")),
    product: singleProduct || productPage(m("og:type"), fromLdMeta.product === true),
    productGroup: /^(?:og:)?product\.group$/i.test(m("og:type") ?? ""),
    productDescription: fromLdMeta.productDescription,
    faq: fromLdMeta.faq
  }
}

/**
 * Whether the page says it shows one product: its Open Graph type (`product`, `og:product`,
 * `product.item`), or its JSON-LD (`ld`: a Product and no article or review) when its Open Graph
 * type does not call it an article (a site's template may put a Product block on every page).
 * (`pageMeta` also reads a `body` of the class `single-product`: `SINGLE_PRODUCT`.)
 */
const productPage = (ogType: string | undefined, ld: boolean): boolean =>
  ogType !== undefined && /^(?:og:)?product(?:\.item|\.group)?$/i.test(ogType)
    ? true
    : ld && !(ogType !== undefined && /article/i.test(ogType))

const FIELDS = ["title", "author", "published", "site", "canonical", "language"] as const

/**
 * The front matter block (YAML: one `key: "value"` line per field the page names, each value a
 * JSON string, which YAML reads as it is), or `undefined` when the page names none.
 */
export const frontMatter = (meta: PageMeta): string | undefined => {
  const lines: Array<string> = []
  for (const k of FIELDS) {
    const v = meta[k]
    if (v !== undefined) lines.push(`${k}: ${JSON.stringify(v)}`)
  }
  return lines.length === 0 ? undefined : `---\n${lines.join("\n")}\n---`
}
