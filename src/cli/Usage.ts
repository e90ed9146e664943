/**
 * Every command line the fast path declines comes here (src/cli/main.ts): help pages (`--help`,
 * `-h`, `dossier help [command…]`, also as one JSON object under `--json`), `--version`, and the
 * full parser, which accepts what the fast path accepts plus `--flag=value` and `--input -`, and
 * answers every mistake with a `UsageError` that says what is wrong and what would be right
 * (the nearest command or flag, the flag given twice, the missing value). @effect/cli is loaded
 * only for `--completions`. Help pages are generated from the same declarations as the parsers,
 * wrapped at 100 columns; the options the commands share are explained once, in `dossier --help`.
 *
 * Over 400 lines: help pages, `--version` and the full parser answer the same command table;
 * kept together so a help page and the parser cannot disagree.
 */
import {
  type ArgSpec,
  type CommandSpec,
  type FlagSpec,
  input,
  isRequired,
  json,
  now,
  valueKindOf,
  workdir
} from "../commands/Spec.js"
import { commandFirst, sharedLead } from "./Bundles.js"
import { allSpecs, groups } from "./Specs.js"
import { commandName, emptyValueMessage, placeholder, restUsage, toValues } from "./Values.js"

export const VERSION = "0.1.0"

/** Explained once, in `dossier --help`; a command's own page only names them. */
const SHARED: ReadonlyArray<FlagSpec> = [workdir, json, now]
const isShared = (f: FlagSpec) => SHARED.some((s) => s.name === f.name)

const ROOT_DESCRIPTION =
  "Keep agent research in an ordinary folder: a plan with revisions, safely captured sources, results bound to their bytes, an experiment journal, a research gate and subscriptions."

export type Route =
  | { readonly _tag: "Run"; readonly spec: CommandSpec; readonly values: Record<string, unknown> }
  | { readonly _tag: "Help"; readonly path: ReadonlyArray<string> }
  | { readonly _tag: "Version" }
  | { readonly _tag: "Usage"; readonly message: string }
  | { readonly _tag: "Delegate" }

const usage = (message: string): Route => ({ _tag: "Usage", message })

// --- suggestions ---------------------------------------------------------------------------

const distance = (a: string, b: string): number => {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1))
      prev = cur
    }
  }
  return row[b.length]!
}

/** The nearest candidate, when it is close enough to be what was meant. */
export const nearest = (word: string, candidates: ReadonlyArray<string>): string | undefined => {
  let best: string | undefined
  let bestD = Number.POSITIVE_INFINITY
  for (const c of candidates) {
    const d = c.startsWith(word) && word.length >= 2 ? 1 : distance(word, c)
    if (d < bestD) {
      best = c
      bestD = d
    }
  }
  return best !== undefined && bestD <= Math.max(2, Math.floor(best.length / 3)) ? best : undefined
}

const didYouMean = (word: string, candidates: ReadonlyArray<string>) => {
  const n = nearest(word, candidates)
  // Without a suggestion the sentence ends here; the list that follows starts the next one.
  return n === undefined ? "." : `; did you mean '${n}'?`
}

// --- the command table as a tree -------------------------------------------------------------

const topNames = (): ReadonlyArray<string> => [
  ...groups.map((g) => g.name),
  ...allSpecs.filter((s) => s.path.length === 1).map((s) => s.path[0]!),
  "help"
]
const subcommandsOf = (group: string) => allSpecs.filter((s) => s.path.length === 2 && s.path[0] === group)
const isGroup = (word: string) => groups.some((g) => g.name === word)
const findSpec = (path: ReadonlyArray<string>) =>
  allSpecs.find((s) => s.path.length === path.length && s.path.every((w, i) => path[i] === w))

type Target =
  | { readonly _tag: "Root" }
  | { readonly _tag: "Group"; readonly name: string }
  | { readonly _tag: "Command"; readonly spec: CommandSpec }

