/**
 * End-to-end: every journal command and every refusal the spec names, through the built CLI with --json.
 *
 * Over 400 lines: every journal command and refusal, sharing the CLI helpers and the batch above;
 * the commands read each other's results (append, then inspect, rebuild, import), so they stay
 * beside one another.
 */
import { describe, expect, it } from "@effect/vitest"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import type { JournalEvent } from "../../src/domain/Journal.js"
import { connect } from "../mcp/support.js"
import {
  copyOfTemplate,
  leaksNothing,
  put,
  putInput,
  runCli,
  runCliAsync,
  snapshot,
  tempWorkdir
} from "../support/cli.js"
import { linesOf } from "./events.js"

const sha = (b: string | Uint8Array) => createHash("sha256").update(b).digest("hex")

const J = (dir: string, args: ReadonlyArray<string>) => {
  const r = runCli(["journal", ...args, "--workdir", dir, "--json"])
  expect(leaksNothing(dir, r)).toBe(true)
  expect(r.json).toBeDefined()
  return r
}
const ok = (dir: string, args: ReadonlyArray<string>) => {
  const r = J(dir, args)
  expect({ code: r.code, json: r.json }).toMatchObject({ code: 0, json: { ok: true } })
  return r.json
}
const refused = (dir: string, args: ReadonlyArray<string>, tag: string) => {
  const r = J(dir, args)
  expect({ code: r.code, tag: r.json?.error?._tag, ok: r.json?.ok }).toEqual({ code: 1, tag, ok: false })
  return r.json.error
}

const cand = (id: string, c: string, extra: object = {}) => ({
  id,
  type: "candidate_created",
  candidate: { id: c, title: `T ${c}`, ...extra }
})
const evalEv = (id: string, c: string, decision: string) => ({
  id,
  type: "evaluation_recorded",
  candidateId: c,
  evaluation: { evaluatorVersion: "ev1", metrics: { score: 0.5 }, decision }
})
const batch = [
  cand("c1", "cand-a", { protocolVersion: "p1" }),
  { id: "x1", type: "execution_linked", candidateId: "cand-a", execution: { runtimeId: "rt-1", status: "succeeded" } },
  evalEv("e1", "cand-a", "accept"),
  { id: "s1", type: "candidate_selected", candidateId: "cand-a", reason: "best score" },
  {
    id: "k1",
    type: "checkpoint_saved",
    at: "2026-11-30T10:00:00+01:00",
    checkpoint: { summary: "first round", nextAction: "second round", reviewed: true }
  }
]
const journalOf = (dir: string, study = "s") => path.join(dir, "research", study, "research-events.jsonl")

/**
 * A fresh folder whose study `s` holds `batch` (its input at research/inputs/b.json), and one
 * rebuilt after that: the state many tests start from, made through the CLI once per file and
 * copied per test (the first test below checks that append itself, rebuild's own tests check it).
 */
const withBatch = () =>
  copyOfTemplate("journal-batch", (dir) => {
    ok(dir, ["append", "--study", "s", "--input", putInput(dir, "b.json", batch)])
  })
const withBatchRebuilt = () =>
  copyOfTemplate("journal-batch-rebuilt", (dir) => {
    ok(dir, ["append", "--study", "s", "--input", putInput(dir, "b.json", batch)])
    ok(dir, ["rebuild", "--study", "s"])
  })

