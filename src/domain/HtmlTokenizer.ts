/**
 * htmlparser2's `Tokenizer`, specialised for the readable copy's hot path: HTML mode only
 * (`xmlMode: false`), no character references decoded (`decodeEntities: false`), the whole page
 * as one string (one `write`, then `end`). It reports exactly the callbacks htmlparser2 10.1.0's
 * tokenizer reports there, with the same arguments, in the same order, on every input (including
 * what it reports for input left unfinished at the end, and its quirks: `</>` kept as text, the
 * `<xitle>`/`<tmp>` raw-text tags its sequence matching allows, U+001C read as `<` when matching a
 * raw-text element's end tag); test/ingest/html-tokenizer.test.ts compares the two.
 *
 * Why: htmlparser2's tokenizer dispatches every character through its `parse` loop's `switch`
 * on `this.state` and a method call per state; here each state is a case of one loop over local
 * variables that reads a whole run of characters (a tag name, an unquoted value, a raw-text body)
 * in a tight `charCodeAt` loop, or skips to the character it waits for with `indexOf`
 * (docs/performance.md, "Ingest"). Decoding, XML mode, chunked input and pausing stay with
 * htmlparser2's tokenizer (`tokenizeHtml` in HtmlText.ts picks).
 *
 * The states, their transitions and the callbacks' arguments are ported from htmlparser2 10.1.0's
 * `Tokenizer.js` (MIT licence, copyright 2010–2016 Felix Böhm and contributors).
 *
 * One file of some 600 lines, on purpose: the states are the cases of one loop over shared local
 * variables (the index, the section's start, the state), which is what makes it fast; split into
 * modules they would be functions passing that state back and forth. The common tag's name and
 * attributes are read twice over, in `BeforeTagName`/`BeforeAttributeName` and in their own
 * states: going through the state dispatch for them instead cost the tokenizer ~40% more time
 * on the 2 MiB bench page (4.0 → 5.7 ms, median of 160 alternating runs).
 */
import type { Tokenizer } from "htmlparser2"

export type TokenizerCallbacks = ConstructorParameters<typeof Tokenizer>[1]

/** htmlparser2's states (the ones HTML mode without decoding reaches), by its numbers. */
const enum State {
  Text = 1,
  BeforeTagName = 2,
  InTagName = 3,
  InSelfClosingTag = 4,
  BeforeClosingTagName = 5,
  InClosingTagName = 6,
  AfterClosingTagName = 7,
  BeforeAttributeName = 8,
  InAttributeName = 9,
  AfterAttributeName = 10,
  BeforeAttributeValue = 11,
  InAttributeValueDq = 12,
  InAttributeValueSq = 13,
  InAttributeValueNq = 14,
  BeforeDeclaration = 15,
  InDeclaration = 16,
  InProcessingInstruction = 17,
  BeforeComment = 18,
  CDATASequence = 19,
  InSpecialComment = 20,
  InCommentLike = 21,
  BeforeSpecialS = 22,
  BeforeSpecialT = 23,
  SpecialStartSequence = 24,
  InSpecialTag = 25
}

const enum Char {
  Tab = 9,
  NewLine = 10,
  FormFeed = 12,
  CarriageReturn = 13,
  Space = 32,
  ExclamationMark = 33,
  DoubleQuote = 34,
  SingleQuote = 39,
  Dash = 45,
  Slash = 47,
  Lt = 60,
  Eq = 61,
  Gt = 62,
  Questionmark = 63,
  OpeningSquareBracket = 91
}

/** htmlparser2's `QuoteType` (an enum of its types, so its values by number). */
const NO_VALUE = 0
const UNQUOTED = 1
const SINGLE = 2
const DOUBLE = 3

const isWhitespace = (c: number): boolean =>
  c <= Char.Space && (c === Char.Space || c === Char.NewLine || c === Char.Tab || c === Char.FormFeed || c === Char.CarriageReturn)

const isEndOfTagSection = (c: number): boolean => c === Char.Slash || c === Char.Gt || isWhitespace(c)

const isASCIIAlpha = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90)

