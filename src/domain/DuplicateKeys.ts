/**
 * A key given twice in one object of a JSON text. `JSON.parse` keeps the last one silently, so
 * `{"id": "a", "id": "b"}` would be taken as `{"id": "b"}`: an input the user wrote is ambiguous
 * there, and dossier refuses it rather than guess (docs/cli.md, "Files named on the command line").
 */
import { clipped } from "./Clip.js"
import type { Issue } from "./Errors.js"

interface Frame {
  /** The keys seen so far in an object; undefined for an array. */
  readonly keys: Set<string> | undefined
  /** The object's current key, or the array's current index: the path segment to the child. */
  key: string
  index: number
  /** In an object: the next string is a key. */
  expectKey: boolean
}

/**
 * The first key given more than once in one object of `text`, as an issue at its dotted path
 * (`0.candidate.id`), or null. `text` must be valid JSON (call it after `JSON.parse` accepted it).
 * Keys are compared after their escapes are decoded (`"\u0069d"` is `id`). Iterative: any depth.
 */
export const duplicateKey = (text: string): Issue | null => {
  const found = duplicateKeyAt(text)
  return found === null ? null : { path: found.path.join("."), message: found.message }
}

/** A key given twice, by the segments of its path (a segment may itself hold a dot). */
export interface DuplicateAt {
  readonly path: ReadonlyArray<string>
  readonly message: string
}

/** `duplicateKey` with the path as its segments (the MCP server splits off the envelope's). */
export const duplicateKeyAt = (text: string): DuplicateAt | null => {
  const stack: Array<Frame> = []
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      // A string: find its closing quote (a backslash escapes the next character).
      let j = i + 1
      for (;;) {
        const d = text.charCodeAt(j)
        if (d === 0x5c) j += 2
        else if (d === 0x22 || Number.isNaN(d)) break
        else j++
      }
      const top = stack[stack.length - 1]
      if (top?.keys !== undefined && top.expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string
        if (top.keys.has(key)) {
          const path = [...stack.slice(0, -1).map((f) => f.keys === undefined ? String(f.index) : f.key), key]
          return { path, message: `the key '${clipped(key)}' appears more than once in this object` }
        }
        top.keys.add(key)
        top.key = key
        top.expectKey = false
      }
      i = j
    } else if (c === 0x7b) stack.push({ keys: new Set(), key: "", index: 0, expectKey: true })
    else if (c === 0x5b) stack.push({ keys: undefined, key: "", index: 0, expectKey: false })
    else if (c === 0x7d || c === 0x5d) stack.pop()
    else if (c === 0x2c) {
      const top = stack[stack.length - 1]
      if (top?.keys !== undefined) top.expectKey = true
      else if (top !== undefined) top.index++
    }
  }
  return null
}
