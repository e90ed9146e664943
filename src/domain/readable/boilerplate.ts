/**
 * What page furniture looks like, by tag, attributes and class/id names (the hints Readability
 * and trafilatura use). Tags of scripts, media, forms' controls, navigation and asides are
 * dropped outright; class/id names give an element a weight (positive for article-like names,
 * negative for furniture) and mark furniture that is dropped unless it holds most of the page.
 * Over 400 lines: the tables of tags, roles and names and the tests that read them are one
 * decision (`droppedTag`, `concealing` and the name weights are read together as the page is
 * read, tree.ts); split, one would be read without the other.
 */
import type { Attribs } from "./html.js"

/** Elements whose whole subtree is dropped. */
const DROP = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "title",
  "meta",
  "link",
  "base",
  "nav",
  "button",
  "input",
  "select",
  "option",
  "textarea",
  "label",
  "datalist",
  "output",
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "applet",
  "svg",
  "math",
  "canvas",
  "audio",
  "video",
  "source",
  "track",
  "picture",
  "img",
  "map",
  "area",
  "dialog",
  "menu",
  "aside",
  "slot",
  "figcaption",
  // Ruby annotations (readings printed above the base text) are not the text itself.
  "rt",
  "rp"
])

const DROP_ROLES = new Set([
  "navigation",
  "banner",
  "contentinfo",
  "complementary",
  "search",
  "dialog",
  "alertdialog",
  "menu",
  "menubar",
  "toolbar",
  "tooltip",
  // A picture drawn with text (a member's initial as an avatar): its label is what a screen reader
  // says, its letters are not the page's text.
  "img"
])

const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i

/**
 * Whether an element hides what it holds until a script acts: `noscript` (a page that renders
 * itself puts its crawler copy there) and the `hidden` attribute (streaming frameworks send the
 * article hidden, then a script moves it in place). `reveal` keeps them (tree.ts decides when).
 */
export const concealing = (name: string, attribs: Attribs): boolean =>
  name === "noscript" || attribs.hidden !== undefined || hiddenStyle(attribs)

/** An inline style that hides the element (`display: none`, `visibility: hidden`) until a script shows it. */
const hiddenStyle = (attribs: Attribs): boolean => attribs.style !== undefined && HIDDEN_STYLE.test(attribs.style)

/**
 * The class of an `aside` that is a quoted post (`quote` as a class of its own: Discourse's
 * `aside.quote`), the quoted words in its `blockquote`: a part of the post that quotes it, not a
 * box beside the page's text.
 */
const QUOTE_BOX = /(?:^|\s)quote(?:$|\s)/

/**
 * Whether an element is the page's main landmark: a `main`, or a box whose role is `main`. A
 * script that opens a modal dialog (a region picker, a sign-in prompt) marks everything behind it
 * `aria-hidden="true"`, the `main` too, so that screen readers read the dialog alone; a page saved
 * with the dialog open still shows its `main` to the eye. So `aria-hidden` alone does not leave a
 * main landmark out (the `hidden` attribute and a hiding style still do); any other box it marks
 * is left out as before.
 */
const mainLandmark = (name: string, role: string | undefined): boolean =>
  name === "main" || role?.toLowerCase().trim() === "main"

/** Whether an element of this (lowercase) name and attributes is left out outright (`reveal`: see `concealing`). */
export const droppedTag = (name: string, attribs: Attribs, reveal = false): boolean => {
  if (reveal && concealing(name, attribs)) return false
  if (DROP.has(name) && !(name === "aside" && attribs.class !== undefined && QUOTE_BOX.test(attribs.class))) return true
  if (attribs.hidden !== undefined) return true
  const ariaHidden = attribs["aria-hidden"]
  const role = attribs.role
  if (ariaHidden !== undefined && ariaHidden.toLowerCase() === "true" && !mainLandmark(name, role)) return true
  if (role !== undefined && DROP_ROLES.has(role.toLowerCase().trim())) return true
  return hiddenStyle(attribs)
}

