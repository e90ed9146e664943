/**
 * An artifact is a file the study produced, bound by its SHA-256; dossier's own state (under
 * `.dossier/`, `plan.md`, a study's journal, manifest or index) changes under every command, so an
 * artifact naming one would be broken by the next command. `journal append` refuses it as a path
 * the study may not name (`UnsafePath`, `reason` saying whose it is), on the CLI, through MCP and
 * in the library, for a single event, inside a batch and on a retry, and writes nothing.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { JournalMemory } from "../../src/layers/JournalMemory.js"
import { Journal } from "../../src/services/Journal.js"
import { connect } from "../mcp/support.js"
import { leaksNothing, put, putInput, runCli, snapshot, tempWorkdir } from "../support/cli.js"
import { created, linesOf } from "./events.js"

const sha = (b: string | Uint8Array) => createHash("sha256").update(b).digest("hex")

const append = (dir: string, input: string) => {
  const r = runCli(["journal", "append", "--study", "s", "--input", input, "--workdir", dir, "--json"])
  expect(leaksNothing(dir, r)).toBe(true)
  return r
}
const linked = (id: string, artifactPath: string, digests: { sha256?: string; bytes?: number } = {}) => ({
  id,
  type: "artifact_linked",
  candidateId: "a",
  artifact: { path: artifactPath, ...digests }
})

/**
 * A folder with a plan, a capture log and a study `s` with a rebuilt projection; unbound (no
 * `.dossier/store.json`, which an artifact may not name all the same: it would be the binding).
 */
const folder = () => {
  const dir = tempWorkdir("dossier-state-artifacts-")
  put(dir, "plan.md", "# notes\n")
  put(dir, ".dossier/captures.jsonl", "")
  put(dir, "research/results/out.csv", "a,b\n1,2\n")
  const r = append(dir, putInput(dir, "create.json", created("c1", "a")))
  expect(r.code, r.stdout).toBe(0)
  expect(runCli(["journal", "rebuild", "--study", "s", "--workdir", dir, "--json"]).code).toBe(0)
  return dir
}

const STATE: ReadonlyArray<readonly [string, string]> = [
  [".dossier/store.json", "dossier-state"],
  [".dossier/captures.jsonl", "dossier-state"],
  ["plan.md", "plan-file"],
  ["research/s/research-events.jsonl", "journal-file"],
  ["research/s/manifest.json", "journal-file"],
  ["research/s/index.json", "journal-file"]
]

describe("journal append: an artifact at dossier's own state", () => {
  it("is UnsafePath naming the path and whose it is, alone, in a batch, with digests given; nothing is written", () => {
    const dir = folder()
    const good = linked("ok", "research/results/out.csv")
    for (const [p, reason] of STATE) {
      const file = path.join(dir, p)
      const bytes = fs.existsSync(file) ? fs.readFileSync(file) : Buffer.from("{}\n")
      for (
        const input of [
          linked("bad", p),
          // Digests given: no file is read, the path alone decides.
          linked("bad", p, { sha256: sha(bytes), bytes: bytes.byteLength }),
          // Later in a batch whose other events are fine: the whole batch is refused.
          [good, linked("bad", p)]
        ]
      ) {
        const given = putInput(dir, "bad.json", input)
        const before = snapshot(dir)
        const r = append(dir, given)
        expect({ code: r.code, ok: r.json?.ok }, `${p}: ${r.stdout}`).toEqual({ code: 1, ok: false })
        expect(r.json.error).toMatchObject({ _tag: "UnsafePath", path: p, reason, retryable: false })
        // The hint speaks of a path an input names, not only of a path flag.
        expect(r.json.error.hint).toMatch(/a file an input names/)
        expect(snapshot(dir)).toEqual(before)
      }
    }
  })

  it("a retry of a batch stored before the rule is refused too, not skipped as already there", () => {
    const dir = folder()
    const event = linked("old", "plan.md", { sha256: sha("# notes\n"), bytes: 8 })
    // The journal as an earlier version left it: the artifact at plan.md committed.
    const journal = path.join(dir, "research/s/research-events.jsonl")
    fs.appendFileSync(journal, linesOf([event as never], 2))
    const retry = putInput(dir, "retry.json", [event])
    const before = snapshot(dir)
    const r = append(dir, retry)
    expect(r.json.error).toMatchObject({ _tag: "UnsafePath", path: "plan.md", reason: "plan-file" })
    expect(r.code).toBe(1)
    expect(snapshot(dir)).toEqual(before)
    // Replay still reads it: a journal of an earlier version stays readable.
    const inspected = runCli(["journal", "inspect", "--study", "s", "--workdir", dir, "--json"])
    expect(inspected.json).toMatchObject({ ok: true, events: 2 })
  })

  it("files beside the state that are no state stay linkable: results, retained tails and snapshots, captures", () => {
    const dir = folder()
    put(dir, "research/s/recovered/tail-x.bin", "torn")
    put(dir, "research/s/legacy/manifest-x.json", "{}\n")
    put(dir, "research/sources/page.md", "text\n")
    put(dir, "plan.md.orig", "copy\n")
    put(dir, "research/s/notes.md", "notes\n")
    const paths = [
      "research/results/out.csv",
      "research/s/recovered/tail-x.bin",
      "research/s/legacy/manifest-x.json",
      "research/sources/page.md",
      "plan.md.orig",
      "research/s/notes.md"
    ]
    const r = append(dir, putInput(dir, "fine.json", paths.map((p, i) => linked(`l${i}`, p))))
    expect(r.code, r.stdout).toBe(0)
    expect(r.json.appended).toEqual(paths.map((_, i) => `l${i}`))
  })

  it("through MCP: journal_append answers the same refusal and writes nothing", async () => {
    const dir = folder()
    const server = await connect(dir)
    try {
      const before = snapshot(dir)
      const r = await server.call("journal_append", {
        study: "s",
        input: [linked("m1", "research/results/out.csv"), linked("m2", ".dossier/store.json")]
      })
      expect(r.isError, r.text).toBe(true)
      expect(r.body.error).toMatchObject({ _tag: "UnsafePath", path: ".dossier/store.json", reason: "dossier-state" })
      expect(snapshot(dir)).toEqual(before)
    } finally {
      await server.client.close()
    }
  })

  it.effect("in the library, over memory: the same refusal before the journal or any file is read", () =>
    Effect.gen(function*() {
      const j = yield* Journal
      yield* j.append("s", created("c1", "a"))
      const refused = yield* Effect.flip(
        j.append("s", [linked("x", "research/t/index.json", { sha256: "0".repeat(64), bytes: 0 }) as never])
      )
      expect(refused).toMatchObject({ _tag: "UnsafePath", path: "research/t/index.json", reason: "journal-file" })
      expect((yield* j.inspect("s")).events).toBe(1)
    }).pipe(Effect.provide(JournalMemory)))
})
