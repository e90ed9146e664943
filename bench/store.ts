/**
 * Benchmarks of the shared store (PostgreSQL, issue 26), on a throwaway cluster of their own
 * (test/support/postgres.ts: `initdb` into a temporary folder, fsync off) or a database made on
 * `DOSSIER_TEST_PG`'s server; without either the suite prints one line and records nothing.
 *
 * 1. A journal append of 10 events through the library (`DossierPostgres`, the `Journal`
 *    service: the command's transaction and advisory lock, the insert; the view only for a
 *    study the process does not remember) against a raw `INSERT` of the same rows — the columns
 *    and values the adapter writes, computed beforehand — through the same driver in one
 *    transaction (BEGIN, INSERT, COMMIT), the INSERT a prepared statement as the library's is,
 *    interleaved round by round (the ratio the median of the rounds' ratios, after a warm-up;
 *    the process's first rounds a row apart); and the library's own statements sent raw as it
 *    sends them (a long-lived process: the adapter remembers the study's head; the three in one round trip,
 *    the driver in pipeline mode), which splits the round trips from the library's work in the
 *    process; and the journal's own work on the batch with those statements in one Effect and
 *    nothing of the library around them, the least an append in Effect costs here; and the raw
 *    `INSERT`'s three statements pipelined the same way, the least the driver can do.
 * 2. `plan checkpoint` in a fresh CLI process, in a folder bound to a shared dossier (its
 *    transaction, then the refresh of the folder's view) against the same in a plain folder; and
 *    `plan inspect` the same way (no write, no refresh), which splits what the binding costs.
 * 3. 8 writer processes appending 1,000 events each (100 batches of 10, through the library; a
 *    study each, one dossier) at once, against one writer appending 1,000 (before and after the
 *    8): the throughput of the 8 over the one's, then the stored rows are counted — none lost,
 *    none twice — or the suite throws.
 *
 * Over 400 lines: the three measurements share the cluster, the dossier and the batches they
 * write, and the rows of 1 are each a side of one interleaved loop.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ManagedRuntime from "effect/ManagedRuntime"
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import * as Pg from "pg"
import type { JournalEvent } from "../src/domain/Journal.js"
import { entryOf, entryText } from "../src/domain/JournalAppend.js"
import { decodeBatch } from "../src/domain/JournalRules.js"
import { DossierPostgres } from "../src/layers/DossierPostgres.js"
import { CLOSING_EVENTS } from "../src/layers/postgres/JournalStorePostgres.js"
import { Journal } from "../src/services/Journal.js"
import {
  CLI,
  counts,
  loadedMachine,
  median,
  pairedRatio,
  record,
  sampleAsyncAlternating,
  tempDir,
  timeSyncAlternating,
  writeJson
} from "./support.js"

type PgSupport = typeof import("../test/support/postgres.js")

/** The cluster helpers, without the note they print for a test file when no server can be had. */
const loadPgSupport = async (): Promise<PgSupport> => {
  const warn = console.warn
  console.warn = () => {}
  try {
    return await import("../test/support/postgres.js")
  } finally {
    console.warn = warn
  }
}

const evaluation = (id: string, i: number): JournalEvent => ({
  id,
  type: "evaluation_recorded",
  at: "2026-12-02T10:00:00.000Z",
  candidateId: "cand-a",
  evaluation: {
    evaluatorVersion: "ev-1",
    metrics: { accuracy: 0.5 + (i % 1000) / 10_000, loss: 1 / (i + 1) },
    decision: i % 2 === 0 ? "accept" : "inconclusive"
  }
})
const created = (id: string): JournalEvent => ({
  id,
  type: "candidate_created",
  candidate: { id: "cand-a", title: "baseline", protocolVersion: "p1" }
})

const cli = (args: ReadonlyArray<string>) => {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8" })
  if (r.status !== 0) throw new Error(`dossier ${args.join(" ")} exited ${r.status}: ${r.stdout}${r.stderr}`)
  return r.stdout
}

