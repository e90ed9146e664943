/**
 * Pure checks of the relative paths users and input files name. The I/O side (lstat of each
 * component, O_NOFOLLOW, device/inode comparison) lives in the FileStore layers.
 */
import * as Either from "effect/Either"
import { PathOutsideArea, UnsafePath } from "./Errors.js"

/**
 * Normalize a user-given path relative to the work folder: `/` separators, no `.` segments,
 * `..` resolved lexically. Absolute paths and paths escaping the folder are refused.
 */
export const normalizeRelative = (input: string): Either.Either<string, UnsafePath> => {
  if (input.length === 0 || input.includes("\0")) return Either.left(new UnsafePath({ path: input, reason: "invalid" }))
  const slashed = input.replace(/\\/g, "/")
  if (slashed.startsWith("/") || /^[A-Za-z]:/.test(slashed)) {
    return Either.left(new UnsafePath({ path: input, reason: "absolute" }))
  }
  const out: Array<string> = []
  for (const seg of slashed.split("/")) {
    if (seg === "" || seg === ".") continue
    if (seg === "..") {
      if (out.length === 0) return Either.left(new UnsafePath({ path: input, reason: "outside-workdir" }))
      out.pop()
      continue
    }
    out.push(seg)
  }
  if (out.length === 0) return Either.left(new UnsafePath({ path: input, reason: "invalid" }))
  return Either.right(out.join("/"))
}

/** Is a normalized relative path strictly inside the given area (e.g. `research/sources`)? */
export const isUnder = (path: string, area: string): boolean => path.startsWith(area.endsWith("/") ? area : `${area}/`)

/** Normalize and require the path to lie under an area. */
export const normalizeInArea = (
  input: string,
  area: string
): Either.Either<string, UnsafePath | PathOutsideArea> =>
  Either.flatMap(normalizeRelative(input), (p) =>
    isUnder(p, area) ? Either.right(p) : Either.left(new PathOutsideArea({ path: input, area: `${area}/` }))
  )