/** Resolve command words (`plan start`) to a help target, or a usage error. */
type UsageRoute = Extract<Route, { readonly _tag: "Usage" }>
const usageOnly = (r: Route) => r as UsageRoute

const resolveWords = (words: ReadonlyArray<string>): Target | UsageRoute => {
  if (words.length === 0) return { _tag: "Root" }
  const [first, second] = words
  if (isGroup(first!)) {
    if (second === undefined) return { _tag: "Group", name: first! }
    const spec = findSpec([first!, second])
    if (spec === undefined) return usageOnly(unknownSubcommand(first!, second))
    if (words.length > 2) {
      return usageOnly(usage(`unexpected argument '${words[2]}' after 'dossier ${first} ${second}'`))
    }
    return { _tag: "Command", spec }
  }
  // A command that also has a two-word form (`exec` and `exec show`).
  const sub = second === undefined ? undefined : findSpec([first!, second])
  if (sub !== undefined) {
    return words.length > 2
      ? usageOnly(usage(`unexpected argument '${words[2]}' after 'dossier ${first} ${second}'`))
      : { _tag: "Command", spec: sub }
  }
  const spec = findSpec([first!])
  if (spec === undefined) return usageOnly(unknownCommand(first!))
  if (words.length > 1 && spec.args === undefined) {
    return usageOnly(usage(`'dossier ${first}' has no subcommands; unexpected '${second}'`))
  }
  return { _tag: "Command", spec }
}

const noCommand = () =>
  usage(`no command given: dossier <command> [options]. Commands: ${topNames().join(", ")} (see dossier --help)`)

const unknownCommand = (word: string) =>
  usage(`unknown command '${word}' for 'dossier'${didYouMean(word, topNames())} Commands: ${topNames().join(", ")}.`)

const unknownSubcommand = (group: string, word: string) => {
  const subs = subcommandsOf(group).map((s) => s.path[1]!)
  return usage(
    `unknown command '${word}' for 'dossier ${group}'${didYouMean(word, subs)} Its commands: ${subs.join(", ")}.`
  )
}

// --- parsing -----------------------------------------------------------------------------------

const HELP = new Set(["--help", "-h"])

const SHELLS = ["sh", "bash", "fish", "zsh"]

/** `--completions <shell>` prints a script (@effect/cli); a missing or unknown shell is said as such. */
const completions = (argv: ReadonlyArray<string>): Route => {
  const shell = argv[argv.indexOf("--completions") + 1]
  if (shell === undefined || !SHELLS.includes(shell)) {
    return usage(
      `--completions needs a shell: ${SHELLS.join(", ")}${
        shell === undefined || shell.startsWith("-") ? "" : `, not '${shell}'`
      } (e.g. dossier --completions bash)`
    )
  }
  if (argv.includes("--json")) return usage("--completions prints a shell script, not JSON: leave out --json")
  return { _tag: "Delegate" }
}

/** Flags of any command that take a value (`--workdir`, `--now`, `--input`, …). */
const VALUED = new Set(
  allSpecs.flatMap((s) => Object.values(s.flags).filter((f) => f.kind !== "boolean").map((f) => `--${f.name}`))
)

/**
 * The command words of `dossier help <words…>`: options given with them are taken as they would
 * be by the command (`help plan --workdir .` is `plan --help --workdir .`), so an option's value
 * is no command word.
 */
const helpWords = (args: ReadonlyArray<string>): ReadonlyArray<string> => {
  const words: Array<string> = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!
    if (!a.startsWith("-")) words.push(a)
    else if (VALUED.has(a)) i++
  }
  return words
}

/**
 * An empty value of a flag given to a help page or to `--version` (`dossier help --workdir=`,
 * `plan start --help --input ""`): the same mistake, and the same answer, as on any other line.
 * Judged by the flags of the command whose page it is, else by any command's flag of that name;
 * the words after `--` are a program's.
 */