describe("journal append", () => {
  it("appends a batch, skips a retry, reports head; lines carry seq and digest", () => {
    const dir = tempWorkdir()
    const input = putInput(dir, "b.json", batch)
    const first = ok(dir, ["append", "--study", "s", "--input", input])
    expect(first).toMatchObject({
      study: "s",
      appended: ["c1", "x1", "e1", "s1", "k1"],
      skipped: [],
      head: { seq: 5, id: "k1" }
    })
    const before = fs.readFileSync(journalOf(dir))
    const again = ok(dir, ["append", "--study", "s", "--input", input])
    expect(again).toMatchObject({ appended: [], skipped: ["c1", "x1", "e1", "s1", "k1"], head: { seq: 5, id: "k1" } })
    expect(fs.readFileSync(journalOf(dir))).toEqual(before)
    const lines = before.toString("utf8").split("\n")
    expect(lines.pop()).toBe("")
    lines.forEach((l, i) => {
      const parsed = JSON.parse(l)
      expect(Object.keys(parsed)).toEqual(["seq", "sha256", "event"])
      expect(parsed.seq).toBe(i + 1)
      expect(parsed.sha256).toBe(sha(l.slice(l.indexOf("\"event\":") + 8, -1)))
    })
    // A single event (not an array) and a retry with equivalent timestamps are fine.
    const single = putInput(dir, "one.json", evalEv("e2", "cand-a", "reject"))
    expect(ok(dir, ["append", "--study", "s", "--input", single]).appended).toEqual(["e2"])
    const sameInstant = putInput(dir, "k.json", { ...batch[4], at: "2026-11-30T09:00:00.000Z" })
    expect(ok(dir, ["append", "--study", "s", "--input", sameInstant]).skipped).toEqual(["k1"])
  })

  it("ConflictingEvent: same id, other content; nothing of the batch is written", () => {
    const dir = tempWorkdir()
    ok(dir, ["append", "--study", "s", "--input", putInput(dir, "b.json", batch.slice(0, 3))])
    const before = fs.readFileSync(journalOf(dir))
    const input = putInput(dir, "c.json", [evalEv("e9", "cand-a", "reject"), evalEv("e1", "cand-a", "reject")])
    expect(refused(dir, ["append", "--study", "s", "--input", input], "ConflictingEvent")).toMatchObject({ id: "e1" })
    expect(fs.readFileSync(journalOf(dir))).toEqual(before)
  })

  it("DuplicateEventId, UnknownCandidate and InvalidInput reject the whole batch before any write", () => {
    const dir = tempWorkdir()
    const dup = putInput(dir, "d.json", [cand("c1", "a"), cand("c1", "b")])
    expect(refused(dir, ["append", "--study", "s", "--input", dup], "DuplicateEventId")).toMatchObject({ id: "c1" })
    const unknown = putInput(dir, "u.json", [cand("c1", "a"), evalEv("e1", "b", "accept")])
    expect(refused(dir, ["append", "--study", "s", "--input", unknown], "UnknownCandidate")).toMatchObject({
      eventId: "e1",
      candidateId: "b"
    })
    const invalid = putInput(dir, "i.json", [cand("c1", "a"), {
      id: "e1",
      type: "evaluation_recorded",
      candidateId: "a",
      evaluation: { evaluatorVersion: "v", metrics: { m: "high" }, decision: "maybe" }
    }])
    const err = refused(dir, ["append", "--study", "s", "--input", invalid], "InvalidInput")
    expect(err.issues.map((i: any) => i.path).sort()).toEqual(["1.evaluation.decision", "1.evaluation.metrics.m"])
    const extra = putInput(dir, "x.json", { ...cand("c1", "a"), note: "x" })
    expect(refused(dir, ["append", "--study", "s", "--input", extra], "InvalidInput").issues[0].path).toBe("note")
    const twice = putInput(dir, "t.json", [cand("c1", "a"), cand("c2", "a")])
    expect(refused(dir, ["append", "--study", "s", "--input", twice], "InvalidInput").issues[0].path).toBe(
      "1.candidate.id"
    )
    const badPath = putInput(dir, "p.json", [cand("c1", "a"), {
      id: "a1",
      type: "artifact_linked",
      candidateId: "a",
      artifact: { path: "../x", sha256: "0".repeat(64), bytes: 1 }
    }])
    expect(refused(dir, ["append", "--study", "s", "--input", badPath], "InvalidInput").issues[0].path).toBe(
      "1.artifact.path"
    )
    expect(fs.existsSync(journalOf(dir))).toBe(false)
  })

  it("the batch is checked as data before any artifact file is read: every issue, not the missing file", () => {
    const dir = tempWorkdir()
    put(dir, "research/results/r.csv", "a,b\n")
    const linked = (id: string, artifact: object) => ({ id, type: "artifact_linked", candidateId: "a", artifact })
    const bad = {
      id: "e1",
      type: "evaluation_recorded",
      candidateId: "a",
      evaluation: { evaluatorVersion: "v", metrics: { m: "high" }, decision: "maybe" }
    }
    for (
      const artifact of [
        { path: "research/results/missing.csv" },
        { path: "research/results/missing.csv", sha256: "0".repeat(64) },
        { path: "research/results/r.csv", sha256: "0".repeat(64) }
      ]
    ) {
      const input = putInput(dir, "both.json", [cand("c1", "a"), linked("a1", artifact), bad])
      const err = refused(dir, ["append", "--study", "s", "--input", input], "InvalidInput")
      expect(err.issues.map((i: any) => i.path).sort(), JSON.stringify(artifact)).toEqual([
        "2.evaluation.decision",
        "2.evaluation.metrics.m"
      ])
    }
    // Valid as data: now the folder answers.
    const missing = putInput(dir, "m.json", [cand("c1", "a"), linked("a1", { path: "research/results/missing.csv" })])
    expect(refused(dir, ["append", "--study", "s", "--input", missing], "FileNotFound").path).toBe(
      "research/results/missing.csv"
    )
    const mismatch = putInput(dir, "x.json", [
      cand("c1", "a"),
      linked("a1", { path: "research/results/r.csv", bytes: 9 })
    ])
    const sizes = refused(dir, ["append", "--study", "s", "--input", mismatch], "DigestMismatch")
    // Only the size was given: the message says the size, not a SHA-256 nobody gave.
    expect(sizes).toMatchObject({ expected: "9 bytes", actual: "4 bytes" })
    expect(sizes.message).toBe("'research/results/r.csv' has 4 bytes, not the 9 given.")
    expect(fs.existsSync(journalOf(dir))).toBe(false)
  })

  it("references and the journal's state are judged before artifact files: UnknownCandidate, not FileNotFound", () => {
    const dir = tempWorkdir()
    put(dir, "research/results/r.csv", "a,b\n")
    const linked = (id: string, candidateId: string, artifact: object) => ({
      id,
      type: "artifact_linked",
      candidateId,
      artifact
    })
    const missing = { path: "research/results/missing.csv" }
    const wrong = { path: "research/results/r.csv", bytes: 9 }
    for (const artifact of [missing, wrong]) {
      const unknown = putInput(dir, "u.json", [cand("e1", "c1"), linked("e2", "zz", artifact)])
      const e = refused(dir, ["append", "--study", "s", "--input", unknown], "UnknownCandidate")
      expect([e.eventId, e.candidateId], JSON.stringify(artifact)).toEqual(["e2", "zz"])
      const twice = putInput(dir, "t.json", [cand("e1", "c1"), linked("e2", "c1", artifact), cand("e3", "c1")])
      expect(refused(dir, ["append", "--study", "s", "--input", twice], "InvalidInput").issues[0].path).toBe(
        "2.candidate.id"
      )
    }
    expect(fs.existsSync(journalOf(dir))).toBe(false)
    // Against the journal: a candidate it already has, created again, is refused first too.
    const first = putInput(dir, "f.json", [cand("e1", "c1")])
    expect(J(dir, ["append", "--study", "s", "--input", first]).code).toBe(0)
    const again = putInput(dir, "a.json", [linked("e2", "c1", missing), cand("e3", "c1")])
    expect(refused(dir, ["append", "--study", "s", "--input", again], "InvalidInput").issues[0].path).toBe(
      "1.candidate.id"
    )
    // References sound: the file answers; a retry of a stored event is still a retry.
    const fine = putInput(dir, "g.json", [cand("e1", "c1"), linked("e2", "c1", missing)])
    expect(refused(dir, ["append", "--study", "s", "--input", fine], "FileNotFound").path).toBe(
      "research/results/missing.csv"
    )
    refused(
      dir,
      ["append", "--study", "s", "--input", putInput(dir, "w.json", [linked("e2", "c1", wrong)])],
      "DigestMismatch"
    )
  })

  it("study ids follow the pattern and are not reserved folder names", async () => {
    const dir = tempWorkdir()
    const input = putInput(dir, "b.json", batch)
    const bads = ["inputs", "sources", "results", "gate", "Bad", "../x", "-x", "a".repeat(65)]
    // Every command that takes a study, for every id, in one MCP server process (the same command
    // table); on the command line, where the flag parser sees the value first, the ids that look
    // like a flag, a path or a folder of research/.
    const server = await connect(dir)
    try {
      const onCli = [["append", "-x"], ["append", "../x"], ["append", "inputs"], ["inspect", "-x"]] as const
      const cli = Promise.all(onCli.map(async ([command, bad]) => {
        const extra = command === "append" ? ["--input", input] : []
        const r = await runCliAsync(["journal", command, "--study", bad, ...extra, "--workdir", dir, "--json"])
        expect(leaksNothing(dir, r)).toBe(true)
        expect({ code: r.code, tag: r.json?.error?._tag, path: r.json?.error?.issues?.[0]?.path }, `${command} ${bad}`)
          .toEqual({
            code: 1,
            tag: "InvalidInput",
            // The command line names its option; a tool call its argument (below).
            path: "--study"
          })
      }))
      for (const bad of bads) {
        for (
          const [tool, args] of [
            ["journal_inspect", { verify: true }],
            ["journal_rebuild", {}],
            ["journal_recover_tail", {}],
            ["journal_import", {}],
            ["journal_append", { input: batch }]
          ] as const
        ) {
          const r = await server.call(tool, { study: bad, ...args })
          expect(
            { isError: r.isError, tag: r.body?.error?._tag, path: r.body?.error?.issues?.[0]?.path },
            `${tool} ${bad}`
          )
            .toEqual({ isError: true, tag: "InvalidInput", path: "study" })
        }
      }
      await cli
    } finally {
      await server.client.close()
    }
    expect(fs.readdirSync(path.join(dir, "research")).sort()).toEqual(["inputs"])
    expect(fs.existsSync(path.join(dir, ".dossier"))).toBe(false)
  })

  it("input file rules: outside the work folder, too large, missing", () => {
    const dir = tempWorkdir()
    const other = tempWorkdir()
    put(other, "b.json", JSON.stringify(batch))
    refused(dir, ["append", "--study", "s", "--input", path.join(other, "b.json")], "InputOutsideWorkdir")
    const big = putInput(dir, "big.json", JSON.stringify([{ ...cand("c1", "a"), pad: "x".repeat(70_000) }]))
    refused(dir, ["append", "--study", "s", "--input", path.join(dir, big)], "InputTooLarge")
    refused(dir, ["append", "--study", "s", "--input", path.join(dir, "research/inputs/none.json")], "FileNotFound")
  })

  it("AliasedFile: a symlinked or hard-linked journal is refused", () => {
    const dir = withBatch()
    const input = "research/inputs/b.json"
    fs.linkSync(journalOf(dir), path.join(dir, "copy.jsonl"))
    expect(refused(dir, ["append", "--study", "s", "--input", input], "AliasedFile").path).toBe(
      "research/s/research-events.jsonl"
    )
    refused(dir, ["inspect", "--study", "s"], "AliasedFile")
    const dir2 = tempWorkdir()
    put(dir2, "elsewhere.jsonl", "")
    fs.mkdirSync(path.join(dir2, "research/t"), { recursive: true })
    fs.symlinkSync(path.join(dir2, "elsewhere.jsonl"), journalOf(dir2, "t"))
    refused(dir2, ["append", "--study", "t", "--input", putInput(dir2, "b.json", batch)], "AliasedFile")
    expect(fs.readFileSync(path.join(dir2, "elsewhere.jsonl"), "utf8")).toBe("")
  })

  it("AliasedFile: a symlinked study folder is refused by every command, naming the journal", () => {
    const dir = tempWorkdir()
    const outside = withBatch()
    const input = putInput(dir, "b.json", batch)
    // With an unterminated tail and a legacy-looking manifest, so that a command following the link would act.
    fs.appendFileSync(journalOf(outside), "{\"seq\":6")
    put(outside, "research/s/manifest.json", "{}")
    fs.symlinkSync(path.join(outside, "research/s"), path.join(dir, "research/s"))
    const before = snapshot(outside)
    for (
      const args of [
        ["append", "--study", "s", "--input", input],
        ["inspect", "--study", "s"],
        ["inspect", "--study", "s", "--verify"],
        ["rebuild", "--study", "s"],
        ["recover-tail", "--study", "s"],
        ["import", "--study", "s"]
      ]
    ) {
      expect(refused(dir, args, "AliasedFile").path, args.join(" ")).toBe("research/s/research-events.jsonl")
    }
    expect(snapshot(outside)).toEqual(before)
  })

  it("a usage error exits 2 and an unknown flag is refused", () => {
    const r = runCli(["journal", "append", "--study", "s", "--json"])
    expect(r.code).toBe(2)
    expect(r.json.error._tag).toBe("UsageError")
    const r2 = runCli(["journal", "inspect", "--study", "s", "--bogus", "--json"])
    expect(r2.code).toBe(2)
  })

  it("--help names every field of the input file", () => {
    const r = runCli(["journal", "append", "--help"])
    for (
      const field of [
        "candidate_created",
        "execution_linked",
        "artifact_linked",
        "evaluation_recorded",
        "candidate_selected",
        "checkpoint_saved",
        "legacy_imported",
        "candidateId",
        "evaluatorVersion",
        "metrics",
        "decision",
        "runtimeId",
        "exitCode",
        "logRef",
        "sha256",
        "bytes",
        "reason",
        "summary",
        "nextAction",
        "reviewed",
        "protocolVersion",
        "params",
        "manifestSha256",
        "snapshotPath",
        "resultPaths",
        "completed",
        "selected"
      ]
    ) {
      expect(r.stdout).toContain(field)
    }
  })
})

