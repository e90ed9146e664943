/**
 * How a folder's binding (`.dossier/store.json`) is read and refused, with no server: one function
 * reads it (src/layers/BindingFile.ts, through the FileStore's path checks), which loads nothing of
 * PostgreSQL, so a plain folder's bundles may read it without the driver; a plain folder's journal
 * commands refuse a bound folder before connecting; a malformed store URL is a `UsageError` whose
 * message is a sentence saying what is wrong and what to give.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { type CliResult, runCli, snapshot, tempWorkdir } from "../support/cli.js"

const root = path.resolve(__dirname, "../..")

/** Every TypeScript file under `dir` (relative to the repository). */
const sources = (dir: string): Array<string> =>
  fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(path.join(dir, e.name))
      : e.name.endsWith(".ts")
      ? [path.join(dir, e.name).split(path.sep).join("/")]
      : []
  )

/** A folder bound to `dossier` at a port where no server listens. */
const bound = (dossier: string, text?: string) => {
  const dir = tempWorkdir("dossier-binding-file-")
  fs.mkdirSync(path.join(dir, ".dossier"), { recursive: true })
  fs.writeFileSync(
    path.join(dir, ".dossier/store.json"),
    text ?? JSON.stringify({ kind: "postgres", url: "postgres://127.0.0.1:1/research", dossier })
  )
  return dir
}

const refused = (r: CliResult, code: number, tag: string) => {
  expect({ code: r.code, ok: r.json?.ok, tag: r.json?.error?._tag }, r.stdout + r.stderr).toEqual({
    code,
    ok: false,
    tag
  })
  return r.json.error
}

describe("reading the binding", () => {
  it("one function reads .dossier/store.json: no other module reads or parses it", () => {
    const readers = sources("src").filter((f) => {
      const text = fs.readFileSync(path.join(root, f), "utf8")
      return /\bSTORE_FILE\b|\bparseBinding\(/.test(text)
    })
    // The domain module defines the file's name and its parser; BindingFile.ts is the one reader.
    expect(readers.sort()).toEqual(["src/domain/StoreBinding.ts", "src/layers/BindingFile.ts"])
  })

  it("a plain folder's journal bundle reads the binding with nothing of PostgreSQL", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, "dist/bundles.json"), "utf8")) as Record<
      string,
      { readonly file: string; readonly sources: ReadonlyArray<string> }
    >
    const journal = manifest["journal"]!
    expect(journal.sources).toContain("src/layers/BindingFile.ts")
    expect(journal.sources).toContain("src/commands/journal.impl.ts")
    const store = journal.sources.filter((s) =>
      /^npm:(pg|pg-connection-string|@effect\/sql|@effect\/sql-pg)$/.test(s) || s.startsWith("src/layers/postgres/") ||
      s === "src/layers/StoreBinding.ts"
    )
    expect(store, journal.file).toEqual([])
  })

  it("journal rebuild, recover-tail and import in a bound folder are BindingRefused before connecting", () => {
    const dir = bound("folder-only")
    const before = snapshot(dir)
    for (const command of ["rebuild", "recover-tail", "import"]) {
      const e = refused(runCli(["journal", command, "--study", "s", "--workdir", dir, "--json"]), 1, "BindingRefused")
      expect(e, command).toMatchObject({
        command: `journal ${command}`,
        dossier: "folder-only",
        reason: "plain-folder",
        retryable: false
      })
    }
    expect(snapshot(dir)).toEqual(before)
  })

  it("a binding that is a symlink is refused (UnsafePath), never taken for an unbound folder", () => {
    const dir = tempWorkdir("dossier-binding-link-")
    const elsewhere = tempWorkdir("dossier-binding-target-")
    fs.writeFileSync(
      path.join(elsewhere, "store.json"),
      JSON.stringify({ kind: "postgres", url: "postgres://127.0.0.1:1/research", dossier: "q1" })
    )
    fs.mkdirSync(path.join(dir, ".dossier"), { recursive: true })
    fs.symlinkSync(path.join(elsewhere, "store.json"), path.join(dir, ".dossier/store.json"))
    const before = snapshot(dir)
    for (
      const args of [["plan", "inspect"], ["status"], ["journal", "list"], ["journal", "rebuild", "--study", "s"], [
        "store",
        "status"
      ]]
    ) {
      const e = refused(runCli([...args, "--workdir", dir, "--json"]), 1, "UnsafePath")
      expect(e, args.join(" ")).toMatchObject({ path: ".dossier/store.json", reason: "symlink" })
    }
    expect(snapshot(dir)).toEqual(before)
  })

  it("a damaged binding is InvalidInput (exit 1) whose issue names the file, what is wrong and the way out", () => {
    for (
      const text of [
        "not json",
        JSON.stringify({ kind: "postgres", url: "mysql://h/db", dossier: "q1" }),
        JSON.stringify({ kind: "postgres", url: "postgres://u:pw-secret@h/db", dossier: "q1" })
      ]
    ) {
      const dir = bound("q1", text)
      for (const args of [["journal", "rebuild", "--study", "s"], ["plan", "inspect"], ["store", "status"]]) {
        const r = runCli([...args, "--workdir", dir, "--json"])
        const e = refused(r, 1, "InvalidInput")
        const issue = e.issues[0].message as string
        expect(issue, `${text} ${args.join(" ")}`).toMatch(
          /^\.dossier\/store\.json: .*\. Fix it, or remove it and bind the folder again \(.*\)\.$/
        )
        expect(r.stdout + r.stderr).not.toContain("pw-secret")
        if (text.includes("mysql")) expect(issue).toContain("The store URL starts with mysql://: give")
      }
    }
  })
})

describe("a malformed store URL", () => {
  it("is UsageError (exit 2) before anything connects, its message a sentence naming no flag", () => {
    const dir = tempWorkdir("dossier-binding-url-")
    const before = snapshot(dir)
    for (
      const [url, dossier] of [
        ["not a url", "q1"],
        ["mysql://h/db", "q1"],
        ["postgres://h/db#x", "q1"],
        ["postgres://h/", "q1"],
        ["postgres://h:99999/db", "q1"],
        ["postgres://h/%zz", "q1"],
        ["postgres://h/db?sslmod=require", "q1"],
        ["postgres://h/db?password=pw-secret", "q1"],
        ["postgres://127.0.0.1:1/db", "-bad name"]
      ] as const
    ) {
      const r = runCli(["init", "--store", url, "--dossier", dossier, "--workdir", dir, "--json"])
      const e = refused(r, 2, "UsageError")
      expect(e.message, url).toMatch(/^The [a-z].*: [a-z].*\.$/)
      expect(e.message, url).not.toMatch(/--[a-z]/)
      expect(r.stdout + r.stderr).not.toContain("pw-secret")
    }
    expect(snapshot(dir)).toEqual(before)
  })
})
