/**
 * Which files of a work folder belong to something else, so that a command writing a file it was
 * given by path (the gate's `--state` and `--attempts`) must not write there, and which files are
 * dossier's own state (`stateFileAt`). Pure: the caller passes the plan's registered paths. Paths
 * are normalized and relative to the work folder.
 */
import * as Either from "effect/Either"
import { isStudyId } from "./Journal.js"
import { normalizeRelative } from "./Paths.js"

/** Why a path is not the caller's to write (`UnsafePath.reason`). */
export type OwnedReason = "dossier-state" | "plan-file" | "retained-file" | "journal-file" | "registered-file"

const JOURNAL_FILES: ReadonlyArray<string> = ["research-events.jsonl", "manifest.json", "index.json"]

/**
 * The owner of a path, or null when it is nobody's: dossier's private state (`.dossier/`), the
 * plan (`plan.md`), a retained capture (`research/sources/`), a study's journal, manifest, index,
 * recovered tail or legacy snapshot (`research/<study>/…`), or a file the plan registered (a
 * source or an output).
 */
export const ownerOf = (path: string, registered: ReadonlySet<string>): OwnedReason | null => {
  if (path === ".dossier" || path.startsWith(".dossier/")) return "dossier-state"
  if (path === "plan.md") return "plan-file"
  if (path === "research/sources" || path.startsWith("research/sources/")) return "retained-file"
  const parts = path.split("/")
  if (parts[0] === "research" && parts.length >= 3 && isStudyId(parts[1]!)) {
    if (parts.length === 3 && JOURNAL_FILES.includes(parts[2]!)) return "journal-file"
    if (parts[2] === "recovered" || parts[2] === "legacy") return "journal-file"
  }
  if (registered.has(path)) return "registered-file"
  return null
}

/**
 * Whether `path` is one of dossier's own state files, which change under every command and so
 * may never stand as a record's file: under `.dossier/` (the binding `.dossier/store.json` among
 * them), `plan.md`, or a study's journal, manifest or index (its recovered tails and legacy
 * snapshots are write-once retained files, not state). The reason (`UnsafePath.reason`), or null
 * when the path is none of them. One predicate for every place a file enters by a record or a
 * path: a copy (`pull`, `export`, the import of `init --store`) skips a record naming one and
 * never writes it; `journal append` refuses an artifact at one; `ingest --file` refuses to
 * retain one. The path is taken as the folder would resolve it (`./plan.md` is `plan.md`); one
 * that leaves the folder is not judged here (the folder's FileStore refuses it: `UnsafePath`).
 */
export const stateFileAt = (path: string): "dossier-state" | "plan-file" | "journal-file" | null => {
  const normal = normalizeRelative(path)
  if (Either.isLeft(normal)) return null
  const owner = ownerOf(normal.right, new Set())
  if (owner === "dossier-state" || owner === "plan-file") return owner
  if (owner === "journal-file" && !/\/(recovered|legacy)(\/|$)/.test(normal.right)) return owner
  return null
}
