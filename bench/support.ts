/**
 * Benchmark helpers: medians of repeated runs and a table of ratios against baselines
 * measured in the same run. Timing never goes into a test's assertions.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

export const CLI = path.resolve("dist/dossier.cjs")

/**
 * The smoke run (`npm run bench -- --smoke`): every suite makes its whole set-up and runs each of
 * its rows once or a few times, no warm-up, so that a change that breaks a suite shows in a minute
 * (test/bench/smoke.test.ts runs it) instead of in the next 30-minute run. Its figures are one
 * sample of a cold process: the ratios mean nothing, and no target is judged.
 */
export const smoke: boolean = process.argv.includes("--smoke")

/** Why no row of this run is judged against its target, or undefined when measuring. */
export const SMOKE_NOTE = smoke ? "smoke run" : undefined

/** One count: as measured (`npm run bench`), and in the smoke run — the least that still runs every path. */
const count = (measured: number, smokeCount: number): number => smoke ? smokeCount : measured

/**
 * Every suite's counts (runs, warm-ups, rounds, sizes that only set how long a row takes), in one
 * place: each suite reads its own, and none asks whether this is a smoke run.
 */
export const counts = {
  startup: { floorRuns: count(15, 1), commandRuns: count(15, 1), warmup: count(2, 0) },
  plan: {
    inspectRuns: count(21, 1),
    inspectWarmup: count(3, 0),
    helpRuns: count(11, 1),
    helpWarmup: count(1, 0),
    files: count(32, 2),
    fileMiB: count(16, 1),
    hashRuns: count(5, 1),
    hashWarmup: count(1, 0)
  },
  ingest: {
    pageMiB: count(2, 0.25),
    earlyWarmup: count(2, 0),
    earlyRuns: count(9, 1),
    steadyWarmup: count(9, 0),
    steadyRuns: count(9, 1),
    captureRuns: count(9, 1),
    captureWarmup: count(20, 0),
    baselineRuns: count(9, 1),
    baselineWarmup: count(2, 0),
    extractRuns: count(15, 1),
    extractWarmup: count(3, 0),
    cliRuns: count(5, 1),
    cliWarmup: count(1, 0),
    importRuns: count(7, 1),
    importWarmup: count(1, 0)
  },
  journal: {
    appendSkipped: count(3, 0),
    appendRuns: count(100, 1),
    steadyAppends: count(3000, 1),
    batchRuns: count(7, 1),
    batchWarmup: count(1, 0),
    inspectEvents: count(100_000, 1_000),
    inspectRuns: count(8, 1),
    inspectWarmup: count(1, 0),
    cliSmallEvents: count(1_000, 10),
    cliRuns: count(9, 1)
  },
  gate: { files: count(32, 4), fileMiB: count(2, 0.25), runs: count(7, 1), warmup: count(1, 0) },
  monitor: {
    subscriptions: count(1000, 20),
    runsPerSubscription: count(10, 3),
    runs: count(9, 1),
    warmup: count(1, 0)
  },
  library: { rounds: count(9, 1) },
  mcp: { cliRuns: count(21, 1), cliWarmup: count(3, 0), mcpRuns: count(101, 1), mcpWarmup: count(5, 0) },
  extraction: {
    pages: count(Infinity, 10),
    warmupPages: count(40, 0),
    freshRuns: count(9, 1),
    freshWarmup: count(1, 0)
  },
  extractionWcxb: { pages: count(Infinity, 10), warmupPages: count(40, 0) },
  exec: { runs: count(21, 1), warmup: count(1, 0) },
  store: {
    coldWarmup: count(20, 0),
    cold: count(101, 2),
    warmup: count(600, 0),
    runs: count(201, 2),
    checkpointRuns: count(31, 1),
    checkpointWarmup: count(2, 0),
    inspectRuns: count(11, 1),
    inspectWarmup: count(1, 0),
    writers: count(8, 2),
    writerEvents: count(1_000, 20)
  }
} as const

export const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

/** Median wall time in ms of `fn` over `runs` runs (after `warmup` unmeasured runs). */
export const timeSync = (runs: number, fn: () => void, warmup = 1): number => {
  for (let i = 0; i < warmup; i++) fn()
  const xs: Array<number> = []
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint()
    fn()
    xs.push(Number(process.hrtime.bigint() - t) / 1e6)
  }
  return median(xs)
}