const emptyValueBeside = (argv: ReadonlyArray<string>, r: Route): Route | undefined => {
  const target = r._tag === "Help" ? resolveWords(r.path) : undefined
  const flags = target?._tag === "Command"
    ? Object.values(target.spec.flags)
    : allSpecs.flatMap((s) => Object.values(s.flags))
  const valued = (name: string) => flags.find((f) => `--${f.name}` === name && f.kind !== "boolean")
  const end = argv.indexOf("--")
  const words = end === -1 ? argv : argv.slice(0, end)
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!
    const eq = w.indexOf("=")
    const f = eq === -1 ? valued(w) : valued(w.slice(0, eq))
    if (f !== undefined && (eq === -1 ? words[i + 1] === "" : eq === w.length - 1)) {
      return usage(emptyValueMessage(f))
    }
  }
  return undefined
}

/** `dossier --version`: the shared options may stand beside it, nothing else. */
const versionLine: CommandSpec = {
  path: ["--version"],
  description: "Print the version.",
  flags: { workdir, json, now, input },
  run: () => Promise.reject(new Error("--version runs no command"))
}

/** Route a command line the fast path declined. */
export const route = (argv: ReadonlyArray<string>): Route => {
  const r = routeLine(argv)
  return r._tag === "Help" || r._tag === "Version" ? emptyValueBeside(argv, r) ?? r : r
}

const routeLine = (argv: ReadonlyArray<string>): Route => {
  if (argv.includes("--completions")) return completions(argv)
  const first = argv[0]
  // No command is a usage error (exit 2), as a missing subcommand is; help stays on --help.
  if (first === undefined) return noCommand()
  if (first === "help") {
    const words = helpWords(argv.slice(1))
    const target = resolveWords(words)
    return target._tag === "Usage" ? target : { _tag: "Help", path: words }
  }
  if (first.startsWith("-")) {
    if (HELP.has(first)) return { _tag: "Help", path: [] }
    if (first === "--version" || first === "-V") {
      return argv.some((a) => HELP.has(a)) ? { _tag: "Version" } : parseCommand(versionLine, argv)
    }
    // The shared options may stand before the command (src/cli/Bundles.ts `commandFirst`).
    const moved = commandFirst(argv)
    if (moved !== argv) return routeLine(moved)
    if (argv.slice(sharedLead(argv)).every((a) => a === "--json" || HELP.has(a) || a === "--version")) {
      return argv.includes("--version")
        ? { _tag: "Version" }
        : argv.some((a) => HELP.has(a))
        ? { _tag: "Help", path: [] }
        : noCommand()
    }
    return usage(
      `'${first}' before a command: give the command first (dossier <command> [options]); see dossier --help`
    )
  }
  if (isGroup(first)) {
    const second = argv[1]
    if (second === undefined || second.startsWith("-")) {
      if (argv.slice(1).some((a) => HELP.has(a))) return { _tag: "Help", path: [first] }
      const subs = subcommandsOf(first).map((s) => s.path[1]!)
      return usage(`'dossier ${first}' needs a command: ${subs.join(", ")} (see dossier ${first} --help)`)
    }
    const spec = findSpec([first, second])
    if (spec === undefined) return unknownSubcommand(first, second)
    return parseCommand(spec, argv.slice(2))
  }
  const second = argv[1]
  const sub = second === undefined ? undefined : findSpec([first, second])
  if (sub !== undefined) return parseCommand(sub, argv.slice(2))
  const spec = findSpec([first])
  if (spec === undefined) return unknownCommand(first)
  return parseCommand(spec, argv.slice(1))
}

