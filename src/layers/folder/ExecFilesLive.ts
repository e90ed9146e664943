/**
 * ExecFiles over the work folder (src/services/ExecFiles.ts): the FileStore's checked access for
 * work roots, masks and outputs, and the host's file system for where a program is found.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import { programPlaces } from "../../domain/Execution.js"
import { ExecFiles, type ExecFilesShape, type ProgramProblem } from "../../services/ExecFiles.js"
import { FileStore } from "../../services/FileStore.js"
import { Workdir } from "../../services/Workdir.js"

/**
 * Can the program start inside the sandbox? Looked up on the machine at the places the sandbox
 * shows at its name (as execvp would: the first executable regular file wins). A link inside a
 * root that points outside the sandbox is found here but not inside; prlimit then says so.
 */
const programProblem = (
  root: string,
  program: string,
  view: Parameters<typeof programPlaces>[1]
): ProgramProblem | null => {
  let seen: ProgramProblem = "missing"
  for (const place of programPlaces(program, view)) {
    let st: fs.Stats
    try {
      st = fs.statSync("system" in place ? place.system : `${root}/${place.folder}`)
    } catch {
      continue
    }
    if (st.isFile() && (st.mode & 0o111) !== 0) return null
    if (seen === "missing") seen = st.isDirectory() ? "directory" : "not-executable"
  }
  return seen
}

export const ExecFilesLive: Layer.Layer<ExecFiles, never, FileStore | Workdir> = Layer.effect(
  ExecFiles,
  Effect.gen(function*() {
    const store = yield* FileStore
    const { root } = yield* Workdir
    return {
      ensureDir: store.ensureDir,
      stat: store.stat,
      hash: (path) => store.hash(path, { maxBytes: Number.MAX_SAFE_INTEGER, requireSingleLink: false }),
      list: store.list,
      programProblem: (program, view) => Effect.sync(() => programProblem(root, program, view))
    } satisfies ExecFilesShape
  })
)