/** Class names of a tab's panel (`tab-pane`, `tabpanel`, `tab-panel`, `tabs__panel`, `tab-content`). */
const TAB_PANEL = /(?:^|[\s_-])tabs?(?:__|-|_)?(?:pane|panel|content)(?:$|[\s_-])/i

/** Whether an element is a tab's panel: `role="tabpanel"`, or a class that says so (content.ts `tabPanels`). */
export const tabPanel = (attribs: Attribs): boolean =>
  attribs.role?.toLowerCase().trim() === "tabpanel" || (attribs.class !== undefined && TAB_PANEL.test(attribs.class))

/** Landmarks that frame a page's content: its banner, its footer, its asides. */
const FRAME_ROLES = new Set(["banner", "contentinfo", "complementary"])

/**
 * Whether an element is left out only for the landmark it is (an `aside`, or the role of a banner,
 * a footer or an aside) and for nothing that hides it. Such an element holding the page's `main`
 * did not end where it should have (a header or an aside left unclosed swallows the page after
 * it): tree.ts keeps it (`parsePage`'s `spared`).
 */
export const framingOnly = (name: string, attribs: Attribs, reveal = false): boolean => {
  const role = attribs.role?.toLowerCase().trim()
  const framing = name === "aside" || (role !== undefined && FRAME_ROLES.has(role))
  if (!framing || (name !== "aside" && DROP.has(name))) return false
  if (role !== undefined && !FRAME_ROLES.has(role) && DROP_ROLES.has(role)) return false
  return !droppedTag("div", { ...attribs, role: "" }, reveal)
}

/** Tags that are furniture unless they hold most of the page (ASP.NET pages wrap everything in a form). */
export const FURNITURE_TAGS = new Set(["header", "footer", "form", "fieldset"])

/**
 * Names of furniture (Readability's unlikely candidates, with trafilatura's discarded blocks):
 * strong ones are dropped whatever they hold, weak ones only when they do not read like prose.
 * What a tooltip shows on hover (`tooltip-content`, `tool-tip__content`, `tooltiptext`; the role
 * `tooltip` is dropped by its tag's rules) is strong furniture: a shop's specifications explain
 * each label in one. The trigger (`tooltip` alone) holds visible text and is not. A `popover` is
 * the same box opened by a click (a shop's "why this weight?" note, a product summary's feedback
 * form a script preloads): strong, as a `popup` is.
 * `embed` alone or as a part (`embed`, `w-embed`, `embed-widget`) is weak: site builders wrap the
 * HTML an author pastes into an article (a table, a comparison, a profile) in such a box, as they
 * wrap a video or a post from elsewhere; only the first reads like prose. A longer word
 * (`embedded-tweet`, a consent tool's `embeddings` notes) stays strong.
 * A control back to the top of the page (`back-to-top`, `scroll-to-top`, `go-to-top`, `jumpToTop`) is
 * strong: an arrow and "Top" fixed in a corner, which a page of sections straight in its body
 * otherwise left at the end of its copy.
 */
const FURNITURE =
  /-ad-|breadcrumb|comment|disqus|footer|gdpr|menu|related|replies|shoutbox|sidebar|social|sponsor|ad-break|agegate|pagination|popup|popover|cookie|consent|newsletter|subscri|share|sharing|navbar|signup|login|modal|outbrain|taboola|recommend|promo|author|caption|legend|credits?\b|twitter-tweet|instagram-media|embed[a-z]|disclaimer|disclosure|copyright|affiliate|licen[cs]e|factbox|buybox|(?:^|[-_\s])cta(?:$|[-_\s\d])|(?:^|[-_\s])rating|tool-?tip[-_]*(?:content|text|body|inner)|(?:back|scroll|go|jump)[-_]?to[-_]?top/i
