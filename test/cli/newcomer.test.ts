/**
 * What a newcomer meets first, through the built CLI: answers that match the JSON Schemas
 * `dossier schema` publishes (from a subfolder too, where `workdir` is added), empty path values,
 * the sentences of usage errors, `ingest --file`'s refusals and where its relative path is taken
 * from, and the plan's input refusals.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { put, putInput, runCli, tempWorkdir } from "../support/cli.js"

type Doc = Record<string, any>

/** The published schema of an answer (`dossier schema <name> --json`). */
const schemaOf = (name: string): Doc => {
  const r = runCli(["schema", name, "--json"])
  expect(r.code, r.stderr).toBe(0)
  return r.json.schema
}

/**
 * The top-level keys an answer may have under a schema that forbids others: for each object
 * alternative of its top level (following `$ref`s into `$defs`), its properties. An answer fits
 * when one alternative holds every key it has and it has every key that one requires.
 */
const fits = (answer: Doc, doc: Doc): boolean => {
  const defs: Doc = doc.$defs ?? {}
  const alternatives = (node: Doc): Array<Doc> =>
    typeof node.$ref === "string"
      ? alternatives(defs[node.$ref.slice("#/$defs/".length)])
      : Array.isArray(node.anyOf)
      ? node.anyOf.flatMap(alternatives)
      : [node]
  return alternatives(doc).some((alt) => {
    const properties = Object.keys(alt.properties ?? {})
    const keys = Object.keys(answer)
    return (alt.additionalProperties !== false || keys.every((k) => properties.includes(k))) &&
      (alt.required ?? []).every((k: string) => keys.includes(k))
  })
}

const expectFits = (answer: Doc, name: string) =>
  expect(fits(answer, schemaOf(name)), `${name}: ${JSON.stringify(answer)}`).toBe(true)

describe("answers match their published schemas", () => {
  it("status with an unreadable plan (planError, unchecked) and from a subfolder (workdir)", () => {
    const dir = tempWorkdir("dossier-newcomer-")
    expect(runCli(["init", "--workdir", dir]).code).toBe(0)
    const sub = path.join(dir, "a", "b")
    fs.mkdirSync(sub, { recursive: true })
    const inSub = (args: ReadonlyArray<string>, input?: string) =>
      runCli(args, input === undefined ? { cwd: sub } : { cwd: sub, input })

    const status = inSub(["status", "--json"])
    expect(status.json.planError).toBeNull()
    expectFits(status.json, "status-output")
    const init = inSub(["init", "--json"])
    expect(init.json.workdir).toBe("../..")
    expectFits(init.json, "init-output")
    const noPlan = inSub(["plan", "checkpoint", "--input", "-", "--expected", "1", "--json"], "{}")
    expect(noPlan.json).toMatchObject({ ok: false, workdir: "../..", error: { _tag: "NoPlan" } })
    expectFits(noPlan.json, "errors")
    const start = inSub(
      ["plan", "start", "--input", "-", "--json"],
      JSON.stringify({ goal: "g", limits: [], nextAction: "n" })
    )
    expectFits(start.json, "plan-start-output")
    expectFits(inSub(["plan", "inspect", "--json"]).json, "plan-inspect-output")
    const append = inSub(
      ["journal", "append", "--study", "s", "--input", "-", "--json"],
      JSON.stringify({ id: "c1", type: "candidate_created", candidate: { id: "a", title: "A" } })
    )
    expect(append.json.ok, append.stdout).toBe(true)
    expectFits(append.json, "journal-append-output")
    expectFits(inSub(["journal", "inspect", "--study", "s", "--json"]).json, "journal-inspect-output")
    // journal list's rows have the fields its schema gives them (it used to promise `status`'s
    // selected and checkpoint, which only status answers).
    const listed = inSub(["journal", "list", "--json"]).json
    expectFits(listed, "journal-list-output")
    const row = schemaOf("journal-list-output").properties.studies.items
    expect(Object.keys(listed.studies[0]).sort()).toEqual(Object.keys(row.properties ?? {}).sort())
    expect(row.required.sort()).toEqual(Object.keys(row.properties).sort())

    fs.appendFileSync(path.join(dir, "plan.md"), "\n<!-- dossier:plan:begin -->\n")
    const corrupt = runCli(["status", "--workdir", dir, "--json"])
    expect(corrupt.json.planError._tag).toBe("CorruptPlan")
    expect(corrupt.json.unchecked.length).toBeGreaterThan(0)
    expectFits(corrupt.json, "status-output")
  })
})

