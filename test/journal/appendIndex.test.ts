/**
 * An append by a new Journal instance (a new process: one CLI call) goes through the append
 * index (src/layers/folder/JournalAppendIndex.ts) instead of replaying the history: it must read none
 * of the journal, write exactly the bytes a replaying append writes, and still refuse a journal
 * changed behind its back (edited, truncated, torn, replaced) exactly as a replay does.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import * as path from "node:path"
import type { JournalEvent } from "../../src/domain/Journal.js"
import { makeFileStoreLive } from "../../src/layers/FileStoreLive.js"
import { JournalLive } from "../../src/layers/JournalLive.js"
import { LockLive } from "../../src/layers/LockLive.js"
import { FileStore, type FileStoreShape } from "../../src/services/FileStore.js"
import { Journal } from "../../src/services/Journal.js"
import { Workdir } from "../../src/services/Workdir.js"
import { tempWorkdir } from "../support/cli.js"
import { created, evaluation, linesOf } from "./events.js"

const JOURNAL = "research/s/research-events.jsonl"

/** A fresh Journal over the folder (a new process, in effect), counting the bytes it reads of the journal. */
const fresh = (dir: string) => {
  const counted = { journalBytes: 0 }
  const live = makeFileStoreLive(dir)
  const count = (p: string, n: number) => {
    if (p === JOURNAL) counted.journalBytes += n
  }
  const store: FileStoreShape = {
    ...live,
    read: (p, o) => Effect.tap(live.read(p, o), (b) => count(p, b.byteLength)),
    readText: (p, o) => Effect.tap(live.readText(p, o), (t) => count(p, Buffer.byteLength(t))),
    readThenAppend: (p, o, decide) => live.readThenAppend!(p, o, (bytes) => (count(p, bytes.byteLength), decide(bytes)))
  }
  const layer = JournalLive.pipe(
    Layer.provideMerge(LockLive),
    Layer.provideMerge(Layer.merge(Layer.succeed(FileStore, store), Workdir.live(dir)))
  )
  const run = <A, E>(f: (j: typeof Journal.Service) => Effect.Effect<A, E>) =>
    Effect.runPromise(Effect.either(Effect.provide(Effect.flatMap(Journal, f), layer))).finally(() => live.close())
  return { run, counted }
}

const tagOf = <A, E extends { _tag: string }>(e: Either.Either<A, E>) => (Either.isLeft(e) ? e.left : "ok")