/** Parse the words after the command's path; the values have the fast path's shape. */
export const parseCommand = (spec: CommandSpec, words: ReadonlyArray<string>): Route => {
  // A command with `rest` (exec) takes every word after `--` as it is, help flags included.
  const dashes = spec.rest === undefined ? -1 : words.indexOf("--")
  const rest = dashes === -1 ? words : words.slice(0, dashes)
  const forced = dashes === -1 ? [] : words.slice(dashes + 1)
  if (rest.some((a) => HELP.has(a))) return { _tag: "Help", path: spec.path }
  const name = commandName(spec)
  if (rest.includes("--wizard")) {
    return usage(
      `--wizard (interactive prompts) is not offered: give the flags on the command line (see ${name} --help)`
    )
  }
  const byName = new Map<string, { key: string; f: FlagSpec }>(
    Object.entries(spec.flags).map(([key, f]) => [f.name, { key, f }])
  )
  const raw = new Map<string, string | boolean>()
  const positionals: Array<string> = []
  let flagsDone = false
  let version = false
  for (let i = 0; i < rest.length; i++) {
    const tok = rest[i]!
    if (!flagsDone && (tok === "--version" || tok === "-V")) {
      version = true
      continue
    }
    if (flagsDone || !tok.startsWith("-") || tok === "-") {
      positionals.push(tok)
      continue
    }
    if (tok === "--") {
      flagsDone = true
      continue
    }
    const eq = tok.indexOf("=")
    const flagName = tok.startsWith("--") ? tok.slice(2, eq === -1 ? undefined : eq) : tok.slice(1)
    const hit = byName.get(flagName)
    if (hit === undefined || !tok.startsWith("--")) {
      const known = [...byName.keys()].map((n) => `--${n}`)
      return usage(
        `unknown option '${eq === -1 ? tok : tok.slice(0, eq)}' for '${name}'${
          didYouMean(`--${flagName}`, known)
        } Its options: ${known.join(", ")}.`
      )
    }
    if (raw.has(hit.key)) return usage(`--${hit.f.name} is given more than once; give each option at most once`)
    const inline = eq === -1 ? undefined : tok.slice(eq + 1)
    if (hit.f.kind === "boolean") {
      if (inline === undefined) raw.set(hit.key, true)
      else if (/^(true|1|yes|on)$/i.test(inline)) raw.set(hit.key, true)
      else if (/^(false|0|no|off)$/i.test(inline)) raw.set(hit.key, false)
      else return usage(`--${hit.f.name} takes no value (or =true / =false), got '${inline}'`)
      continue
    }
    let value = inline
    if (value === undefined) {
      const next = rest[i + 1]
      if (next === undefined || (next.startsWith("--") && next.length > 2)) {
        return usage(`${placeholder(hit.f)}: the value is missing`)
      }
      value = next
      i++
    }
    raw.set(hit.key, value)
  }
  const args = Object.entries(spec.args ?? {})
  if (positionals.length > args.length) {
    const extra = positionals[args.length]!
    return usage(
      args.length === 0
        ? `unexpected argument '${extra}' for '${name}' (it takes options only; see ${
          spec === versionLine ? "dossier" : name
        } --help)`
        : `unexpected argument '${extra}' for '${name}' (it takes ${args.map(([, a]) => `<${a.name}>`).join(" ")})`
    )
  }
  // `--version` prints the version whatever the command, once the rest of the line is well formed
  // (an unknown option beside it is the UsageError it is everywhere else).
  if (version) return { _tag: "Version" }
  const converted = toValues(spec, raw, positionals, forced)
  return converted._tag === "Miss" ? usage(converted.message) : { _tag: "Run", spec, values: converted.values }
}

// --- help pages ------------------------------------------------------------------------------

export const WIDTH = 100

/** Wrap text at `width` columns, every line after the first indented by `indent` spaces. */
export const wrap = (text: string, width: number, indent: number, firstIndent = indent): string => {
  const lines: Array<string> = []
  let line = " ".repeat(firstIndent)
  let empty = true
  const pad = " ".repeat(indent)
  for (let word of text.split(/\s+/).filter((w) => w.length > 0)) {
    while (word.length > 0) {
      const room = width - line.length - (empty ? 0 : 1)
      if (word.length <= room) {
        line += (empty ? "" : " ") + word
        empty = false
        word = ""
      } else if (!empty) {
        lines.push(line)
        line = pad
        empty = true
      } else {
        // A word longer than a whole line is cut.
        line += word.slice(0, room)
        word = word.slice(room)
        lines.push(line)
        line = pad
      }
    }
  }
  if (!empty) lines.push(line)
  return lines.join("\n")
}

