/**
 * A separate consumer package, ES module and CommonJS, of the packed library: `npm pack` into a
 * temporary folder, the tarball unpacked as the consumer's node_modules/dossier (what `npm
 * install` does; the registry is not reachable from the tests), its dependencies and the
 * consumer's own `effect` 3.22.4 and @types/node linked from this checkout. The consumer
 * (test/consumer/main.ts) compiles with `tsc --strict` against the public surface only and runs a
 * flow over DossierMemory with TestClock. The two packages compile in one `tsc` program: it
 * checks effect's declarations once where two programs checked them twice (docs/testing.md).
 */
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"

const repo = path.resolve(__dirname, "../..")
const pkg = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8")) as {
  dependencies: Record<string, string>
}
/** Run a command (asynchronously: a long synchronous call would starve vitest's worker). */
const run = (cmd: string, args: ReadonlyArray<string>, cwd: string) =>
  new Promise<string>((resolve, reject) =>
    execFile(
      cmd,
      args,
      { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${path.basename(cmd)} ${args.join(" ")}: ${stdout}${stderr}`)) : resolve(stdout)
    )
  )

/** Pack the library once (declarations first: `npm run build` does not emit them). */
const pack = async (dir: string): Promise<string> => {
  if (!fs.existsSync(path.join(repo, "dist/types-cjs/index.d.ts"))) {
    await run(process.execPath, ["scripts/build.mjs", "--types-only"], repo)
  }
  const out = (await run("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", dir], repo)).trim()
    .split("\n").pop()!
  return path.join(dir, out)
}

/** The optional peer dependencies `dossier/postgres` needs (and @effect/platform, a peer of theirs). */
const POSTGRES_PEERS = [
  "@effect/sql-pg",
  "@effect/sql",
  "@effect/experimental",
  "@effect/platform",
  "pg",
  "pg-connection-string"
]

const link = (modules: string, name: string) => {
  const target = path.join(modules, name)
  fs.mkdirSync(path.dirname(target), { recursive: true })
  fs.symlinkSync(path.join(repo, "node_modules", name), target, "dir")
}

const consumer = async (root: string, tarball: string, type: "module" | "commonjs") => {
  const dir = path.join(root, type)
  const modules = path.join(dir, "node_modules")
  fs.mkdirSync(path.join(modules, "dossier"), { recursive: true })
  await run("tar", ["-xzf", tarball, "-C", path.join(modules, "dossier"), "--strip-components=1"], dir)
  for (const name of [...Object.keys(pkg.dependencies), "effect", "@types/node", ...POSTGRES_PEERS]) link(modules, name)
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({
      name: `consumer-${type}`,
      private: true,
      type,
      dependencies: { dossier: "0.1.0", effect: "3.22.4" }
    })
  )
  fs.mkdirSync(path.join(dir, "src"))
  fs.copyFileSync(path.join(__dirname, "main.ts"), path.join(dir, "src/main.ts"))
  fs.copyFileSync(path.join(__dirname, "postgres.ts"), path.join(dir, "src/postgres.ts"))
  return dir
}

describe("a consumer package of the packed library", () => {
  it(
    "type-checks strictly and runs a flow over DossierMemory with TestClock, and dossier/postgres, as ESM and as CommonJS",
    async () => {
      const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dossier-consumer-")))
      try {
        const tarball = await pack(root)
        const types = ["module", "commonjs"] as const
        const dirs = await Promise.all(types.map((type) => consumer(root, tarball, type)))
        // One `tsc --strict` program over both consumers: each file's module format comes from its
        // own package.json (NodeNext) and each imports `dossier` from its own node_modules (the
        // import and the require conditions, dist/types and dist/types-cjs), while effect's
        // declarations (the same files, linked) are loaded and checked once, not once per consumer.
        // Without skipLibCheck: dossier's declarations are checked too (skipDefaultLibCheck only
        // skips TypeScript's own lib.*.d.ts). The JavaScript is emitted beside each consumer's
        // source, under its own package.json.
        fs.writeFileSync(
          path.join(root, "tsconfig.json"),
          JSON.stringify({
            compilerOptions: {
              strict: true,
              skipDefaultLibCheck: true,
              target: "ES2022",
              module: "NodeNext",
              moduleResolution: "NodeNext",
              types: ["node"],
              typeRoots: types.map((type) => `${type}/node_modules/@types`)
            },
            include: types.map((type) => `${type}/src`)
          })
        )
        await run(process.execPath, [path.join(repo, "node_modules/typescript/bin/tsc"), "-p", "."], root)
        for (const [i, type] of types.entries()) {
          const dir = dirs[i]!
          // The consumer's only copy of effect is its own: the tarball brings none.
          expect(fs.existsSync(path.join(dir, "node_modules/dossier/node_modules"))).toBe(false)
          const emitted = fs.readFileSync(path.join(dir, "src/main.js"), "utf8")
          expect(emitted.includes("require(\"dossier\")"), type).toBe(type === "commonjs")
          const result = JSON.parse(await run(process.execPath, ["src/main.js"], dir))
          expect(result, type).toEqual({
            planRevision: 1,
            stale: { tag: "StaleRevision", retryable: false },
            appended: ["c1", "e1"],
            refused: "unknown candidate nobody",
            candidates: ["cand-a:accepted"],
            createdAt: "2026-11-30T10:00:00.000Z",
            due: [false, true],
            dueNow: "2026-12-01T08:00:00.000Z",
            timeout: { tag: "LockTimeout", retryable: true }
          })
          // dossier/postgres with its optional peers: a server not there is StoreUnavailable, retryable,
          // the class `dossier` exports.
          expect(JSON.parse(await run(process.execPath, ["src/postgres.js"], dir)), type).toEqual({
            tag: "StoreUnavailable",
            retryable: true,
            instance: true
          })
        }
      } finally {
        fs.rmSync(root, { recursive: true, force: true })
      }
    },
    600_000
  )
})
