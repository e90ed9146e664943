/**
 * A client SIGKILLed at a random point of a command leaves all of it or nothing in the shared
 * dossier: dozens of rounds of `journal append` (a batch with a linked artifact) and of `plan
 * checkpoint` (with a registered output), each CLI process in a bound folder killed after a random
 * delay within the command's own duration, against the test's own throwaway cluster (skipped with
 * a note without the server binaries). After each kill the store holds the whole batch or none of
 * it, the checkpoint's revision or the one before with nothing of the checkpoint; the same
 * command run again then succeeds and stores it once.
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { CLI, put, putInput, runCli, tempWorkdir } from "../support/cli.js"
import { adminQuery, pgAvailable, useTestDatabase } from "../support/postgres.js"
import { NOW, ok } from "./support/populated.js"

/** Folders killed at once (each its own dossier), and rounds in each. */
const LANES = 4
const ROUNDS = 4

/** Run the CLI and SIGKILL it after `killAfterMs`; whether it was killed before it ended. */
const runKilled = (args: ReadonlyArray<string>, killAfterMs: number): Promise<{ killed: boolean }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "ignore", "ignore"] })
    const timer = setTimeout(() => child.kill("SIGKILL"), killAfterMs)
    child.on("close", (_code, signal) => {
      clearTimeout(timer)
      resolve({ killed: signal === "SIGKILL" })
    })
  })

/** How long a command takes here, unkilled (ms): the range the kill is drawn from. */
const timed = (args: ReadonlyArray<string>) => {
  const started = Date.now()
  const r = runCli(args)
  return { r, ms: Date.now() - started }
}