const required = isRequired

export const usageLine = (spec: CommandSpec): string => {
  const parts = [commandName(spec)]
  for (const a of Object.values(spec.args ?? {})) parts.push(a.optional ? `[<${a.name}>]` : `<${a.name}>`)
  const own = Object.values(spec.flags).filter((f) => !isShared(f))
  for (const f of own.filter(required)) parts.push(placeholder(f))
  for (const f of own.filter((f) => !required(f))) parts.push(`[${placeholder(f)}]`)
  for (const f of Object.values(spec.flags).filter(isShared)) parts.push(`[${placeholder(f)}]`)
  if (spec.rest !== undefined) {
    parts.push(spec.rest.optional ? `[-- ${restUsage(spec.rest)}]` : `-- ${restUsage(spec.rest)}`)
  }
  return parts.join(" ")
}

/** The first sentence of a description (for command lists). */
const summary = (d: string) => {
  const m = /^(.+?\.)(\s|$)/.exec(d)
  return m?.[1] ?? d
}

interface HelpOption {
  readonly name: string
  readonly type: string
  readonly required: boolean
  readonly description: string
}

export interface HelpDoc {
  readonly command: string
  readonly usage: string
  readonly description: string
  readonly options: ReadonlyArray<HelpOption>
  readonly arguments: ReadonlyArray<
    { readonly name: string; readonly type: string; readonly required: boolean; readonly description: string }
  >
  readonly subcommands: ReadonlyArray<{ readonly name: string; readonly command: string; readonly description: string }>
}

const optionOf = (f: FlagSpec): HelpOption => ({
  name: `--${f.name}`,
  type: valueKindOf(f) ?? "boolean",
  required: required(f),
  description: f.description
})

const argOf = (a: ArgSpec) => ({
  name: `<${a.name}>`,
  type: valueKindOf(a) ?? "text",
  required: !a.optional,
  description: a.description
})

export const helpDoc = (path: ReadonlyArray<string>): HelpDoc => {
  const target = resolveWords(path)
  if (target._tag === "Command") {
    const spec = target.spec
    return {
      command: commandName(spec),
      usage: usageLine(spec),
      description: spec.description,
      options: Object.values(spec.flags).map(optionOf),
      arguments: [
        ...Object.values(spec.args ?? {}).map(argOf),
        ...(spec.rest === undefined ? [] : [{ ...argOf(spec.rest), name: `-- ${restUsage(spec.rest)}` }])
      ],
      subcommands: []
    }
  }
  if (target._tag === "Group") {
    const name = target.name
    const g = groups.find((x) => x.name === name)!
    return {
      command: `dossier ${name}`,
      usage: `dossier ${name} <command> [options]`,
      description: g.description,
      options: [],
      arguments: [],
      subcommands: subcommandsOf(name).map((s) => ({
        name: s.path[1]!,
        command: commandName(s),
        description: summary(s.description)
      }))
    }
  }
  return {
    command: "dossier",
    usage: "dossier <command> [options]",
    description: ROOT_DESCRIPTION,
    // --now is shared but not universal: say so where the page lists it with the others.
    options: SHARED.map(optionOf).map((o) =>
      o.name === `--${now.name}`
        ? { ...o, description: `${o.description} Only commands whose answer depends on the time take it.` }
        : o
    ),
    arguments: [],
    subcommands: [
      // A one-word command, then its own two-word forms (`exec`, then `exec show`).
      ...allSpecs.filter((s) => s.path.length === 1).flatMap((s) =>
        [s, ...allSpecs.filter((t) => t.path.length === 2 && t.path[0] === s.path[0])].map((t) => ({
          name: t.path.join(" "),
          command: commandName(t),
          description: summary(t.description)
        }))
      ),
      ...groups.flatMap((g) =>
        subcommandsOf(g.name).map((s) => ({
          name: s.path.join(" "),
          command: commandName(s),
          description: summary(s.description)
        }))
      ),
      {
        name: "help",
        command: "dossier help",
        description: "Show the help of dossier or of a command (dossier help plan start)."
      }
    ]
  }
}

