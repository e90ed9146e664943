/**
 * One Journal service instance keeps the replay it verified under the lock and, on its next
 * locked operation, reuses it only for the bytes that are still exactly the same. Between two
 * appends of the same instance, the journal is changed behind its back in every way we could
 * think of (another writer appends, a person edits in place with the same size, truncates,
 * deletes, replaces the file, leaves a torn tail, swaps in a link): the instance must act as a
 * fresh one would.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as fc from "fast-check"
import * as fs from "node:fs"
import * as path from "node:path"
import type { JournalEvent } from "../../src/domain/Journal.js"
import { JournalLayer } from "../../src/layers/JournalLayer.js"
import { Journal } from "../../src/services/Journal.js"
import { tempWorkdir } from "../support/cli.js"
import { created, evaluation, linesOf } from "./events.js"

const journalFile = (dir: string) => path.join(dir, "research", "s", "research-events.jsonl")

/** Rewrite a file's bytes in place (same inode, same size), as an editor saving over it would. */
const overwriteSameSize = (file: string, before: string, edited: string) => {
  expect(edited).not.toBe(before)
  expect(Buffer.byteLength(edited)).toBe(Buffer.byteLength(before))
  const fd = fs.openSync(file, "r+")
  fs.writeSync(fd, edited, 0, "utf8")
  fs.closeSync(fd)
}

/**
 * A work folder whose journal holds c0 (cand-a) and e1, appended one by one by the instance
 * under test, so that it holds a verified state of a non-empty prefix (c0) when `body` runs.
 */
const withInstance = <A, E>(body: (dir: string, j: typeof Journal.Service) => Effect.Effect<A, E>) => {
  const dir = tempWorkdir()
  return Effect.gen(function*() {
    const j = yield* Journal
    expect((yield* j.append("s", created("c0", "cand-a"))).head).toEqual({ seq: 1, id: "c0" })
    expect((yield* j.append("s", evaluation("e1", "cand-a"))).head).toEqual({ seq: 2, id: "e1" })
    return yield* body(dir, j)
  }).pipe(Effect.provide(JournalLayer(dir)))
}

const tagOf = <A, E extends { _tag: string }>(e: Either.Either<A, E>) => (Either.isLeft(e) ? e.left._tag : "ok")