describe("empty path values", () => {
  it("--workdir '' is a usage error, never the current directory", () => {
    const dir = tempWorkdir("dossier-newcomer-")
    for (const args of [["init", "--workdir", ""], ["status", "--workdir="], ["plan", "inspect", "--workdir", ""]]) {
      const r = runCli([...args, "--json"], { cwd: dir })
      expect(r.code, args.join(" ")).toBe(2)
      expect(r.json.error._tag).toBe("UsageError")
      expect(r.json.error.message).toContain("--workdir <path>: the value is empty")
    }
    expect(fs.readdirSync(dir)).toEqual([])
  })

  it("--input '' and --file '' are usage errors, not a file outside the folder", () => {
    const dir = tempWorkdir("dossier-newcomer-")
    const input = runCli(["plan", "start", "--input", "", "--workdir", dir, "--json"])
    expect(input.code).toBe(2)
    expect(input.json.error.message).toContain("--input <path>: the value is empty")
    const file = runCli(["ingest", "--file", "", "--origin", "https://example.org/", "--workdir", dir, "--json"])
    expect(file.code).toBe(2)
    expect(file.json.error.message).toContain("--file <path>: the value is empty")
  })
})

describe("usage errors are sentences", () => {
  it("an unknown option or command without a near one ends its sentence before the list", () => {
    const option = runCli(["status", "--bogus", "--json"])
    expect(option.code).toBe(2)
    expect(option.json.error.message).toBe(
      "unknown option '--bogus' for 'dossier status'. Its options: --workdir, --json, --now."
    )
    const command = runCli(["zzzz", "--json"])
    expect(command.code).toBe(2)
    expect(command.json.error.message).toMatch(/^unknown command 'zzzz' for 'dossier'\. Commands: plan, /)
    expect(runCli(["plan", "strat", "--json"]).json.error.message).toContain("did you mean 'start'? Its commands")
  })
})

describe("ingest --file", () => {
  it("takes a relative path from the current directory when the file is there, as its help says", () => {
    const dir = tempWorkdir("dossier-newcomer-")
    expect(runCli(["init", "--workdir", dir]).code).toBe(0)
    put(dir, "page.html", "<p>The copy at the top of the work folder.</p>")
    put(dir, "sub/page.html", "<p>The copy in the subfolder, where the shell is.</p>")
    const r = runCli(["ingest", "--file", "page.html", "--origin", "https://example.org/p", "--json"], {
      cwd: path.join(dir, "sub")
    })
    expect(r.json).toMatchObject({ ok: true, file: "sub/page.html" })
    const help = runCli(["ingest", "--help", "--json"]).json.options.find((o: any) => o.name === "--file")
    expect(help.description).toContain("from the current directory if it is there, else the work folder")
  })

  it("names an origin's scheme as a fetch does, and says an origin is recorded, not fetched", () => {
    const dir = tempWorkdir("dossier-newcomer-")
    put(dir, "saved/page.txt", "a page")
    const ftpFile = runCli([
      "ingest",
      "--file",
      "saved/page.txt",
      "--origin",
      "ftp://example.org/",
      "--workdir",
      dir,
      "--json"
    ])
    const ftpFetch = runCli(["ingest", "ftp://example.org/", "--dry-run", "--json"])
    expect(ftpFile.json.error).toMatchObject({ _tag: "UnsupportedScheme", scheme: "ftp", recorded: true })
    expect(ftpFetch.json.error).toMatchObject({ _tag: "UnsupportedScheme", scheme: "ftp" })
    expect(ftpFetch.json.error.recorded).toBeUndefined()
    // Nothing is fetched for an origin: its refusal says what an origin must be.
    expect(ftpFile.json.error.message).toBe("An origin must be an http: or https: URL, not 'ftp'.")
    expect(ftpFetch.json.error.message).toBe("Only http: and https: URLs are fetched, not 'ftp'.")
    expect(ftpFile.json.error.hint).toBe(ftpFetch.json.error.hint)
  })

  it("says invalid UTF-8 is the bytes, not the type", () => {
    const dir = tempWorkdir("dossier-newcomer-")
    put(dir, "saved/page.txt", Buffer.from([0x61, 0xff, 0x62]))
    const latin = runCli([
      "ingest",
      "--file",
      "saved/page.txt",
      "--origin",
      "https://example.org/",
      "--workdir",
      dir,
      "--json"
    ])
    expect(latin.code).toBe(1)
    expect(latin.json.error).toMatchObject({ _tag: "UnsupportedContent", contentType: "text/plain" })
    expect(latin.json.error.message).toContain("not valid UTF-8")
    expect(latin.json.error.message).not.toContain("is not accepted")
    const declared = runCli([
      "ingest",
      "--file",
      "saved/page.txt",
      "--origin",
      "https://example.org/",
      "--content-type",
      "text/plain; charset=latin1",
      "--workdir",
      dir,
      "--json"
    ])
    expect(declared.json.error.message).toContain("is not accepted")
  })
})

