/**
 * Every read-only command of the command table (its MCP tool's `readOnlyHint`), in a folder bound
 * with a role that may only SELECT (and may not make a temporary table), through the built CLI
 * with --json and through `dossier mcp` (and `dossier mcp --read-only`), against the test's own
 * throwaway cluster: each answers, and the server's log of that role's statements holds reads
 * only — no write, no `SET`, no advisory lock, no migration. The table is walked, so a read-only
 * command added later without a case here fails this test. `dossier mcp --read-only` connects as
 * a reader; in a folder bound to a dossier the store does not hold it refuses to start
 * (`BindingRefused no-dossier`) and creates nothing.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { TOOL_HINTS } from "../../src/commands/ToolHints.js"
import { sandboxWorks } from "../exec/support.js"
import { connect } from "../mcp/support.js"
import { put, putInput, runCli, tempWorkdir } from "../support/cli.js"
import { adminQuery, pgAvailable, useTestDatabase } from "../support/postgres.js"
import { NOW, ok, populated } from "./support/populated.js"

/** The answers a read may give in a dossier that lacks the record it names. */
const NOT_FOUND = ["StudyNotFound", "SubscriptionNotFound", "RunNotFound", "GrantNotFound", "ExecutionNotFound"]

const READ_ONLY_TOOLS = Object.entries(TOOL_HINTS).filter(([, h]) => h.readOnly).map(([name]) => name).sort()

/** The statements the server logged, each whole (a statement's later lines begin with a tab). */
const loggedStatements = (log: string): Array<string> => {
  const statements: Array<string> = []
  for (const line of log.split("\n")) {
    const m = /LOG: {2}(?:statement|execute [^:]*): (.*)$/.exec(line)
    if (m !== null) statements.push(m[1]!)
    else if (line.startsWith("\t") && statements.length > 0) statements[statements.length - 1] += `\n${line}`
  }
  return statements
}

const READ_STATEMENT = /^(SELECT|BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY|COMMIT|ROLLBACK)\b/
const WRITE_WORDS = /\b(INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|LOCK|SET|TEMP|TEMPORARY|pg_advisory\w*)\b/i

