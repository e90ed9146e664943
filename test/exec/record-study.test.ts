/**
 * A run linked with `--study` names its study in the record, and `journal inspect --verify` of
 * another study's journal, with a candidate of the same id, does not take it as its evidence
 * (docs/exec.md, "journal inspect --verify"). Through the built CLI; spawns it and the sandbox.
 */
import { describe, expect, it } from "@effect/vitest"
import { runCli } from "../support/cli.js"
import { createCandidate, createGrant, exec, folder, ok, putInput, sandboxWorks } from "./support.js"

describe.skipIf(!sandboxWorks)("the record of a linked run names its study", () => {
  it("verifies in its own study's journal; another study's journal linking it (same candidate id) is tampered", () => {
    const dir = folder()
    createGrant(dir)
    createCandidate(dir)
    ok(dir, [
      "journal",
      "append",
      "--study",
      "st2",
      "--input",
      putInput(dir, "c2.json", { id: "c1", type: "candidate_created", candidate: { id: "cand", title: "T" } })
    ])
    const x = exec(dir, "g1", ["true"], ["--study", "st", "--candidate", "cand"])
    expect(x).toMatchObject({ candidateId: "cand", status: "exited" })
    // The same run linked by hand from the other study's journal, to its candidate of the same id.
    ok(dir, [
      "journal",
      "append",
      "--study",
      "st2",
      "--input",
      putInput(dir, "link.json", {
        id: "borrowed",
        type: "execution_linked",
        candidateId: "cand",
        execution: { runtimeId: x.id, status: x.status, exitCode: x.exitCode, logRef: x.stdout.path }
      })
    ])
    const own = ok(dir, ["journal", "inspect", "--study", "st", "--verify"])
    expect(own.verify.executions).toEqual([
      expect.objectContaining({ candidateId: "cand", runtimeId: x.id, check: "verified" })
    ])
    const other = ok(dir, ["journal", "inspect", "--study", "st2", "--verify"])
    expect(other.verify.executions).toEqual([
      expect.objectContaining({ candidateId: "cand", runtimeId: x.id, check: "tampered" })
    ])
    const finding = other.verify.findings.find((f: { kind: string }) => f.kind === "execution-tampered")
    expect(finding.detail).toContain("'st2'")
    expect(finding.detail).toContain("'st'")
    expect(x.study).toBe("st")
    // A person reading `exec show` sees the candidate and the study as the JSON answer names them.
    const shown = runCli(["exec", "show", "--execution", x.id, "--workdir", dir])
    expect(shown.stdout.split("\n"), shown.stderr).toContain("  for candidate cand, linked in study st's journal")
    // A run not linked to a study names none.
    expect(exec(dir, "g1", ["true"])).not.toHaveProperty("study")
  }, 120_000)
})