const optionLine = (
  o: { readonly name: string; readonly type: string; readonly required: boolean; readonly description: string }
) => {
  const head = o.type === "boolean"
    ? o.name
    : o.name.startsWith("<") || o.name.startsWith("-- ")
    ? o.name
    : `${o.name} <${o.type}>`
  const text = `${o.required ? "(required) " : ""}${o.description}`
  const col = 26
  if (head.length + 4 <= col) return `  ${head.padEnd(col - 2)}${wrap(text, WIDTH, col, col).slice(col)}`
  return `  ${head}\n${wrap(text, WIDTH, col)}`
}

const listLine = (name: string, description: string) => {
  const col = 28
  return name.length + 4 <= col
    ? `  ${name.padEnd(col - 2)}${wrap(description, WIDTH, col, col).slice(col)}`
    : `  ${name}\n${wrap(description, WIDTH, col)}`
}

export const helpText = (path: ReadonlyArray<string>): string => {
  const doc = helpDoc(path)
  const out: Array<string> = [wrap(`Usage: ${doc.usage}`, WIDTH, 4, 0), "", wrap(doc.description, WIDTH, 0)]
  if (doc.command === "dossier") {
    out.push("", "Commands:")
    for (const s of doc.subcommands) out.push(listLine(s.name, s.description))
    out.push(
      "",
      wrap(
        "Options the commands share (each command's page names the ones it takes; they may also stand before the command):",
        WIDTH,
        0
      )
    )
    for (const o of doc.options) out.push(optionLine(o))
    out.push(
      "",
      wrap(
        "Run 'dossier help <command>' (or 'dossier <command> --help') for a command's own options; add --json for the same page as one JSON object.",
        WIDTH,
        0
      ),
      "",
      wrap(
        "Exit codes: 0 success, 1 a typed refusal (error._tag), 2 a usage error, 70 an internal defect, 74 the answer could not be written to standard output.",
        WIDTH,
        0
      ),
      wrap(
        "Environment: DOSSIER_WORKDIR (the work folder when --workdir is not given), DOSSIER_UNATTENDED=1 (an unattended run, for the gate), DOSSIER_STORE (init --dossier's store when --store is not given).",
        WIDTH,
        0
      ),
      "",
      `dossier ${VERSION}`
    )
    return out.join("\n")
  }
  if (doc.subcommands.length > 0) {
    out.push("", "Commands:")
    for (const s of doc.subcommands) out.push(listLine(s.name, s.description))
    out.push("", wrap(`Run 'dossier help ${path[0]} <command>' for a command's options.`, WIDTH, 0))
    return out.join("\n")
  }
  if (doc.arguments.length > 0) {
    out.push("", "Arguments:")
    for (const a of doc.arguments) out.push(optionLine(a))
  }
  const own = doc.options.filter((o) => !SHARED.some((s) => `--${s.name}` === o.name))
  const shared = doc.options.filter((o) => SHARED.some((s) => `--${s.name}` === o.name))
  if (own.length > 0) {
    out.push("", "Options:")
    for (const o of own) out.push(optionLine(o))
  }
  if (shared.length > 0) {
    out.push(
      "",
      wrap(
        `Also: ${
          shared.map((o) => (o.type === "boolean" ? o.name : `${o.name} <${o.type}>`)).join(", ")
        } (see dossier --help).`,
        WIDTH,
        0
      )
    )
  }
  return out.join("\n")
}