/** Medians of `fns`, each run `runs` times after `warmup` rounds, one run of each in turn (same conditions for all). */
export const timeSyncAlternating = <const F extends ReadonlyArray<() => void>>(
  runs: number,
  fns: F,
  warmup = 1
): { -readonly [K in keyof F]: number } => {
  for (let i = 0; i < warmup; i++) for (const fn of fns) fn()
  const xs: Array<Array<number>> = fns.map(() => [])
  for (let i = 0; i < runs; i++) {
    fns.forEach((fn, k) => {
      const t = process.hrtime.bigint()
      fn()
      xs[k]!.push(Number(process.hrtime.bigint() - t) / 1e6)
    })
  }
  return xs.map(median) as { -readonly [K in keyof F]: number }
}

export const timeAsync = async (runs: number, fn: () => Promise<unknown>, warmup = 1): Promise<number> => {
  for (let i = 0; i < warmup; i++) await fn()
  const xs: Array<number> = []
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint()
    await fn()
    xs.push(Number(process.hrtime.bigint() - t) / 1e6)
  }
  return median(xs)
}

/** `timeSyncAlternating` for async work (separate processes, say): one run of each in turn. */
export const timeAsyncAlternating = async <const F extends ReadonlyArray<() => Promise<unknown>>>(
  runs: number,
  fns: F,
  warmup = 1
): Promise<{ -readonly [K in keyof F]: number }> => {
  for (let i = 0; i < warmup; i++) for (const fn of fns) await fn()
  const xs: Array<Array<number>> = fns.map(() => [])
  for (let i = 0; i < runs; i++) {
    for (let k = 0; k < fns.length; k++) {
      const t = process.hrtime.bigint()
      await fns[k]!()
      xs[k]!.push(Number(process.hrtime.bigint() - t) / 1e6)
    }
  }
  return xs.map(median) as { -readonly [K in keyof F]: number }
}

/**
 * Paired timing of async work: `runs` rounds after `warmup`, one run of each of `fns` per round,
 * in their order in even rounds and in the reverse order in odd ones, so that neighbours stay
 * neighbours (a pair of rows compares adjacent runs) but no side always runs right after the same
 * other and pays for what that one left behind (its garbage, its callbacks still due). Answers
 * every side's samples in round order: sample r of each side is from round r.
 */
export const sampleAsyncAlternating = async <const F extends ReadonlyArray<() => Promise<unknown>>>(
  runs: number,
  fns: F,
  warmup = 1
): Promise<{ -readonly [K in keyof F]: Array<number> }> => {
  for (let i = 0; i < warmup; i++) for (const fn of fns) await fn()
  const xs: Array<Array<number>> = fns.map(() => [])
  for (let r = 0; r < runs; r++) {
    for (let j = 0; j < fns.length; j++) {
      const k = r % 2 === 0 ? j : fns.length - 1 - j
      const t = process.hrtime.bigint()
      await fns[k]!()
      xs[k]!.push(Number(process.hrtime.bigint() - t) / 1e6)
    }
  }
  return xs as { -readonly [K in keyof F]: Array<number> }
}

/**
 * The median of the ratios of paired samples (`xs[r] / ys[r]`, both from round r): a change of the
 * machine's speed during the run moves both sides of a round together and leaves their ratio,
 * where the ratio of the two medians compares samples of different moments.
 */
export const pairedRatio = (xs: ReadonlyArray<number>, ys: ReadonlyArray<number>): number => {
  if (xs.length !== ys.length || xs.length === 0) throw new Error("paired samples of unequal or no length")
  return median(xs.map((x, r) => x / ys[r]!))
}