describe("journal inspect", () => {
  it("reports candidates, selection, checkpoint and head", () => {
    const dir = tempWorkdir()
    ok(dir, [
      "append",
      "--study",
      "s",
      "--input",
      putInput(dir, "b.json", [...batch, cand("c2", "cand-b"), evalEv("e2", "cand-b", "inconclusive")])
    ])
    const r = ok(dir, ["inspect", "--study", "s"])
    expect(r).toMatchObject({
      study: "s",
      events: 7,
      tail: { state: "clean" },
      head: { seq: 7, id: "e2" },
      selected: { candidateId: "cand-a", reason: "best score", eventId: "s1" },
      checkpoint: {
        summary: "first round",
        nextAction: "second round",
        reviewed: true,
        eventId: "k1",
        at: "2026-11-30T09:00:00.000Z"
      }
    })
    expect(r.candidates.map((c: any) => [c.id, c.status, c.protocolVersion])).toEqual([["cand-a", "selected", "p1"], [
      "cand-b",
      "evaluated",
      null
    ]])
    expect(r.candidates[0].executions).toEqual([{ runtimeId: "rt-1", status: "succeeded", eventId: "x1" }])
    expect(r.candidates[0].lastEvaluation).toMatchObject({ decision: "accept", eventId: "e1" })
    expect(r.verify).toBeUndefined()
    // A study that does not exist is StudyNotFound (it used to answer an empty history).
    expect(refused(dir, ["inspect", "--study", "empty"], "StudyNotFound")).toMatchObject({ study: "empty" })
    // Human output.
    const human = runCli(["journal", "inspect", "--study", "s", "--workdir", dir])
    expect(human.code).toBe(0)
    expect(human.stdout).toContain("cand-a (selected)")
    expect(human.stdout).toContain("Checkpoint: first round — next: second round (reviewed)")
    // A checkpoint not reviewed says so, rather than saying nothing.
    const unreviewed = {
      id: "k2",
      type: "checkpoint_saved",
      checkpoint: { summary: "draft", nextAction: "review", reviewed: false }
    }
    ok(dir, ["append", "--study", "s", "--input", putInput(dir, "k2.json", unreviewed)])
    const again = runCli(["journal", "inspect", "--study", "s", "--workdir", dir])
    expect(again.stdout).toContain("Checkpoint: draft — next: review (not reviewed)")
  })

  it("--help of inspect says what --verify checks: the artifacts and the linked dossier executions", () => {
    const help = runCli(["journal", "inspect", "--help"]).stdout.replace(/\s+/g, " ")
    expect(help).toMatch(/--verify .*re-hash.* artifacts .*dossier executions/)
  })

  it("--verify re-hashes linked artifacts: artifact-missing, artifact-changed", () => {
    const dir = tempWorkdir()
    put(dir, "research/results/a.csv", "a,b\n1,2\n")
    put(dir, "research/results/b.csv", "x\n")
    const art = (id: string, p: string, content: string) => ({
      id,
      type: "artifact_linked",
      candidateId: "cand-a",
      artifact: { path: p, sha256: sha(content), bytes: Buffer.byteLength(content) }
    })
    // An artifact's file must exist when it is linked (its digest is checked): this one goes away after.
    put(dir, "research/results/gone.csv", "y\n")
    ok(dir, [
      "append",
      "--study",
      "s",
      "--input",
      putInput(dir, "b.json", [
        cand("c1", "cand-a"),
        art("a1", "research/results/a.csv", "a,b\n1,2\n"),
        art("a2", "research/results/b.csv", "x\n"),
        art("a3", "research/results/gone.csv", "y\n")
      ])
    ])
    fs.rmSync(path.join(dir, "research/results/gone.csv"))
    expect(ok(dir, ["inspect", "--study", "s", "--verify"]).verify.findings.map((f: any) => [f.kind, f.path])).toEqual([
      ["artifact-missing", "research/results/gone.csv"]
    ])
    put(dir, "research/results/b.csv", "changed\n")
    const v = ok(dir, ["inspect", "--study", "s", "--verify"]).verify
    expect(v.checked).toBe(3)
    expect(v.findings.map((f: any) => [f.kind, f.path, f.eventId])).toEqual([
      ["artifact-changed", "research/results/b.csv", "a2"],
      ["artifact-missing", "research/results/gone.csv", "a3"]
    ])
    expect(v.findings[0].actual).toEqual({ sha256: sha("changed\n"), bytes: 8 })
  })

  it("--verify without --json names how each linked execution was checked, as the note says", () => {
    const dir = withBatch()
    const json = ok(dir, ["inspect", "--study", "s", "--verify"]).verify
    expect(json.executions).toEqual([{ candidateId: "cand-a", eventId: "x1", runtimeId: "rt-1", check: "external" }])
    expect(json.note).toContain("listed as external")
    const human = runCli(["journal", "inspect", "--study", "s", "--verify", "--workdir", dir])
    expect(human.code).toBe(0)
    expect(human.stdout).toContain("Verified 0 artifact(s): 0 finding(s)")
    expect(human.stdout).toContain("  - execution rt-1 (candidate cand-a, event x1): external")
  })

  it("--verify without --json names each finding's event, the digests, why a file was not read, and what to do", () => {
    const dir = tempWorkdir()
    const art = (id: string, p: string, content: string) => ({
      id,
      type: "artifact_linked",
      candidateId: "cand-a",
      artifact: { path: p, sha256: sha(content), bytes: Buffer.byteLength(content) }
    })
    put(dir, "research/results/a.csv", "a,b\n1,2\n")
    put(dir, "research/results/b.csv", "x\n")
    put(dir, "research/results/c.csv", "y\n")
    ok(dir, [
      "append",
      "--study",
      "s",
      "--input",
      putInput(dir, "b.json", [
        cand("c1", "cand-a"),
        art("a1", "research/results/a.csv", "a,b\n1,2\n"),
        art("a2", "research/results/b.csv", "x\n"),
        art("a3", "research/results/c.csv", "y\n")
      ])
    ])
    // Same size, other bytes; a link to a copy of the linked bytes; a file gone.
    put(dir, "research/results/a.csv", "a,b\n1,3\n")
    fs.renameSync(path.join(dir, "research/results/b.csv"), path.join(dir, "research/b-copy.csv"))
    fs.symlinkSync("../b-copy.csv", path.join(dir, "research/results/b.csv"))
    fs.rmSync(path.join(dir, "research/results/c.csv"))
    const human = runCli(["journal", "inspect", "--study", "s", "--verify", "--workdir", dir])
    expect(human.code, human.stderr).toBe(0)
    const line = (p: string) => human.stdout.split("\n").find((l) => l.includes(` ${p} `)) ?? ""
    expect(line("research/results/a.csv")).toBe(
      `  - artifact-changed: research/results/a.csv (candidate cand-a, event a1): linked 8 bytes, sha256 ${
        sha("a,b\n1,2\n").slice(0, 12)
      }…; found 8 bytes, sha256 ${sha("a,b\n1,3\n").slice(0, 12)}…`
    )
    expect(line("research/results/b.csv")).toMatch(
      /^ {2}- artifact-changed: .*\(candidate cand-a, event a2\): .*refused to read it \(symlink\): .*symbolic link/
    )
    expect(line("research/results/c.csv")).toMatch(/^ {2}- artifact-missing: .*\(candidate cand-a, event a3\): .*gone/)
    expect(human.stdout).toContain("What to do: put back the linked bytes")
  })

  it("CorruptJournal: a damaged terminated line stops replay; every command needing history refuses", () => {
    const dir = withBatch()
    const text = fs.readFileSync(journalOf(dir), "utf8")
    fs.writeFileSync(journalOf(dir), text.replace("best score", "best scorE"))
    const err = refused(dir, ["inspect", "--study", "s"], "CorruptJournal")
    expect(err.line).toBe(4)
    refused(dir, ["append", "--study", "s", "--input", putInput(dir, "k.json", cand("c9", "z"))], "CorruptJournal")
    refused(dir, ["rebuild", "--study", "s"], "CorruptJournal")
    refused(dir, ["import", "--study", "s"], "CorruptJournal")
    fs.writeFileSync(journalOf(dir), `${text}garbage\n`)
    expect(refused(dir, ["inspect", "--study", "s"], "CorruptJournal").line).toBe(6)
  })
})

