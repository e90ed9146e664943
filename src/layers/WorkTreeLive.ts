/**
 * WorkTree on Node: lstat of each component (bigint device and inode), never following a link.
 * The walk for a work folder's markers and its look again are in ./WorkTreeMarkers.ts.
 *
 * Over 400 lines: the scan and the set-ID walk both go by descriptor from the one boundary and
 * share its helpers (`entryAt`, the O_PATH check); apart, each would rebuild them.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import { randomBytes } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { FileNotFound, IoError, LimitExceeded, UnsafePath } from "../domain/Errors.js"
import type { TreeEntry } from "../domain/Execution.js"
import type { RootIdentity } from "../domain/Grant.js"
import { normalizeRelative } from "../domain/Paths.js"
import { Workdir } from "../services/Workdir.js"
import { type SetIdsCleared, type UnnamedFile, WorkTree } from "../services/WorkTree.js"
import { guard, makeBoundary } from "./Boundary.js"
import { isPlanMarker, MARKER_DIR, MARKER_PLAN, surveyMarkers } from "./WorkTreeMarkers.js"

const UTF8 = new TextDecoder("utf-8", { fatal: true })

/**
 * O_PATH (not among Node's constants): the same value on every Linux architecture Node runs on. A
 * descriptor that only names the file: it opens whatever the file's permissions, never blocks.
 */
const O_PATH = 0o10000000
const SET_IDS = 0o6000
/** The longest path the system takes (Linux PATH_MAX, the terminating NUL included). */
const PATH_MAX = 4096

/** Entry `name` (raw bytes) of the directory held by `fd`, resolved by the kernel relative to it. */
const entryAt = (fd: number, name: Buffer) => Buffer.concat([Buffer.from(`/proc/self/fd/${fd}/`), name])

const codeOf = (e: unknown): string => (e as NodeJS.ErrnoException)?.code ?? "EUNKNOWN"

/** The names (raw bytes) in the directory held by `fd`, or the error code. */
const listAt = (fd: number): Array<Buffer> | string => {
  try {
    return fs.readdirSync(`/proc/self/fd/${fd}`, { encoding: "buffer" })
  } catch (e) {
    return codeOf(e)
  }
}

/** What a walk found (`WorkTree.scanUpTo`). */
type Walked = { entries: Array<TreeEntry>; incomplete: string | null; unnamed: Array<UnnamedFile> }

const kindOf = (st: fs.BigIntStats): TreeEntry["kind"] =>
  st.isSymbolicLink() ? "symlink" : st.isFile() ? "file" : st.isDirectory() ? "directory" : "other"

