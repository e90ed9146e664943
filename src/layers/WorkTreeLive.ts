/**
 * WorkTree on Node: lstat of each component (bigint device and inode), never following a link.
 * The walk for a work folder's markers and its look again are in ./WorkTreeMarkers.ts.
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
const SLASH = Buffer.from("/")

/**
 * O_PATH (not among Node's constants): the same value on every Linux architecture Node runs on. A
 * descriptor that only names the file: it opens whatever the file's permissions, never blocks.
 */
const O_PATH = 0o10000000
const SET_IDS = 0o6000

/** Entry `name` (raw bytes) of the directory held by `fd`, resolved by the kernel relative to it. */
const entryAt = (fd: number, name: Buffer) => Buffer.concat([Buffer.from(`/proc/self/fd/${fd}/`), name])

const codeOf = (e: unknown): string => (e as NodeJS.ErrnoException)?.code ?? "EUNKNOWN"

const kindOf = (st: fs.BigIntStats): TreeEntry["kind"] =>
  st.isSymbolicLink() ? "symlink" : st.isFile() ? "file" : st.isDirectory() ? "directory" : "other"

export const WorkTreeLive = Layer.effect(
  WorkTree,
  Effect.map(Workdir, ({ root }) => {
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
     */
    const walkTree = (p: string, maxEntries: number, strict: boolean) =>
      Effect.flatMap(
        identity(p).pipe(Effect.catchTag("FileNotFound", () => Effect.succeed(null))),
        (id) =>
          Effect.suspend(() => {
            const out: Array<TreeEntry> = []
            const unnamed: Array<UnnamedFile> = []
            const skipped = new Map<string, number>()
            const skip = (why: string) => void skipped.set(why, (skipped.get(why) ?? 0) + 1)
            let full = false
            if (id === null) {
              return Effect.succeed({ entries: out, incomplete: null as string | null, unnamed })
            }
            /**
             * An entry whose name is not UTF-8 has no path a record can hold, but what it holds is
             * still the run's output: the regular files at or below it are kept apart (identity and
             * size, reached by the name's own bytes, never following a link) so that they are charged.
             */
            const walkUnnamed = (at: Buffer): void => {
              if (out.length + unnamed.length >= maxEntries) {
                full = true
                return
              }
              let st: fs.BigIntStats
              try {
                st = fs.lstatSync(at, { bigint: true })
              } catch {
                return
              }
              if (st.isFile()) {
                unnamed.push({
                  id: `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`,
                  size: Number(st.size)
                })
              } else if (st.isDirectory()) {
                let names: Array<Buffer>
                try {
                  names = fs.readdirSync(at, { encoding: "buffer" })
                } catch {
                  return
                }
                for (const name of names) {
                  walkUnnamed(Buffer.concat([at, SLASH, name]))
                  if (full) return
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
            const walk = (rel: string): IoError | LimitExceeded | undefined => {
              let raw: Array<Buffer>
              try {
                raw = fs.readdirSync(path.join(root, rel), { encoding: "buffer" })
              } catch (e) {
                if (strict) return new IoError({ path: rel, operation: "readdir", code: codeOf(e) })
                skip(`a directory could not be read (${codeOf(e)})`)
                return undefined
              }
              const names: Array<string> = []
              for (const name of raw) {
                if (isUtf8(name)) names.push(name.toString("utf8"))
                else if (strict) {
                  return new IoError({ path: `${rel}/${name.toString("utf8")}`, operation: "lstat", code: "ENOENT" })
                } else {
                  skip("a name is not UTF-8 (what is below it is charged, not listed)")
                  walkUnnamed(Buffer.concat([Buffer.from(path.join(root, rel)), SLASH, name]))
                  if (full) return undefined
                }
              }
              names.sort()
              for (const name of names) {
                const child = `${rel}/${name}`
                let st: fs.BigIntStats
                try {
                  st = fs.lstatSync(path.join(root, child), { bigint: true })
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
                  const e = walk(child)
                  if (e !== undefined) {
                    return e
                  }
                  if (full) return undefined
                }
              }
              return undefined
            }
            const e = walk(id.path)
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

    const boundary = makeBoundary(root)

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
        try {
          return fs.readdirSync(`/proc/self/fd/${fd}`, { encoding: "buffer" })
        } catch {
          unchecked++
          return null
        }
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
