/**
 * What the hostile-input tests through the built CLI share (input.test.ts, contract.test.ts).
 */
import { expect } from "vitest"
import { type CliResult, leaksNothing, runCli, snapshot } from "../support/cli.js"

/** A refusal: the exit code, the tag, nothing leaked, nothing changed. */
export const refused = (dir: string, run: () => CliResult, code: number, tag: string): CliResult => {
  const before = snapshot(dir)
  const r = run()
  expect(r.code, r.stdout + r.stderr).toBe(code)
  expect(r.json?.ok, r.stdout).toBe(false)
  expect(r.json.error._tag, r.stdout).toBe(tag)
  expect(leaksNothing(dir, r)).toBe(true)
  expect(snapshot(dir)).toEqual(before)
  return r
}

/** A command in the folder `dir`, answering JSON. */
export const cli = (dir: string, args: ReadonlyArray<string>) => runCli([...args, "--workdir", dir, "--json"])