describe("append through the index in a new instance", () => {
  it("reads none of the journal when every id is new, and writes the bytes a replay writes", async () => {
    const dir = tempWorkdir()
    const history = [created("c0", "cand-a"), ...Array.from({ length: 2000 }, (_, i) => evaluation(`e${i}`, "cand-a"))]
    fs.mkdirSync(path.join(dir, "research", "s"), { recursive: true })
    fs.writeFileSync(path.join(dir, JOURNAL), linesOf(history))
    // The first append of a new instance replays (and writes the index).
    const first = fresh(dir)
    expect(await first.run((j) => j.append("s", evaluation("n1", "cand-a")))).toEqual(
      Either.right({ study: "s", appended: ["n1"], skipped: [], head: { seq: 2002, id: "n1" } })
    )
    expect(first.counted.journalBytes).toBeGreaterThan(100_000)
    // Every later new instance appends without reading the journal.
    for (let k = 2; k <= 4; k++) {
      const next = fresh(dir)
      const batch = [created(`c${k}`, `cand-${k}`), evaluation(`n${k}`, `cand-${k}`, "reject")]
      const r = await next.run((j) => j.append("s", batch))
      expect(r).toEqual(
        Either.right({
          study: "s",
          appended: [`c${k}`, `n${k}`],
          skipped: [],
          head: { seq: 2000 + 2 * k, id: `n${k}` }
        })
      )
      expect(next.counted.journalBytes).toBe(0)
    }
    const all = [
      ...history,
      evaluation("n1", "cand-a"),
      ...[2, 3, 4].flatMap((k) => [created(`c${k}`, `cand-${k}`), evaluation(`n${k}`, `cand-${k}`, "reject")])
    ]
    expect(fs.readFileSync(path.join(dir, JOURNAL), "utf8")).toBe(linesOf(all))
    // Refusals through the index are those of a replay.
    expect(tagOf(await fresh(dir).run((j) => j.append("s", evaluation("n9", "cand-zz"))))).toMatchObject({
      _tag: "UnknownCandidate",
      candidateId: "cand-zz"
    })
    expect(tagOf(await fresh(dir).run((j) => j.append("s", [evaluation("n8", "cand-a"), created("n9", "cand-2")]))))
      .toMatchObject({ _tag: "InvalidInput" })
    // A retry and a conflict are decided on the stored text.
    expect(
      await fresh(dir).run((j) => j.append("s", [evaluation("n3", "cand-3", "reject"), evaluation("n5", "cand-a")]))
    ).toEqual(
      Either.right({ study: "s", appended: ["n5"], skipped: ["n3"], head: { seq: 2009, id: "n5" } })
    )
    expect(tagOf(await fresh(dir).run((j) => j.append("s", evaluation("n5", "cand-a", "reject"))))).toMatchObject({
      _tag: "ConflictingEvent",
      id: "n5"
    })
    expect((await fresh(dir).run((j) => j.inspect("s"))).pipe(Either.map((r) => r.events))).toEqual(Either.right(2009))
  }, 60_000)

  it("a journal changed behind its back is refused or replayed exactly as before", async () => {
    const dir = tempWorkdir()
    const file = path.join(dir, JOURNAL)
    const append = (e: JournalEvent | ReadonlyArray<JournalEvent>) => fresh(dir).run((j) => j.append("s", e))
    expect(tagOf(await append(created("c0", "cand-a")))).toBe("ok")
    expect(tagOf(await append(evaluation("e1", "cand-a")))).toBe("ok")
    expect(tagOf(await append(evaluation("e2", "cand-a")))).toBe("ok")
    const good = fs.readFileSync(file, "utf8")
    // A same-size edit in place of the first line.
    const fd = fs.openSync(file, "r+")
    fs.writeSync(fd, good.replace("\"title\":\"title cand-a\"", "\"title\":\"title cand-b\""), 0, "utf8")
    fs.closeSync(fd)
    expect(tagOf(await append(evaluation("e3", "cand-a")))).toMatchObject({ _tag: "CorruptJournal", line: 1 })
    fs.writeFileSync(file, good)
    // Truncated to a line boundary: the dropped event is appended again at its place.
    expect(tagOf(await append(evaluation("e3", "cand-a")))).toBe("ok")
    fs.truncateSync(file, Buffer.byteLength(linesOf([created("c0", "cand-a")])))
    expect(await append(evaluation("e1", "cand-a"))).toEqual(
      Either.right({ study: "s", appended: ["e1"], skipped: [], head: { seq: 2, id: "e1" } })
    )
    // A torn tail.
    fs.appendFileSync(file, linesOf([evaluation("x", "cand-a")], 3).slice(0, 12))
    expect(tagOf(await append(evaluation("e4", "cand-a")))).toMatchObject({ _tag: "UnterminatedTail", bytes: 12 })
    fs.truncateSync(file, Buffer.byteLength(linesOf([created("c0", "cand-a"), evaluation("e1", "cand-a")])))
    // Another writer's appends: read and verified.
    expect(tagOf(await append(evaluation("e4", "cand-a")))).toBe("ok")
    fs.appendFileSync(file, linesOf([evaluation("x1", "cand-a")], 4))
    expect(await append([evaluation("x1", "cand-a"), evaluation("e5", "cand-a")])).toEqual(
      Either.right({ study: "s", appended: ["e5"], skipped: ["x1"], head: { seq: 5, id: "e5" } })
    )
    // The file replaced by another with other content (same size, new inode).
    const before = fs.readFileSync(file, "utf8")
    fs.rmSync(file)
    fs.writeFileSync(file, before.replace("\"m\":1}", "\"m\":2}"))
    expect(tagOf(await append(evaluation("e6", "cand-a")))).toMatchObject({ _tag: "CorruptJournal" })
    // A damaged index is not trusted: the journal is replayed.
    fs.writeFileSync(file, before)
    fs.writeFileSync(path.join(dir, ".dossier/journal/s.id-hashes"), "")
    expect(await append(evaluation("e6", "cand-a"))).toEqual(
      Either.right({ study: "s", appended: ["e6"], skipped: [], head: { seq: 6, id: "e6" } })
    )
    expect(await append(evaluation("e6", "cand-a"))).toEqual(
      Either.right({ study: "s", appended: [], skipped: ["e6"], head: { seq: 6, id: "e6" } })
    )
    expect(fs.readFileSync(file, "utf8")).toBe(before + linesOf([evaluation("e6", "cand-a")], 6))
  }, 60_000)
})