describe("journal recover-tail", () => {
  it("keeps the tail's exact bytes write-once, truncates, and append works again", () => {
    const dir = withBatch()
    expect(ok(dir, ["recover-tail", "--study", "s"]).recovered).toBeNull()
    const clean = fs.readFileSync(journalOf(dir))
    const tail = Buffer.from("{\"seq\":6,\"sha256\":\"ab", "utf8")
    fs.appendFileSync(journalOf(dir), tail)
    expect(ok(dir, ["inspect", "--study", "s"]).tail).toEqual({ state: "unterminated", bytes: tail.byteLength })
    expect(
      refused(dir, ["append", "--study", "s", "--input", putInput(dir, "n.json", cand("c9", "z"))], "UnterminatedTail")
        .bytes
    ).toBe(tail.byteLength)
    refused(dir, ["import", "--study", "s"], "UnterminatedTail")
    const r = ok(dir, ["recover-tail", "--study", "s"])
    expect(r.recovered).toEqual({
      path: `research/s/recovered/tail-${sha(tail)}.bin`,
      bytes: tail.byteLength,
      sha256: sha(tail)
    })
    expect(fs.readFileSync(path.join(dir, r.recovered.path))).toEqual(tail)
    expect(fs.readFileSync(journalOf(dir))).toEqual(clean)
    expect(ok(dir, ["append", "--study", "s", "--input", putInput(dir, "n2.json", cand("c9", "z"))]).head).toEqual({
      seq: 6,
      id: "c9"
    })
    // The same tail again: the retained file is reused, not rewritten.
    fs.appendFileSync(journalOf(dir), tail)
    expect(ok(dir, ["recover-tail", "--study", "s"]).recovered.path).toBe(r.recovered.path)
  })

  it("EditedRetainedFile when the recovered file was edited; a hard-linked journal is AliasedFile", () => {
    const dir = withBatch()
    const tail = Buffer.from("torn")
    fs.appendFileSync(journalOf(dir), tail)
    put(dir, `research/s/recovered/tail-${sha(tail)}.bin`, "edited")
    refused(dir, ["recover-tail", "--study", "s"], "EditedRetainedFile")
    fs.rmSync(path.join(dir, `research/s/recovered/tail-${sha(tail)}.bin`))
    fs.linkSync(journalOf(dir), path.join(dir, "alias"))
    refused(dir, ["recover-tail", "--study", "s"], "AliasedFile")
  })
})