const WEAK_FURNITURE =
  /embed(?![a-z])|ai2html|banner|combx|communit|cover-wrap|extra|header|legends|remark|rss|skyscraper|supplemental|pager|yom-remote|teaser|navigation|toolbar|overlay|paywall|tag-?list|tags/i

/**
 * WordPress's class for a post's status (`status-publish`, `status-draft`), which it writes on
 * every post and product it lists: on a list item (a shop's product in its grid) it says nothing
 * of the element's part, and its "publish" is no byline.
 */
const POST_STATUS = /(?:^|\s)status-[\w-]+/g

/** Names of bylines and datelines: furniture whatever else the name says (they are dropped only while short). */
const BYLINE =
  /byline|dateline|writtenby|p-author|post-?meta|entry-?meta|article-?meta|meta-?data|entry-utility|posted-?on|post-?date|entry-?date|publish|timestamp|article-?info/i

/**
 * Names of a forum post's furniture (`forumPanel`): the poster's panel beside each post (title,
 * rank, banner, counts of posts and reputation: `postprofile`, `message-userDetails`,
 * `userTitle`, `user-info`, `authorStats`) and the signature under it (`signature`, or
 * `postsignature` as FluxBB-like boards write it). Matched as a name's own word (after a start, a
 * space, `-` or `_`): `message-userContent`, the post itself, is not one.
 */
const FORUM_PANEL =
  /(?:^|[-_\s])(?:(?:post)?signature|postprofile|user-?(?:title|extras|banner|info|details|stats)|(?:author|poster)-?(?:stats|info|details))(?:$|[-_\s])/i

/** Whether an element's names say it is a forum post's poster panel or signature (strong furniture). */
export const forumPanel = (names: string): boolean => FORUM_PANEL.test(names)

/** A name that says the element was embedded: weak furniture, and never a name that rescues (`rescued`). */
const EMBED = /embed/i

/** Names that keep an element a candidate despite a furniture name. */
const MAYBE_CONTENT = /and|article|body|column|content|main|mathjax|shadow/i

const POSITIVE = /article|body|content|entry|hentry|h-entry|main|page|post|text|blog|story|itemprop/i
/**
 * Readability's negative names, less `media`: the media object (an image beside a heading and a
 * line, Bootstrap's `media`/`media-body`, `*-media-cards`) is how product and service pages build
 * their feature blocks, not furniture; a gallery's furniture carries names of its own (`caption`,
 * `credit`, `related`).
 */
const NEGATIVE =
  /-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|footer|gdpr|masthead|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|byline|credit|newsletter|subscribe|social|teaser|recommend/i

export interface Marks {
  readonly weight: number
  /** 0: no furniture name; 1: a weak one; 2: a strong one; 3: a byline. */
  readonly furniture: 0 | 1 | 2 | 3
}

const NONE: Marks = { weight: 0, furniture: 0 }

/**
 * Shopify's name for a product's own fields: `metafield` or `metafields` as a word of a class
 * token, alone or between joints (`-`, `_`) or the token's ends (`product-metafield`,
 * `metafield-rich_text_field`, `metafield-multi_line_text_field`; not a longer word such as
 * `metafieldset`). Themes write the product's features, specifications and care notes from its
 * data in such boxes. The word does not count as the negative name "meta", which is Readability's
 * for a post's byline and date (`entry-meta`, `post-meta`: still negative).
 */
const METAFIELD = /(?<=^|[\s_-])metafields?(?=$|[\s_-])/gi

const weightOf = (s: string, heading = false): number => {
  const unhidden = s.includes("hidden") ? withoutPartHidden(s) : s
  const shown = /metafield/i.test(unhidden) ? unhidden.replace(METAFIELD, " ") : unhidden
  const names = heading && shown.includes("scroll") ? withoutScrollUtilities(shown) : shown
  return names.length === 0 ? 0 : (NEGATIVE.test(names) ? -25 : 0) + (POSITIVE.test(names) ? 25 : 0)
}

