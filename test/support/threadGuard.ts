/**
 * What a file in one of the projects whose files share a worker thread (vitest.config.ts) must
 * not do, for the next file in that thread: start a worker thread (a pool a module keeps would
 * carry over), handle a signal (a thread never receives one, and the handler would stay), change
 * the working directory, or leave the environment changed. The "in-process" project refuses a
 * child process too (its files are pure or over memory and folder layers); the "shared" project
 * allows them (its files run the built CLI, an MCP server, a cluster). Each file's set-up names
 * its project's rules before the file runs; a file that needs what they refuse belongs in the
 * isolated project.
 */
import { createRequire, syncBuiltinESMExports } from "node:module"
import { promisify } from "node:util"
import { afterAll, beforeAll, expect } from "vitest"

export type ThreadRules = "in-process" | "shared"

// The modules' CommonJS exports, which can be replaced; `syncBuiltinESMExports` carries the
// replacements to every `import` of them.
const require = createRequire(import.meta.url)

const GUARDED = Symbol.for("dossier.test.threadGuard")
const RULES = Symbol.for("dossier.test.threadRules")
const marks = globalThis as Record<symbol, unknown>

const refusal = (what: string): Error => {
  const project = String(marks[RULES])
  return new Error(
    `${what} in a file of the ${project} test project: list the file in the isolated one (vitest.config.ts)`
  )
}

const install = () => {
  if (marks[GUARDED] === true) return
  marks[GUARDED] = true
  const cp = require("node:child_process") as Record<string, (...args: Array<unknown>) => unknown>
  for (const name of ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"]) {
    const original = cp[name]!
    // Functions, not arrows: they keep `this` for the callers that pass one. `exec` and
    // `execFile` have a promisified form of their own (`util.promisify` returns it): guarded too.
    const guarded = (run: (...args: Array<unknown>) => unknown) =>
      function guarded(this: unknown, ...args: Array<unknown>) {
        if (marks[RULES] === "in-process") throw refusal(`child_process.${name}`)
        return run.apply(this, args)
      }
    const replacement = guarded(original) as unknown as Record<symbol, unknown>
    const promisified = (original as unknown as Record<symbol, unknown>)[promisify.custom]
    if (typeof promisified === "function") {
      replacement[promisify.custom] = guarded(promisified as (...args: Array<unknown>) => unknown)
    }
    cp[name] = replacement as unknown as (...args: Array<unknown>) => unknown
  }
  // A function, not an arrow: `new Worker(…)` must throw this error, not "is not a constructor".
  const threads = require("node:worker_threads") as Record<string, unknown>
  threads["Worker"] = function refused(): never {
    throw refusal("new Worker")
  }
  syncBuiltinESMExports()
  process.chdir = () => {
    throw refusal("process.chdir")
  }
  const signal = (event: string | symbol) => typeof event === "string" && event.startsWith("SIG")
  const on = process.on.bind(process)
  process.on = ((event: string | symbol, listener: (...args: Array<any>) => void) => {
    if (signal(event)) throw refusal(`a ${String(event)} handler`)
    return on(event, listener)
  }) as typeof process.on
  const once = process.once.bind(process)
  process.once = ((event: string | symbol, listener: (...args: Array<any>) => void) => {
    if (signal(event)) throw refusal(`a ${String(event)} handler`)
    return once(event, listener)
  }) as typeof process.once
}

/** Set-up of a file in a project whose files share their worker thread. */
export const guardThread = (rules: ThreadRules) => {
  marks[RULES] = rules
  install()
  let env: Record<string, string | undefined> = {}
  beforeAll(() => {
    env = { ...process.env }
  })
  afterAll(() => {
    expect({ ...process.env }, "the environment after the file's tests").toEqual(env)
  })
}
