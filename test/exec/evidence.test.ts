/**
 * Authenticated evidence through the built CLI: grants and execution records are signed with a
 * key outside the folder (HMAC-SHA-256; the test config directory from test/support/configHome.ts),
 * so a record edited and re-digested is `execution-tampered`, a legacy unsigned one is reported as
 * such, another machine's is `unverifiable`, and no sandbox can read the key.
 */
import { describe, expect, it } from "@effect/vitest"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { canonicalDigest } from "../../src/domain/Canonical.js"
import { copyOfTemplate, runCli } from "../support/cli.js"
import {
  childGrant,
  createCandidate,
  createGrant,
  D,
  exec,
  folder,
  ok,
  putInput,
  refused,
  sandboxWorks,
  stdoutOf
} from "./support.js"

const keyDir = () => path.join(process.env["XDG_CONFIG_HOME"]!, "dossier")
const sha256 = (text: string) => crypto.createHash("sha256").update(text).digest("hex")
const recordFile = (dir: string, id: string) => path.join(dir, `.dossier/executions/${id}.json`)
const readJson = (file: string) => JSON.parse(fs.readFileSync(file, "utf8"))
const writeJson = (file: string, value: unknown) => fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`)

/** What a forger who can write the folder but not read the key does: edit, then recompute the plain SHA-256. */
const forge = (dir: string, id: string, edit: (r: any) => void) => {
  const file = recordFile(dir, id)
  const r = readJson(file)
  edit(r)
  const { receiptDigest: _d, signature, ...content } = r
  writeJson(file, {
    ...content,
    receiptDigest: canonicalDigest(content),
    ...(signature === undefined ? {} : { signature })
  })
}

const forgeStdout = (dir: string, r: any, text: string) => {
  fs.chmodSync(path.join(dir, r.stdout.path), 0o644)
  fs.writeFileSync(path.join(dir, r.stdout.path), text)
  r.stdout = { ...r.stdout, bytes: Buffer.byteLength(text), sha256: sha256(text) }
}

const linkedRun = (dir: string, script: string) =>
  ok(dir, ["exec", "--grant", "g1", "--study", "st", "--candidate", "cand", "--", "sh", "-c", script]).execution

const journalChecks = (dir: string, env?: Record<string, string>) => {
  const r = D(dir, ["journal", "inspect", "--study", "st", "--verify"], env)
  expect(r.code).toBe(0)
  return r.json.verify
}

/**
 * A folder with the candidate the runs are linked to, and a grant. The candidate (a journal
 * append through the CLI, which no test here checks) is made once per file and its folder copied;
 * the grant is made in each copy (it names its roots' inodes, which a copy does not keep).
 */
const setup = () => {
  const dir = copyOfTemplate("candidate", (template) => {
    const made = folder()
    createCandidate(made)
    fs.cpSync(made, template, { recursive: true })
  }, "dossier-exec-")
  createGrant(dir)
  return dir
}

// Each test makes a dozen CLI calls; on a loaded machine that takes more than the default minute.
describe.skipIf(!sandboxWorks)("authenticated evidence", { timeout: 240_000 }, () => {
  it("a record edited (exit code 1 → 0, stdout) with its plain SHA-256 recomputed is execution-tampered", () => {
    const dir = setup()
    const x = linkedRun(dir, "echo 2 TESTS FAILED; exit 1")
    expect(x.exitCode).toBe(1)
    expect(x.signature).toMatchObject({ alg: "HMAC-SHA-256" })
    expect(ok(dir, ["exec", "show", "--execution", x.id, "--verify"])).toMatchObject({
      authentication: { authenticity: "signed" },
      verify: { findings: [] }
    })
    expect(journalChecks(dir).executions).toEqual([expect.objectContaining({ runtimeId: x.id, check: "verified" })])
    const before = ok(dir, ["grant", "show", "--grant", "g1"]).remaining

    forge(dir, x.id, (r) => {
      r.exitCode = 0
      forgeStdout(dir, r, "ALL TESTS PASSED\n")
    })
    // The plain digests hold: only the signature tells.
    refused(dir, ["exec", "show", "--execution", x.id], "ExecutionDigestMismatch")
    const shown = ok(dir, ["exec", "show", "--execution", x.id, "--verify"])
    expect(shown.authentication.authenticity).toBe("tampered")
    expect(shown.verify.findings).toEqual([
      expect.objectContaining({ kind: "execution-tampered", path: `.dossier/executions/${x.id}.json` })
    ])
    const v = journalChecks(dir)
    expect(v.executions).toEqual([expect.objectContaining({ runtimeId: x.id, check: "tampered" })])
    expect(v.findings.map((f: any) => f.kind)).toEqual(["execution-tampered"])
    // A forged record's figures are not believed: it is charged its whole wall and CPU limits.
    const after = ok(dir, ["grant", "show", "--grant", "g1"]).remaining
    expect(after.wallSeconds).toBeLessThan(before.wallSeconds - 60)
  })

  it("only the stdout forged, the journal link still agreeing: the signature alone catches it", () => {
    const dir = setup()
    const x = linkedRun(dir, "echo 2 TESTS FAILED")
    forge(dir, x.id, (r) => forgeStdout(dir, r, "ALL TESTS PASSED\n"))
    const v = journalChecks(dir)
    expect(v.findings).toEqual([
      expect.objectContaining({
        kind: "execution-tampered",
        runtimeId: x.id,
        detail: expect.stringContaining("signature")
      })
    ])
  })

  it("a legacy record without a signature is reported as unsigned, never as verified", () => {
    const dir = setup()
    const x = linkedRun(dir, "echo ok")
    const file = recordFile(dir, x.id)
    const { signature: _s, ...legacy } = readJson(file)
    writeJson(file, legacy)
    const shown = ok(dir, ["exec", "show", "--execution", x.id])
    expect(shown.authentication.authenticity).toBe("unsigned")
    expect(ok(dir, ["exec", "show", "--execution", x.id, "--verify"]).verify.findings.map((f: any) => f.kind)).toEqual([
      "execution-unsigned"
    ])
    const v = journalChecks(dir)
    expect(v.executions.map((e: any) => e.check)).toEqual(["unsigned"])
    expect(v.findings.map((f: any) => f.kind)).toEqual(["execution-unsigned"])
  })

  it("on a machine with another key, or none, records are unverifiable and grants run nothing", () => {
    const dir = setup()
    const x = linkedRun(dir, "echo ok")
    const elsewhere = {
      XDG_CONFIG_HOME: fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dossier-config-other-")))
    }
    // No key there: checking creates none.
    const shown = D(dir, ["exec", "show", "--execution", x.id, "--verify"], elsewhere).json
    expect(shown.verify.findings.map((f: any) => f.kind)).toEqual(["execution-unverifiable"])
    expect(shown.authentication.detail).toContain("no evidence key")
    expect(fs.existsSync(path.join(elsewhere.XDG_CONFIG_HOME, "dossier/evidence.key"))).toBe(false)
    expect(journalChecks(dir, elsewhere).executions.map((e: any) => e.check)).toEqual(["unverifiable"])
    // Another key there (made by a grant of its own): the first machine's grant runs nothing.
    expect(
      D(dir, [
        "grant",
        "create",
        "--input",
        putInput(dir, "g9.json", {
          task: "t9",
          inputs: [],
          work: "research/exp/runs/r9",
          tools: ["bash"],
          budget: { runs: 1, wallSeconds: 5, cpuSeconds: 5, memoryMiB: 64, outputMiB: 1 },
          deadline: "2030-01-01T00:00:00Z"
        })
      ], elsewhere).code
    ).toBe(0)
    expect(fs.statSync(path.join(elsewhere.XDG_CONFIG_HOME, "dossier/evidence.key")).mode & 0o777).toBe(0o600)
    expect(fs.statSync(path.join(elsewhere.XDG_CONFIG_HOME, "dossier")).mode & 0o777).toBe(0o700)
    expect(refused(dir, ["exec", "--grant", "g1", "--", "true"], "GrantUnauthenticated", elsewhere).authenticity).toBe(
      "unverifiable"
    )
    expect(journalChecks(dir, elsewhere).findings.map((f: any) => f.kind)).toEqual(["execution-unverifiable"])
  })

  it("grants: a forged one is refused, a legacy unsigned one runs nothing and makes no child", () => {
    const dir = setup()
    const file = path.join(dir, ".dossier/grants/g1.json")
    const signed = readJson(file)
    // Widened by hand, its plain digest recomputed, the signature kept.
    const { digest: _d, signature, ...content } = signed
    const wider = { ...content, budget: { ...content.budget, runs: 10_000 } }
    writeJson(file, { ...wider, digest: canonicalDigest(wider), signature })
    refused(dir, ["exec", "--grant", "g1", "--", "true"], "GrantDigestMismatch")
    // Unsigned (as written before signing existed).
    writeJson(file, { ...content, digest: canonicalDigest(content) })
    expect(ok(dir, ["grant", "show", "--grant", "g1"]).state).toBe("active")
    expect(refused(dir, ["exec", "--grant", "g1", "--", "true"], "GrantUnauthenticated").authenticity).toBe("unsigned")
    const child = {
      id: "g2",
      task: "task-2",
      parent: "g1",
      inputs: ["research/exp/data"],
      work: "research/exp/runs/r1/child",
      tools: ["bash"],
      budget: { runs: 1, wallSeconds: 5, cpuSeconds: 5, memoryMiB: 64, outputMiB: 1 },
      deadline: "2029-01-01T00:00:00Z"
    }
    refused(dir, ["grant", "create", "--input", putInput(dir, "child.json", child)], "GrantUnauthenticated")
  })

  it("a record that no longer decodes is charged to no grant: no run is admitted and no child carved until it is back", () => {
    const dir = setup()
    const x = exec(dir, "g1", ["true"])
    expect(ok(dir, ["grant", "show", "--grant", "g1"]).remaining.runs).toBe(19)
    const file = recordFile(dir, x.id)
    const original = fs.readFileSync(file, "utf8")
    const records = () => fs.readdirSync(path.join(dir, ".dossier/executions")).filter((n) => n.endsWith(".json"))
    for (const damaged of ["{\"broken", "", "[]\n"]) {
      fs.writeFileSync(file, damaged)
      // What its run spent cannot be charged to any grant: refused, naming the record, nothing run.
      const e = refused(dir, ["exec", "--grant", "g1", "--", "true"], "ExecutionDigestMismatch")
      expect(e.executionId, JSON.stringify(damaged)).toBe(x.id)
      expect(records()).toEqual([`${x.id}.json`])
      const c = refused(
        dir,
        ["grant", "create", "--input", putInput(dir, "c.json", childGrant())],
        "ExecutionDigestMismatch"
      )
      expect(c.executionId).toBe(x.id)
      expect(fs.existsSync(path.join(dir, ".dossier/grants/g2.json"))).toBe(false)
      // Reported where a person looks first: grant list and status name the record.
      expect(ok(dir, ["grant", "list"]).unreadableExecutions).toEqual([x.id])
      const st = runCli(["status", "--json"], { cwd: dir })
      expect(st.json.grants.unreadableExecutions).toEqual([x.id])
      expect(runCli(["status"], { cwd: dir }).stdout).toContain(`execution record ${x.id} cannot be read`)
      // grant show does not answer as if the run never happened: it names the record, and a
      // person reads that what is left is not known.
      expect(ok(dir, ["grant", "show", "--grant", "g1"]).unreadableExecutions).toEqual([x.id])
      const shown = runCli(["grant", "show", "--grant", "g1"], { cwd: dir })
      expect(shown.code).toBe(0)
      expect(shown.stdout).toContain(`left: not known: execution record(s) ${x.id} cannot be read`)
    }
    fs.writeFileSync(file, original)
    exec(dir, "g1", ["true"])
    const restored = ok(dir, ["grant", "show", "--grant", "g1"])
    expect(restored.remaining.runs).toBe(18)
    expect(restored.unreadableExecutions).toEqual([])
    expect(ok(dir, ["grant", "list"]).unreadableExecutions).toEqual([])
  })

  it("an in-flight marker written by hand is recorded lost but unsigned, never signed by dossier", () => {
    const dir = setup()
    const id = "x-20260101T000000-0000abcd"
    fs.mkdirSync(path.join(dir, ".dossier/executions"), { recursive: true })
    const limits = { wallSeconds: 1, cpuSeconds: 1, memoryMiB: 64, processes: 256, fileMiB: 1 }
    writeJson(path.join(dir, `.dossier/executions/${id}.running.json`), {
      id,
      grantId: "g1",
      grantDigest: "d",
      task: "task-1",
      candidateId: null,
      argv: ["make-believe"],
      startedAt: "2026-01-01T00:00:00.000Z",
      owner: { pid: 999_999_999, startTicks: "1" },
      limits
    })
    const shown = ok(dir, ["exec", "show", "--execution", id])
    expect(shown.execution).toMatchObject({ id, status: "lost" })
    expect(shown.authentication.authenticity).toBe("unsigned")
    // A run dossier itself started and lost is signed.
    const x = linkedRun(dir, "echo ok")
    expect(ok(dir, ["exec", "show", "--execution", x.id]).authentication.authenticity).toBe("signed")
  })

  it("no sandbox can reach the key, and a key inside the folder or readable by others is refused", () => {
    const dir = setup()
    const key = path.join(keyDir(), "evidence.key")
    expect(fs.existsSync(key)).toBe(true)
    const x = exec(dir, "g1", [
      "sh",
      "-c",
      `cat '${key}'; ls -a '${keyDir()}'; ls -a "$(dirname '${keyDir()}')"; echo end`
    ])
    expect(stdoutOf(dir, x)).toBe("end\n")
    // A config directory inside the work folder: the folder would hold its own key.
    const inside = { XDG_CONFIG_HOME: path.join(dir, "research/exp/data/config") }
    refused(dir, ["exec", "--grant", "g1", "--", "true"], "EvidenceKeyUnavailable", inside)
    refused(
      dir,
      [
        "grant",
        "create",
        "--input",
        putInput(dir, "g3.json", {
          task: "t3",
          inputs: [],
          work: "research/exp/runs/r3",
          tools: ["bash"],
          budget: { runs: 1, wallSeconds: 5, cpuSeconds: 5, memoryMiB: 64, outputMiB: 1 },
          deadline: "2030-01-01T00:00:00Z"
        })
      ],
      "EvidenceKeyUnavailable",
      inside
    )
    expect(fs.existsSync(path.join(dir, "research/exp/data/config/dossier/evidence.key"))).toBe(false)
    // A key others can read is not used.
    fs.chmodSync(key, 0o644)
    try {
      expect(refused(dir, ["exec", "--grant", "g1", "--", "true"], "EvidenceKeyUnavailable").reason).toContain("0600")
    } finally {
      fs.chmodSync(key, 0o600)
    }
  })
})
