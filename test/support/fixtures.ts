/** Bundle a TypeScript fixture with esbuild so a test can run it as a separate Node process. */
import { buildSync } from "esbuild"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

export const bundleFixture = (name: string): string => {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "dossier-fixture-")), `${name}.mjs`)
  buildSync({
    entryPoints: [path.resolve(__dirname, "../fixtures", `${name}.ts`)],
    outfile: out,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    nodePaths: [path.resolve(__dirname, "../../node_modules")],
    logLevel: "error"
  })
  return out
}