/** 1. One 10-event append through the library against a raw INSERT of the same rows. */
const appendRow = async (url: string) => {
  const dossier = "bench-append"
  const workdir = tempDir("dossier-bench-store-")
  const runtime = ManagedRuntime.make(DossierPostgres({ url, dossier, workdir }))
  const client = new Pg.Client({ connectionString: url })
  // The same driver in pipeline mode, as the library's pool runs it: each query sent at once.
  const piped = new Pg.Client({ connectionString: url, pipeline: true })
  try {
    const journal = await runtime.runPromise(Journal)
    await client.connect()
    await piped.connect()
    const BATCH = 10
    // The batches the library's and the least side's callers hand over, made before the timing as
    // the raw sides' rows are: building a caller's objects is not the append's work.
    const batchesFor = (stream: string, rounds: number) => {
      let i = 0
      return Array.from(
        { length: rounds },
        () => Array.from({ length: BATCH }, () => evaluation(`${stream}-${i}`, i++))
      )
    }
    let libBatches: Array<Array<JournalEvent>> = []
    let n = 0
    await runtime.runPromise(journal.append("lib", created("lib-c")))
    const library = async () => {
      const batch = libBatches[n++]!
      const r = await runtime.runPromise(journal.append("lib", batch))
      if (r.appended.length !== BATCH) throw new Error(`the library appended ${r.appended.length} of ${BATCH}`)
    }
    // The raw sides' rows, as the adapter writes them (log `journal`, the next positions, the
    // event's canonical text and its SHA-256), made before the timing: the driver's work only.
    const positions = new Map<string, number>()
    const rowsFor = (stream: string) => (): Array<unknown> => {
      const values: Array<unknown> = [dossier, stream]
      let position = positions.get(stream) ?? 0
      for (let i = 0; i < BATCH; i++) {
        const entry = entryOf(evaluation(`${stream}-${position}`, position))
        values.push(++position, entry.id, entry.digest, entryText(entry))
      }
      positions.set(stream, position)
      return values
    }
    const insert = `INSERT INTO dossier.events (dossier, log, stream, position, id, digest, event) VALUES ${
      Array.from({ length: BATCH }, (_, i) =>
        `($1, 'journal', $2, $${i * 4 + 3}, $${i * 4 + 4}, $${i * 4 + 5}, $${i * 4 + 6})`)
        .join(", ")
    }`
    const inTransaction = async (work: () => Promise<void>) => {
      await client.query("BEGIN")
      try {
        await work()
        await client.query("COMMIT")
      } catch (e) {
        await client.query("ROLLBACK")
        throw e
      }
    }
    /**
     * The library's statements for one append: its transaction begun with the dossier's lock, its
     * insert after the head it remembers (the adapter's own text, `CLOSING_EVENTS`, prepared: every
     * row in, else it fails and the COMMIT sent behind it is a rollback), and COMMIT.
     */
    const BEGIN_LOCKED = `BEGIN; SELECT pg_advisory_xact_lock(hashtextextended('dossier:${dossier}', 0))`
    /**
     * The raw INSERT as a prepared statement, as the library's insert is (parsed and planned once
     * per connection): the same driver settings on both sides, so that the baseline does not pay
     * for planning a 40-parameter statement that the library's side plans once.
     */
    const rawInsert = (values: Array<unknown>) => ({ name: "bench-raw-insert", text: insert, values })
    /** The baseline: BEGIN, INSERT, COMMIT. */
    const raw = (values: Array<unknown>) => inTransaction(async () => void (await client.query(rawInsert(values))))
    /** The baseline's three statements sent at once (pipeline mode), their answers awaited together. */
    const rawPiped = async (values: Array<unknown>) => {
      const answers = [piped.query("BEGIN"), piped.query(rawInsert(values)), piped.query("COMMIT")]
      const settled = await Promise.allSettled(answers)
      const failed = settled.find((r) => r.status === "rejected")
      if (failed !== undefined) throw (failed as PromiseRejectedResult).reason
    }
    /**
     * The library's three statements for one append, sent at once on the pipelining client; the
     * insert's answer (its rows, else its failure: the COMMIT behind it was a rollback) and the
     * COMMIT's (its tag).
     */
    const sendAppend = async (stream: string, rows: ReadonlyArray<unknown>) => {
      const answers = [
        piped.query(BEGIN_LOCKED),
        // A prepared statement, as the library's.
        piped.query({
          name: "bench-closing-insert",
          text: CLOSING_EVENTS,
          values: [dossier, "journal", stream, JSON.stringify(rows)]
        }),
        piped.query("COMMIT")
      ] as const
      const settled = await Promise.allSettled(answers)
      const failed = settled.find((r) => r.status === "rejected")
      if (failed !== undefined) throw (failed as PromiseRejectedResult).reason
      const commit = (settled[2] as PromiseFulfilledResult<{ command?: string }>).value
      if (commit.command !== "COMMIT") throw new Error(`COMMIT answered ${commit.command}`)
    }
    /**
     * Not a target, the cause's measure: the statements the library sends for one append of a
     * long-lived process (the command's transaction begun with the dossier's lock in one simple
     * query, the adapter's insert after the head it remembers, COMMIT: one round trip), sent raw
     * — what is left between this and the library is the library's own work in this process.
     */
    const statements = (values: Array<unknown>) => {
      const rows = []
      for (let i = 2; i < values.length; i += 4) {
        rows.push({ position: values[i], id: values[i + 1], digest: values[i + 2], event: values[i + 3] })
      }
      return sendAppend("stmts", rows)
    }
    /**
     * Not a target either: the least an append through Effect costs here. The journal's own work
     * on the batch as the library does it (decoding it, each event's canonical text and SHA-256)
     * and the same three statements, each an Effect of this client's query, run by
     * `Effect.runPromise` — without the library's layers around them (the service's span, the
     * command's fiber, deadline and pooled connection, the adapter's view and checks).
     */
    let leastAt = 0
    const leastAppend = (input: unknown) =>
      Effect.suspend(() => {
        const decoded = decodeBatch(input)
        if (Either.isLeft(decoded)) return Effect.fail(decoded.left)
        const rows = decoded.right.map(entryOf).map((e) => ({
          position: ++leastAt,
          id: e.id,
          digest: e.digest,
          event: entryText(e)
        }))
        return Effect.as(Effect.tryPromise({ try: () => sendAppend("least", rows), catch: (e) => e }), rows.length)
      })
    let leastBatches: Array<Array<JournalEvent>> = []
    let m = 0
    const least = async () => {
      await Effect.runPromise(leastAppend(leastBatches[m++]!))
    }
    // The process's first appends (after a few) pay for code V8 has not optimized yet, the
    // library's far more than the raw side's (its CPU per append falls by half over the first
    // ~750 appends, then slowly): timed apart, then the rounds after that warm-up.
    const { cold: COLD, coldWarmup: COLD_WARMUP, runs: RUNS, warmup: WARMUP } = counts.store
    const ROUNDS = COLD_WARMUP + COLD + WARMUP + RUNS
    const rawRows = Array.from({ length: ROUNDS }, rowsFor("raw"))
    const pipedRows = Array.from({ length: ROUNDS }, rowsFor("piped"))
    const stmtRows = Array.from({ length: ROUNDS }, rowsFor("stmts"))
    libBatches = batchesFor("lib", ROUNDS)
    leastBatches = batchesFor("least", ROUNDS)
    let k = 0
    let p = 0
    let j = 0
    const sides = [
      library,
      () => raw(rawRows[k++]!),
      () => statements(stmtRows[j++]!),
      least,
      () => rawPiped(pipedRows[p++]!)
    ] as const
    const [coldLib, coldRaw] = await sampleAsyncAlternating(COLD, sides, COLD_WARMUP)
    const [libs, raws, stmts, leasts, pipeds] = await sampleAsyncAlternating(RUNS, sides, WARMUP)
    const [libMs, rawMs, stmtMs, leastMs, pipedMs] = [libs, raws, stmts, leasts, pipeds].map(median) as [
      number,
      number,
      number,
      number,
      number
    ]
    const stored = await client.query<{ stream: string; n: number }>(
      "SELECT stream, count(*)::int AS n FROM dossier.events WHERE dossier = $1 AND log = 'journal' GROUP BY stream",
      [dossier]
    )
    const count = new Map(stored.rows.map((r) => [r.stream, r.n]))
    const expected = ROUNDS * BATCH
    if (
      count.get("lib") !== 1 + expected || count.get("raw") !== expected || count.get("stmts") !== expected ||
      count.get("least") !== expected || count.get("piped") !== expected
    ) {
      throw new Error(
        `stored ${JSON.stringify(stored.rows)}, expected lib ${1 + expected}, raw, piped, stmts and least ${expected}`
      )
    }
    record({
      name: "journal append (10 events), PostgreSQL layer",
      ms: libMs,
      baseline: "raw INSERT of the same rows (BEGIN, INSERT, COMMIT)",
      baselineMs: rawMs,
      target: 1.5,
      ratio: pairedRatio(libs, raws),
      // Under other work a round trip costs several times its quiet price, and the ratio reads
      // under the target for that reason alone.
      unjudged: loadedMachine(),
      note: `same pg driver and server; ${RUNS} rounds after ${
        COLD_WARMUP + COLD + WARMUP
      }, each side once a round, the order reversed every other round`
    })
    record({
      name: "journal append (10 events), PostgreSQL layer, the process's first appends",
      ms: median(coldLib),
      baseline: "raw INSERT of the same rows (BEGIN, INSERT, COMMIT)",
      baselineMs: median(coldRaw),
      ratio: pairedRatio(coldLib, coldRaw),
      note: `rounds ${COLD_WARMUP + 1} to ${COLD_WARMUP + COLD} of the process: code not yet optimized`
    })
    record({
      name: "journal append (10 events), PostgreSQL layer, against the raw INSERT pipelined",
      ms: libMs,
      baseline: "raw INSERT of the same rows, BEGIN, INSERT, COMMIT sent at once",
      baselineMs: pipedMs,
      ratio: pairedRatio(libs, pipeds),
      note: "the least the driver can do: one round trip, as the library's append"
    })
    record({
      name: "journal append (10 events), the library's 3 statements sent raw",
      ms: stmtMs,
      baseline: "raw INSERT of the same rows (BEGIN, INSERT, COMMIT)",
      baselineMs: rawMs,
      ratio: pairedRatio(stmts, raws),
      note: `round trips alone, sent at once as the library does (the library: ${
        pairedRatio(libs, stmts).toFixed(2)
      }x these)`
    })
    record({
      name: "journal append (10 events), the journal's own work and the 3 statements in one Effect",
      ms: leastMs,
      baseline: "raw INSERT of the same rows (BEGIN, INSERT, COMMIT)",
      baselineMs: rawMs,
      ratio: pairedRatio(leasts, raws),
      note: `no layer of the library around them (the library: ${pairedRatio(libs, leasts).toFixed(2)}x this)`
    })
  } finally {
    await client.end().catch(() => undefined)
    await piped.end().catch(() => undefined)
    await runtime.dispose()
    fs.rmSync(workdir, { recursive: true, force: true })
  }
}

