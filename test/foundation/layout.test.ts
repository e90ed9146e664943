/**
 * The house's layout (docs/development.md): the folders of src/ import one another downward only.
 * `domain` ← `services` ← `layers` ← `commands` (the one command table) ← its two faces, `mcp` and
 * `cli`; the faces never import each other, except that the CLI's `dossier mcp` starts the server
 * (src/cli/mcp.impl.ts, loaded only by that command). Read from the sources' import statements
 * (static, `export … from` and dynamic `import()`), as TypeScript's pre-processor finds them.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import ts from "typescript"

const root = path.resolve(__dirname, "../..")
const src = path.join(root, "src")

const sourceFiles = (dir: string): ReadonlyArray<string> =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name)
    return e.isDirectory() ? sourceFiles(p) : e.name.endsWith(".ts") ? [p] : []
  })

/** Every import of src/ that names another module of src/, as repository paths. */
const importsOf = (files: ReadonlyArray<string>): ReadonlyArray<{ readonly from: string; readonly to: string }> =>
  files.flatMap((file) => {
    const info = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true)
    return info.importedFiles
      .map((f) => f.fileName)
      .filter((s) => s.startsWith("."))
      .map((s) => ({
        from: path.relative(root, file).split(path.sep).join("/"),
        to: path.relative(root, path.resolve(path.dirname(file), s.replace(/\.js$/, ".ts"))).split(path.sep).join("/")
      }))
  })

/** A module's folder under src/ (`src/cli/main.ts` → `cli`; a module directly in src/ → `.`). */
const folderOf = (p: string): string => {
  const parts = p.split("/")
  return parts.length > 2 ? parts[1]! : "."
}

/** The first loop of a directed graph (as the list of its nodes, the first repeated at the end), if any. */
const findLoop = (edges: ReadonlyMap<string, ReadonlySet<string>>): ReadonlyArray<string> | undefined => {
  const state = new Map<string, "open" | "done">()
  const stack: Array<string> = []
  const visit = (n: string): ReadonlyArray<string> | undefined => {
    state.set(n, "open")
    stack.push(n)
    for (const m of edges.get(n) ?? []) {
      if (state.get(m) === "open") return [...stack.slice(stack.indexOf(m)), m]
      if (state.get(m) === undefined) {
        const found = visit(m)
        if (found !== undefined) return found
      }
    }
    stack.pop()
    state.set(n, "done")
    return undefined
  }
  for (const n of [...edges.keys()].sort()) {
    if (state.get(n) === undefined) {
      const found = visit(n)
      if (found !== undefined) return found
    }
  }
  return undefined
}

const imports = importsOf(sourceFiles(src))
const between = imports.filter((i) => folderOf(i.from) !== folderOf(i.to))
const folderEdges = new Map<string, Set<string>>()
for (const i of between) {
  const set = folderEdges.get(folderOf(i.from)) ?? new Set()
  set.add(folderOf(i.to))
  folderEdges.set(folderOf(i.from), set)
}
const from = (a: string, b: string) =>
  between.filter((i) => folderOf(i.from) === a && folderOf(i.to) === b).map((i) => `${i.from} -> ${i.to}`)

describe("the layout of src/", () => {
  it("reads the imports it checks", () => {
    // Guards the reader itself: the table is imported by both faces, and the faces read domain types.
    expect(from("mcp", "commands").length).toBeGreaterThan(0)
    expect(from("cli", "commands").length).toBeGreaterThan(0)
    expect(
      imports.some((i) => i.from === "src/commands/plan.ts" && i.to === "src/commands/plan.impl.ts"),
      "a dynamic import"
    ).toBe(true)
  })

  it("finds a loop when there is one", () => {
    const g = (pairs: ReadonlyArray<readonly [string, string]>) => {
      const m = new Map<string, Set<string>>()
      for (const [a, b] of pairs) m.set(a, (m.get(a) ?? new Set()).add(b))
      return m
    }
    expect(findLoop(g([["cli", "commands"], ["mcp", "commands"], ["commands", "domain"]]))).toBeUndefined()
    expect(findLoop(g([["cli", "mcp"], ["mcp", "commands"], ["commands", "cli"]]))).toEqual([
      "cli",
      "mcp",
      "commands",
      "cli"
    ])
  })

  it("no loop between the folders of src/", () => {
    const loop = findLoop(folderEdges)
    const detail = loop === undefined ? "" : loop.slice(1).map((b, i) => from(loop[i]!, b).join("\n")).join("\n")
    expect(loop, detail).toBeUndefined()
  })

  it("the MCP face never imports the CLI, and the command table neither face", () => {
    expect(from("mcp", "cli")).toEqual([])
    expect(from("commands", "cli")).toEqual([])
    expect(from("commands", "mcp")).toEqual([])
  })

  it("the CLI reaches the MCP face only through `dossier mcp`'s implementation", () => {
    // src/cli/mcp.impl.ts starts the server; src/cli/mcp.ts loads it lazily, as every command its implementation.
    expect(
      between.filter((i) => folderOf(i.from) === "cli" && folderOf(i.to) === "mcp").every((i) =>
        i.from === "src/cli/mcp.impl.ts"
      ),
      from("cli", "mcp").join("\n")
    )
      .toBe(true)
  })

  it("the lower folders never import the command table or a face", () => {
    for (const low of ["domain", "services", "layers"]) {
      for (const high of ["commands", "cli", "mcp"]) expect(from(low, high), `${low} -> ${high}`).toEqual([])
    }
  })
})