describe("an instance's verified journal state is never taken for a changed file", () => {
  it.effect("another writer's appends are read and verified: seq continues, its ids are skipped or conflict", () =>
    withInstance((dir, j) =>
      Effect.gen(function*() {
        fs.appendFileSync(journalFile(dir), linesOf([evaluation("x1", "cand-a"), created("x2", "cand-b")], 3))
        const r = yield* j.append("s", [evaluation("x1", "cand-a"), evaluation("e3", "cand-b")])
        expect(r).toEqual({ study: "s", appended: ["e3"], skipped: ["x1"], head: { seq: 5, id: "e3" } })
        expect(tagOf(yield* Effect.either(j.append("s", evaluation("x1", "cand-a", "reject"))))).toBe(
          "ConflictingEvent"
        )
        expect((yield* j.rebuild("s")).events).toBe(5)
        // Another instance (another process, in effect) appends too.
        yield* Effect.provide(
          Effect.flatMap(Journal, (other) => other.append("s", evaluation("o1", "cand-b"))),
          JournalLayer(dir)
        )
        expect((yield* j.append("s", evaluation("e4", "cand-a"))).head).toEqual({ seq: 7, id: "e4" })
        const seqs = fs.readFileSync(journalFile(dir), "utf8").trimEnd().split("\n").map((l) => JSON.parse(l).seq)
        expect(seqs).toEqual([1, 2, 3, 4, 5, 6, 7])
      })
    ))

  it.effect("a damaged line appended by another writer is CorruptJournal at its line", () =>
    withInstance((dir, j) =>
      Effect.gen(function*() {
        fs.appendFileSync(journalFile(dir), linesOf([evaluation("x1", "cand-a")], 4))
        const r = yield* Effect.either(j.append("s", evaluation("e3", "cand-a")))
        expect(Either.isLeft(r) && r.left).toMatchObject({ _tag: "CorruptJournal", line: 3 })
      })
    ))

  it.effect("a same-size edit in place is CorruptJournal, also right after the instance's own append", () =>
    withInstance((dir, j) =>
      Effect.gen(function*() {
        const file = journalFile(dir)
        const before = fs.readFileSync(file, "utf8")
        overwriteSameSize(file, before, before.replace("\"title\":\"title cand-a\"", "\"title\":\"title cand-b\""))
        const r = yield* Effect.either(j.append("s", evaluation("e3", "cand-a")))
        expect(Either.isLeft(r) && r.left).toMatchObject({ _tag: "CorruptJournal", line: 1 })
        // Restoring the exact bytes makes the journal good again.
        fs.writeFileSync(file, before)
        expect((yield* j.append("s", evaluation("e3", "cand-a"))).head).toEqual({ seq: 3, id: "e3" })
      })
    ))

  it.effect("a same-size edit of the line the instance appended last is CorruptJournal at that line", () =>
    withInstance((dir, j) =>
      Effect.gen(function*() {
        // e1's line was appended by this instance, which remembers its bytes without reading them back.
        const file = journalFile(dir)
        const before = fs.readFileSync(file, "utf8")
        for (
          const [from, to] of [["\"m\":1", "\"m\":2"], ["\"seq\":2,\"sha256\":\"", "\"seq\":2,\"sha256\":\""], [
            "\"id\":\"e1\"",
            "\"id\":\"e9\""
          ]] as const
        ) {
          const lastLine = before.slice(before.lastIndexOf("\n", before.length - 2) + 1)
          const edited = before.slice(0, before.length - lastLine.length) + (from === to
            ? lastLine.replace(/"sha256":"(.)/, (_m, c: string) => `"sha256":"${c === "0" ? "1" : "0"}`)
            : lastLine.replace(from, to))
          overwriteSameSize(file, before, edited)
          const r = yield* Effect.either(j.append("s", evaluation("e3", "cand-a")))
          expect(Either.isLeft(r) && r.left).toMatchObject({ _tag: "CorruptJournal", line: 2 })
          fs.writeFileSync(file, before)
        }
        expect((yield* j.append("s", evaluation("e3", "cand-a"))).head).toEqual({ seq: 3, id: "e3" })
      })
    ))

  it.effect("truncation: to a line boundary the dropped event is appended again; mid-line it is UnterminatedTail", () =>
    withInstance((dir, j) =>
      Effect.gen(function*() {
        const file = journalFile(dir)
        const first = Buffer.byteLength(linesOf([created("c0", "cand-a")]))
        fs.truncateSync(file, first)
        const again = yield* j.append("s", evaluation("e1", "cand-a"))
        expect(again).toEqual({ study: "s", appended: ["e1"], skipped: [], head: { seq: 2, id: "e1" } })
        fs.truncateSync(file, first + 10)
        const torn = yield* Effect.either(j.append("s", evaluation("e2", "cand-a")))
        expect(Either.isLeft(torn) && torn.left).toMatchObject({ _tag: "UnterminatedTail", bytes: 10 })
        expect((yield* j.recoverTail("s")).recovered?.bytes).toBe(10)
        expect((yield* j.append("s", [evaluation("e1", "cand-a"), evaluation("e2", "cand-a")])).appended).toEqual([
          "e1",
          "e2"
        ])
      })
    ))

  it.effect("a torn tail left by another writer is UnterminatedTail until recovered", () =>
    withInstance((dir, j) =>
      Effect.gen(function*() {
        fs.appendFileSync(journalFile(dir), linesOf([evaluation("x1", "cand-a")], 3).slice(0, 20))
        const r = yield* Effect.either(j.append("s", evaluation("e3", "cand-a")))
        expect(Either.isLeft(r) && r.left).toMatchObject({ _tag: "UnterminatedTail", bytes: 20 })
        yield* j.recoverTail("s")
        expect((yield* j.append("s", evaluation("e3", "cand-a"))).head).toEqual({ seq: 3, id: "e3" })
      })
    ))

  it.effect("a deleted journal starts again at seq 1", () =>
    withInstance((dir, j) =>
      Effect.gen(function*() {
        fs.rmSync(journalFile(dir))
        const r = yield* Effect.either(j.append("s", evaluation("e3", "cand-a")))
        expect(Either.isLeft(r) && r.left).toMatchObject({ _tag: "UnknownCandidate", candidateId: "cand-a" })
        expect((yield* j.append("s", created("c9", "cand-z"))).head).toEqual({ seq: 1, id: "c9" })
      })
    ))

  it.effect("a file renamed over the journal (same size, other events) is replayed as it is", () =>
    withInstance((dir, j) =>
      Effect.gen(function*() {
        const file = journalFile(dir)
        const other = linesOf([created("c0", "cand-q"), evaluation("f1", "cand-q")])
        expect(Buffer.byteLength(other)).toBe(fs.statSync(file).size)
        fs.writeFileSync(`${file}.new`, other)
        fs.renameSync(`${file}.new`, file)
        const r = yield* Effect.either(j.append("s", evaluation("e1", "cand-a")))
        expect(Either.isLeft(r) && r.left).toMatchObject({ _tag: "UnknownCandidate", candidateId: "cand-a" })
        const ok = yield* j.append("s", [evaluation("f1", "cand-q"), evaluation("e1", "cand-q")])
        expect(ok).toEqual({ study: "s", appended: ["e1"], skipped: ["f1"], head: { seq: 3, id: "e1" } })
      })
    ))

  it.effect("a symlink or a hard link in place of the journal is AliasedFile", () =>
    withInstance((dir, j) =>
      Effect.gen(function*() {
        const file = journalFile(dir)
        const elsewhere = path.join(dir, "elsewhere.jsonl")
        fs.renameSync(file, elsewhere)
        fs.symlinkSync(elsewhere, file)
        expect(tagOf(yield* Effect.either(j.append("s", evaluation("e3", "cand-a"))))).toBe("AliasedFile")
        fs.rmSync(file)
        fs.linkSync(elsewhere, file)
        expect(tagOf(yield* Effect.either(j.append("s", evaluation("e3", "cand-a"))))).toBe("AliasedFile")
        fs.rmSync(elsewhere)
        expect((yield* j.append("s", evaluation("e3", "cand-a"))).head).toEqual({ seq: 3, id: "e3" })
      })
    ))

  it.effect("a refused batch leaves nothing behind: its candidates do not exist for the next append", () =>
    withInstance((_dir, j) =>
      Effect.gen(function*() {
        const refused = yield* Effect.either(j.append("s", [created("c5", "cand-new"), evaluation("e5", "nobody")]))
        expect(Either.isLeft(refused) && refused.left).toMatchObject({
          _tag: "UnknownCandidate",
          candidateId: "nobody"
        })
        const next = yield* Effect.either(j.append("s", evaluation("e6", "cand-new")))
        expect(Either.isLeft(next) && next.left).toMatchObject({ _tag: "UnknownCandidate", candidateId: "cand-new" })
        const conflict = yield* Effect.either(
          j.append("s", [created("c6", "cand-new2"), evaluation("e1", "cand-a", "reject")])
        )
        expect(tagOf(conflict)).toBe("ConflictingEvent")
        expect((yield* j.append("s", created("c6", "cand-new2"))).head).toEqual({ seq: 3, id: "c6" })
        expect((yield* j.inspect("s")).candidates.map((c) => c.id)).toEqual(["cand-a", "cand-new2"])
      })
    ))
})

describe("recycled read memory (the appends read each journal into memory freed by the previous read)", () => {
  type Op = {
    readonly study: "a" | "b"
    readonly kind: "new" | "retry" | "other-writer" | "conflict" | "tamper"
    readonly pick: number
  }
  const opArb = fc.record({
    study: fc.constantFrom("a" as const, "b" as const),
    kind: fc.constantFrom(
      "new" as const,
      "new" as const,
      "retry" as const,
      "other-writer" as const,
      "conflict" as const,
      "tamper" as const
    ),
    pick: fc.nat()
  })

  it.effect("appends alternating between journals, retries, refusals, another writer and same-size edits: every edit is seen and every stored text reads back as written", () =>
    Effect.gen(function*() {
      const runs = fc.sample(fc.array(opArb, { minLength: 1, maxLength: 40 }), { numRuns: 16, seed: 20261130 })
      for (const ops of runs) {
        const dir = tempWorkdir()
        yield* Effect.gen(function*() {
          const j = yield* Journal
          const written: Record<string, Array<JournalEvent>> = { a: [], b: [] }
          let n = 0
          for (const study of ["a", "b"] as const) {
            yield* j.append(study, created(`${study}-c0`, "cand"))
            written[study]!.push(created(`${study}-c0`, "cand"))
          }
          for (const op of ops as ReadonlyArray<Op>) {
            const mine = written[op.study]!
            const old = mine[op.pick % mine.length]!
            if (op.kind === "new") {
              // Long enough texts that the journals grow past the recycled memory now and then.
              const e = { ...evaluation(`${op.study}-e${n++}`, "cand"), at: "2026-11-30T10:00:00.000Z" } as JournalEvent
              yield* j.append(op.study, e)
              mine.push(e)
            } else if (op.kind === "retry") {
              expect(yield* j.append(op.study, old)).toMatchObject({ appended: [], skipped: [old.id] })
            } else if (op.kind === "tamper") {
              // A same-size edit of an earlier line: the next append must see it, then it is undone.
              const file = path.join(dir, "research", op.study, "research-events.jsonl")
              const bytes = fs.readFileSync(file)
              const lines = bytes.toString("latin1").split("\n").length - 1
              const line = op.pick % lines
              let at = 0
              for (let i = 0; i < line; i++) at = bytes.indexOf(0x0a, at) + 1
              const edited = Buffer.from(bytes)
              edited[at + 3] = edited[at + 3] === 0x65 ? 0x45 : 0x65 // inside '"seq"'
              fs.writeFileSync(file, edited)
              const refused = yield* Effect.either(j.append(op.study, evaluation(`${op.study}-t${n++}`, "cand")))
              expect(Either.isLeft(refused) && refused.left).toMatchObject({ _tag: "CorruptJournal", line: line + 1 })
              fs.writeFileSync(file, bytes)
            } else if (op.kind === "conflict") {
              const other = old.type === "candidate_created"
                ? created(old.id, "other")
                : evaluation(old.id, "cand", "reject")
              expect(tagOf(yield* Effect.either(j.append(op.study, other)))).toBe("ConflictingEvent")
            } else {
              const e = evaluation(`${op.study}-o${n++}`, "cand")
              yield* Effect.provide(Effect.flatMap(Journal, (o) => o.append(op.study, e)), JournalLayer(dir))
              mine.push(e)
            }
          }
          // Every event ever written is recognized as the same (its stored text read back intact).
          for (const study of ["a", "b"] as const) {
            const r = yield* j.append(study, written[study]!)
            expect(r.appended).toEqual([])
            expect(r.skipped).toEqual(written[study]!.map((e) => e.id))
            const fresh = yield* Effect.provide(Effect.flatMap(Journal, (o) => o.inspect(study)), JournalLayer(dir))
            expect(fresh.events).toBe(written[study]!.length)
            expect(yield* j.inspect(study)).toEqual(fresh)
          }
        }).pipe(Effect.provide(JournalLayer(dir)))
      }
    }))
})
