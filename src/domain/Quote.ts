/**
 * The one quote matcher (spec README "Quote matching"), shared by the gate and the monitor:
 * after Unicode NFC and collapsing every whitespace run to one space (in both), the quote must be
 * a substring of the text and at least 20 characters long. Otherwise exact.
 */
export const MIN_QUOTE_LENGTH = 20

/** NFC, then every run of whitespace becomes one space; leading/trailing whitespace trimmed. */
export const normalizeForQuote = (text: string): string => text.normalize("NFC").replace(/\s+/gu, " ").trim()

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
