/**
 * What a refusal repeats of what it was given, clipped: a value (an id, a path, a URL, a key, a
 * quoted input) is answered whole up to a bound, and past it as its beginning and its end around a
 * marker that says how much was left out (`ab…[99000 characters left out]…yz`). A refusal of a
 * 100 KB argument is then a few hundred bytes, not the argument twice over.
 */

/** Characters of one value a refusal repeats whole (docs/guarantees-input.md, docs/cli.md). */
export const REFUSAL_VALUE_MAX = 512

/** Characters of a refusal's message: a backstop, its values are clipped one by one first. */
export const REFUSAL_MESSAGE_MAX = 2048

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff

/**
 * `text` when it has at most `max` characters (UTF-16 code units), else its first and last
 * `max / 2` around `…[N characters left out]…`. A surrogate pair is never split.
 */
export const clipped = (text: string, max: number = REFUSAL_VALUE_MAX): string => {
  if (text.length <= max) return text
  let head = Math.ceil(max / 2)
  let tail = text.length - Math.floor(max / 2)
  if (head > 0 && isHigh(text.charCodeAt(head - 1))) head -= 1
  if (tail > 0 && isHigh(text.charCodeAt(tail - 1))) tail += 1
  return `${text.slice(0, head)}\u2026[${tail - head} characters left out]\u2026${text.slice(tail)}`
}

/** `value` with every string in it (in arrays and plain objects too) clipped; keys are clipped as well. */
export const clippedDeep = (value: unknown, max: number = REFUSAL_VALUE_MAX): unknown => {
  if (typeof value === "string") return clipped(value, max)
  if (Array.isArray(value)) return value.map((v) => clippedDeep(v, max))
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[clipped(k, max)] = clippedDeep(v, max)
    return out
  }
  return value
}