const legacy = (study = "s") => ({
  version: 1,
  study,
  protocolVersion: "proto-3",
  candidates: [
    { id: "old-a", status: "accepted", resultPaths: ["research/results/old-a.csv"] },
    { id: "old-b", status: "rejected", resultPaths: [] }
  ],
  completed: ["old-a"],
  selected: null
})

describe("journal rebuild", () => {
  it("publishes manifest v1 and index; rebuilding twice is byte-identical", () => {
    const dir = tempWorkdir()
    ok(dir, [
      "append",
      "--study",
      "s",
      "--input",
      putInput(dir, "b.json", [...batch, cand("c2", "cand-b"), evalEv("e2", "cand-b", "accept")])
    ])
    const r1 = ok(dir, ["rebuild", "--study", "s"])
    const m1 = fs.readFileSync(path.join(dir, "research/s/manifest.json"))
    const i1 = fs.readFileSync(path.join(dir, "research/s/index.json"))
    expect(r1.manifest).toEqual({ path: "research/s/manifest.json", sha256: sha(m1), bytes: m1.byteLength })
    expect(JSON.parse(m1.toString())).toEqual({
      version: 1,
      study: "s",
      protocolVersion: "p1",
      candidates: [{ id: "cand-a", status: "selected", resultPaths: [] }, {
        id: "cand-b",
        status: "accepted",
        resultPaths: []
      }],
      completed: ["cand-a", "cand-b"],
      selected: "cand-a"
    })
    const r2 = ok(dir, ["rebuild", "--study", "s"])
    expect(fs.readFileSync(path.join(dir, "research/s/manifest.json"))).toEqual(m1)
    expect(fs.readFileSync(path.join(dir, "research/s/index.json"))).toEqual(i1)
    expect(r2).toEqual(r1)
    // After more history, the previous projection is recognized as ours and replaced.
    ok(dir, ["append", "--study", "s", "--input", putInput(dir, "n.json", evalEv("e3", "cand-b", "reject"))])
    ok(dir, ["rebuild", "--study", "s"])
    expect(JSON.parse(fs.readFileSync(path.join(dir, "research/s/manifest.json"), "utf8")).completed).toEqual([
      "cand-a"
    ])
  })

  it("UnimportedLegacyManifest: refuses to overwrite a manifest it did not write; import first", () => {
    const dir = tempWorkdir()
    const bytes = `${JSON.stringify(legacy(), null, 1)}\n`
    put(dir, "research/s/manifest.json", bytes)
    expect(refused(dir, ["rebuild", "--study", "s"], "UnimportedLegacyManifest").path).toBe("research/s/manifest.json")
    expect(fs.readFileSync(path.join(dir, "research/s/manifest.json"), "utf8")).toBe(bytes)
    ok(dir, ["import", "--study", "s"])
    ok(dir, ["rebuild", "--study", "s"])
    // A projection edited by hand is not ours any more.
    const m = JSON.parse(fs.readFileSync(path.join(dir, "research/s/manifest.json"), "utf8"))
    fs.writeFileSync(path.join(dir, "research/s/manifest.json"), JSON.stringify({ ...m, selected: "old-a" }))
    refused(dir, ["rebuild", "--study", "s"], "UnimportedLegacyManifest")
  })

  it("the projection dossier wrote, without a legacy import: import says there is nothing to import", () => {
    const dir = withBatchRebuilt()
    const e = refused(dir, ["import", "--study", "s"], "InvalidManifest")
    expect(e.message).toBe(
      "The manifest is refused: manifest.json is the projection dossier wrote from this study's journal, not a legacy manifest: the journal already holds what it says, so there is nothing to import."
    )
    // Nobody must "fix" it: the hint says the projection needs no import.
    expect(e.hint).toMatch(/The projection dossier wrote needs no import/)
  })

  it("a projection edited by hand: rebuild and import refuse, and both say to move it away", () => {
    const dir = withBatchRebuilt()
    const manifest = path.join(dir, "research/s/manifest.json")
    fs.writeFileSync(
      manifest,
      fs.readFileSync(manifest, "utf8").replace("\"selected\": \"cand-a\"", "\"selected\": null")
    )
    const edited = fs.readFileSync(manifest)
    const rebuilt = refused(dir, ["rebuild", "--study", "s"], "UnimportedLegacyManifest")
    expect(rebuilt.message).toContain("a projection edited by hand")
    expect(rebuilt.hint).toMatch(/projection edited by hand: move it away/)
    const imported = refused(dir, ["import", "--study", "s"], "InvalidManifest")
    expect(imported.issues).toEqual([{
      path: "candidates.0.id",
      message: "the candidate 'cand-a' already exists in the journal"
    }])
    // The message says why, not that the shape is wrong; the hint says what to do.
    expect(imported.message).toBe(
      "The manifest is refused at 'candidates.0.id': the candidate 'cand-a' already exists in the journal."
    )
    expect(imported.hint).toMatch(/move it away, then rebuild/)
    expect(fs.readFileSync(manifest)).toEqual(edited)
    // Moved away, the projection is written again.
    fs.renameSync(manifest, path.join(dir, "edited-manifest.json"))
    ok(dir, ["rebuild", "--study", "s"])
  })

  it("AliasedFile for a symlinked manifest or a hard-linked index", () => {
    const dir = withBatchRebuilt()
    fs.linkSync(path.join(dir, "research/s/index.json"), path.join(dir, "index-copy.json"))
    expect(refused(dir, ["rebuild", "--study", "s"], "AliasedFile").path).toBe("research/s/index.json")
    fs.rmSync(path.join(dir, "index-copy.json"))
    fs.rmSync(path.join(dir, "research/s/manifest.json"))
    put(dir, "outside.json", "{}")
    fs.symlinkSync(path.join(dir, "outside.json"), path.join(dir, "research/s/manifest.json"))
    expect(refused(dir, ["rebuild", "--study", "s"], "AliasedFile").path).toBe("research/s/manifest.json")
    refused(dir, ["import", "--study", "s"], "AliasedFile")
    expect(fs.readFileSync(path.join(dir, "outside.json"), "utf8")).toBe("{}")
  })
})

