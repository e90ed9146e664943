#!/usr/bin/env node
/**
 * The `dossier` binary (dist/dossier.cjs; dist/dossier.mjs, its earlier name, runs it too): runs
 * the CLI bundle the command line needs (dist/dossier-<group>.cjs, built from ./main.ts; see
 * ./Bundles.ts) through V8's code cache (./CodeCache.ts), so that a start neither reads nor
 * compiles code the command cannot run. It is built as CommonJS: Node starts an ES module entry
 * through its ES module loader, which cost ~10 ms of every start.
 */
import { fileURLToPath } from "node:url"
import { actsOnBoundFolder } from "./BoundProbe.js"
import { boundTwin, bundleFile, bundleFor, type BundleName, commandFirst } from "./Bundles.js"
import { runBundle } from "./CodeCache.js"
import { optimizes } from "./Tiering.js"

/** SHA-256 (hex) of each bundle, set by scripts/build.mjs. */
declare const __DOSSIER_BUNDLE_SHA256__: Record<BundleName, string>

// A bound folder's commands run over the shared dossier (src/commands/Bound.ts): their group's twin.
const argv = commandFirst(process.argv.slice(2))
const chosen = bundleFor(argv)
const bundle: BundleName = chosen !== "bare" && chosen !== "full" && actsOnBoundFolder(argv)
  ? boundTwin(chosen)
  : chosen
runBundle(
  fileURLToPath(new URL(`./${bundleFile(bundle)}`, import.meta.url)),
  __DOSSIER_BUNDLE_SHA256__[bundle],
  () => optimizes(argv)
)