describe("plan start's input refusals", () => {
  it("say what type was expected, not the field's description", () => {
    const dir = tempWorkdir("dossier-newcomer-")
    const r = runCli([
      "plan",
      "start",
      "--input",
      putInput(dir, "start.json", { goal: "", limits: "x", nextAction: 5 }),
      "--workdir",
      dir,
      "--json"
    ])
    expect(r.json.error._tag).toBe("InvalidInput")
    const issues = r.json.error.issues as Array<{ path: string; message: string }>
    expect(issues.map((i) => i.path).sort()).toEqual(["goal", "limits", "nextAction"])
    for (const issue of issues) {
      expect(issue.message, issue.path).not.toMatch(/destination of the research|Constraints the work|What to do next/)
    }
    // The descriptions stay in the published schema.
    expect(JSON.stringify(schemaOf("plan-start"))).toContain("The destination of the research")
  })
})

describe("source follow --path", () => {
  it("is taken as every path option is: from the current directory first; outside is InputOutsideWorkdir", () => {
    const dir = tempWorkdir("dossier-newcomer-")
    expect(runCli(["init", "--workdir", dir]).code).toBe(0)
    put(dir, "research/sources/notes.md", "The quick brown fox jumps over the lazy dog near the river bank.\n")
    const quote = ["source", "follow", "--quote", "quick brown fox jumps over the lazy dog"]
    const inSources = runCli([...quote, "--path", "notes.md", "--json"], { cwd: path.join(dir, "research/sources") })
    expect(inSources.json, inSources.stdout).toMatchObject({
      ok: true,
      matches: [{ path: "research/sources/notes.md" }]
    })
    const fromRoot = runCli([...quote, "--path", "research/sources/notes.md", "--workdir", dir, "--json"])
    expect(fromRoot.json.matches).toHaveLength(1)
    const absolute = runCli([
      ...quote,
      "--path",
      path.join(dir, "research/sources/notes.md"),
      "--workdir",
      dir,
      "--json"
    ])
    expect(absolute.json.matches).toHaveLength(1)
    const outside = runCli([...quote, "--path", "../x.md", "--workdir", dir, "--json"])
    expect(outside.json.error).toMatchObject({ _tag: "InputOutsideWorkdir", path: "../x.md", flag: "--path" })
    expect(outside.json.error.message).toBe("The path '../x.md' is not inside the work folder.")
    // The hint fits the flag: a path to read, not an input file to move.
    expect(outside.json.error.hint).not.toMatch(/Put the input file/)
    expect(outside.json.error.hint).toMatch(/inside the work folder/)
    const area = runCli([...quote, "--path", "research/results/x.md", "--workdir", dir, "--json"])
    expect(area.json.error._tag).toBe("PathOutsideArea")
  })
})
