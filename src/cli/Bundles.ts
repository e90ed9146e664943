/**
 * Which CLI bundle serves a command line. Agents start the CLI once per call, so a command loads
 * only the code it can run: the build (scripts/build.mjs) makes one bundle of ./main.ts per entry
 * of `BUNDLES`, in which the lazily imported implementation of every other command group (and
 * @effect/cli, for `--completions`) is cut off, and the loader (./bin.ts) picks the bundle by the
 * command line's first word, before anything else is read. `full` holds everything: the MCP
 * server (which serves every command) and `--completions`.
 *
 * Every command line a command runs from starts with the command's first word (src/cli/Usage.ts
 * refuses an option before the command), so a bundle needs the implementations of the commands
 * whose path starts with one of its `words`; test/cli/bundles.test.ts checks that against the
 * command table. A first word that names no command (`--help`, `--version`, a typo) needs none:
 * the `bare` bundle answers help, the version and usage errors. Pure data, no imports: the loader
 * and the build read it.
 */

export interface BundleSpec {
  /** The command lines' first words this bundle serves. */
  readonly words: ReadonlyArray<string>
  /** The implementations (src/commands/<name>.impl.ts) it keeps; `all` keeps every one and @effect/cli. */
  readonly impls: ReadonlyArray<string> | "all"
}

export const BUNDLES = {
  bare: { words: [], impls: [] },
  plan: { words: ["plan"], impls: ["plan"] },
  status: { words: ["init", "status"], impls: ["init", "status"] },
  store: { words: ["store", "pull", "export"], impls: ["init", "store"] },
  journal: { words: ["journal"], impls: ["journal"] },
  monitor: { words: ["monitor", "next"], impls: ["monitor"] },
  grant: { words: ["grant"], impls: ["grant"] },
  exec: { words: ["exec"], impls: ["exec"] },
  schema: { words: ["schema"], impls: ["schema"] },
  gate: { words: ["gate"], impls: ["gate"] },
  source: { words: ["source"], impls: ["source"] },
  ingest: { words: ["ingest"], impls: ["ingest"] },
  full: { words: ["mcp"], impls: "all" }
} as const satisfies Record<string, BundleSpec>

export type BundleName = keyof typeof BUNDLES

/** The file of a bundle in dist/ (the full one keeps the name it had when it was the only one). */
export const bundleFile = (name: BundleName): string => (name === "full" ? "dossier-core.cjs" : `dossier-${name}.cjs`)

/** The bundle for a command line (the words after `dossier`). */
export const bundleFor = (argv: ReadonlyArray<string>): BundleName => {
  // Only @effect/cli answers --completions, wherever it stands (src/cli/Usage.ts: `Delegate`).
  if (argv.includes("--completions")) return "full"
  const first = argv[0]
  if (first === undefined || first.startsWith("-")) return "bare"
  // `init --store`/`--dossier` binds the folder: the store's bundle, so that a plain init stays light.
  if (first === "init" && argv.some((a) => /^--(?:store|dossier)(?:=|$)/.test(a))) return "store"
  for (const name of Object.keys(BUNDLES) as Array<BundleName>) {
    if ((BUNDLES[name].words as ReadonlyArray<string>).includes(first)) return name
  }
  // Not a command's first word (`help <command>`, a typo): help or a usage error, never a command.
  return "bare"
}
