/**
 * Set-up of vitest's "in-process" project (vitest.config.ts): its files share their worker, one
 * after another, so a file there must leave nothing behind for the next. Here, starting a process
 * or a worker thread, handling a signal or changing the working directory fails the test that does
 * it, and a file that leaves the environment changed fails at its end. A file that needs any of
 * these belongs in the isolated project.
 */
import { createRequire, syncBuiltinESMExports } from "node:module"
import { afterAll, beforeAll, expect } from "vitest"

// The modules' CommonJS exports, which can be replaced; `syncBuiltinESMExports` carries the
// replacements to every `import` of them.
const require = createRequire(import.meta.url)

const GUARDED = Symbol.for("dossier.test.inProcessGuard")

// A function, not an arrow: `new Worker(…)` must throw this error, not "is not a constructor".
const refuse = (what: string) =>
  function refused(): never {
    throw new Error(
      `${what} in a file of the in-process test project: list the file in the isolated one (vitest.config.ts)`
    )
  }

const guard = () => {
  const marks = globalThis as Record<symbol, unknown>
  if (marks[GUARDED] === true) return
  marks[GUARDED] = true
  const cp = require("node:child_process") as Record<string, unknown>
  for (const name of ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"]) {
    cp[name] = refuse(`child_process.${name}`)
  }
  ;(require("node:worker_threads") as Record<string, unknown>)["Worker"] = refuse("new Worker")
  syncBuiltinESMExports()
  process.chdir = refuse("process.chdir")
  const on = process.on.bind(process)
  const signal = (event: string | symbol) => typeof event === "string" && event.startsWith("SIG")
  process.on = ((event: string | symbol, listener: (...args: Array<any>) => void) => {
    if (signal(event)) refuse(`a ${String(event)} handler`)()
    return on(event, listener)
  }) as typeof process.on
  const once = process.once.bind(process)
  process.once = ((event: string | symbol, listener: (...args: Array<any>) => void) => {
    if (signal(event)) refuse(`a ${String(event)} handler`)()
    return once(event, listener)
  }) as typeof process.once
}

guard()

let env: Record<string, string | undefined> = {}
beforeAll(() => {
  env = { ...process.env }
})
afterAll(() => {
  expect({ ...process.env }, "the environment after the file's tests").toEqual(env)
})
