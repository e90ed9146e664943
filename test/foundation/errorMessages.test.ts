/**
 * Every domain error's `message` reaches every face (CLI, MCP tools, library callers), so it
 * states the fact in words true for all of them: no `--flag`, no `dossier …` command line. The
 * way out on each face is the catalogue's hint (src/commands/ErrorCatalogue.ts).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as fc from "effect/FastCheck"
import { errorCatalogue } from "../../src/commands/ErrorCatalogue.js"
import { AllErrors } from "../../src/domain/AllErrors.js"
import { InputOutsideWorkdir, UnsafePath, UnsafePathReason } from "../../src/domain/Errors.js"
import { checkOrigin } from "../../src/domain/IngestContent.js"
import { UnsupportedContent } from "../../src/domain/IngestErrors.js"
import { InvalidTransition } from "../../src/domain/MonitorErrors.js"
import { Errors, Plan } from "../../src/index.js"

/** A CLI flag (`--x`), a CLI command line (`dossier x`), or a CLI-only command's words. */
const CLI_ONLY =
  /--[a-z]|\bdossier (init|plan|ingest|journal|gate|monitor|exec|grant|source|status|store|schema|mcp)\b|transition-run|finish-run|create-due-run|recover-tail|ingest --file/

/** The string values of a sampled error's fields: stripped from its message before the check. */
const strings = (u: unknown): Array<string> =>
  typeof u === "string"
    ? [u]
    : Array.isArray(u)
    ? u.flatMap(strings)
    : u !== null && typeof u === "object"
    ? Object.values(u).flatMap(strings)
    : []

const faceless = (e: { readonly message: string }, own: unknown) => {
  let text = e.message
  for (const s of strings(own).filter((s) => s.length >= 3).sort((a, b) => b.length - a.length)) {
    text = text.split(s).join("")
  }
  return text
}

/** Branches random fields rarely reach. */
const branches: ReadonlyArray<{ readonly message: string }> = [
  ...["running", "paused", "scheduled", "completed", "cancelled"].flatMap((from) =>
    ["running", "completed", "cancelled"].map((to) => new InvalidTransition({ from, to, allowed: ["cancelled"] }))
  ),
  ...["", "png", "pdf", "mhtml", "webarchive"].map((extension) =>
    new UnsupportedContent({ contentType: null, extension })
  ),
  new UnsupportedContent({ contentType: null }),
  new UnsupportedContent({ contentType: "text/html" }),
  new UnsupportedContent({ contentType: "image/png" }),
  new InputOutsideWorkdir({ path: "../x", flag: "--research-dir" }),
  new InputOutsideWorkdir({ path: "../x", flag: "--state" })
]

describe("error messages", () => {
  it("no error class's message names a CLI flag or a dossier command line", () => {
    const found = new Map<string, string>()
    for (const E of AllErrors) {
      const samples = fc.sample(Arbitrary.make(E as any), { numRuns: 40, seed: 41 }) as Array<any>
      for (const e of samples) {
        const own = Object.fromEntries(Object.entries(e).filter(([k]) => k !== "_tag"))
        const text = faceless(e, own)
        if (CLI_ONLY.test(text)) found.set(e._tag, e.message)
      }
    }
    for (const e of branches) if (CLI_ONLY.test(e.message)) found.set(e.message, e.message)
    expect(Object.fromEntries(found)).toEqual({})
  })
})

describe("InputOutsideWorkdir", () => {
  it("names the file of each path flag in words, never with a doubled word ('the path path')", () => {
    const flags = ["--input", "--state", "--research-dir", "--descriptor", "--attempts", "--file", "--path", "--to"]
    for (const flag of flags) {
      const m = new InputOutsideWorkdir({ path: "../x", flag }).message
      expect(m, flag).toMatch(/^The [a-z ]+ '\.\.\/x' is not inside the work folder\.$/)
      expect(m, flag).not.toMatch(/\b(\w+) \1\b/)
    }
    // The work folder itself is not said to be outside it.
    expect(new InputOutsideWorkdir({ path: ".", flag: "--research-dir" }).message).toBe(
      "The research dir path '.' is the work folder itself, not a folder inside it."
    )
    // `source follow --path` names the path itself.
    expect(new InputOutsideWorkdir({ path: "../x", flag: "--path" }).message).toBe(
      "The path '../x' is not inside the work folder."
    )
  })
})

