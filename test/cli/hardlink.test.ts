/**
 * A file dossier reads on a user's behalf with a second name (a hard link, here to a file outside
 * the work folder) is `UnsafePath {reason: "hard-link"}`, through the built CLI: nothing of it is
 * read, shown or kept.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { leaksNothing, put, runCli, snapshot, tempWorkdir } from "../support/cli.js"

const NOW = "2026-11-30T10:00:00.000Z"

/** A work folder and, outside it, a file with a secret hard-linked into the folder at `rel`. */
const linkedIn = (rel: string, content: string) => {
  const outside = tempWorkdir("dossier-outside-")
  const dir = tempWorkdir("dossier-hardlink-")
  fs.writeFileSync(path.join(outside, "secret"), content)
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
  fs.linkSync(path.join(outside, "secret"), path.join(dir, rel))
  return dir
}

const refusedAsHardLink = (dir: string, args: ReadonlyArray<string>, secret: string) => {
  const before = snapshot(dir)
  const r = runCli([...args, "--workdir", dir, "--json"])
  expect(leaksNothing(dir, r)).toBe(true)
  expect({ code: r.code, tag: r.json?.error?._tag, reason: r.json?.error?.reason }).toEqual({
    code: 1,
    tag: "UnsafePath",
    reason: "hard-link"
  })
  expect(r.stdout + r.stderr).not.toContain(secret)
  expect(snapshot(dir)).toEqual(before)
}

describe("hard links are never read", () => {
  it("plan start --input", () => {
    const secret = "OUTSIDE-GOAL-TEXT"
    const dir = linkedIn("research/inputs/start.json", JSON.stringify({ goal: secret, limits: [], nextAction: "x" }))
    refusedAsHardLink(dir, ["plan", "start", "--input", "research/inputs/start.json", "--now", NOW], secret)
    expect(fs.existsSync(path.join(dir, "plan.md"))).toBe(false)
  })

  it("ingest --file", () => {
    const secret = "OUTSIDE-PAGE-TEXT that must never be captured"
    const dir = linkedIn("saved/page.html", `<html><body><p>${secret}</p></body></html>`)
    refusedAsHardLink(
      dir,
      ["ingest", "--file", "saved/page.html", "--origin", "https://example.org/p", "--now", NOW],
      secret
    )
    expect(fs.existsSync(path.join(dir, "research/sources"))).toBe(false)
  })

  it("grant create --input, journal append --input and the gate's --state", () => {
    const secret = "OUTSIDE-TASK"
    const dir = linkedIn("research/inputs/grant.json", JSON.stringify({ task: secret }))
    refusedAsHardLink(dir, ["grant", "create", "--input", "research/inputs/grant.json"], secret)
    const j = linkedIn("research/inputs/events.json", JSON.stringify([{ type: "note", text: secret }]))
    refusedAsHardLink(j, ["journal", "append", "--study", "s1", "--input", "research/inputs/events.json"], secret)
    const g = linkedIn("run/state.json", JSON.stringify({ item: secret, autopilot: true, waitingFor: "maturity" }))
    refusedAsHardLink(g, ["gate", "--state", "run/state.json", "--now", NOW], secret)
  })

  it("a file with one name is read as before", () => {
    const dir = tempWorkdir("dossier-hardlink-")
    put(
      dir,
      "research/inputs/start.json",
      JSON.stringify({ goal: "Compare X and Y", limits: [], nextAction: "search" })
    )
    const r = runCli([
      "plan",
      "start",
      "--workdir",
      dir,
      "--input",
      "research/inputs/start.json",
      "--now",
      NOW,
      "--json"
    ])
    expect(r.json).toEqual({ ok: true, revision: 1, created: true })
  })
})
