/**
 * What the folder holds must not change unless a change says so: a recorded session
 * (test/support/replay.ts: the README's quick start and one of each writing command, fixed inputs,
 * a fixed clock) is replayed into a fresh folder with the built CLI, and every file's bytes and
 * every answer must equal the recording in test/fixtures/replay/. `REPLAY_RECORD=1` re-records.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { signDigest } from "../../src/domain/Evidence.js"
import { grantDigest } from "../../src/domain/Grant.js"
import { tempWorkdir } from "../support/cli.js"
import { filesOf, FIXTURE, GRANT_RECORD, KEY, masked, replay, STEPS } from "../support/replay.js"

const recording = path.join(FIXTURE, "folder")
const record = process.env["REPLAY_RECORD"] === "1"

describe("a recorded folder, replayed", () => {
  it(
    record ? "records the session" : "is byte for byte the recording, with the same answers",
    { timeout: 300_000 },
    () => {
      const dir = tempWorkdir("dossier-replay-")
      const { answers } = replay(dir)
      const files = filesOf(dir)
      if (record) {
        fs.rmSync(FIXTURE, { recursive: true, force: true })
        for (const [rel, bytes] of files) {
          fs.mkdirSync(path.join(recording, path.dirname(rel)), { recursive: true })
          fs.writeFileSync(path.join(recording, rel), bytes)
        }
        fs.writeFileSync(path.join(FIXTURE, "answers.json"), `${JSON.stringify(answers, null, 1)}\n`)
      }
      const recorded = filesOf(recording)
      // The same files…
      expect(files.map(([rel]) => rel)).toEqual(recorded.map(([rel]) => rel))
      // …with the same bytes (compared as text when they differ, so that the difference shows), but
      // for the values that depend on the file system's identities or the runtime (see `masked`).
      for (const [[rel, bytes], [, want]] of files.map((f, i) => [f, recorded[i]!] as const)) {
        const text = bytes.toString("latin1")
        if (masked(text, rel) !== text) expect(masked(text, rel), rel).toBe(masked(want.toString("latin1"), rel))
        else {
          if (!bytes.equals(want)) expect(bytes.toString("utf8"), rel).toBe(want.toString("utf8"))
          expect(bytes.equals(want), rel).toBe(true)
        }
      }
      // The masked digest and signature are the ones the grant's content and the key give.
      const grants = files.filter(([rel]) => GRANT_RECORD.test(rel))
      expect(grants.length).toBe(2)
      for (const [rel, bytes] of grants) {
        const { digest, signature, ...content } = JSON.parse(bytes.toString("utf8"))
        expect(digest, rel).toBe(grantDigest(content))
        expect(signature, rel).toEqual(signDigest(Buffer.from(KEY.trim(), "hex"), "grant", digest))
      }
      // Every command answered as recorded.
      expect(masked(JSON.stringify(answers, null, 1))).toBe(
        masked(fs.readFileSync(path.join(FIXTURE, "answers.json"), "utf8").trimEnd())
      )
      expect(answers.length).toBe(STEPS.length)
      fs.rmSync(dir, { recursive: true, force: true })
    }
  )
})
