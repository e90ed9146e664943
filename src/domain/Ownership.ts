/**
 * Which files of a work folder belong to something else, so that a command writing a file it was
 * given by path (the gate's `--state` and `--attempts`) must not write there. Pure: the caller
 * passes the plan's registered paths. Paths are normalized and relative to the work folder.
 */
import { isStudyId } from "./Journal.js"

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