describe("journal import", () => {
  it("snapshots the exact bytes, appends one legacy_imported event; idempotent, also after rebuild", () => {
    const dir = tempWorkdir()
    const bytes = JSON.stringify(legacy())
    put(dir, "research/s/manifest.json", bytes)
    put(dir, "research/s/state.json", "{ not json, and never read")
    const r = ok(dir, ["import", "--study", "s"])
    expect(r).toEqual({
      ok: true,
      study: "s",
      eventId: `legacy:${sha(bytes)}`,
      snapshot: { path: `research/s/legacy/manifest-${sha(bytes)}.json`, sha256: sha(bytes) },
      imported: true
    })
    expect(fs.readFileSync(path.join(dir, r.snapshot.path), "utf8")).toBe(bytes)
    expect(ok(dir, ["import", "--study", "s"])).toEqual({ ...r, imported: false })
    const inspected = ok(dir, ["inspect", "--study", "s"])
    expect(inspected.events).toBe(1)
    expect(inspected.candidates.map((c: any) => [c.id, c.status, c.resultPaths])).toEqual([
      ["old-a", "accepted", ["research/results/old-a.csv"]],
      ["old-b", "rejected", []]
    ])
    // Legacy candidates count for references.
    ok(dir, [
      "append",
      "--study",
      "s",
      "--input",
      putInput(dir, "k.json", [evalEv("e1", "old-b", "accept"), {
        id: "k1",
        type: "checkpoint_saved",
        checkpoint: { summary: "imported", nextAction: "continue", reviewed: true }
      }])
    ])
    ok(dir, ["rebuild", "--study", "s"])
    expect(ok(dir, ["import", "--study", "s"])).toEqual({ ...r, imported: false })
    // The human answer says what the event is: the legacy manifest's import, not manifest.json's.
    const human = runCli(["journal", "import", "--study", "s", "--workdir", dir])
    expect(human.stdout).toContain(
      `Nothing imported: the study's legacy manifest is already in the journal as event ${r.eventId} (its bytes are kept in ${r.snapshot.path}); a manifest.json rebuilt since is the journal's projection.`
    )
    expect(ok(dir, ["inspect", "--study", "s"]).events).toBe(3)
    expect(fs.readFileSync(path.join(dir, "research/s/state.json"), "utf8")).toBe("{ not json, and never read")
    expect(JSON.parse(fs.readFileSync(path.join(dir, "research/s/manifest.json"), "utf8")).completed).toEqual([
      "old-a",
      "old-b"
    ])
  })

  it("a legacy_imported event naming no candidate is refused; one already stored is CorruptJournal, not a defect", () => {
    const dir = tempWorkdir()
    const digest = "c".repeat(64)
    const legacy = {
      id: `legacy:${digest}`,
      type: "legacy_imported",
      manifestSha256: digest,
      snapshotPath: `research/s/legacy/manifest-${digest}.json`,
      protocolVersion: null,
      candidates: [{ id: "old-a", status: "accepted", resultPaths: [] }],
      completed: ["old-a"],
      selected: "nope"
    }
    const input = putInput(dir, "l.json", legacy)
    expect(refused(dir, ["append", "--study", "s", "--input", input], "UnknownCandidate")).toMatchObject({
      eventId: legacy.id,
      candidateId: "nope"
    })
    const twice = { ...legacy, selected: null, candidates: [legacy.candidates[0], legacy.candidates[0]] }
    expect(refused(dir, ["append", "--study", "s", "--input", putInput(dir, "t.json", twice)], "InvalidInput").issues)
      .toEqual([{ path: "candidates.1.id", message: "the candidate 'old-a' is given more than once in this event" }])
    expect(fs.existsSync(journalOf(dir))).toBe(false)
    // A candidate the journal already has is told so.
    ok(dir, ["append", "--study", "s", "--input", putInput(dir, "c.json", cand("c1", "old-a"))])
    const again = { ...legacy, selected: null }
    expect(refused(dir, ["append", "--study", "s", "--input", putInput(dir, "a.json", again)], "InvalidInput").issues)
      .toEqual([{ path: "candidates.0.id", message: "the candidate 'old-a' is already created in this study" }])
    // Such a line written before this rule: every command that needs the history names it.
    put(dir, "research/s/research-events.jsonl", linesOf([legacy as JournalEvent]))
    for (const args of [["inspect", "--study", "s"], ["rebuild", "--study", "s"], ["import", "--study", "s"]]) {
      expect(refused(dir, args, "CorruptJournal"), args[0]).toMatchObject({ line: 1 })
    }
    expect(fs.existsSync(path.join(dir, "research/s/manifest.json"))).toBe(false)
  })

  it("InvalidManifest for any other shape; FileNotFound without a manifest", () => {
    const dir = tempWorkdir()
    refused(dir, ["import", "--study", "s"], "FileNotFound")
    for (
      const [bad, p] of [
        [{ ...legacy(), extra: true }, "extra"],
        [{ ...legacy(), version: 2 }, "version"],
        [{ ...legacy(), completed: ["ghost"] }, "completed.0"],
        [{ ...legacy("other") }, "study"]
      ] as const
    ) {
      put(dir, "research/s/manifest.json", JSON.stringify(bad))
      const e = refused(dir, ["import", "--study", "s"], "InvalidManifest")
      expect(e.issues.map((i: any) => i.path)).toContain(p)
    }
    put(dir, "research/s/manifest.json", "{ not json")
    refused(dir, ["import", "--study", "s"], "InvalidManifest")
    expect(fs.existsSync(path.join(dir, "research/s/legacy"))).toBe(false)
    expect(fs.existsSync(journalOf(dir))).toBe(false)
  })
})

