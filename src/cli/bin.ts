#!/usr/bin/env node
/**
 * The `dossier` binary (dist/dossier.mjs): runs the CLI bundle (dist/dossier-core.cjs, built from
 * ./main.ts) through V8's code cache, so that a start does not parse and compile the bundle again.
 *
 * Agents start the CLI hundreds of times, and compiling Effect's runtime and the schemas was a
 * large part of every start. Node 20 has no compile cache for ES modules, so the bundle is one
 * CommonJS script compiled with `vm.Script` and the bytecode V8 produced for it — every function
 * compiled by the end of a run — kept next to it (`dossier-core.cjs.cache`). The build writes the
 * cache after a representative command; V8 refuses a cache made by another V8 version, with
 * other flags or for other source, and then the script compiles as usual and the cache is
 * written again when the process exits (write-temp then rename; skipped quietly where the
 * installation is read-only). `DOSSIER_CODE_CACHE=0` turns the cache off.
 */
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as vm from "node:vm"

const core = fileURLToPath(new URL("./dossier-core.cjs", import.meta.url))
const cacheFile = `${core}.cache`
const useCache = process.env["DOSSIER_CODE_CACHE"] !== "0"

const readCache = (): Buffer | undefined => {
  try {
    return useCache ? fs.readFileSync(cacheFile) : undefined
  } catch {
    return undefined
  }
}

const cachedData = readCache()
// CommonJS's own wrapper, so that `require`, `module` and `__filename` are the bundle's. The
// bundle is ASCII (esbuild escapes everything else; the build checks), so it is read as latin1,
// which skips UTF-8 decoding.
const script = new vm.Script(
  `(function (exports, require, module, __filename, __dirname) {${fs.readFileSync(core, "latin1")}\n})`,
  cachedData === undefined ? { filename: core } : { filename: core, cachedData }
)

if (useCache && (cachedData === undefined || script.cachedDataRejected === true)) {
  process.once("exit", () => {
    const tmp = `${cacheFile}.${process.pid}.tmp`
    try {
      fs.writeFileSync(tmp, script.createCachedData())
      fs.renameSync(tmp, cacheFile)
    } catch {
      try {
        fs.rmSync(tmp, { force: true })
      } catch {
        // nothing was written
      }
    }
  })
}

const module = { exports: {} }
;(script.runInThisContext() as (...args: ReadonlyArray<unknown>) => void)(
  module.exports,
  createRequire(core),
  module,
  core,
  path.dirname(core)
)
