/**
 * Text a page's own system decoded twice. A shop's database or template takes UTF-8 bytes for
 * Windows-1252 (or Latin-1) and writes each byte back as a character of its own, so the page,
 * served as UTF-8, says "Brandâ€™s" for "Brand’s", "Productname Â®" for "Productname ®", "dÃ©tente"
 * for "détente": every character past ASCII becomes two or three. A reader sees the garbled
 * letters, but they are no words of the text (the references write the characters meant), and
 * they run into the words beside them ("Brandâ"). Each run of such characters that, read back as
 * the bytes they stand for, is one well-formed UTF-8 character is written as that character
 * (`withoutMojibake`), up to three times for text garbled more than once. A lead character with
 * no continuation after it ("Â" alone, "Ã" before a capital) is no such run and stays. Only on a
 * page that says it shows one product (Readable.ts): a shop's text comes from its catalogue's
 * database, where the garble is made; on articles and manuals the garbled words are as often the
 * page's own text as it was published and read (WCXB's references keep "youâ" on some).
 */

/** Windows-1252's characters for the bytes 0x80–0x9f (the rest of the byte range maps to U+0080–U+00FF). */
const CP1252: Record<string, number> = {
  "\u20ac": 0x80,
  "\u201a": 0x82,
  "\u0192": 0x83,
  "\u201e": 0x84,
  "\u2026": 0x85,
  "\u2020": 0x86,
  "\u2021": 0x87,
  "\u02c6": 0x88,
  "\u2030": 0x89,
  "\u0160": 0x8a,
  "\u2039": 0x8b,
  "\u0152": 0x8c,
  "\u017d": 0x8e,
  "\u2018": 0x91,
  "\u2019": 0x92,
  "\u201c": 0x93,
  "\u201d": 0x94,
  "\u2022": 0x95,
  "\u2013": 0x96,
  "\u2014": 0x97,
  "\u02dc": 0x98,
  "\u2122": 0x99,
  "\u0161": 0x9a,
  "\u203a": 0x9b,
  "\u0153": 0x9c,
  "\u017e": 0x9e,
  "\u0178": 0x9f
}

/** A continuation byte's character: U+0080–U+00BF or Windows-1252's for 0x80–0x9f (`CP1252`'s keys). */
const CONT = `[\\u0080-\\u00bf${Object.keys(CP1252).join("")}]`

/**
 * The lead bytes' characters of the garbles pages carry: "Â" and "Ã" (0xc2, 0xc3: Latin-1's
 * signs and accented letters, "Â®", "Ã©"), "Å" (0xc5: "Å¡" for "š") with one continuation, and
 * "â" (0xe2) then a byte of 0x80–0x84 ("€", "„" or the bare control character a Latin-1
 * reading leaves: general punctuation, "â€™", and letterlike signs, "â„¢") with two.
 * Other leads are letters a text writes before a sign ("É»", "ß…") and stay.
 */
const GARBLED = new RegExp(
  `[\\u00c2\\u00c3\\u00c5]${CONT}|\\u00e2[\\u0080-\\u0084\\u20ac\\u201a\\u0192\\u201e]${CONT}`,
  "g"
)

const byteOf = (c: string): number => CP1252[c] ?? c.charCodeAt(0)

const utf8 = new TextDecoder("utf-8", { fatal: true })

/** `run` (a lead character and its continuations) read back as UTF-8, or as it is when they make none. */
const decoded = (run: string): string => {
  try {
    return utf8.decode(Uint8Array.from([...run], byteOf))
  } catch {
    return run
  }
}

/** `text` with each run of characters that stand for one UTF-8 character's bytes written as that character. */
export const withoutMojibake = (text: string): string => {
  let out = text
  for (let pass = 0; pass < 3; pass++) {
    const next = out.replace(GARBLED, decoded)
    if (next === out) break
    out = next
  }
  return out
}
