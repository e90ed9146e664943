/**
 * Where the folder spells a `protected` entry the way a reader takes for it: below each input
 * root, every path whose names are `sameNameToAReader` (NFC-equal) to the entry's at each
 * component below the root (the root as granted). A mask covers exact bytes, so every such
 * spelling needs one. Shared by `grant create` (an entry whose other spelling is not listed is
 * refused) and `exec` (every spelling that exists at the start of a run is masked).
 */
import * as Effect from "effect/Effect"
import { sameNameToAReader } from "../domain/Grant.js"
import { isUnder } from "../domain/Paths.js"
import type { EntryKind } from "../services/FileStore.js"

/** One path spelling a protected entry; `throughLink` when one of its directories is a symlink. */
export interface Spelling {
  readonly path: string
  readonly throughLink: boolean
}

type List<E> = (dir: string) => Effect.Effect<ReadonlyArray<{ readonly name: string; readonly kind: EntryKind }>, E>

/**
 * A finder of spellings over `list` (the entries of a directory, none when it is absent). Each
 * directory is listed at most once per finder, whatever the number of entries looked up. A
 * symlink met where the entry goes on below is not followed: the path through it is answered
 * with `throughLink` (what it names would be visible through the link; a mask cannot hide it).
 */
export const spellingFinder = <E>(list: List<E>) => {
  const listed = new Map<string, ReadonlyArray<{ readonly name: string; readonly kind: EntryKind }>>()
  const entriesOf = (dir: string) => {
    const known = listed.get(dir)
    return known !== undefined
      ? Effect.succeed(known)
      : Effect.tap(list(dir), (names) => Effect.sync(() => listed.set(dir, names)))
  }
  return (entry: string, inputs: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<Spelling>, E> =>
    Effect.gen(function*() {
      const out: Array<Spelling> = []
      const add = (s: Spelling) => {
        if (!out.some((o) => o.path === s.path)) out.push(s)
      }
      for (const root of inputs) {
        if (!isUnder(entry.normalize("NFC"), root.normalize("NFC"))) continue
        const rest = entry.split("/").slice(root.split("/").length)
        let at = [root]
        for (const [k, part] of rest.entries()) {
          const last = k === rest.length - 1
          const next: Array<string> = []
          for (const dir of at) {
            for (const e of yield* entriesOf(dir)) {
              if (!sameNameToAReader(e.name, part)) continue
              if (last || e.kind === "directory") next.push(`${dir}/${e.name}`)
              else if (e.kind === "symlink") {
                add({ path: [dir, e.name, ...rest.slice(k + 1)].join("/"), throughLink: true })
              }
            }
          }
          at = next
        }
        for (const p of at) add({ path: p, throughLink: false })
      }
      return out
    })
}