describe("a value of the wrong kind where a structure belongs", () => {
  it("is told the kind expected in one short sentence, not the structure's whole schema", () => {
    const dir = tempWorkdir()
    // The manifest: the whole file, a list and a list's item.
    for (
      const [bad, at, message] of [
        [[], "", "Expected an object, actual []"],
        [null, "", "Expected an object, actual null"],
        [{ ...legacy(), candidates: 5 }, "candidates", "Expected an array, actual 5"],
        [{ ...legacy(), candidates: [1] }, "candidates.0", "Expected an object, actual 1"]
      ] as const
    ) {
      put(dir, "research/s/manifest.json", JSON.stringify(bad))
      const e = refused(dir, ["import", "--study", "s"], "InvalidManifest")
      expect(e.issues).toEqual([{ path: at, message }])
      expect(e.message).toBe(`The manifest is refused${at === "" ? "" : ` at '${at}'`}: ${message}.`)
    }
    // An event's structured fields.
    for (
      const [bad, at] of [
        [{ id: "c", type: "candidate_created", candidate: [] }, "candidate"],
        [{ id: "c", type: "candidate_created", candidate: { id: "a", title: "t", params: [] } }, "candidate.params"],
        [
          { ...evalEv("e", "a", "accept"), evaluation: { evaluatorVersion: "v", metrics: [], decision: "accept" } },
          "evaluation.metrics"
        ]
      ] as const
    ) {
      const e = refused(dir, ["append", "--study", "s", "--input", putInput(dir, "bad.json", bad)], "InvalidInput")
      expect(e.issues).toEqual([{ path: at, message: "Expected an object, actual []" }])
      expect(e.message).toBe(`The input is invalid at '${at}': Expected an object, actual []`)
    }
  })
})

