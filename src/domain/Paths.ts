/**
 * Pure checks of the relative paths users and input files name. The I/O side (lstat of each
 * component, O_NOFOLLOW, device/inode comparison) lives in the FileStore layers.
 */
import * as Either from "effect/Either"
import { LimitExceeded, PathOutsideArea, UnsafePath } from "./Errors.js"

/**
 * Normalize a user-given path relative to the work folder: `/` separators, no `.` segments,
 * `..` resolved lexically. Absolute paths and paths escaping the folder are refused.
 */
export const normalizeRelative = (input: string): Either.Either<string, UnsafePath> =>
  // A JavaScript caller of a FileStore is not held by the types: a path that is no string is refused.
  typeof input !== "string"
    ? Either.left(new UnsafePath({ path: NOT_A_PATH_SHOWN, reason: "invalid" }))
    : hasTooLongName(input)
    ? Either.left(new UnsafePath({ path: input, reason: "name-too-long" }))
    : isNormalRelative(input)
    ? Either.right(input)
    : normalizeRelativeGeneric(input)

/** The most bytes one name of a path may hold (NAME_MAX of Linux and most file systems). */
export const NAME_MAX_BYTES = 255

/**
 * Does a segment of the path hold more than NAME_MAX_BYTES bytes of UTF-8? No file can have such
 * a name, so the path is refused as such rather than left to the file system's ENAMETOOLONG (an
 * `IoError`, which says to retry). A UTF-16 unit takes at most 3 bytes: a path of at most 85
 * units is never too long, so the scans' ordinary names are not split.
 */
const hasTooLongName = (p: string): boolean =>
  p.length > NAME_MAX_BYTES / 3 && p.split(/[/\\]/).some((seg) => Buffer.byteLength(seg, "utf8") > NAME_MAX_BYTES)

/** What an UnsafePath names for a path argument that is no string (a number, an object, undefined). */
export const NOT_A_PATH_SHOWN = "(not a string)"

/**
 * Is the path already in the form normalizeRelative gives (non-empty `/`-separated segments,
 * none empty, `.` or `..`, no backslash or NUL, not absolute, no drive letter)? Such a path
 * normalizes to itself; scans that name thousands of files skip the split-and-join for it.
 */
export const isNormalRelative = (p: string): boolean => {
  if (p.length === 0 || p.charCodeAt(0) === 47) return false
  if (p.length >= 2 && p.charCodeAt(1) === 58 && /^[A-Za-z]/.test(p)) return false
  let start = 0
  for (let i = 0; i <= p.length; i++) {
    const c = i === p.length ? 47 : p.charCodeAt(i)
    if (c === 0 || c === 92) return false
    if (c !== 47) continue
    const len = i - start
    if (len === 0) return false
    if (len <= 2 && p.charCodeAt(start) === 46 && (len === 1 || p.charCodeAt(start + 1) === 46)) return false
    start = i + 1
  }
  return true
}

/** A Windows drive prefix (`C:`): absolute there, so refused, given directly or reached through `.`/`..`. */
const DRIVE_LETTER = /^[A-Za-z]:/

/** An absolute path is never echoed: it names the machine, not the work folder. */
export const ABSOLUTE_PATH_SHOWN = "(an absolute path)"
const absolute = () => new UnsafePath({ path: ABSOLUTE_PATH_SHOWN, reason: "absolute" })

/** normalizeRelative without the already-normal shortcut (exported for the test that compares both). */
export const normalizeRelativeGeneric = (input: string): Either.Either<string, UnsafePath> => {
  if (input.length === 0 || input.includes("\0")) return Either.left(new UnsafePath({ path: input, reason: "invalid" }))
  const slashed = input.replace(/\\/g, "/")
  if (slashed.startsWith("/") || DRIVE_LETTER.test(slashed)) return Either.left(absolute())
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
  const joined = out.join("/")
  // "./C:x" or "a/../C:x" would come out as "C:x", which is refused as absolute when given as is.
  if (DRIVE_LETTER.test(joined)) return Either.left(absolute())
  return Either.right(joined)
}

/** Is a normalized relative path strictly inside the given area (e.g. `research/sources`)? */
export const isUnder = (path: string, area: string): boolean => path.startsWith(area.endsWith("/") ? area : `${area}/`)

/** Normalize and require the path to lie under an area. */
export const normalizeInArea = (
  input: string,
  area: string
): Either.Either<string, UnsafePath | PathOutsideArea> =>
  Either.flatMap(
    normalizeRelative(input),
    (p) => isUnder(p, area) ? Either.right(p) : Either.left(new PathOutsideArea({ path: input, area: `${area}/` }))
  )

/** What a file read looks at on the entry it reads (an lstat, or the fstat of what it opened). */
export interface ReadEntry {
  readonly kind: "file" | "directory" | "symlink" | "other"
  readonly size: number
  readonly nlink: number
}

/**
 * Why a read refuses the entry at `path` (FileStore `read`: a regular file, never a symlink, link
 * count 1 unless `requireSingleLink` is false, at most `maxBytes`), or undefined when it reads it.
 * The FileStore layers apply it to the file they opened; a listing applies it to an lstat, so that
 * it offers only what a read serves (the MCP server's resources, src/mcp/Resources.ts).
 */
export const readRefusal = (
  path: string,
  entry: ReadEntry,
  options: { readonly requireSingleLink: boolean; readonly maxBytes: number }
): UnsafePath | LimitExceeded | undefined =>
  entry.kind === "symlink"
    ? new UnsafePath({ path, reason: "symlink" })
    : entry.kind !== "file"
    ? new UnsafePath({ path, reason: "not-regular-file" })
    : options.requireSingleLink && entry.nlink > 1
    ? new UnsafePath({ path, reason: "hard-link" })
    : entry.size > options.maxBytes
    ? new LimitExceeded({ limit: "fileBytes", max: options.maxBytes, actual: entry.size, path })
    : undefined