export const WorkTreeLive = Layer.effect(
  WorkTree,
  Effect.map(Workdir, ({ root }) => {
    const boundary = makeBoundary(root)
    const rootBytes = Buffer.byteLength(root)

    const normalize = (p: string) =>
      Either.match(normalizeRelative(p), { onLeft: Effect.fail, onRight: Effect.succeed })

    const identity = (p: string): Effect.Effect<RootIdentity, IoError | FileNotFound | UnsafePath> =>
      Effect.flatMap(
        normalize(p),
        (rel) =>
          Effect.suspend((): Effect.Effect<RootIdentity, IoError | FileNotFound | UnsafePath> => {
            let current = root
            let st: fs.BigIntStats | undefined
            for (const part of rel.split("/")) {
              current = path.join(current, part)
              try {
                st = fs.lstatSync(current, { bigint: true })
              } catch (e) {
                const code = codeOf(e)
                if (code === "ENOENT" || code === "ENOTDIR") return Effect.fail(new FileNotFound({ path: rel }))
                return Effect.fail(new IoError({ path: rel, operation: "lstat", code }))
              }
              if (st.isSymbolicLink()) return Effect.fail(new UnsafePath({ path: rel, reason: "symlink" }))
              if (!st.isDirectory()) return Effect.fail(new UnsafePath({ path: rel, reason: "not-directory" }))
            }
            return Effect.succeed({ path: rel, device: String(st!.dev), inode: String(st!.ino) })
          })
      )

    /**
     * The walk. `strict`: the first error or the entry limit fails it; otherwise the walk goes
     * on past what it cannot read, stops at the limit, and says why it is incomplete.
     *
     * By descriptor, as `clearBelow` does: the top directory is reached through the boundary, each
     * entry is looked at relative to its directory's descriptor, and a directory below is opened
     * relative to its parent's with O_DIRECTORY | O_NOFOLLOW and must be the directory just looked
     * at (device and inode). A directory swapped for a link while the walk runs (another run of
     * the grant, or a child grant's, still going) is therefore never followed: what it names
     * outside is neither listed nor charged. A directory whose path would be longer than the
     * system takes (PATH_MAX) is not entered, as when the walk went by path.
     */
    const walkTree = (p: string, maxEntries: number, strict: boolean) =>
      Effect.flatMap(
        identity(p).pipe(Effect.catchTag("FileNotFound", () => Effect.succeed(null))),
        (id) =>
          Effect.suspend((): Effect.Effect<Walked, IoError | UnsafePath | LimitExceeded> => {
            const out: Array<TreeEntry> = []
            const unnamed: Array<UnnamedFile> = []
            const skipped = new Map<string, number>()
            const skip = (why: string) => void skipped.set(why, (skipped.get(why) ?? 0) + 1)
            let full = false
            const nothing = () => Effect.succeed({ entries: out, incomplete: null as string | null, unnamed })
            if (id === null) return nothing()
            let top: ReturnType<typeof boundary.walk>
            try {
              top = guard(id.path, "open", () => boundary.walk(id.path, false, false))
            } catch (e) {
              return Effect.fail(e as IoError | UnsafePath)
            }
            if (top === undefined) return nothing()
            /** The bytes of an absolute path to `rel` below the work folder (for the PATH_MAX rule). */
            const tooLong = (rel: string) => rootBytes + 1 + Buffer.byteLength(rel) >= PATH_MAX
            /**
             * Open entry `name` of the directory held by `fd` as a directory, if it is still the
             * directory `st` (never following a link): its descriptor, or the error code.
             */
            const openBelow = (fd: number, name: Buffer, st: fs.BigIntStats): number | string => {
              let below: number
              try {
                below = fs.openSync(
                  entryAt(fd, name),
                  fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW
                )
              } catch (e) {
                // A link opened with O_DIRECTORY | O_NOFOLLOW is ELOOP or ENOTDIR.
                return codeOf(e)
              }
              let held: fs.BigIntStats
              try {
                held = fs.fstatSync(below, { bigint: true })
              } catch (e) {
                fs.closeSync(below)
                return codeOf(e)
              }
              if (held.dev !== st.dev || held.ino !== st.ino) {
                fs.closeSync(below)
                return "ECHANGED"
              }
              return below
            }
            /**
             * An entry whose name is not UTF-8 has no path a record can hold, but what it holds is
             * still the run's output: the regular files at or below it are kept apart (identity and
             * size, reached by descriptor, never following a link) so that they are charged.
             * `depth` stands for the bytes of its path (for the PATH_MAX rule).
             */
            const walkUnnamed = (fd: number, name: Buffer, depth: number): void => {
              if (out.length + unnamed.length >= maxEntries) {
                full = true
                return
              }
              let st: fs.BigIntStats
              try {
                st = fs.lstatSync(entryAt(fd, name), { bigint: true })
              } catch {
                return
              }
              if (st.isFile()) {
                unnamed.push({
                  id: `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`,
                  size: Number(st.size)
                })
              } else if (st.isDirectory()) {
                if (rootBytes + 1 + depth >= PATH_MAX) return
                const below = openBelow(fd, name, st)
                if (typeof below === "string") return
                try {
                  const names = listAt(below)
                  if (typeof names === "string") return
                  for (const n of names) {
                    walkUnnamed(below, n, depth + 1 + n.length)
                    if (full) return
                  }
                } finally {
                  fs.closeSync(below)
                }
              }
            }
            const isUtf8 = (name: Buffer) => {
              try {
                UTF8.decode(name)
                return true
              } catch {
                return false
              }
            }
            /** Walk the directory `rel`, held by `fd` (the caller closes it). */
            const walk = (fd: number, rel: string): IoError | LimitExceeded | undefined => {
              const raw = listAt(fd)
              if (typeof raw === "string") {
                if (strict) return new IoError({ path: rel, operation: "readdir", code: raw })
                skip(`a directory could not be read (${raw})`)
                return undefined
              }
              const names: Array<string> = []
              for (const name of raw) {
                if (isUtf8(name)) names.push(name.toString("utf8"))
                else if (strict) {
                  return new IoError({ path: `${rel}/${name.toString("utf8")}`, operation: "lstat", code: "ENOENT" })
                } else {
                  skip("a name is not UTF-8 (what is below it is charged, not listed)")
                  walkUnnamed(fd, name, Buffer.byteLength(rel) + 1 + name.length)
                  if (full) return undefined
                }
              }
              names.sort()
              for (const name of names) {
                const child = `${rel}/${name}`
                const bytes = Buffer.from(name)
                let st: fs.BigIntStats
                try {
                  if (tooLong(child)) throw Object.assign(new Error(), { code: "ENAMETOOLONG" })
                  st = fs.lstatSync(entryAt(fd, bytes), { bigint: true })
                } catch (e) {
                  // Gone since the listing.
                  if (codeOf(e) === "ENOENT") continue
                  if (strict) return new IoError({ path: child, operation: "lstat", code: codeOf(e) })
                  skip(`an entry could not be read (${codeOf(e)})`)
                  continue
                }
                if (out.length + unnamed.length >= maxEntries) {
                  if (strict) {
                    return new LimitExceeded({ limit: "workRootEntries", max: maxEntries, actual: out.length + 1 })
                  }
                  full = true
                  return undefined
                }
                const kind = kindOf(st)
                out.push({
                  path: child,
                  kind,
                  device: String(st.dev),
                  inode: String(st.ino),
                  size: Number(st.size),
                  mtimeNs: String(st.mtimeNs),
                  ctimeNs: String(st.ctimeNs),
                  links: Number(st.nlink)
                })
                if (kind === "directory") {
                  const below = tooLong(`${child}/`) ? "ENAMETOOLONG" : openBelow(fd, bytes, st)
                  if (typeof below === "string") {
                    // Gone since it was looked at.
                    if (below === "ENOENT") continue
                    // Swapped (for a link, or another directory) since it was looked at: never followed.
                    const why = below === "ELOOP" || below === "ENOTDIR" || below === "ECHANGED"
                      ? "a directory was replaced while the walk ran (not followed)"
                      : `a directory could not be read (${below})`
                    if (strict) return new IoError({ path: child, operation: "open", code: below })
                    skip(why)
                    continue
                  }
                  let e: IoError | LimitExceeded | undefined
                  try {
                    e = walk(below, child)
                  } finally {
                    fs.closeSync(below)
                  }
                  if (e !== undefined) return e
                  if (full) return undefined
                }
              }
              return undefined
            }
            let e: IoError | LimitExceeded | undefined
            try {
              e = walk(top.fd, id.path)
            } finally {
              top.close()
            }
            if (e !== undefined) return Effect.fail(e)
            const why = [
              ...(full ? [`the walk stopped at ${maxEntries} entries`] : []),
              ...[...skipped].map(([w, n]) => `${w}: ${n} time(s)`)
            ]
            return Effect.succeed({ entries: out, incomplete: why.length === 0 ? null : why.join("; "), unnamed })
          })
      )

    const scan = (p: string, maxEntries: number) => Effect.map(walkTree(p, maxEntries, true), (r) => r.entries)
    const scanUpTo = (p: string, maxEntries: number) =>
      walkTree(p, maxEntries, false) as Effect.Effect<
        { entries: ReadonlyArray<TreeEntry>; incomplete: string | null; unnamed: ReadonlyArray<UnnamedFile> },
        IoError | UnsafePath
      >

    /**
     * Rename entry `name` of the directory held by `dirFd` to `<name>.from-run` (or, when that is
     * taken, a name with a random suffix), never over an existing entry. The new name, or null.
     */
    const renameMarker = (dirFd: number, name: string): string | null => {
      for (let i = 0; i < 8; i++) {
        const to = i === 0 ? `${name}.from-run` : `${name}.from-run-${randomBytes(4).toString("hex")}`
        try {
          fs.lstatSync(entryAt(dirFd, Buffer.from(to)))
          continue
        } catch (e) {
          if (codeOf(e) !== "ENOENT") return null
        }
        try {
          fs.renameSync(entryAt(dirFd, Buffer.from(name)), entryAt(dirFd, Buffer.from(to)))
          return to
        } catch {
          return null
        }
      }
      return null
    }

    /**
     * The walk of `clearSetIds`: from the directory's descriptor, each entry relative to its
     * directory's descriptor (a directory swapped for a link while the walk runs redirects
     * nothing), no depth or entry limit (a file hidden deep or past a scan's limit is cleared too).
     * A file is changed through a descriptor of the entry checked (device and inode), never by name.
     * It also renames what would pass for a work folder (`isPlanMarker`, `renameMarker`).
     */
    const clearBelow = (rel: string): SetIdsCleared => {
      const cleared: Array<string> = []
      let unnamed = 0
      let unchecked = 0
      const markers: Array<string> = []
      const markersLeft: Array<string> = []
      let markersUnnamed = 0
      const done = () => {
        cleared.sort()
        return { cleared, unnamed, unchecked, markers, markersLeft, markersUnnamed }
      }
      const top = guard(rel, "open", () => boundary.walk(rel, false, false))
      if (top === undefined) return done()
      type Frame = {
        readonly fd: number
        readonly close: () => void
        readonly path: string | null
        names: Array<Buffer>
      }
      const stack: Array<Frame> = []
      const names = (fd: number): Array<Buffer> | null => {
        const listed = listAt(fd)
        if (typeof listed !== "string") return listed
        unchecked++
        return null
      }
      try {
        stack.push({ fd: top.fd, close: top.close, path: rel, names: names(top.fd) ?? [] })
        while (stack.length > 0) {
          const f = stack[stack.length - 1]!
          const name = f.names.pop()
          if (name === undefined) {
            stack.pop()
            f.close()
            continue
          }
          let at = entryAt(f.fd, name)
          let text: string | null = null
          try {
            text = UTF8.decode(name)
          } catch {
            text = null
          }
          let where = f.path === null || text === null ? null : `${f.path}/${text}`
          let st: fs.BigIntStats
          try {
            st = fs.lstatSync(at, { bigint: true })
          } catch (e) {
            if (codeOf(e) !== "ENOENT") unchecked++
            continue
          }
          // A `.dossier` folder or a plan.md with a plan section would make a command run from
          // inside the work root take it for a work folder: renamed (never deleted: it is output).
          if (
            (text === MARKER_DIR && st.isDirectory()) ||
            (text === MARKER_PLAN && st.isFile() && isPlanMarker(at, st))
          ) {
            const to = renameMarker(f.fd, text)
            if (to === null) {
              if (where === null) markersUnnamed++
              else markersLeft.push(where)
            } else {
              if (where === null) markersUnnamed++
              else markers.push(`'${where}' to '${to}'`)
              at = entryAt(f.fd, Buffer.from(to))
              where = f.path === null ? null : `${f.path}/${to}`
            }
          }
          if (st.isDirectory()) {
            let fd: number
            try {
              fd = fs.openSync(at, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW)
            } catch (e) {
              if (codeOf(e) !== "ENOENT") unchecked++
              continue
            }
            const below = names(fd)
            if (below === null) fs.closeSync(fd)
            else stack.push({ fd, close: () => fs.closeSync(fd), path: where, names: below })
          } else if (st.isFile() && (Number(st.mode) & SET_IDS) !== 0) {
            try {
              const fd = fs.openSync(at, O_PATH | fs.constants.O_NOFOLLOW)
              try {
                const held = fs.fstatSync(fd, { bigint: true })
                if (!held.isFile() || held.dev !== st.dev || held.ino !== st.ino) {
                  unchecked++
                  continue
                }
                fs.chmodSync(`/proc/self/fd/${fd}`, Number(held.mode) & 0o1777)
              } finally {
                fs.closeSync(fd)
              }
              if (where === null) unnamed++
              else cleared.push(where)
            } catch (e) {
              if (codeOf(e) !== "ENOENT") unchecked++
            }
          }
        }
      } finally {
        for (const f of stack) f.close()
      }
      return done()
    }

    /** Is `rel` a path to walk (no link in it)? Nothing to walk when it does not exist. */
    const walkable = (rel: string): boolean => {
      const top = guard(rel, "open", () => boundary.walk(rel, false, false))
      top?.close()
      return top !== undefined
    }

    /**
     * The work-folder markers at or below directory `rel` (not `rel` itself), by path: no link
     * followed, no limit (a marker deep or past a scan's limit is found too). A name that is not
     * UTF-8 is shown with its invalid bytes replaced. The look again (./WorkTreeMarkers.ts) checks
     * the path again first.
     */
    const surveyBelow = (rel: string) => {
      const survey = surveyMarkers(Buffer.from(path.join(root, rel)), rel, walkable(rel))
      return { found: survey.found, again: walking("readdir", () => (walkable(rel) ? survey.again() : []))(rel) }
    }

    /** A synchronous walk below `p` as an Effect: its own refusals kept, any other throw an IoError of `operation`. */
    const walking = <A>(operation: string, walk: (rel: string) => A) => (p: string) =>
      Effect.flatMap(normalize(p), (rel) =>
        Effect.try({
          try: () => walk(rel),
          catch: (e) =>
            e instanceof UnsafePath || e instanceof IoError
              ? e
              : new IoError({ path: rel, operation, code: codeOf(e) })
        }))

    const surveyMarkersAt = walking("readdir", surveyBelow)
    const markers = (p: string) => Effect.map(surveyMarkersAt(p), (s) => s.found)
    const clearSetIds = walking("chmod", clearBelow)

    return { identity, scan, scanUpTo, markers, surveyMarkers: surveyMarkersAt, clearSetIds }
  })
)