/** 2. `plan checkpoint` in a fresh CLI process: a bound folder against a plain one. */
const checkpointRow = (url: string) => {
  const bound = tempDir("dossier-bench-store-bound-")
  const plain = tempDir("dossier-bench-store-plain-")
  try {
    cli(["init", "--store", url, "--dossier", "bench-cli", "--workdir", bound, "--json"])
    const revisions = new Map<string, number>()
    for (const dir of [bound, plain]) {
      const input = writeJson(dir, "research/inputs/start.json", { goal: "g", limits: [], nextAction: "n" })
      cli(["plan", "start", "--workdir", dir, "--input", input, "--json"])
      revisions.set(dir, 1)
    }
    const checkpoint = (dir: string) => () => {
      const r = revisions.get(dir)!
      const input = writeJson(dir, `research/inputs/cp-${r}.json`, { nextAction: `step ${r}` })
      const out = JSON.parse(
        cli(["plan", "checkpoint", "--workdir", dir, "--input", input, "--expected", String(r), "--json"])
      ) as { ok: boolean; revision: number }
      if (out.revision !== r + 1) throw new Error(`checkpoint answered ${JSON.stringify(out)}`)
      revisions.set(dir, r + 1)
    }
    // The row sits near its target and one run of a fresh CLI moves by ±10%: enough runs for a
    // median that moves less than the margin it is judged by.
    const RUNS = counts.store.checkpointRuns
    const [boundMs, plainMs] = timeSyncAlternating(
      RUNS,
      [checkpoint(bound), checkpoint(plain)],
      counts.store.checkpointWarmup
    )
    const view = fs.readFileSync(path.join(bound, "plan.md"), "utf8")
    if (!view.includes(`step ${revisions.get(bound)! - 1}`)) {
      throw new Error("the bound folder's plan.md was not refreshed")
    }
    record({
      name: "plan checkpoint, fresh CLI, bound folder",
      ms: boundMs,
      baseline: "the same in a plain folder",
      baselineMs: plainMs,
      target: 1.5,
      unjudged: loadedMachine(),
      note: `the bound one connects, commits, then refreshes the folder's view; interleaved, ${RUNS} runs each`
    })
    // Not a target, the cause's measure: a read-only command writes nothing and refreshes nothing,
    // so what a bound `plan inspect` adds is loading the store's code and connecting.
    const inspect = (dir: string) => () => {
      const out = JSON.parse(cli(["plan", "inspect", "--workdir", dir, "--json"])) as { revision: number }
      if (out.revision !== revisions.get(dir)) throw new Error(`inspect answered ${JSON.stringify(out)}`)
    }
    const INSPECTS = counts.store.inspectRuns
    const [boundInspect, plainInspect] = timeSyncAlternating(
      INSPECTS,
      [inspect(bound), inspect(plain)],
      counts.store.inspectWarmup
    )
    record({
      name: "plan inspect, fresh CLI, bound folder",
      ms: boundInspect,
      baseline: "the same in a plain folder",
      baselineMs: plainInspect,
      note: `no write, no refresh: loading the store's code and connecting; interleaved, ${INSPECTS} runs each`
    })
  } finally {
    fs.rmSync(bound, { recursive: true, force: true })
    fs.rmSync(plain, { recursive: true, force: true })
  }
}