/**
 * Whether a name is negative only for `scroll` (`table-scroll`, `scroll-container`): the word
 * Readability gives a news ticker is also how a theme frames a wide table that scrolls sideways.
 */
export const negativeForScrollOnly = (names: string): boolean =>
  /scroll/i.test(names) && weightOf(names) < 0 && weightOf(names.replace(/[\w-]*scroll[\w-]*/gi, " ")) >= 0

/** Class names of text shown to screen readers only: `visually-hidden`, `sr-only`, `screen-reader-text`. */
export const SCREEN_READER = /(?:^|\s)(?:visually-?hidden|sr-only|screen-?reader-(?:only|text))(?:$|\s|-)/i

/**
 * A design system's short namespace before a class word (`u-`, `ds-`, `c-`): one to three
 * letters and a dash, but not a screen width's (`xs`, `sm`, `md`, `lg`, `xl`, `xxl`, `sp`, `pc`,
 * `mob`, `tab`: `sm-hidden` hides a box on small screens only) nor a negation's (`no`, `not`,
 * `non`, `un`: `un-hidden` says the box is shown). A source of a `RegExp`, read by notices.ts too.
 */
export const NAMESPACE = "(?!(?:xs|sm|md|lg|xl|xxl|sp|pc|mob|tab|no|not|non|un)-)[a-z]{1,3}-"

/**
 * The words that make a name say something of a box's state rather than what the box is, when they
 * stand right before the part named (`no-footer`, `has-footer`, `page--without-footer`,
 * `has-navbar-fixed-top`, `has-active-filters`, `no-chat-bubble`: a layout's wrapper that has, or
 * lacks, a footer, a bar, a filter or a chat): a negation (`no`, `not`, `non`, `without`), a having
 * or a being (`with`, `has`, `is`) or a toggle (`hide`, `show`). The source of a lookbehind to put
 * right before the part's word in a name's pattern (content.ts `FOOTER_NAME`, `NAVBAR_NAME`,
 * `CHAT_PROMPT`; `ACTIVE_FILTERS` here); a place's word stays a part's name (`pre-footer`,
 * `above-footer`: the band over the footer is the site's too).
 */
export const NOT_STATE = "(?<!(?:^|[-_])(?:no|not|non|without|with|has|is|hide|show)[-_]+)"

/**
 * A class word that shows its element from a screen width up: a utility framework's breakpoint
 * (`lg:flex`, `md:block`) or Bootstrap's (`d-md-block`, `d-lg-table-cell`). Beside a hiding word
 * (`hidden lg:flex`, `d-none d-md-block`) the box is hidden on small screens only: drawn for wide
 * screens, not waiting for a script (notices.ts), nor a template's data no reader sees (chrome.ts),
 * and a grid's row label when it heads a row (phoneCopies.ts).
 */
export const SHOWN_FROM =
  /^[\w-]+:(?:block|flex|grid|inline|inline-block|inline-flex|table|table-cell|table-row|contents)$|^d-(?:sm|md|lg|xl|xxl)-(?:block|flex|grid|inline|inline-block|inline-flex|table|table-cell|table-row)$/i

/**
 * Class names that say an element is hidden: `hidden` (and Tailwind's `md:hidden`, read so since
 * before the namespaced form), `is-hidden`, `visually-hidden`, and `hidden` behind a short
 * namespace (`NAMESPACE`: a utility library's `u-hidden`, a shop framework's prefixed forms; a
 * gallery's "Image Unavailable" notice a script shows when a colour has no picture). A longer
 * word (`overflow-hidden`) says how a box is drawn.
 */
const HIDING = new RegExp(`^(?:[\\w-]+:)?hidden$|(?:^|[-_])(?:is|visually|sr)-hidden$|^${NAMESPACE}hidden$`, "i")

