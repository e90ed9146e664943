/**
 * How a CLI bundle runs: one CommonJS script compiled with `vm.Script` and V8's code cache kept
 * next to it, under V8 flags of the loader's own. The `dossier` binary (./bin.ts) picks the bundle
 * of a command line and runs it here; bench/startup.ts runs its floor programs (the Effect runtime
 * alone, and with one Schema decode) through the same function, so that the floor they measure is
 * what a dossier bundle's start costs before its own code.
 *
 * Agents start the CLI hundreds of times, and compiling Effect's runtime and the schemas was a
 * large part of every start. Node 20 has no compile cache for ES modules, so each bundle is one
 * CommonJS script compiled with `vm.Script` and the bytecode V8 produced for it — every function
 * compiled by the end of a run — kept next to it (`<bundle>.cache`). The build writes each cache
 * after a representative command of its group. V8 refuses a cache made by another V8 version or
 * with other flags, but it checks the source only by its length, and by default it does not check
 * the bytecode at all (a cache with a few bits flipped crashed the process in a test). So the file
 * starts with the SHA-256 of the bundle it was made for (set by the build, compared as bytes: the
 * bundle is not hashed at run time), and V8's own checksum of the bytecode is turned on
 * (`--verify-snapshot-checksum`: an Adler-32 V8 computes when it makes the cache and checks before
 * it reads one; hashing the bytecode with SHA-256 here cost ~34 million instructions of every
 * start, a fifth of `--version`'s cost over `node -e 0`). A cache made for another bundle, or that
 * V8 refuses, is ignored: the script compiles as usual and the cache is written again when the
 * process exits (write-temp then rename; skipped quietly where the installation is read-only).
 * `DOSSIER_CODE_CACHE=0` turns it off.
 */
import * as fs from "node:fs"
import { createRequire, isBuiltin } from "node:module"
import * as path from "node:path"
import * as v8 from "node:v8"
import * as vm from "node:vm"

// Keep V8's young generation at its initial size instead of doubling it as the program allocates.
// On these machines first touching fresh memory is slow (~3 ms per MiB), and a CLI process is
// too short-lived to repay a larger young generation: measured on `next` over 11,000 records,
// 20,400 page faults and ~120 MiB resident became ~13,200 and ~90 MiB, and the command ~8% faster
// (`npm run bench -- monitor`); the empty command's start ~20 ms faster. V8 reads this flag each
// time it would grow the space, so setting it now takes effect.
//
// V8 checksums the code cache it makes and checks the checksum of one it is given (see above).
// Set before the script is compiled and before its cache is made: the flags are part of what a
// cache must match, so a cache made without it is refused and made again.
//
// The flags are part of what every code cache must match, Node's own too: Node loads its modules
// (crypto, perf_hooks, net, …) with the code cache it was built with, made with V8's default
// flags, and once a flag differs V8 refuses that cache and Node compiles the module from source
// (crypto and perf_hooks: ~29 million instructions more than with the cache). So Node's modules
// load with the default flags: the ones every command uses (the `performance` global, which
// Effect's clock reads at load, and stdout and stderr, which main.ts watches) before the flags are
// set, and any other the bundle requires with the defaults restored for that one require.
//
// Some command lines run without V8's optimizing compiler (./Tiering.ts). That flag is set once
// the bundle is compiled, so that its code cache is made and checked with the same flags as every
// other command's, and it is part of what Node's own caches must match like the others.
void globalThis.performance
void process.stdout
void process.stderr
let optimizing = true
const ownFlags = () => {
  v8.setFlagsFromString("--semi-space-growth-factor=1")
  v8.setFlagsFromString("--verify-snapshot-checksum")
  if (!optimizing) v8.setFlagsFromString("--no-turbofan")
}
const defaultFlags = () => {
  v8.setFlagsFromString("--semi-space-growth-factor=2")
  v8.setFlagsFromString("--no-verify-snapshot-checksum")
  if (!optimizing) v8.setFlagsFromString("--turbofan")
}
ownFlags()

/** The cache file: the bundle's SHA-256, then V8's cache (which carries V8's checksum). */
const HEADER = 32

/**
 * Run the bundle at `core` (absolute; built by scripts/cli-bundle.mjs inside CommonJS's own
 * wrapper) through its code cache `<core>.cache`, made for the bundle of SHA-256 `bundleSha256`
 * (hex); `optimizes`, asked once the bundle is compiled: whether V8's optimizing compiler stays on
 * (./Tiering.ts).
 */
export const runBundle = (core: string, bundleSha256: string, optimizes: () => boolean): void => {
  const cacheFile = `${core}.cache`
  const useCache = process.env["DOSSIER_CODE_CACHE"] !== "0"

  const readCache = (): Buffer | undefined => {
    let file: Buffer
    try {
      file = fs.readFileSync(cacheFile)
    } catch {
      return undefined
    }
    if (file.length <= HEADER || file.toString("hex", 0, HEADER) !== bundleSha256) return undefined
    return file.subarray(HEADER)
  }

  const cachedData = useCache ? readCache() : undefined
  // The file is the bundle inside CommonJS's own wrapper (written so by the build), so that
  // `require`, `module` and `__filename` are the bundle's; compiled as read, without a copy. It is
  // ASCII (esbuild escapes everything else; the build checks), so it is read as latin1, which skips
  // UTF-8 decoding.
  const script = new vm.Script(
    fs.readFileSync(core, "latin1"),
    cachedData === undefined ? { filename: core } : { filename: core, cachedData }
  )

  if (useCache && (cachedData === undefined || script.cachedDataRejected === true)) {
    process.once("exit", () => {
      const tmp = `${cacheFile}.${process.pid}.tmp`
      // The cache carries the flags it was made with: the ones it is read with (above).
      if (!optimizing) v8.setFlagsFromString("--turbofan")
      try {
        const bytecode = script.createCachedData()
        fs.writeFileSync(tmp, Buffer.concat([Buffer.from(bundleSha256, "hex"), bytecode]))
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

  if (!optimizes()) {
    optimizing = false
    v8.setFlagsFromString("--no-turbofan")
  }

  /** The bundle's `require`: Node's own modules, on their first require, with the default flags (above). */
  const coreRequire = createRequire(core)
  const seen = new Set<string>()
  const bundleRequire = Object.assign((id: string): unknown => {
    if (seen.has(id) || !isBuiltin(id)) return coreRequire(id)
    seen.add(id)
    defaultFlags()
    try {
      return coreRequire(id)
    } finally {
      ownFlags()
    }
  }, coreRequire)

  const module = { exports: {} }
  ;(script.runInThisContext() as (...args: ReadonlyArray<unknown>) => void)(
    module.exports,
    bundleRequire,
    module,
    core,
    path.dirname(core)
  )
}