interface WriterAnswer {
  readonly appended: number
  readonly skipped: number
  readonly retries: number
}

/**
 * Start `writers` writer processes, wait until each has connected, start them all at once;
 * the wall time from the start to the last one's answer, and the answers.
 */
const runWriters = async (
  worker: string,
  job: { url: string; dossier: string; workdir: string; study: string; events: number; batch: number },
  writers: number
): Promise<{ ms: number; answers: Array<WriterAnswer> }> => {
  const children = Array.from(
    { length: writers },
    (_, writer) =>
      spawn(process.execPath, [worker, JSON.stringify({ ...job, writer })], { stdio: ["pipe", "pipe", "pipe"] })
  )
  const ready: Array<Promise<void>> = []
  const done = children.map((child, i) =>
    new Promise<WriterAnswer>((resolve, reject) => {
      let out = ""
      let err = ""
      let readyResolve: () => void = () => undefined
      ready.push(new Promise<void>((r) => (readyResolve = r)))
      child.stdout.on("data", (d) => {
        out += d
        if (out.startsWith("ready\n")) readyResolve()
      })
      child.stderr.on("data", (d) => (err += d))
      child.on("close", (code) => {
        readyResolve()
        const last = out.trim().split("\n").pop()!
        if (code !== 0) reject(new Error(`writer ${i} exited ${code}: ${err}${out}`))
        else resolve(JSON.parse(last) as WriterAnswer)
      })
    })
  )
  await Promise.all(ready)
  const started = process.hrtime.bigint()
  for (const child of children) child.stdin.end("go\n")
  const answers = await Promise.all(done)
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, answers }
}