describe.skipIf(!pgAvailable)("a client SIGKILLed at random points", () => {
  const db = useTestDatabase()

  const count = async (q: string, values: ReadonlyArray<unknown>) =>
    (await adminQuery(db.url, q, values)).rows[0]!.n as number

  it(
    "journal append and plan checkpoint: all or nothing after every kill, and the same command again stores it once",
    async () => {
      const lanes = Array.from({ length: LANES }, (_, lane) => {
        const dir = tempWorkdir(`dossier-kill-${lane}-`)
        const dossier = `kill-${lane}`
        ok(runCli(["init", "--store", db.url, "--dossier", dossier, "--workdir", dir, "--json"]))
        ok(runCli([
          "plan",
          "start",
          "--input",
          putInput(dir, "start.json", { goal: "G", limits: [], nextAction: "n" }),
          "--now",
          NOW,
          "--workdir",
          dir,
          "--json"
        ]))
        return { dir, dossier }
      })
      const appendArgs = (dir: string, round: number) => {
        put(dir, `research/results/a${round}.bin`, new Uint8Array(64 * 1024).fill(round))
        const events = [
          { id: `r${round}-c`, type: "candidate_created", candidate: { id: `cand-${round}`, title: `C${round}` } },
          ...Array.from({ length: 8 }, (_, k) => ({
            id: `r${round}-n${k}`,
            type: "candidate_created",
            candidate: { id: `cand-${round}-${k}`, title: `round ${round} candidate ${k}` }
          })),
          {
            id: `r${round}-a`,
            type: "artifact_linked",
            candidateId: `cand-${round}`,
            artifact: { path: `research/results/a${round}.bin` }
          }
        ]
        return {
          ids: events.map((e) => e.id),
          args: [
            "journal",
            "append",
            "--study",
            "s",
            "--input",
            putInput(dir, `j${round}.json`, events),
            "--workdir",
            dir,
            "--json"
          ]
        }
      }
      const checkpointArgs = (dir: string, round: number, expected: number) => {
        put(dir, `research/results/out${round}.md`, `Result of round ${round}.\n`)
        return [
          "plan",
          "checkpoint",
          "--input",
          putInput(dir, `cp${round}.json`, {
            completedSteps: [{ id: `step-${round}`, summary: `round ${round}` }],
            outputs: [{ path: `research/results/out${round}.md`, dependsOn: [] }],
            nextAction: `after round ${round}`
          }),
          "--expected",
          String(expected),
          "--now",
          NOW,
          "--workdir",
          dir,
          "--json"
        ]
      }
      // The commands' own durations here bound the kill's delay.
      const probe = lanes[0]!
      const appendMs = timed(appendArgs(probe.dir, 0).args)
      ok(appendMs.r)
      const checkpointMs = timed(checkpointArgs(probe.dir, 0, 1))
      ok(checkpointMs.r)
      const span = Math.max(appendMs.ms, checkpointMs.ms)

      let killedMidway = 0
      const laneRun = async ({ dir, dossier }: { dir: string; dossier: string }, lane: number) => {
        for (let round = 1; round <= ROUNDS; round++) {
          // A batch: the whole of it or nothing.
          const batch = appendArgs(dir, round)
          const a = await runKilled(batch.args, Math.floor(Math.random() * span))
          const stored = await count(
            "SELECT count(*)::int AS n FROM dossier.events WHERE dossier = $1 AND log = 'journal' AND id = ANY($2)",
            [dossier, batch.ids]
          )
          expect([0, batch.ids.length], `lane ${lane} round ${round} append`).toContain(stored)
          if (stored === 0) {
            if (a.killed) killedMidway++
            const again = runCli(batch.args)
            expect(again.json?.ok, again.stdout + again.stderr).toBe(true)
          }
          expect(
            await count(
              "SELECT count(*)::int AS n FROM dossier.events WHERE dossier = $1 AND log = 'journal' AND id = ANY($2)",
              [dossier, batch.ids]
            )
          ).toBe(batch.ids.length)

          // A checkpoint: its revision with its content, or the one before untouched.
          const before = await adminQuery(
            db.url,
            "SELECT revision, value FROM dossier.records WHERE dossier = $1 AND kind = 'plan'",
            [dossier]
          )
          const revision = before.rows[0]!.revision as number
          const args = checkpointArgs(dir, round, revision)
          const c = await runKilled(args, Math.floor(Math.random() * span))
          const after = await adminQuery(
            db.url,
            "SELECT revision, value FROM dossier.records WHERE dossier = $1 AND kind = 'plan'",
            [dossier]
          )
          const now = after.rows[0]! as { revision: number; value: string }
          if (now.revision === revision) {
            expect(now.value, `lane ${lane} round ${round} checkpoint`).toBe(before.rows[0]!.value)
            if (c.killed) killedMidway++
            const retried = runCli(args)
            expect(retried.json?.ok, retried.stdout + retried.stderr).toBe(true)
          } else {
            expect(now.revision).toBe(revision + 1)
            expect(now.value).toContain(`after round ${round}`)
            expect(now.value).toContain(`research/results/out${round}.md`)
          }
          // The registered output's bytes are in the store whenever the record names it.
          const latest = await adminQuery(
            db.url,
            "SELECT revision FROM dossier.records WHERE dossier = $1 AND kind = 'plan'",
            [dossier]
          )
          expect(latest.rows[0]!.revision).toBe(revision + 1)
        }
        // A command refreshes the part of the view it touched, and one killed after its commit
        // refreshed nothing: a pull brings the view to the store, every event once.
        const pulled = runCli(["pull", "--workdir", dir, "--json"])
        expect(pulled.json?.ok, pulled.stdout + pulled.stderr).toBe(true)
        const lines = fs.readFileSync(path.join(dir, "research/s/research-events.jsonl"), "utf8").trim().split("\n")
        const ids = lines.map((l) => JSON.parse(l).event.id as string)
        expect(new Set(ids).size).toBe(ids.length)
        expect(ids.length).toBe(
          await count("SELECT count(*)::int AS n FROM dossier.events WHERE dossier = $1 AND log = 'journal'", [dossier])
        )
      }
      await Promise.all(lanes.map(laneRun))
      // Most kills landed before the commit (else the test would not test much).
      expect(killedMidway).toBeGreaterThan(LANES * ROUNDS / 4)
    },
    600_000
  )
})