/**
 * The names without those that only have "hidden" as a part: `overflow-hidden` (a box that clips
 * what overflows), `field--label-hidden` (a field shown without its label), `hidden-print` and
 * `hidden-xs` (hidden on paper, on phones). Pages styled with utility or framework CSS put them on
 * accordions, cards, forum replies and sections of every kind; they say how a box is drawn, not
 * that it is hidden, so they do not count as the negative name "hidden".
 */
const withoutPartHidden = (s: string): string =>
  s.split(/\s+/).filter((token) => !token.toLowerCase().includes("hidden") || HIDING.test(token)).join(" ")

/**
 * Utility classes that set where a heading stops when the page scrolls to its anchor (Tailwind's
 * `scroll-mt-20`, `lg:scroll-mt-2`, `scroll-pt-4`): documentation sites put them on every heading so
 * that a link to it does not hide it under a fixed bar. On a heading they say how it is scrolled
 * to, not that it is a scroller, so they do not count as the negative name "scroll" there.
 */
const SCROLL_UTILITY = /^(?:[\w-]+:)*scroll-[mp][trblxyse]?-[\w.[\]-]+$/i

const withoutScrollUtilities = (s: string): string =>
  s.split(/\s+/).filter((token) => !SCROLL_UTILITY.test(token)).join(" ")

/**
 * `markOf` for one page: pages repeat the same few class names on thousands of elements, so each
 * distinct (tag, class, id, itemprop) is judged once.
 */
export const pageMarks = (): (name: string, attribs: Attribs) => Marks => {
  const seen = new Map<string, Marks>()
  return (name, attribs) => {
    const cls = attribs.class
    const id = attribs.id
    const itemprop = attribs.itemprop
    if (cls === undefined && id === undefined && itemprop === undefined) return NONE
    const key = `${name}\u0000${cls ?? ""}\u0000${id ?? ""}\u0000${itemprop ?? ""}`
    let marks = seen.get(key)
    if (marks === undefined) {
      marks = markOf(name, attribs)
      seen.set(key, marks)
    }
    return marks
  }
}

/** The class/id weight of an element and whether its names say furniture. */
export const markOf = (name: string, attribs: Attribs): Marks => {
  const cls = attribs.class?.replace(PROMO_PRICE, " ")
  const id = attribs.id?.replace(PROMO_PRICE, " ")
  const articleBody = attribs.itemprop === "articleBody" || attribs.itemprop === "text"
  if (cls === undefined && id === undefined && !articleBody) return NONE
  const c = cls ?? ""
  const i = id ?? ""
  const both = `${c} ${i}`
  const heading = /^h[1-6]$/.test(name)
  const weight = weightOf(c, heading) + weightOf(i) + (articleBody ? 50 : 0)
  if (both.length < 2 || name === "body" || name === "html" || name === "main" || name === "article") {
    return { weight, furniture: 0 }
  }
  if (overlay(c)) return { weight, furniture: 2 }
  if (BYLINE.test(name === "li" && both.includes("status-") ? both.replace(POST_STATUS, " ") : both)) {
    return { weight, furniture: 3 }
  }
  if (forumPanel(both)) return { weight, furniture: 2 }
  if (name === "a" || rescued(both)) return { weight, furniture: 0 }
  const named = (heading ? both : both.replace(HERO_BANNER, " ")).replace(TEXT_OVERLAY, " ")
  const weak = WEAK_FURNITURE.test(heading || name === "th" ? withoutHeader(named) : withoutCardHeader(named))
  const legal = legalPrint(c) || (!heading && i.length > 0 && LEGAL_ID.test(i))
  return { weight, furniture: FURNITURE.test(both) || legal || activeFilters(c) ? 2 : weak ? 1 : 0 }
}

