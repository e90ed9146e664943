/**
 * The one quote matcher (spec README "Quote matching"), shared by the gate and the monitor:
 * after Unicode NFC and collapsing every whitespace run to one space (in both), the quote must be
 * a substring of the text and at least 20 characters long. Otherwise exact.
 */
export const MIN_QUOTE_LENGTH = 20

/**
 * Replaces exactly what `/\s+/g → " "` replaces, but touches only runs of two or more whitespace
 * characters and single non-space ones, so text with ordinary single spaces is not rebuilt
 * (several times faster on large sources; a property test checks the equivalence).
 */
const WHITESPACE_TO_COLLAPSE = /\s{2,}|[\t\n\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/g

/** Every run of whitespace (as `\s` defines it) becomes one space. */
export const collapseWhitespace = (text: string): string => text.replace(WHITESPACE_TO_COLLAPSE, " ")

/** NFC, then every run of whitespace becomes one space; leading/trailing whitespace trimmed. */
export const normalizeForQuote = (text: string): string => text.normalize("NFC").replace(WHITESPACE_TO_COLLAPSE, " ").trim()

export type QuoteCheck =
  | { readonly matched: true }
  | { readonly matched: false; readonly reason: "quote-too-short" | "quote-not-found" }

/** Length in characters (code points) of the normalized quote. */
const charLength = (s: string): number => [...s].length

export const checkQuote = (quote: string, text: string): QuoteCheck => {
  const q = normalizeForQuote(quote)
  if (charLength(q) < MIN_QUOTE_LENGTH) return { matched: false, reason: "quote-too-short" }
  return normalizeForQuote(text).includes(q) ? { matched: true } : { matched: false, reason: "quote-not-found" }
}

/** Matcher over a pre-normalized text, for checking many quotes against one large source. */
export const makeQuoteMatcher = (text: string) => {
  const normalized = normalizeForQuote(text)
  return (quote: string): QuoteCheck => {
    const q = normalizeForQuote(quote)
    if (charLength(q) < MIN_QUOTE_LENGTH) return { matched: false, reason: "quote-too-short" }
    return normalized.includes(q) ? { matched: true } : { matched: false, reason: "quote-not-found" }
  }
}

export const quoteMatches = (quote: string, text: string): boolean => checkQuote(quote, text).matched