describe("UnsafePath", () => {
  it("says which path, its reason and, in words, why it may not be used: a sentence of its own per reason", () => {
    const why = new Set<string>()
    for (const reason of UnsafePathReason.literals) {
      const message = new UnsafePath({ path: "research/sources/a.md", reason }).message
      const m = /^Refused the path 'research\/sources\/a\.md' \(([a-z-]+)\): (.+)\.$/.exec(message)
      expect(m, message).not.toBeNull()
      expect(m![1]).toBe(reason)
      // More than the reason's token again: a why a person can act on, different for each reason.
      expect(m![2]!.split(" ").length, message).toBeGreaterThan(4)
      why.add(m![2]!)
    }
    expect(why.size).toBe(UnsafePathReason.literals.length)
    const symlink = new UnsafePath({ path: "x", reason: "symlink" }).message
    expect(symlink).toContain("symbolic link")
    expect(new UnsafePath({ path: "x", reason: "outside-workdir" }).message).toContain("outside the work folder")
    expect(new UnsafePath({ path: "x", reason: "dossier-state" }).message).toContain(".dossier/")
  })

  it("its hint names the way out, also for a path another process changed meanwhile", () => {
    expect(errorCatalogue.UnsafePath.hint).toContain("use a plain file inside the folder")
    expect(errorCatalogue.UnsafePath.hint).toMatch(/changed-while-opening[\s\S]*call again/)
  })
})

describe("what the library answers names no command line", () => {
  it("Errors.hint names a service method or an option, never a command line or a flag", () => {
    const tags = [...Object.keys(errorCatalogue), "UsageError"] as ReadonlyArray<Errors.DossierErrorTag | "UsageError">
    const found = Object.fromEntries(
      tags.map((t) => [t, Errors.hint(t)] as const).filter(([, h]) => CLI_ONLY.test(h))
    )
    expect(found).toEqual({})
    for (const t of tags) expect(Errors.hint(t), t).not.toBe("")
    // The command line and the tool calls keep theirs.
    expect(errorCatalogue.NoPlan.hint).toMatch(/`dossier plan start`/)
    expect(Errors.hint("NoPlan")).toBe("Start a plan with Plan.start first.")
  })

  it.effect("Plan.inspect without a plan names the method that starts one, not `dossier plan start`", () =>
    Effect.gen(function*() {
      const r = yield* Effect.flatMap(Plan.Plan, (p) => p.inspect)
      expect(r.state).toBe("none")
      const hint = (r as { readonly hint: string }).hint
      expect(hint).not.toMatch(CLI_ONLY)
      expect(hint).toMatch(/Plan\.start/)
    }).pipe(Effect.provide(Plan.PlanMemory)))
})

describe("UnsupportedScheme", () => {
  it("an origin (recorded, never fetched) is refused as what an origin must be, not as a fetch", () => {
    for (const raw of ["ftp://example.org/p", "file:///etc/passwd", "javascript:alert(1)"]) {
      const e = Either.getLeft(checkOrigin(raw))
      expect(e._tag, raw).toBe("Some")
      const error = (e as { readonly value: { readonly _tag: string; readonly message: string } }).value
      expect(error._tag).toBe("UnsupportedScheme")
      expect(error.message).toMatch(/^An origin must be an http: or https: URL, not '[a-z]+'\.$/)
      expect(error.message).not.toMatch(/fetched/)
    }
  })
})
