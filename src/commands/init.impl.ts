/** `dossier init`: the folders of a work folder and `.dossier/.gitignore`, created once. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { FileStoreLive } from "../layers/FileStoreLive.js"
import { FileStore } from "../services/FileStore.js"
import { Workdir } from "../services/Workdir.js"
import { usageError, work } from "./Work.js"

export const INIT_DIRS = ["research/inputs", "research/sources", "research/results", ".dossier"] as const
export const GITIGNORE = ".dossier/.gitignore"
/** The lock and staging files are not state; everything else under .dossier/ is (kept under version control). */
export const GITIGNORE_TEXT =
  "# Written by dossier init: the lock and staging files are not state.\nlock.sqlite\nlock.sqlite-*\n*.dossier-tmp\n"

/** The folders and `.gitignore` of a work folder, created when missing. */
export const prepare = Effect.gen(function*() {
  const store = yield* FileStore
  const created: Array<string> = []
  // Every place is looked at before any folder is made: a file or a link where one folder goes is
  // refused (by ensureDir, as it refuses it) with nothing created, not after research/inputs/.
  const found = yield* Effect.forEach(INIT_DIRS, (dir) => store.stat(dir))
  for (const [i, dir] of INIT_DIRS.entries()) {
    const entry = found[i]!
    if (Option.isSome(entry) && entry.value.kind !== "directory") yield* store.ensureDir(dir)
  }
  for (const [i, dir] of INIT_DIRS.entries()) {
    if (Option.isNone(found[i]!)) created.push(`${dir}/`)
    yield* store.ensureDir(dir)
  }
  // A .gitignore already there (perhaps edited by a person) is kept as it is.
  if (Option.isNone(yield* store.stat(GITIGNORE))) {
    yield* store.writeAtomic(GITIGNORE, GITIGNORE_TEXT)
    created.push(GITIGNORE)
  }
  return { created: created.length > 0, paths: created }
})

export const init = (o: {
  readonly workdir: string
  readonly store: Option.Option<string>
  readonly dossier: Option.Option<string>
}) => {
  // DOSSIER_STORE alone does not bind: --dossier says to.
  if (Option.isSome(o.store) || Option.isSome(o.dossier)) {
    const url = Option.orElse(o.store, () => Option.fromNullable(process.env.DOSSIER_STORE || undefined))
    if (Option.isNone(o.dossier)) return usageError("--store needs --dossier <text>: the shared dossier to bind to")
    if (Option.isNone(url)) return usageError("--dossier needs --store <url> (or DOSSIER_STORE)")
    const [workdir, store, dossier] = [o.workdir, url.value, o.dossier.value]
    return import("./store.impl.js").then((m) => m.initStore(workdir, store, dossier))
  }
  return work({
    effect: prepare,
    layer: FileStoreLive.pipe(Layer.provideMerge(Workdir.live(o.workdir))),
    human: (r) =>
      r.created
        ? `initialized: created ${
          r.paths.join(", ")
        }\nnext: write research/inputs/plan.json, then dossier plan start --input research/inputs/plan.json`
        : "already initialized: nothing created"
  })
}