/** 3. 8 writers × 1,000 events against one writer × 1,000; then none lost, none twice. */
const writersRow = async (url: string) => {
  const dir = tempDir("dossier-bench-store-writers-")
  try {
    const worker = path.join(dir, "storeWriter.mjs")
    // The esbuild CLI (its JS API cannot run from inside this bundle).
    const built = spawnSync(path.resolve("node_modules/.bin/esbuild"), [
      path.resolve("bench/storeWriter.ts"),
      `--outfile=${worker}`,
      "--bundle",
      "--format=esm",
      "--platform=node",
      "--target=node20",
      "--external:pg-native",
      "--banner:js=import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
      "--log-level=warning"
    ], { encoding: "utf8" })
    if (built.status !== 0) throw new Error(`bundling the writer failed: ${built.stderr}`)
    const EVENTS = counts.store.writerEvents
    const WRITERS = counts.store.writers
    const dossier = "bench-writers"
    const job = { url, dossier, workdir: dir, events: EVENTS, batch: 10 }
    const client = new Pg.Client({ connectionString: url })
    await client.connect()
    try {
      // One writer before the 8 and one after (the load of this machine drifts); each writer has
      // a study of its own, so that every study ends at 1,000 events: what the 8 share is the
      // dossier (its lock: writers of one dossier take turns) and the server.
      const before = await runWriters(worker, { ...job, study: "one-a" }, 1)
      const all = await runWriters(worker, { ...job, study: "many" }, WRITERS)
      const after = await runWriters(worker, { ...job, study: "one-b" }, 1)
      const { rows } = await client.query<{ stream: string; n: number; ids: number; last: number }>(
        `SELECT stream, count(*)::int AS n, count(DISTINCT id)::int AS ids, max(position)::int AS last
         FROM dossier.events WHERE dossier = $1 AND log = 'journal' AND stream LIKE 'many-w%' GROUP BY stream`,
        [dossier]
      )
      let lost = 0
      let duplicated = 0
      for (let w = 0; w < WRITERS; w++) {
        const r = rows.find((x) => x.stream === `many-w${w}`) ?? { n: 0, ids: 0, last: 0 }
        const mine = await client.query<{ n: number }>(
          "SELECT count(DISTINCT id)::int AS n FROM dossier.events WHERE dossier = $1 AND log = 'journal' AND stream = $2 AND id = ANY($3::text[])",
          [dossier, `many-w${w}`, Array.from({ length: EVENTS }, (_, k) => `many-w${w}-${k}`)]
        )
        lost += EVENTS - mine.rows[0]!.n
        duplicated += r.n - r.ids + (r.last - r.n)
      }
      const stored = rows.reduce((s, r) => s + r.n, 0)
      const answered = all.answers.reduce((s, a) => s + a.appended, 0)
      const retries = all.answers.reduce((s, a) => s + a.retries, 0)
      const check =
        `${lost} lost, ${duplicated} duplicated (${stored} rows in ${rows.length} studies, ${answered} answered appended, ${retries} retries)`
      if (lost !== 0 || duplicated !== 0 || stored !== WRITERS * EVENTS || answered !== WRITERS * EVENTS) {
        throw new Error(`${WRITERS} writers: ${check}`)
      }
      // Each writer's events: 1,000 as measured (bench/support.ts `counts`).
      const each = EVENTS.toLocaleString("en")
      const manyPer1k = all.ms / WRITERS
      const onePer1k = (before.ms + after.ms) / 2
      record({
        name: `${WRITERS} writers x ${each} events, ms per ${each} events`,
        ms: manyPer1k,
        baseline: `one writer x ${each} events`,
        baselineMs: onePer1k,
        note: `throughput ${(onePer1k / manyPer1k).toFixed(2)}x one writer's (${
          (EVENTS * 1000 / manyPer1k).toFixed(0)
        } vs ${
          (EVENTS * 1000 / onePer1k).toFixed(0)
        } events/s); ${check}; batches of 10 through the library, one study each, start signal to last answer`
      })
    } finally {
      await client.end().catch(() => undefined)
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

export const benchStore = async (): Promise<void> => {
  const pg = await loadPgSupport()
  if (!pg.pgAvailable) {
    console.log("  store: skipped (no PostgreSQL server binaries and no DOSSIER_TEST_PG)")
    return
  }
  const db = await pg.openTestDatabase()
  try {
    await appendRow(db.url)
    checkpointRow(db.url)
    await writersRow(db.url)
  } finally {
    await db.close()
  }
}