/**
 * An id whose last word is `legal` after a joint or alone (`legal`, `product_area_legal`,
 * `footer-legal`; not `legalese`, `legal-notes` nor `paralegal`): the box of a page's legal small
 * print, read as the class `legal` is (`legalPrint`): a game store's box of a publisher's terms,
 * account rules and trademarks under the game's description. Never on a heading, whose id is its
 * slug ("consider-ongoing-legal-support", "is-it-legal"); nor on a box that holds a heading or
 * stands in one (content.ts `legalSlug`): a manual's section wrapper (`<section id="legal">`,
 * `outline-container-legal`) or a wiki's span in its heading carries the heading's slug too.
 */
export const LEGAL_ID = /(?:^|[-_])legal$/i

/**
 * A class token that names the filters applied to a list: `active-filters`, `active_filter`,
 * `activeFilters`, alone or as the token's last word after a joint (`c-active-filters`,
 * `reviews__active-filters`, `collection-activeFilters`). Shops and stores show there the
 * filters a reader picked as chips ("Size: M ×", "Excluding Off-topic Review Activity") over the
 * list they filter: controls, not the page's text. Strong furniture. Not a state class on the
 * list itself (`has-active-filters`, `no-`, `is-`, `show-`, every `NOT_STATE` word: the box holding
 * the filtered list), nor a word that only ends so (`inactive-filter`), nor a longer word
 * (`active-filters-list` stays, as it may name what the filters show).
 */
const activeFilters = (cls: string): boolean =>
  /active[-_]?filter/i.test(cls) && cls.split(/\s+/).some((token) => ACTIVE_FILTERS.test(token))

/** `active-filters` as a token or its last part after a joint, not after a state's word (`NOT_STATE`: `collection--has-active-filters`). */
const ACTIVE_FILTERS = new RegExp(`^(?:[\\w-]*[-_])?${NOT_STATE}active[-_]?filters?$`, "i")

/**
 * A class that names the element as legal small print: `legal` as a word of it (`legal`,
 * `copy-legal`, `game_area_legal`, `rfi-form__legal`) or a legal text (`legal-text`, `legalText`,
 * `legal-notice`): a page's disclaimers and terms under its sections, a form's consent line, the
 * trademarks under a game. Strong furniture, as `disclaimer` is. Only the class is read (an id is
 * often a heading's slug, "consider-ongoing-legal-support"), and not WordPress's preset size of a
 * paragraph's font (`has-legal-font-size`), which says how small the text is drawn, not what it is.
 */
const legalPrint = (cls: string): boolean => /legal/i.test(cls) && LEGAL_PRINT.test(cls.replace(PRESET_FONT_SIZE, " "))

const LEGAL_PRINT = /(?:^|[-_\s])legal(?:$|[-_\s])|legal-?(?:text|copy|notice)/i

/**
 * Whether an element's class names legal small print (`legalPrint`, or a disclaimer or
 * disclosure): `content.ts` drops such a block without a heading whatever its share of the page.
 */
export const namedSmallPrint = (cls: string | undefined): boolean =>
  cls !== undefined && (/disclaimer|disclosure/i.test(cls) || legalPrint(cls))

/** WordPress's preset font size of a block (`has-small-font-size`, `has-legal-font-size`). */
const PRESET_FONT_SIZE = /(?:^|\s)has-[\w-]+-font-size(?=$|\s)/gi

/**
 * The weak name "header" as one part of a heading's name (`h1` to `h6`) says what the element is,
 * not that it is the page's header: an API reference names each signature `code-header` and each
 * section's title `section-header`, a page builder each module's title `et_pb_module_header`, a
 * newsletter its sections' titles `header-anchor-post`. Those headings were dropped as furniture,
 * leaving a reference's methods and a story's sections untitled. So does it on a table's header
 * cell (`th`), a header by its tag: a shop names each label of its specification table
 * `tech-specs__header`, and the table kept its values without their labels. The bare name
 * `header` and one that ends a longer word (`GalleryHeader__title`) are judged as before; so is a
 * site's header, the `header` element or a box so named around the heading.
 */
