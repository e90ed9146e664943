/**
 * Which CLI bundle serves a command line. Agents start the CLI once per call, so a command loads
 * only the code it can run: the build (scripts/build.mjs) makes one bundle of ./main.ts per entry
 * of `BUNDLES`, in which the lazily imported implementation of every other command group (and
 * @effect/cli, for `--completions`) is cut off, and the loader (./bin.ts) picks the bundle by the
 * command line's first word, before anything else is read. `full` holds everything: the MCP
 * server (which serves every command) and `--completions`.
 *
 * Every command line a command runs from starts with the command's first word once the options
 * every command shares, which may stand before it, are moved after its words (`commandFirst`;
 * src/cli/Usage.ts refuses any other option before the command), so a bundle needs the
 * implementations of the commands whose path starts with one of its `words`; test/cli/bundles.test.ts checks that against the
 * command table. A first word that names no command (`--help`, `--version`, a typo) needs none:
 * the `bare` bundle answers help, the version and usage errors. Pure data, no imports: the loader
 * and the build read it.
 *
 * In a folder bound to a shared dossier a command runs over the store (src/commands/Bound.ts),
 * with its group's services over the store (src/layers/bound/<impl>.bound.ts) and the PostgreSQL
 * driver. Each group whose commands do that has a twin bundle that keeps them (`plan-bound`); the
 * plain one cuts them off, so that a command in a plain folder loads none of it. The loader picks
 * the twin when the command line acts on a bound folder (./BoundProbe.ts).
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
  monitor: { words: ["monitor", "next"], impls: ["monitor", "next"] },
  grant: { words: ["grant"], impls: ["grant"] },
  exec: { words: ["exec"], impls: ["exec"] },
  schema: { words: ["schema"], impls: ["schema"] },
  gate: { words: ["gate"], impls: ["gate"] },
  source: { words: ["source"], impls: ["source"] },
  ingest: { words: ["ingest"], impls: ["ingest"] },
  full: { words: ["mcp"], impls: "all" }
} as const satisfies Record<string, BundleSpec>

/** A group of commands (an entry of `BUNDLES`). */
export type GroupName = keyof typeof BUNDLES

/** The groups whose commands run over a shared dossier in a bound folder: each has a twin bundle. */
export const BOUND_GROUPS = [
  "plan",
  "status",
  "journal",
  "monitor",
  "grant",
  "exec",
  "gate",
  "source",
  "ingest"
] as const

export type BundleName = GroupName | `${(typeof BOUND_GROUPS)[number]}-bound`

/** Every bundle the build makes: each group's, then the bound groups' twins. */
export const ALL_BUNDLES: ReadonlyArray<BundleName> = [
  ...(Object.keys(BUNDLES) as Array<GroupName>),
  ...BOUND_GROUPS.map((g) => `${g}-bound` as const)
]

/** A bundle's group, and whether it is the twin that runs its commands over a shared dossier. */
export const groupOf = (name: BundleName): { readonly group: GroupName; readonly bound: boolean } =>
  name.endsWith("-bound")
    ? { group: name.slice(0, -"-bound".length) as GroupName, bound: true }
    : { group: name as GroupName, bound: false }

/** The bundle that serves a group's command line in a bound folder: its twin, or itself when it has none. */
export const boundTwin = (name: GroupName): BundleName =>
  (BOUND_GROUPS as ReadonlyArray<string>).includes(name) ? `${name as (typeof BOUND_GROUPS)[number]}-bound` : name

/** The file of a bundle in dist/ (the full one keeps the name it had when it was the only one). */
export const bundleFile = (name: BundleName): string => (name === "full" ? "dossier-core.cjs" : `dossier-${name}.cjs`)

/** How many words at the start of a command line are options every command shares (`--json`, `--workdir <dir>`, `--now=<t>`). */
export const sharedLead = (argv: ReadonlyArray<string>): number => {
  let i = 0
  while (i < argv.length) {
    const a = argv[i]!
    if (a === "--json" || /^--(?:json|workdir|now)=/.test(a)) i++
    else if ((a === "--workdir" || a === "--now") && i + 1 < argv.length) i += 2
    else break
  }
  return i
}

/**
 * The command line with the options every command shares given before the command (`dossier
 * --workdir ../w --json plan inspect`) moved after the command's words (`plan inspect --workdir
 * ../w --json`), where the parsers and the loader read them; any other line as it is.
 */
export const commandFirst = (argv: ReadonlyArray<string>): ReadonlyArray<string> => {
  const lead = sharedLead(argv)
  if (lead === 0 || lead >= argv.length || argv[lead]!.startsWith("-")) return argv
  let end = lead
  while (end < argv.length && !argv[end]!.startsWith("-")) end++
  return [...argv.slice(lead, end), ...argv.slice(0, lead), ...argv.slice(end)]
}

/** The bundle for a command line (the words after `dossier`) in a plain folder. */
export const bundleFor = (line: ReadonlyArray<string>): GroupName => {
  // Only @effect/cli answers --completions, wherever it stands (src/cli/Usage.ts: `Delegate`).
  if (line.includes("--completions")) return "full"
  const argv = commandFirst(line)
  const first = argv[0]
  if (first === undefined || first.startsWith("-")) return "bare"
  // `init --store`/`--dossier` binds the folder: the store's bundle, so that a plain init stays light.
  if (first === "init" && argv.some((a) => /^--(?:store|dossier)(?:=|$)/.test(a))) return "store"
  for (const name of Object.keys(BUNDLES) as Array<GroupName>) {
    if ((BUNDLES[name].words as ReadonlyArray<string>).includes(first)) return name
  }
  // Not a command's first word (`help <command>`, a typo): help or a usage error, never a command.
  return "bare"
}