describe.skipIf(!pgAvailable)("read-only commands under a role that may only SELECT", () => {
  const db = useTestDatabase()

  it("every read-only command of the table, CLI and MCP, sends reads only", async () => {
    // A dossier holding a plan, captures, journals, a monitor subscription and run, a grant and a run.
    const a = await populated()
    ok(runCli(["init", "--store", db.url, "--dossier", "ro", "--workdir", a, "--json"]))
    put(a, "research/exp/data/train.csv", "a,b\n1,2\n")
    ok(runCli([
      "grant",
      "create",
      "--input",
      putInput(a, "g.json", {
        id: "g1",
        task: "task",
        inputs: ["research/exp/data"],
        work: "research/exp/runs/r1",
        protected: [],
        tools: ["read", "bash"],
        budget: { runs: 5, wallSeconds: 60, cpuSeconds: 60, memoryMiB: 256, outputMiB: 4 },
        deadline: "2030-01-01T00:00:00Z"
      }),
      "--now",
      NOW,
      "--workdir",
      a,
      "--json"
    ]))
    const execution = sandboxWorks
      ? ok(runCli(["exec", "--grant", "g1", "--workdir", a, "--json", "--", "/bin/sh", "-c", "echo out"])).execution
        .id as string
      : "x-20261208T100000-00000000"
    const listed = ok(runCli(["monitor", "list", "--workdir", a, "--json"]))
    const subscription = listed.subscriptions[0].id as string
    const run = listed.runs[0].id as string

    const role = `reader_${db.name}`.slice(0, 60)
    await adminQuery(db.url, `CREATE ROLE ${role} LOGIN`)
    await adminQuery(db.url, `GRANT USAGE ON SCHEMA dossier TO ${role}`)
    await adminQuery(db.url, `GRANT SELECT ON ALL TABLES IN SCHEMA dossier TO ${role}`)
    await adminQuery(db.url, `REVOKE TEMPORARY ON DATABASE ${db.name} FROM PUBLIC`)
    // The server logs every statement of this role (its own cluster only: a superuser's setting).
    const logged = db.cluster?.dir ?? null
    if (logged !== null) await adminQuery(db.url, `ALTER ROLE ${role} SET log_statement = 'all'`)
    const url = new URL(db.url)
    url.username = role
    const boundAs = (dossier: string) => {
      const dir = tempWorkdir("dossier-readonly-")
      put(dir, ".dossier/store.json", JSON.stringify({ kind: "postgres", url: url.toString(), dossier }))
      put(
        dir,
        "run/state.json",
        JSON.stringify({
          item: "PROJ-12",
          autopilot: true,
          status: "parked",
          waitingFor: "maturity",
          maturity: { score: 40, threshold: 70, blockers: [] },
          analysis: { openQuestions: [] }
        })
      )
      put(
        dir,
        "run/fresh.json",
        JSON.stringify({ item: "PROJ-12", description: "A CSV export.", comments: [], links: [] })
      )
      return dir
    }

    // One call per read-only tool: the command line and the tool's arguments.
    const QUOTE = "The page says X beats Y on long inputs"
    const reads: Record<string, { readonly cli: ReadonlyArray<string>; readonly tool: Record<string, unknown> }> = {
      status: { cli: ["status"], tool: {} },
      plan_inspect: { cli: ["plan", "inspect"], tool: {} },
      journal_list: { cli: ["journal", "list"], tool: {} },
      journal_inspect: { cli: ["journal", "inspect", "--study", "s", "--verify"], tool: { study: "s", verify: true } },
      gate_recheck: {
        cli: ["gate", "--state", "run/state.json", "--recheck", "--descriptor", "run/fresh.json"],
        tool: { state: "run/state.json", descriptor: "run/fresh.json" }
      },
      monitor_due: { cli: ["monitor", "due", "--now", NOW], tool: { now: NOW } },
      monitor_list: { cli: ["monitor", "list"], tool: {} },
      monitor_unresolved_outcomes: { cli: ["monitor", "unresolved-outcomes"], tool: {} },
      monitor_show: { cli: ["monitor", "show", "--run", run], tool: { run } },
      next: { cli: ["next", "--now", NOW], tool: { now: NOW } },
      source_follow: { cli: ["source", "follow", "--quote", QUOTE], tool: { quote: QUOTE } },
      grant_show: { cli: ["grant", "show", "--grant", "g1", "--now", NOW], tool: { grant: "g1", now: NOW } },
      grant_list: { cli: ["grant", "list"], tool: {} },
      exec_show: { cli: ["exec", "show", "--execution", execution], tool: { execution } },
      store_status: { cli: ["store", "status"], tool: {} },
      schema: { cli: ["schema", "errors"], tool: { name: "errors" } }
    }
    // A read-only command added to the table without a case here fails until it is walked too.
    expect(Object.keys(reads).sort()).toEqual(READ_ONLY_TOOLS)
    const subscriptionShown = { cli: ["monitor", "show", "--subscription", subscription], tool: { subscription } }

    /** Each read answers (in a dossier that lacks the record, its NotFound refusal), CLI and MCP. */
    const walk = async (dir: string, held: boolean, servers: ReadonlyArray<ReadonlyArray<string>>) => {
      // Without a working sandbox there is no execution to show: its read is of one the dossier lacks.
      const answers = (tag: string | undefined, what: string, name: string) =>
        expect(
          held && (sandboxWorks || name !== "exec_show") ? tag : NOT_FOUND.includes(tag ?? "") ? undefined : tag,
          what
        ).toBeUndefined()
      for (const [name, c] of [...Object.entries(reads), ["monitor_show", subscriptionShown] as const]) {
        const args = name === "schema" ? c.cli : [...c.cli, "--workdir", dir]
        const r = runCli([...args, "--json"])
        answers(
          r.json?.ok === true ? undefined : r.json?.error?._tag ?? "no answer",
          `${c.cli.join(" ")}: ${r.stdout}${r.stderr}`,
          name
        )
      }
      for (const flags of servers) {
        const server = await connect(dir, {}, flags)
        try {
          for (const [name, c] of [...Object.entries(reads), ["monitor_show", subscriptionShown] as const]) {
            const call = await server.call(name, c.tool)
            answers(
              call.isError ? call.body?.error?._tag ?? "no answer" : undefined,
              `${flags.join(" ")} ${name}: ${call.text}`,
              name
            )
          }
        } finally {
          await server.client.close()
        }
      }
    }
    await walk(boundAs("ro"), true, [[], ["--read-only"]])
    // A dossier the store does not hold: the reading server refuses to start (`BindingRefused
    // no-dossier`, as every bound command: test/store/bound.nodossier.test.ts) and creates nothing.
    const notYet = runCli(["mcp", "--read-only", "--workdir", boundAs("not-yet")], { input: "" })
    expect({ code: notYet.code, refused: /BindingRefused[\s\S]*no-dossier/.test(notYet.stderr) }, notYet.stderr)
      .toEqual({ code: 1, refused: true })
    expect((await adminQuery(db.url, "SELECT count(*)::int AS n FROM dossier.dossiers WHERE name = 'not-yet'")).rows)
      .toEqual([{ n: 0 }])

    if (logged !== null) {
      const log = fs.readFileSync(path.join(logged, "server.log"), "utf8")
      const statements = loggedStatements(log)
      expect(statements.length).toBeGreaterThan(0)
      expect(statements.filter((s) => !READ_STATEMENT.test(s) || WRITE_WORDS.test(s.replace(/^BEGIN[^\n]*/, ""))))
        .toEqual([])
      expect(log).not.toMatch(/permission denied|read-only transaction/)
    }
  }, 300_000)
})