const withoutHeader = (names: string): string =>
  names.split(/\s+/).filter((token) => !HEADER_PART.test(token) || token.toLowerCase() === "header").join(" ")

/**
 * A card's header (Bootstrap's `card-header`, BEM's `card__header`, `pricing-card-header`): the top
 * of one card in a grid, holding its title and its line (a plan's name over what it includes), not
 * the page's header. Such a name does not count as the weak name "header".
 */
const CARD_HEADER = /^(?:[\w-]*[-_])?card[-_]{1,2}header$/i

const withoutCardHeader = (names: string): string =>
  /card[-_]{1,2}header/i.test(names) ? names.split(/\s+/).filter((token) => !CARD_HEADER.test(token)).join(" ") : names

/**
 * A hero named as a banner (`heroBanner`, `hero-banner`, `collection-banner-hero`: page builders'
 * name for the large picture with a kicker, a title and a line that opens a page or each of its
 * sections). `banner` alone is weak furniture (an advertisement's strip, a notice); a hero is the
 * page's own showcase, and a shop's home page may be nothing but heroes, each a title and a line
 * too short to read as prose. Such a name does not count as the weak name "banner", except on a
 * heading, whose title `content.ts` `titleLead` reads back with its lead when dropped so.
 */
const HERO_BANNER = /hero[-_]{0,2}banner|banner[-_]{0,2}hero/gi

/**
 * Text set over a picture (`text-overlay`, `image-with-text-overlay__heading`, `textOverlay`): a
 * theme's section of a picture with a kicker, a title and a paragraph drawn on it, the page's own
 * text. `overlay` alone is weak furniture (a dimmed layer over the window, a box over a player);
 * this name does not count as it.
 */
const TEXT_OVERLAY = /(?:^|[\s_-])[Tt]ext[-_]{0,2}[Oo]verlay|(?<=[a-z])Text[-_]{0,2}Overlay/g

/**
 * A name that says a price is a promotional one (`price-promo`, `price--promo`, `promo-price`, the
 * whole last part of a class or id): a card's own price, cut for a sale (the former price struck
 * through, the new one, the code that gives it), not a promotion laid beside the page. It does
 * not count as the name "promo" (strong furniture, and Readability's negative weight) there.
 * Longer names go on as before (`promo-price-message`, `price__promos`: a coupon's notice).
 */
const PROMO_PRICE = /(?<=^|[\s_-])(?:price[-_]+promo|promo[-_]+price)(?=$|\s)/gi

/** A name with "header" as one of its parts (`code-header`, `et_pb_module_header`, `headerTxt`). */
const HEADER_PART = /(?:^|[-_])header/i

/** Utility classes of a box fixed over the whole window: Tailwind's `fixed inset-0`. */
const FIXED = /(?:^|\s)fixed(?:$|\s)/
const INSET_0 = /(?:^|\s)inset-0(?:$|\s)/

/**
 * Whether a class says the element is an overlay: a box fixed over the whole window (`fixed
 * inset-0`) is a dialog, a drawer or a full-screen menu laid over the page (a shop's "notify me
 * when back in stock" form, its size chart), never the page's own flow. Strong furniture, dropped
 * unless it holds most of the page (an app shell that scrolls inside such a box).
 */
const overlay = (cls: string): boolean => FIXED.test(cls) && INSET_0.test(cls)

/**
 * Whether a content-like name keeps an element a candidate: a class or id that says content and
 * names no furniture ("article-body has-sidebar" stays; "related-articles", "author-box__content"
 * and "sidebar-content" name the furniture's own parts).
 */
const rescued = (names: string): boolean => {
  if (!MAYBE_CONTENT.test(names)) return false
  for (const token of names.split(/\s+/)) {
    if (MAYBE_CONTENT.test(token) && !FURNITURE.test(token) && !EMBED.test(token)) return true
  }
  return false
}
