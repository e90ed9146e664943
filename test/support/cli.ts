/**
 * End-to-end helpers: run the built CLI (dist/dossier.cjs) in a temporary work folder exactly
 * as an agent would, and parse its `--json` answer.
 */
import { spawn, spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

export const CLI = path.resolve(__dirname, "../../dist/dossier.cjs")

export interface CliResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
  /** The parsed stdout when it is one JSON object, else undefined. */
  readonly json: any
}

const parse = (stdout: string) => {
  try {
    return JSON.parse(stdout)
  } catch {
    return undefined
  }
}

export interface RunOptions {
  readonly cwd?: string
  readonly env?: Record<string, string>
  readonly input?: string | Uint8Array
}

/** Run `dossier <args>` synchronously. */
export const runCli = (args: ReadonlyArray<string>, options: RunOptions = {}): CliResult => {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    input: options.input,
    encoding: "utf8"
  })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, json: parse(r.stdout) }
}

/** Run `dossier <args>` asynchronously (for races and kills). */
export const runCliAsync = (args: ReadonlyArray<string>, options: RunOptions = {}): Promise<CliResult> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env: { ...process.env, ...options.env } })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (d) => (stdout += d))
    child.stderr.on("data", (d) => (stderr += d))
    child.on("close", (code) => resolve({ code, stdout, stderr, json: parse(stdout) }))
  })

/** A fresh temporary work folder (real path). */
export const tempWorkdir = (prefix = "dossier-test-"): string =>
  fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)))

const templates = new Map<string, string>()

/**
 * A fresh work folder holding a copy of the one `build` makes the first time a test file asks for
 * `key` (each test file runs in its own process): set-up that many tests start from and none of
 * them tests (a plan started, sources registered) runs the CLI once per file, not once per test.
 * The copy is a new temporary folder with the same bytes, so each test still owns its folder.
 */
export const copyOfTemplate = (key: string, build: (dir: string) => void, prefix?: string): string => {
  let template = templates.get(key)
  if (template === undefined) {
    template = tempWorkdir("dossier-template-")
    build(template)
    templates.set(key, template)
  }
  const dir = tempWorkdir(prefix)
  fs.cpSync(template, dir, { recursive: true })
  return dir
}

const building = new Map<string, Promise<string>>()

/** `copyOfTemplate` for a `build` that awaits (the monitor's helpers run the CLI asynchronously). */
export const copyOfTemplateAsync = async (
  key: string,
  build: (dir: string) => Promise<void>,
  prefix?: string
): Promise<string> => {
  let template = building.get(key)
  if (template === undefined) {
    const dir = tempWorkdir("dossier-template-")
    template = build(dir).then(() => dir)
    building.set(key, template)
  }
  const source = await template
  const dir = tempWorkdir(prefix)
  fs.cpSync(source, dir, { recursive: true })
  return dir
}

/** Write a file inside a work folder, creating parents. */
export const put = (dir: string, rel: string, content: string | Uint8Array): string => {
  const p = path.join(dir, rel)
  fs.mkdirSync(path.dirname(p), { recursive: true })
  fs.writeFileSync(p, content)
  return p
}

/** Write an input JSON file under research/inputs/ and return its path relative to the work folder. */
export const putInput = (dir: string, name: string, value: unknown): string => {
  const rel = `research/inputs/${name}`
  put(dir, rel, typeof value === "string" ? value : JSON.stringify(value))
  return rel
}

/** Assert no absolute machine path and no stack trace leaked into an output. */
export const leaksNothing = (dir: string, r: CliResult): boolean =>
  !r.stdout.includes(dir) && !r.stderr.includes(dir) && !/\n\s+at /.test(r.stdout + r.stderr)

/** A digest of every file under the work folder (the lock file excluded), to show a refusal changed nothing. */
export const snapshot = (dir: string): Record<string, string> => {
  const out: Record<string, string> = {}
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel === "" ? e.name : `${rel}/${e.name}`
      if (r === ".dossier/lock.sqlite") continue
      if (e.isDirectory()) walk(r)
      else if (e.isFile()) out[r] = createHash("sha256").update(fs.readFileSync(path.join(dir, r))).digest("hex")
      else out[r] = e.isSymbolicLink() ? "symlink" : "other"
    }
  }
  walk("")
  return out
}

/**
 * Every entry under a folder, directories and the lock file included, with each file's digest:
 * equal before and after shows that a command created, changed and removed nothing at all.
 */
export const treeDigest = (dir: string): Array<string> => {
  const out: Array<string> = []
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel === "" ? e.name : `${rel}/${e.name}`
      if (e.isDirectory()) {
        out.push(`${r}/`)
        walk(r)
      } else if (e.isFile()) {
        out.push(`${r} ${createHash("sha256").update(fs.readFileSync(path.join(dir, r))).digest("hex")}`)
      } else out.push(`${r} ${e.isSymbolicLink() ? "symlink" : "other"}`)
    }
  }
  walk("")
  return out.sort()
}
