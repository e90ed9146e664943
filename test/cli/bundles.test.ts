/**
 * A command loads only what it can run (src/cli/Bundles.ts, scripts/build.mjs, src/cli/bin.ts):
 * each command line is served by one bundle, which holds the implementation of every command it
 * can route to and, for the read-only commands, none of ingest (undici, the readable extractor),
 * of @effect/cli or of the other groups. Checked on what the build wrote (dist/bundles.json) and
 * by running copies of the CLI that hold nothing but the loader and the one bundle. Nothing here
 * times anything.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "effect/FastCheck"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import {
  ALL_BUNDLES,
  BOUND_GROUPS,
  boundTwin,
  bundleFile,
  bundleFor,
  type BundleName,
  BUNDLES,
  groupOf
} from "../../src/cli/Bundles.js"
import { fastParse } from "../../src/cli/FastPath.js"
import { allSpecs } from "../../src/cli/Specs.js"
import { route } from "../../src/cli/Usage.js"
import { runsOnStore } from "../../src/commands/Cwd.js"
import type { CommandSpec } from "../../src/commands/Spec.js"
import { put, putInput, runCli, tempWorkdir } from "../support/cli.js"

const dist = path.resolve(__dirname, "../../dist")
/** The folders that declare commands: the command table's, and the CLI's own (`dossier mcp`). */
const declaringDirs = ["src/commands", "src/cli"]

interface Built {
  readonly file: string
  readonly bytes: number
  readonly sources: ReadonlyArray<string>
  readonly cutOff: ReadonlyArray<string>
}
const manifest = JSON.parse(fs.readFileSync(path.join(dist, "bundles.json"), "utf8")) as Record<BundleName, Built>

/**
 * The implementations each command's declaration imports lazily, by the declaring module: their
 * names and their sources (`src/commands/plan.impl.ts`).
 */