/** Run a command and fail loudly if it does not exit 0. */
export const exec = (cmd: string, args: ReadonlyArray<string>, cwd?: string) => {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 })
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}: ${r.stderr}`)
  return r.stdout
}

/** Write `value` as JSON at `rel` inside `dir` (parents created); answers `rel`. */
export const writeJson = (dir: string, rel: string, value: unknown) => {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
  fs.writeFileSync(path.join(dir, rel), JSON.stringify(value))
  return rel
}

export const tempDir = (prefix: string) => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)))

export interface Row {
  readonly name: string
  readonly ms: number
  readonly baseline: string
  readonly baselineMs: number
  readonly target?: number
  readonly note?: string
  /** The floor measured in the same alternating runs (bench/startup.ts): what any Effect program pays. */
  readonly floor?: { readonly name: string; readonly ms: number }
  /**
   * Why the ratio is not judged against the target (`loadedMachine`): the verdict then says so
   * instead of "met" or "MISSED".
   */
  readonly unjudged?: string | undefined
  /**
   * The row's ratio when it is not `ms / baselineMs`: the median of paired samples' ratios
   * (`pairedRatio`), which the target is judged by.
   */
  readonly ratio?: number
}

/** A row's ratio: its own (paired samples), else the ratio of its medians. */
const ratioOf = (row: Row): number => row.ratio ?? row.ms / row.baselineMs

/**
 * Why a ratio measured now cannot be judged against its target, or undefined: the machine is
 * busy with other work — a 1-minute load average above 1.5 per core (a benchmark of a client
 * and its server keeps about one per core busy by itself). Then every wake-up waits for a core,
 * a round trip costs several times its quiet price, and the ratio says more about the load
 * than about the code (docs/performance.md, "Shared store").
 */
export const loadedMachine = (
  loadAverage: number = os.loadavg()[0]!,
  cores: number = os.availableParallelism()
): string | undefined =>
  loadAverage > 1.5 * cores ? `load average ${loadAverage.toFixed(1)} on ${cores} cores` : undefined

/** A row's verdict against its target: "met", "MISSED", or why it is not judged. */
const verdict = (row: Row, ratio: number): string => {
  const unjudged = SMOKE_NOTE ?? row.unjudged
  return unjudged !== undefined ? `not judged, ${unjudged}` : ratio <= row.target! ? "met" : "MISSED"
}

/** A verdict on a figure that is not a ratio (an F score, an absolute time): none in a smoke run. */
export const judge = (met: boolean): string => SMOKE_NOTE !== undefined ? "not judged" : met ? "met" : "MISSED"

export const rows: Array<Row> = []

/**
 * A ratio as printed: two decimals, three where two would read as the target itself (1.503x
 * against 1.5x reads "1.50x MISSED" otherwise).
 */
const ratioText = (ratio: number, target: number | undefined): string =>
  target !== undefined && ratio.toFixed(2) === target.toFixed(2) ? ratio.toFixed(3) : ratio.toFixed(2)

/** A row's floor, as printed: the floor's own ratio to the baseline, and the row's to the floor. */
const floorText = (row: Row): string =>
  row.floor === undefined
    ? ""
    : `; ${row.floor.name} ${row.floor.ms.toFixed(1)} ms = ${
      (row.floor.ms / row.baselineMs).toFixed(2)
    }x ${row.baseline}, ${(row.ms / row.floor.ms).toFixed(2)}x the floor (${
      (row.ms - row.floor.ms).toFixed(1)
    } ms above it)`

export const record = (row: Row) => {
  // A count of zero samples (or a sample that is not one) reads as NaN: a broken suite, not a figure.
  for (const [field, value] of [["ms", row.ms], ["baselineMs", row.baselineMs], ["ratio", row.ratio ?? 0]] as const) {
    if (!Number.isFinite(value)) throw new Error(`bench row '${row.name}': ${field} is ${value}`)
  }
  rows.push(row)
  const ratio = ratioOf(row)
  const target = row.target === undefined
    ? ""
    : ` (target <= ${row.target}x: ${verdict(row, ratio)})`
  console.log(
    `  ${row.name}: ${row.ms.toFixed(1)} ms vs ${row.baseline} ${row.baselineMs.toFixed(1)} ms = ${
      ratioText(ratio, row.target)
    }x${row.ratio === undefined ? "" : " (median of paired ratios)"}${target}${floorText(row)}${
      row.note ? ` — ${row.note}` : ""
    }`
  )
}

/** The table of every row; with two columns more (the floor's ms, the row's ratio to it) when a row has a floor. */
export const printTable = () => {
  if (SMOKE_NOTE !== undefined) {
    console.log(
      `\n${SMOKE_NOTE}: each row one sample or a few, no warm-up; the ratios mean nothing, no target is judged.`
    )
  }
  const floors = rows.some((r) => r.floor !== undefined)
  console.log(
    `\n| benchmark | median ms | baseline | baseline ms | ratio | target |${floors ? " floor ms | × floor |" : ""}`
  )
  console.log(`| --- | ---: | --- | ---: | ---: | ---: |${floors ? " ---: | ---: |" : ""}`)
  for (const r of rows) {
    const ratio = ratioOf(r)
    const floor = !floors ? "" : r.floor === undefined
      ? "  |  |"
      : ` ${r.floor.ms.toFixed(1)} | ${(r.ms / r.floor.ms).toFixed(2)}x |`
    console.log(
      `| ${r.name} | ${r.ms.toFixed(1)} | ${r.baseline} | ${r.baselineMs.toFixed(1)} | ${
        ratioText(ratio, r.target)
      }x | ${r.target === undefined ? "" : `<= ${r.target}x ${verdict(r, ratio)}`} |${floor}`
    )
  }
}
