/**
 * The work folder a command acts on. `root` is its real path, resolved once; it is never
 * printed (outputs name paths relative to it).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import { WorkdirNotFound } from "../domain/Errors.js"

export class Workdir extends Context.Tag("dossier/Workdir")<Workdir, { readonly root: string }>() {
  /** Resolve a folder on disk (it must exist and be a directory). */
  static readonly live = (dir: string): Layer.Layer<Workdir, WorkdirNotFound> =>
    Layer.effect(
      Workdir,
      Effect.try({
        try: () => fs.realpathSync(dir),
        catch: () => new WorkdirNotFound({ reason: "missing" })
      }).pipe(
        Effect.filterOrFail(
          (root) => fs.statSync(root).isDirectory(),
          () => new WorkdirNotFound({ reason: "not-directory" })
        ),
        Effect.map((root) => ({ root }))
      )
    )

  /** A fixed root (used by the in-memory layers, where no disk is involved). */
  static readonly fixed = (root: string): Layer.Layer<Workdir> => Layer.succeed(Workdir, { root })
}