const implsOf = (spec: CommandSpec): ReadonlyArray<{ readonly name: string; readonly source: string }> => {
  for (const dir of declaringDirs) {
    for (const f of fs.readdirSync(path.resolve(__dirname, "../..", dir)).filter((f) => /^[a-z]+\.ts$/.test(f))) {
      const text = fs.readFileSync(path.resolve(__dirname, "../..", dir, f), "utf8")
      const declared = [...text.matchAll(/path: \[([^\]]*)\]/g)].map((m) => m[1]!.replace(/["\s]/g, ""))
      if (declared.includes(spec.path.join(","))) {
        return [...text.matchAll(/import\("\.\/([\w-]+)\.impl\.js"\)/g)].map((m) => ({
          name: m[1]!,
          source: `${dir}/${m[1]!}.impl.ts`
        }))
      }
    }
  }
  throw new Error(`no declaration of ${spec.path.join(" ")}`)
}

/** Read-only command lines an agent runs once per call, and what each must not carry. */
const READ_ONLY: ReadonlyArray<ReadonlyArray<string>> = [
  ["plan", "inspect"],
  ["status"],
  ["next"],
  ["journal", "list"],
  ["journal", "inspect"],
  ["monitor", "show"],
  ["monitor", "list"],
  ["exec", "show"],
  ["grant", "show"],
  ["grant", "list"],
  ["schema", "plan-start"],
  ["--version"],
  ["--help"]
]
const HEAVY = [
  "npm:undici",
  "npm:cheerio",
  "npm:@effect/cli",
  "src/domain/Readable.ts",
  "src/layers/IngestLive.ts",
  "src/layers/SafeHttpLive.ts",
  "src/cli/App.ts"
]

describe("the bundles the build wrote", () => {
  it("every bundle of src/cli/Bundles.ts was built, and every command's first word has one", () => {
    expect(Object.keys(manifest).sort()).toEqual([...ALL_BUNDLES].sort())
    for (const name of ALL_BUNDLES) {
      expect(fs.existsSync(path.join(dist, bundleFile(name)))).toBe(true)
    }
    const words = Object.values(BUNDLES).flatMap((b) => b.words as ReadonlyArray<string>)
    for (const spec of allSpecs) expect(words, spec.path.join(" ")).toContain(spec.path[0])
  })

  it("each command's bundle holds the implementation its declaration loads", () => {
    for (const spec of allSpecs) {
      const built = manifest[bundleFor(spec.path)]
      for (const impl of implsOf(spec)) {
        expect(built.sources, `${spec.path.join(" ")} -> ${built.file}`).toContain(impl.source)
        expect(built.cutOff).not.toContain(`./${impl.name}.impl.js`)
      }
    }
  })

  it("read-only commands load nothing of ingest, of @effect/cli or of other groups", () => {
    for (const argv of READ_ONLY) {
      const name = bundleFor(argv)
      const built = manifest[name]
      expect(name, argv.join(" ")).not.toBe("full")
      for (const heavy of HEAVY) expect(built.sources, `${argv.join(" ")} -> ${built.file}`).not.toContain(heavy)
      const own = new Set(["init", "status", ...(BUNDLES[name].impls as ReadonlyArray<string>)])
      for (const s of built.sources) {
        const impl = /^src\/(?:commands|cli)\/([\w-]+)\.impl\.ts$/.exec(s)?.[1]
        // status reads the journal's and the monitor's overviews.
        if (impl !== undefined && !own.has(impl)) {
          expect(name === "status" && ["journal", "monitor"].includes(impl), `${built.file} holds ${s}`).toBe(true)
        }
      }
      expect(built.bytes, built.file).toBeLessThan(manifest.full.bytes / 3)
    }
  })

  it("a plain folder's bundles load nothing of the shared store; each bound twin holds its group's services over it", () => {
    const storeCode = ["npm:pg", "npm:@effect/sql", "src/commands/Bound.ts", "src/layers/bound/BoundBase.ts"]
    for (const argv of READ_ONLY) {
      const built = manifest[bundleFor(argv)]
      for (const s of storeCode) expect(built.sources, `${argv.join(" ")} -> ${built.file}`).not.toContain(s)
    }
    const groups = new Set<string>()
    for (const name of ALL_BUNDLES) {
      const { bound, group } = groupOf(name)
      if (!bound) continue
      groups.add(group)
      const built = manifest[name]
      for (const s of storeCode) expect(built.sources, built.file).toContain(s)
      expect(built.sources, built.file).toContain(`src/layers/bound/${group}.bound.ts`)
      // The other groups' services over the store are cut off, as their implementations are.
      for (const other of BOUND_GROUPS) {
        if (other === group) continue
        expect(built.cutOff, built.file).toContain(`../layers/bound/${other}.bound.js`)
      }
      expect(built.bytes, built.file).toBeLessThan(manifest.full.bytes)
    }
    // Every group with a module over the store has its twin, and only those.
    const modules = fs.readdirSync(path.resolve(__dirname, "../../src/layers/bound"))
      .flatMap((f) => /^([\w-]+)\.bound\.ts$/.exec(f)?.[1] ?? [])
    expect([...groups].sort()).toEqual([...modules].sort())
    // A command that runs over the store in a bound folder is served by a twin that holds it.
    for (const spec of allSpecs) {
      if (!runsOnStore(spec.path)) continue
      const twin = boundTwin(bundleFor(spec.path))
      expect(groupOf(twin).bound, spec.path.join(" ")).toBe(true)
      for (const impl of implsOf(spec)) expect(manifest[twin].sources).toContain(impl.source)
    }
  })

  it("the full bundle keeps everything, for the MCP server and --completions", () => {
    expect(manifest.full.cutOff).toEqual([])
    expect(bundleFor(["mcp"])).toBe("full")
    expect(bundleFor(["plan", "inspect", "--completions", "sh"])).toBe("full")
  })

  it.prop(
    "a command line the parsers run is served by a bundle that holds its command",
    [
      fc.constantFrom(...allSpecs),
      fc.array(
        fc.constantFrom(
          "--json",
          "--workdir",
          ".",
          "--help",
          "--version",
          "--completions",
          "x",
          "--study",
          "s",
          "--",
          "-h",
          "--input=-"
        ),
        { maxLength: 5 }
      )
    ],
    ([spec, tail]) => {
      const argv = [...spec.path, ...tail]
      const fast = fastParse(allSpecs, argv)
      const r = fast === undefined ? route(argv) : { _tag: "Run" as const, spec: fast.spec }
      const name = bundleFor(argv)
      if (r._tag === "Delegate") expect(name).toBe("full")
      if (r._tag === "Run") {
        for (const impl of implsOf(r.spec)) expect(manifest[name].sources).toContain(impl.source)
      }
      return true
    },
    { fastCheck: { numRuns: 60 } }
  )
})

describe("a copy of the CLI with only the loader and one bundle", () => {
  const only = (name: BundleName) => {
    const dir = fs.mkdtempSync(path.resolve(__dirname, "../../.test-tmp-"))
    for (const f of ["dossier.cjs", "hash-worker.mjs", bundleFile(name), `${bundleFile(name)}.cache`]) {
      if (fs.existsSync(path.join(dist, f))) fs.copyFileSync(path.join(dist, f), path.join(dir, f))
    }
    return dir
  }
  const run = (dir: string, args: ReadonlyArray<string>) => {
    const r = spawnSync(process.execPath, [path.join(dir, "dossier.cjs"), ...args], { encoding: "utf8" })
    return { code: r.status, stdout: r.stdout, stderr: r.stderr }
  }

  it("answers the read-only commands as the whole CLI does", () => {
    const work = tempWorkdir("dossier-bundles-")
    expect(
      runCli([
        "plan",
        "start",
        "--workdir",
        work,
        "--input",
        putInput(work, "s.json", { goal: "g", limits: [], nextAction: "n" }),
        "--json"
      ]).code
    ).toBe(0)
    put(
      work,
      "research/inputs/e.json",
      JSON.stringify({ id: "c1", type: "candidate_created", candidate: { id: "a", title: "A" } })
    )
    expect(
      runCli(["journal", "append", "--study", "s1", "--workdir", work, "--input", "research/inputs/e.json", "--json"])
        .code
    ).toBe(0)
    const lines: ReadonlyArray<ReadonlyArray<string>> = [
      ["plan", "inspect", "--workdir", work, "--json"],
      ["status", "--workdir", work, "--now", "2026-01-01T00:00:00Z", "--json"],
      ["next", "--workdir", work, "--now", "2026-01-01T00:00:00Z", "--json"],
      ["journal", "inspect", "--study", "s1", "--workdir", work, "--json"],
      ["grant", "list", "--workdir", work, "--json"],
      ["schema", "plan-start", "--json"],
      ["--version"],
      ["--help"],
      ["pln", "inspect"]
    ]
    const dirs = new Map<BundleName, string>()
    try {
      for (const args of lines) {
        const name = bundleFor(args)
        if (!dirs.has(name)) dirs.set(name, only(name))
        const whole = runCli(args)
        const alone = run(dirs.get(name)!, args)
        expect({ code: alone.code, stdout: alone.stdout, stderr: alone.stderr }, `${args.join(" ")} (${name})`).toEqual(
          {
            code: whole.code,
            stdout: whole.stdout,
            stderr: whole.stderr
          }
        )
      }
    } finally {
      for (const d of dirs.values()) fs.rmSync(d, { recursive: true, force: true })
    }
  })
})

describe("loading", () => {
  it("formats no stack trace (which makes V8 compute the line ends of the whole bundle)", () => {
    const work = tempWorkdir("dossier-bundles-")
    const hook = path.join(work, "hook.cjs")
    fs.writeFileSync(
      hook,
      `let n = 0\nError.prepareStackTrace = (e, frames) => { n++; return String(e) }\nprocess.on("exit", () => process.stderr.write("stack traces formatted: " + n + "\\n"))\n`
    )
    for (
      const args of [["--version"], ["plan", "inspect", "--workdir", work, "--json"], [
        "status",
        "--workdir",
        work,
        "--json"
      ]]
    ) {
      const r = spawnSync(process.execPath, ["-r", hook, path.join(dist, "dossier.cjs"), ...args], { encoding: "utf8" })
      expect(r.status, r.stderr).toBe(0)
      expect(r.stderr, args.join(" ")).toContain("stack traces formatted: 0")
    }
  })

  it("loads Node's own modules (crypto, perf_hooks, …) with Node's code cache, which V8 refuses once a flag differs", () => {
    const work = tempWorkdir("dossier-bundles-")
    // V8 prints a line for every code cache it deserializes or refuses; this flag is not part of
    // what a cache must match, so it changes nothing else.
    for (
      const args of [["--version"], ["status", "--workdir", work, "--json"], [
        "grant",
        "list",
        "--workdir",
        work,
        "--json"
      ]]
    ) {
      const r = spawnSync(process.execPath, ["--profile-deserialization", path.join(dist, "dossier.cjs"), ...args], {
        encoding: "utf8"
      })
      expect(r.status, r.stderr).toBe(0)
      const lines = r.stdout.split("\n")
      // Caches besides the bundle's own were read: Node's modules'.
      expect(lines.filter((l) => l.startsWith("[Deserializing from")).length, args.join(" ")).toBeGreaterThan(1)
      expect(lines.filter((l) => l.startsWith("[Cached code failed check")), args.join(" ")).toStrictEqual([])
    }
  })

  it("ingest --file of a page under 1 MiB runs without the optimizing compiler, and keeps the bundle's code cache", () => {
    const work = tempWorkdir("dossier-bundles-")
    /** A page of `bytes` of paragraphs (enough of them that V8 optimizes the extractor's loops). */
    const page = (name: string, bytes: number) => {
      const parts = ["<html><head><title>A page</title></head><body><main><h1>A page</h1>"]
      let size = parts[0]!.length
      for (let i = 0; size < bytes; i++) {
        const p = `<p>Paragraph ${i} with <a href="/x/${i}">a link</a> and <em>some</em> text &amp; more.</p>\n`
        parts.push(p)
        size += p.length
      }
      put(work, name, `${parts.join("")}</main></body></html>`)
    }
    page("small.html", 60_000)
    page("large.html", 1024 * 1024 + 1)
    /** Functions TurboFan compiled in a fresh `ingest --file` (V8's trace; the code cache off, as that flag is part of what it must match). */
    const optimized = (file: string) => {
      const r = spawnSync(process.execPath, [
        "--trace-opt",
        path.join(dist, "dossier.cjs"),
        "ingest",
        "--file",
        file,
        "--origin",
        `https://example.org/${file}`,
        "--workdir",
        work,
        "--json"
      ], { encoding: "utf8", env: { ...process.env, DOSSIER_CODE_CACHE: "0" } })
      expect(r.status, r.stderr).toBe(0)
      return r.stdout.split("\n").filter((l) => l.startsWith("[compiling method")).length
    }
    expect(optimized("small.html")).toBe(0)
    expect(optimized("large.html")).toBeGreaterThan(0)
    // The flag is set once the bundle is compiled: its cache is read as every command's is, and
    // never written again.
    const cache = path.join(dist, `${bundleFile("ingest")}.cache`)
    const before = fs.readFileSync(cache)
    put(work, "again.html", "<html><body><main><p>Again.</p></main></body></html>")
    const r = runCli([
      "ingest",
      "--file",
      "again.html",
      "--origin",
      "https://example.org/again",
      "--workdir",
      work,
      "--json"
    ])
    expect(r.code, r.stderr).toBe(0)
    expect(fs.readFileSync(cache).equals(before)).toBe(true)
  })

  it("ingest --file reads its HTML parser from its bundle, not from node_modules", () => {
    const work = tempWorkdir("dossier-bundles-")
    put(
      work,
      "page.html",
      "<html><head><title>T</title></head><body><main><p>Some text &amp; more.</p></main></body></html>"
    )
    const hook = path.join(work, "hook.cjs")
    // Every JavaScript file Node's CommonJS loader compiles after the hook: the bundles are compiled by the loader itself (vm).
    fs.writeFileSync(
      hook,
      `const M = require("node:module")\nconst seen = []\nconst compile = M.prototype._compile\nM.prototype._compile = function (c, f) { if (f.includes("node_modules")) seen.push(f); return compile.call(this, c, f) }\nprocess.on("exit", () => process.stderr.write("from node_modules: " + JSON.stringify(seen) + "\\n"))\n`
    )
    const r = spawnSync(process.execPath, [
      "-r",
      hook,
      path.join(dist, "dossier.cjs"),
      "ingest",
      "--file",
      "page.html",
      "--origin",
      "https://example.org/page",
      "--workdir",
      work,
      "--json"
    ], { encoding: "utf8" })
    expect(r.status, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true })
    expect(r.stderr).toContain("from node_modules: []")
  })
})