/**
 * htmlparser2's sequences, as strings: its raw-text elements' end tags (matched from index 4 in
 * the start tag, from 0 in the text; letters compared with `| 0x20`, so are `<` and `/`).
 */
const CDATA = "CDATA["
const CDATA_END = "]]>"
const COMMENT_END = "-->"
const SCRIPT_END = "</script"
const STYLE_END = "</style"
const TITLE_END = "</title"
const TEXTAREA_END = "</textarea"
const XMP_END = "</xmp"

/**
 * Tokenize `html` as htmlparser2's `Tokenizer({ xmlMode: false, decodeEntities: false }, cbs)`
 * does with `write(html)` then `end()`: never an `ontextentity` or `onattribentity`.
 */
export const tokenizeUndecoded = (html: string, cbs: TokenizerCallbacks): void => {
  const len = html.length
  let state: State = State.Text
  /** The beginning of the section being read (-1: none). */
  let sectionStart = 0
  /** The index of the character being looked at; a state that reconsumes it leaves it as it is. */
  let i = 0
  /** In the start tag of a raw-text element (script, style, title, textarea, xmp). */
  let isSpecial = false
  /** The sequence being matched (a raw-text element's end tag, or a comment's or CDATA's end). */
  let sequence = SCRIPT_END
  let sequenceIndex = 0

  while (i < len) {
    switch (state) {
      case State.Text: {
        const lt = html.indexOf("<", i)
        if (lt < 0) {
          i = len
          break
        }
        if (lt > sectionStart) cbs.ontext(sectionStart, lt)
        state = State.BeforeTagName
        sectionStart = lt
        i = lt + 1
        break
      }
      case State.BeforeTagName: {
        // The common tags' names are read on here, without a dispatch per state: a start tag's
        // name (not one that may name a raw-text element) to its end, an end tag's to its `>`.
        let c = html.charCodeAt(i)
        if (c === Char.ExclamationMark) {
          state = State.BeforeDeclaration
          sectionStart = i + 1
        } else if (c === Char.Questionmark) {
          state = State.InProcessingInstruction
          sectionStart = i + 1
        } else if (isASCIIAlpha(c)) {
          const lower = c | 0x20
          sectionStart = i
          if (lower === 0x73 /* s */) state = State.BeforeSpecialS
          else if (lower === 0x74 /* t */ || lower === 0x78 /* x */) state = State.BeforeSpecialT
          else {
            // InTagName.
            do {
              if (++i === len) break
              c = html.charCodeAt(i)
            } while (!isEndOfTagSection(c))
            if (i === len) {
              state = State.InTagName
              break
            }
            cbs.onopentagname(sectionStart, i)
            sectionStart = -1
            state = State.BeforeAttributeName
            break
          }
        } else if (c === Char.Slash) {
          state = State.BeforeClosingTagName
          if (++i === len) break
          c = html.charCodeAt(i)
          if (!isASCIIAlpha(c)) break
          // InClosingTagName.
          sectionStart = i
          do {
            if (++i === len) break
            c = html.charCodeAt(i)
          } while (c !== Char.Gt && !isWhitespace(c))
          if (i === len) {
            state = State.InClosingTagName
            break
          }
          cbs.onclosetag(sectionStart, i)
          sectionStart = -1
          if (c === Char.Gt) {
            state = State.Text
            sectionStart = i + 1
            i++
          } else state = State.AfterClosingTagName
          break
        } else {
          // Not a tag: text again, this character included (it may be another `<`).
          state = State.Text
          break
        }
        i++
        break
      }
      case State.InTagName: {
        while (i < len && !isEndOfTagSection(html.charCodeAt(i))) i++
        if (i === len) break
        cbs.onopentagname(sectionStart, i)
        sectionStart = -1
        state = State.BeforeAttributeName
        break
      }
      case State.BeforeSpecialS: {
        const lower = html.charCodeAt(i) | 0x20
        if (lower === 0x63 /* c */) sequence = SCRIPT_END
        else if (lower === 0x74 /* t */) sequence = STYLE_END
        else {
          state = State.InTagName
          break
        }
        isSpecial = true
        sequenceIndex = 4
        state = State.SpecialStartSequence
        i++
        break
      }
      case State.BeforeSpecialT: {
        const lower = html.charCodeAt(i) | 0x20
        if (lower === 0x69 /* i */) sequence = TITLE_END
        else if (lower === 0x65 /* e */) sequence = TEXTAREA_END
        else if (lower === 0x6d /* m */) sequence = XMP_END
        else {
          state = State.InTagName
          break
        }
        isSpecial = true
        sequenceIndex = 4
        state = State.SpecialStartSequence
        i++
        break
      }
      case State.SpecialStartSequence: {
        // The start tag's name against the element's (its end tag's letters after `</`).
        const seqLength = sequence.length
        while (i < len && sequenceIndex < seqLength && (html.charCodeAt(i) | 0x20) === sequence.charCodeAt(sequenceIndex)) {
          sequenceIndex++
          i++
        }
        if (i === len) break
        const matched = sequenceIndex === seqLength && isEndOfTagSection(html.charCodeAt(i))
        if (!matched) isSpecial = false
        sequenceIndex = 0
        state = State.InTagName
        break
      }
      case State.BeforeClosingTagName: {
        let c = html.charCodeAt(i)
        while (isWhitespace(c)) {
          if (++i === len) break
          c = html.charCodeAt(i)
        }
        if (i === len) break
        if (c === Char.Gt) state = State.Text
        else {
          state = isASCIIAlpha(c) ? State.InClosingTagName : State.InSpecialComment
          sectionStart = i
        }
        i++
        break
      }
      case State.InClosingTagName: {
        let c = html.charCodeAt(i)
        while (c !== Char.Gt && !isWhitespace(c)) {
          if (++i === len) break
          c = html.charCodeAt(i)
        }
        if (i === len) break
        cbs.onclosetag(sectionStart, i)
        sectionStart = -1
        state = State.AfterClosingTagName
        break
      }
      case State.AfterClosingTagName: {
        const gt = html.indexOf(">", i)
        if (gt < 0) {
          i = len
          break
        }
        state = State.Text
        sectionStart = gt + 1
        i = gt + 1
        break
      }
      case State.BeforeAttributeName: {
        // A start tag's common attributes (`name`, `name="value"`, `name='value'`, `name=value`)
        // are read on here, one after another, without a dispatch per state; at anything else
        // (whitespace around `=`, a name after a name, the end of the input) this leaves
        // htmlparser2's state at that character, and the dispatch goes on from there.
        for (;;) {
          let c = 0
          while (i < len && isWhitespace((c = html.charCodeAt(i)))) i++
          if (i === len) break
          if (c === Char.Gt) {
            cbs.onopentagend(i)
            if (isSpecial) {
              state = State.InSpecialTag
              sequenceIndex = 0
            } else state = State.Text
            sectionStart = i + 1
            i++
            break
          }
          if (c === Char.Slash) {
            state = State.InSelfClosingTag
            i++
            break
          }
          // InAttributeName.
          sectionStart = i
          do {
            if (++i === len) break
            c = html.charCodeAt(i)
          } while (c !== Char.Eq && !isEndOfTagSection(c))
          if (i === len) {
            state = State.InAttributeName
            break
          }
          cbs.onattribname(sectionStart, i)
          sectionStart = i
          // AfterAttributeName.
          if (c === Char.Slash || c === Char.Gt) {
            cbs.onattribend(NO_VALUE, sectionStart)
            sectionStart = -1
            continue
          }
          if (c !== Char.Eq) {
            state = State.AfterAttributeName
            break
          }
          // BeforeAttributeValue.
          if (++i === len) {
            state = State.BeforeAttributeValue
            break
          }
          c = html.charCodeAt(i)
          if (c === Char.DoubleQuote || c === Char.SingleQuote) {
            sectionStart = i + 1
            const end = html.indexOf(c === Char.DoubleQuote ? "\"" : "'", sectionStart)
            if (end < 0) {
              state = c === Char.DoubleQuote ? State.InAttributeValueDq : State.InAttributeValueSq
              i = len
              break
            }
            cbs.onattribdata(sectionStart, end)
            sectionStart = -1
            cbs.onattribend(c === Char.DoubleQuote ? DOUBLE : SINGLE, end + 1)
            i = end + 1
            continue
          }
          if (isWhitespace(c)) {
            state = State.BeforeAttributeValue
            break
          }
          // InAttributeValueNq (`>` may end it at once: `a=>`).
          sectionStart = i
          while (c !== Char.Gt && !isWhitespace(c)) {
            if (++i === len) break
            c = html.charCodeAt(i)
          }
          if (i === len) {
            state = State.InAttributeValueNq
            break
          }
          cbs.onattribdata(sectionStart, i)
          sectionStart = -1
          cbs.onattribend(UNQUOTED, i)
        }
        break
      }
      case State.InSelfClosingTag: {
        const c = html.charCodeAt(i)
        if (c === Char.Gt) {
          cbs.onselfclosingtag(i)
          state = State.Text
          sectionStart = i + 1
          isSpecial = false
        } else if (!isWhitespace(c)) {
          state = State.BeforeAttributeName
          break
        }
        i++
        break
      }
      case State.InAttributeName: {
        let c = html.charCodeAt(i)
        while (c !== Char.Eq && !isEndOfTagSection(c)) {
          if (++i === len) break
          c = html.charCodeAt(i)
        }
        if (i === len) break
        cbs.onattribname(sectionStart, i)
        sectionStart = i
        state = State.AfterAttributeName
        break
      }
      case State.AfterAttributeName: {
        const c = html.charCodeAt(i)
        if (c === Char.Eq) {
          state = State.BeforeAttributeValue
        } else if (c === Char.Slash || c === Char.Gt) {
          cbs.onattribend(NO_VALUE, sectionStart)
          sectionStart = -1
          state = State.BeforeAttributeName
          break
        } else if (!isWhitespace(c)) {
          cbs.onattribend(NO_VALUE, sectionStart)
          state = State.InAttributeName
          sectionStart = i
        }
        i++
        break
      }
      case State.BeforeAttributeValue: {
        const c = html.charCodeAt(i)
        if (c === Char.DoubleQuote) {
          state = State.InAttributeValueDq
          sectionStart = i + 1
        } else if (c === Char.SingleQuote) {
          state = State.InAttributeValueSq
          sectionStart = i + 1
        } else if (!isWhitespace(c)) {
          sectionStart = i
          state = State.InAttributeValueNq
          break
        }
        i++
        break
      }
      case State.InAttributeValueDq:
      case State.InAttributeValueSq: {
        const double = state === State.InAttributeValueDq
        const end = html.indexOf(double ? "\"" : "'", i)
        if (end < 0) {
          i = len
          break
        }
        cbs.onattribdata(sectionStart, end)
        sectionStart = -1
        cbs.onattribend(double ? DOUBLE : SINGLE, end + 1)
        state = State.BeforeAttributeName
        i = end + 1
        break
      }
      case State.InAttributeValueNq: {
        let c = html.charCodeAt(i)
        while (c !== Char.Gt && !isWhitespace(c)) {
          if (++i === len) break
          c = html.charCodeAt(i)
        }
        if (i === len) break
        cbs.onattribdata(sectionStart, i)
        sectionStart = -1
        cbs.onattribend(UNQUOTED, i)
        state = State.BeforeAttributeName
        break
      }
      case State.BeforeDeclaration: {
        const c = html.charCodeAt(i)
        if (c === Char.OpeningSquareBracket) {
          state = State.CDATASequence
          sequenceIndex = 0
        } else state = c === Char.Dash ? State.BeforeComment : State.InDeclaration
        i++
        break
      }
      case State.CDATASequence: {
        if (html.charCodeAt(i) === CDATA.charCodeAt(sequenceIndex)) {
          if (++sequenceIndex === CDATA.length) {
            state = State.InCommentLike
            sequence = CDATA_END
            sequenceIndex = 0
            sectionStart = i + 1
          }
          i++
        } else {
          sequenceIndex = 0
          state = State.InDeclaration
        }
        break
      }
      case State.BeforeComment: {
        if (html.charCodeAt(i) === Char.Dash) {
          state = State.InCommentLike
          sequence = COMMENT_END
          // Allows short comments (`<!-->`).
          sequenceIndex = 2
          sectionStart = i + 1
        } else state = State.InDeclaration
        i++
        break
      }
      case State.InDeclaration:
      case State.InProcessingInstruction:
      case State.InSpecialComment: {
        const gt = html.indexOf(">", i)
        if (gt < 0) {
          i = len
          break
        }
        if (state === State.InDeclaration) cbs.ondeclaration(sectionStart, gt)
        else if (state === State.InProcessingInstruction) cbs.onprocessinginstruction(sectionStart, gt)
        else cbs.oncomment(sectionStart, gt, 0)
        state = State.Text
        sectionStart = gt + 1
        i = gt + 1
        break
      }
      case State.InCommentLike: {
        // `-->` or `]]>`: their first character repeated may precede them (`--->`, `]]]>`).
        let c = html.charCodeAt(i)
        for (;;) {
          if (c === sequence.charCodeAt(sequenceIndex)) {
            if (++sequenceIndex === sequence.length) {
              if (sequence === CDATA_END) cbs.oncdata(sectionStart, i, 2)
              else cbs.oncomment(sectionStart, i, 2)
              sequenceIndex = 0
              sectionStart = i + 1
              state = State.Text
              i++
              break
            }
          } else if (sequenceIndex === 0) {
            const at = html.indexOf(sequence[0]!, i + 1)
            if (at < 0) {
              i = len
              break
            }
            i = at
            sequenceIndex = 1
          } else if (c !== sequence.charCodeAt(sequenceIndex - 1)) sequenceIndex = 0
          if (++i === len) break
          c = html.charCodeAt(i)
        }
        break
      }
      case State.InSpecialTag: {
        // A raw-text element's text, to its end tag; a title's is read character by character
        // (htmlparser2 decodes it there when it decodes), the others' skip to the next `<`.
        const seqLength = sequence.length
        const skips = sequence !== TITLE_END
        let c = html.charCodeAt(i)
        for (;;) {
          if (sequenceIndex === seqLength) {
            if (c === Char.Gt || isWhitespace(c)) {
              const endOfText = i - seqLength
              if (sectionStart < endOfText) cbs.ontext(sectionStart, endOfText)
              isSpecial = false
              // The end tag's name, after its `</`; this character ends it.
              cbs.onclosetag(endOfText + 2, i)
              sectionStart = -1
              state = State.AfterClosingTagName
              break
            }
            sequenceIndex = 0
          }
          if ((c | 0x20) === sequence.charCodeAt(sequenceIndex)) sequenceIndex++
          else if (sequenceIndex === 0) {
            if (skips) {
              const lt = html.indexOf("<", i + 1)
              if (lt < 0) {
                i = len
                break
              }
              i = lt
              sequenceIndex = 1
            }
          } else sequenceIndex = c === Char.Lt ? 1 : 0
          if (++i === len) break
          c = html.charCodeAt(i)
        }
        break
      }
    }
  }

  // htmlparser2's `cleanup` at the end of `parse` (the index is at the end of the input now).
  if (sectionStart !== len) {
    if (state === State.Text || (state === State.InSpecialTag && sequenceIndex === 0)) {
      cbs.ontext(sectionStart, len)
      sectionStart = len
    } else if (state === State.InAttributeValueDq || state === State.InAttributeValueSq || state === State.InAttributeValueNq) {
      cbs.onattribdata(sectionStart, len)
      sectionStart = len
    }
  }
  // Its `handleTrailingData`: what is left unfinished at the end; inside a tag, nothing.
  if (sectionStart < len) {
    if (state === State.InCommentLike) {
      if (sequence === CDATA_END) cbs.oncdata(sectionStart, len, 0)
      else cbs.oncomment(sectionStart, len, 0)
    } else if (
      state !== State.InTagName && state !== State.BeforeAttributeName && state !== State.BeforeAttributeValue &&
      state !== State.AfterAttributeName && state !== State.InAttributeName && state !== State.InAttributeValueSq &&
      state !== State.InAttributeValueDq && state !== State.InAttributeValueNq && state !== State.InClosingTagName
    ) cbs.ontext(sectionStart, len)
  }
  cbs.onend()
}