describe("a key given twice in one object of an input", () => {
  it("is refused at its path, never decided by the last one: events from a file or stdin, a manifest", () => {
    const dir = tempWorkdir()
    const text = `[${JSON.stringify(cand("c1", "cand-a"))},
      {"id": "k1", "type": "checkpoint_saved", "checkpoint": {"summary": "one", "nextAction": "n",
       "reviewed": true, "summ\\u0061ry": "two"}}]`
    expect(JSON.parse(text)).toHaveLength(2)
    const issue = { path: "1.checkpoint.summary", message: "the key 'summary' appears more than once in this object" }
    const e = refused(dir, ["append", "--study", "s", "--input", putInput(dir, "dup.json", text)], "InvalidInput")
    expect(e.issues).toEqual([issue])
    const r = runCli(["journal", "append", "--study", "s", "--input", "-", "--workdir", dir, "--json"], { input: text })
    expect({ code: r.code, error: r.json?.error?.issues }).toEqual({ code: 1, error: [issue] })
    // The same id twice at the top of an event: which event was meant is not guessed.
    const two = `{"id": "a", "id": "b", "type": "candidate_created", "candidate": {"id": "x", "title": "t"}}`
    expect(refused(dir, ["append", "--study", "s", "--input", putInput(dir, "two.json", two)], "InvalidInput").issues)
      .toEqual([{ path: "id", message: "the key 'id' appears more than once in this object" }])
    expect(fs.existsSync(journalOf(dir))).toBe(false)
    // A legacy manifest: InvalidManifest at the key, and nothing is imported.
    const manifest = JSON.stringify(legacy()).replace(`"selected":null`, `"selected":null,"selected":"old-a"`)
    put(dir, "research/s/manifest.json", manifest)
    const m = refused(dir, ["import", "--study", "s"], "InvalidManifest")
    expect(m.issues).toEqual([{
      path: "selected",
      message: "the key 'selected' appears more than once in this object"
    }])
    expect(fs.existsSync(path.join(dir, "research/s/legacy"))).toBe(false)
    expect(fs.existsSync(journalOf(dir))).toBe(false)
  })
})

describe("dossier schema", () => {
  it("prints the journal input and output schemas", () => {
    for (const name of ["journal-events", "journal-append-output", "journal-inspect-output", "journal-manifest-v1"]) {
      const r = runCli(["schema", name, "--json"])
      expect(r.code).toBe(0)
    }
  })
})
