/** exec --study/--candidate links a run in the journal; journal inspect --verify checks dossier executions. */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import {
  createCandidate,
  createGrant,
  D,
  execAsync,
  folder,
  ok,
  processesWith,
  putInput,
  sandboxWorks,
  waitForRunning,
  waitUntil
} from "./support.js"

/** `journal append --study st` of `input`, written to the folder's file `name`. */
const append = (dir: string, name: string, input: unknown) =>
  ok(dir, ["journal", "append", "--study", "st", "--input", putInput(dir, name, input)])

/** What `journal inspect --study st --verify` answers under `verify`. */
const verify = (dir: string) => ok(dir, ["journal", "inspect", "--study", "st", "--verify"]).verify

const events = (dir: string) =>
  fs.readFileSync(path.join(dir, "research/st/research-events.jsonl"), "utf8").trim().split("\n").map((l) =>
    JSON.parse(l).event
  )

describe.skipIf(!sandboxWorks)("exec and the journal", () => {
  it("links the run idempotently, and --verify tells verified, tampered, missing, external and foreign artifacts apart", () => {
    const dir = folder()
    append(dir, "c.json", [
      { id: "c1", type: "candidate_created", candidate: { id: "cand", title: "T" } },
      { id: "c2", type: "candidate_created", candidate: { id: "other", title: "O" } },
      {
        id: "ext",
        type: "execution_linked",
        candidateId: "other",
        execution: { runtimeId: "slurm-42", status: "done" }
      }
    ])
    createGrant(dir)
    const r = ok(dir, [
      "exec",
      "--grant",
      "g1",
      "--study",
      "st",
      "--candidate",
      "cand",
      "--",
      "sh",
      "-c",
      "echo 0.91 > score.txt; echo m > model.bin"
    ])
    const x = r.execution
    expect(x.candidateId).toBe("cand")
    expect(r.linked).toEqual({
      study: "st",
      appended: [`${x.id}:execution`, `${x.id}:artifact:0`, `${x.id}:artifact:1`],
      skipped: []
    })
    const linked = events(dir).filter((e) => e.candidateId === "cand")
    expect(linked[0]).toMatchObject({
      type: "execution_linked",
      execution: { runtimeId: x.id, status: "exited", logRef: x.stdout.path }
    })
    expect(linked.slice(1).map((e) => e.artifact.path)).toEqual([
      "research/exp/runs/r1/model.bin",
      "research/exp/runs/r1/score.txt"
    ])

    let v = verify(dir)
    expect(v.findings).toEqual([])
    expect(v.executions.map((e: any) => [e.runtimeId, e.check])).toEqual([[x.id, "verified"], ["slurm-42", "external"]])

    // An artifact_linked of the candidate at an output path with other bytes than the run produced
    // (append checks a given digest against the file, so the file briefly holds those bytes).
    const score = path.join(dir, "research/exp/runs/r1/score.txt")
    const scoreBytes = fs.readFileSync(score)
    fs.writeFileSync(score, "forged bytes")
    append(dir, "a.json", {
      id: "forged",
      type: "artifact_linked",
      candidateId: "cand",
      artifact: { path: "research/exp/runs/r1/score.txt" }
    })
    fs.writeFileSync(score, scoreBytes)
    v = verify(dir)
    expect(v.findings.map((f: any) => [f.kind, f.eventId])).toEqual([["artifact-changed", "forged"], [
      "artifact-not-from-execution",
      "forged"
    ]])

    // The record altered, then removed.
    const file = path.join(dir, `.dossier/executions/${x.id}.json`)
    const original = fs.readFileSync(file, "utf8")
    fs.writeFileSync(file, original.replace("\"status\": \"exited\"", "\"status\": \"killed\""))
    v = verify(dir)
    expect(v.findings.map((f: any) => f.kind)).toContain("execution-tampered")
    expect(v.executions.find((e: any) => e.runtimeId === x.id).check).toBe("tampered")
    fs.rmSync(file)
    v = verify(dir)
    expect(v.findings.map((f: any) => f.kind)).toContain("execution-missing")
    fs.writeFileSync(file, original)

    // Linking again (a retry) appends nothing.
    const again = D(dir, ["journal", "append", "--study", "st", "--input", putInput(dir, "again.json", linked)]).json
    expect(again.appended).toEqual([])
  })

  it("--verify says what was left of a lost run's processes, as its record does", async () => {
    const dir = folder()
    createCandidate(dir)
    createGrant(dir)
    const needle = `${process.pid}${Date.now() % 100000}3`
    const run = execAsync(dir, "g1", ["sleep", needle])
    const id = await waitForRunning(dir)
    run.child.kill("SIGKILL")
    await run.done
    await waitUntil("the run's sleep outlived its exec", () => processesWith(needle).length === 0, 20_000)
    const x = ok(dir, ["exec", "show", "--execution", id]).execution
    expect(x).toMatchObject({ status: "lost", leftProcesses: { outcome: "none-found", processes: 0 } })
    append(dir, "l.json", [
      { id: "l1", type: "execution_linked", candidateId: "cand", execution: { runtimeId: id, status: "lost" } }
    ])
    const v = verify(dir)
    expect(v.executions).toEqual([
      { candidateId: "cand", eventId: "l1", runtimeId: id, check: "verified", leftProcesses: "none-found" }
    ])
  })

  it("a run made for one candidate and linked to another is not verified for it", () => {
    const dir = folder()
    append(dir, "c.json", [
      { id: "c1", type: "candidate_created", candidate: { id: "cand", title: "T" } },
      { id: "c2", type: "candidate_created", candidate: { id: "other", title: "O" } }
    ])
    createGrant(dir)
    const x = ok(dir, ["exec", "--grant", "g1", "--study", "st", "--candidate", "cand", "--", "true"]).execution
    append(dir, "l.json", {
      id: "claimed",
      type: "execution_linked",
      candidateId: "other",
      execution: { runtimeId: x.id, status: "exited", exitCode: 0 }
    })
    const v = verify(dir)
    expect(v.executions.map((e: any) => [e.candidateId, e.eventId, e.check])).toEqual([
      ["cand", `${x.id}:execution`, "verified"],
      ["other", "claimed", "tampered"]
    ])
    expect(v.findings).toEqual([
      expect.objectContaining({ kind: "execution-tampered", candidateId: "other", eventId: "claimed", runtimeId: x.id })
    ])
    expect(v.findings[0].detail).toContain("'cand'")
  })

  it("a record copied in from another folder is not verified there: its grant is not that folder's", () => {
    const from = folder()
    createGrant(from)
    const x = ok(from, ["exec", "--grant", "g1", "--", "sh", "-c", "echo 0.91 > score.txt"]).execution
    // Another folder with a grant of the same id and input (its roots are other directories).
    const dir = folder()
    createCandidate(dir)
    createGrant(dir)
    for (const name of [`${x.id}.json`, x.id]) {
      fs.cpSync(path.join(from, ".dossier/executions", name), path.join(dir, ".dossier/executions", name), {
        recursive: true
      })
    }
    append(dir, "l.json", {
      id: "copied",
      type: "execution_linked",
      candidateId: "cand",
      execution: { runtimeId: x.id, status: "exited", exitCode: 0 }
    })
    const v = verify(dir)
    expect(v.executions.map((e: any) => [e.eventId, e.check])).toEqual([["copied", "unverifiable"]])
    expect(v.findings.map((f: any) => [f.kind, f.eventId])).toEqual([["execution-unverifiable", "copied"]])
    const shown = ok(dir, ["exec", "show", "--execution", x.id, "--verify"])
    expect(shown.authentication.authenticity).toBe("unverifiable")
    // (Its output is in the other folder.)
    expect(shown.verify.findings.map((f: any) => f.kind)).toEqual(["execution-unverifiable", "output-missing"])
    // Without its grant at all, the same.
    fs.rmSync(path.join(dir, ".dossier/grants/g1.json"))
    expect(ok(dir, ["exec", "show", "--execution", x.id]).authentication.authenticity).toBe("unverifiable")
    // In the folder it ran in, it still verifies.
    expect(ok(from, ["exec", "show", "--execution", x.id]).authentication.authenticity).toBe("signed")
  })

  it("--study needs a --candidate of that journal; nothing runs otherwise", () => {
    const dir = folder()
    createGrant(dir)
    createCandidate(dir)
    expect(D(dir, ["exec", "--grant", "g1", "--study", "st", "--", "true"]).json.error._tag).toBe("InvalidInput")
    expect(D(dir, ["exec", "--grant", "g1", "--study", "st", "--candidate", "nope", "--", "true"]).json.error._tag)
      .toBe("InvalidInput")
    expect(fs.existsSync(path.join(dir, ".dossier/executions"))).toBe(false)
  })
})
