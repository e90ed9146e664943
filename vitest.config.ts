import { configDefaults, defineConfig } from "vitest/config"

/**
 * The files that run in the test process alone: no child process (no CLI, no sandbox, no
 * PostgreSQL, no MCP server), no worker thread, no signal handler, no change to the environment,
 * the time zone or the working directory, no mocks, no tally kept from one file to the next (the
 * model harness's). They share their workers, one file after another: effect and the modules
 * they import load once per worker, not once per file (docs/testing.md). Their set-up
 * (test/support/inProcessGuard.ts) fails a file here that starts a process or a worker, handles
 * a signal, changes directory or leaves the environment changed.
 */
const inProcess = [
  "test/agents/SourceFollow.property.test.ts",
  "test/agents/SourceFollow-linear.test.ts",
  "test/bench/wcxb.test.ts",
  "test/cli/boundProbe.test.ts",
  "test/cli/emptyValues.walk.test.ts",
  "test/cli/flatBuild.test.ts",
  "test/cli/tiering.test.ts",
  "test/exec/GrantStore.conformance.test.ts",
  "test/exec/cpu-record.test.ts",
  "test/exec/domain.test.ts",
  "test/exec/protection.property.test.ts",
  "test/foundation/Canonical.test.ts",
  "test/foundation/FileStore.writeRetainedMany.test.ts",
  "test/foundation/MarkdownText.test.ts",
  "test/foundation/Ownership.property.test.ts",
  "test/foundation/Paths.property.test.ts",
  "test/foundation/Quote.property.test.ts",
  "test/foundation/VisibleText.property.test.ts",
  "test/foundation/arguments.test.ts",
  "test/foundation/boundary.interleave.test.ts",
  "test/foundation/boundary.kept.test.ts",
  "test/foundation/clip.test.ts",
  "test/foundation/clock.test.ts",
  "test/foundation/decodeKinds.test.ts",
  "test/foundation/decodeLazy.test.ts",
  "test/foundation/errorMessages.test.ts",
  "test/foundation/fileLength.test.ts",
  "test/foundation/inProcess.test.ts",
  "test/foundation/layout.test.ts",
  "test/foundation/spans.test.ts",
  "test/gate/domain.test.ts",
  "test/gate/service.test.ts",
  "test/hostile/services.property.test.ts",
  "test/ingest/CaptureStore.conformance.test.ts",
  "test/ingest/content.test.ts",
  "test/ingest/docs.test.ts",
  "test/ingest/empty-body.test.ts",
  "test/ingest/fetch.test.ts",
  "test/ingest/interim.test.ts",
  "test/ingest/policy.test.ts",
  "test/ingest/readable-articles.test.ts",
  "test/ingest/readable-cards.test.ts",
  "test/ingest/readable-consent.test.ts",
  "test/ingest/readable-content.test.ts",
  "test/ingest/readable-docs.test.ts",
  "test/ingest/readable-forums.test.ts",
  "test/ingest/readable-front-matter.test.ts",
  "test/ingest/readable-html.test.ts",
  "test/ingest/readable-linear.test.ts",
  "test/ingest/readable-lines.property.test.ts",
  "test/ingest/readable-listings.test.ts",
  "test/ingest/readable-pairs.test.ts",
  "test/ingest/readable-products.test.ts",
  "test/ingest/readable-services.test.ts",
  "test/ingest/readable.test.ts",
  "test/ingest/redirect-refusals.test.ts",
  "test/ingest/retention.test.ts",
  "test/ingest/trailing-dot.test.ts",
  "test/journal/appendIndex.test.ts",
  "test/journal/duplicateKeys.test.ts",
  "test/journal/extend.test.ts",
  "test/journal/faults.test.ts",
  "test/journal/projection.test.ts",
  "test/journal/service.test.ts",
  "test/journal/store.conformance.test.ts",
  "test/journal/validate.test.ts",
  "test/journal/verified.test.ts",
  "test/mcp/Lines.property.test.ts",
  "test/mcp/ToolArguments.property.test.ts",
  "test/mcp/tools.test.ts",
  "test/monitor/domain.test.ts",
  "test/monitor/guard.test.ts",
  "test/monitor/memory.test.ts",
  "test/monitor/options.test.ts",
  "test/monitor/store.conformance.test.ts",
  "test/monitor/transaction.test.ts",
  "test/monitor/windows.test.ts",
  "test/plan/PlanMarkdown.property.test.ts",
  "test/plan/PlanRules.property.test.ts",
  "test/plan/PlanStore.conformance.test.ts",
  "test/plan/plan.handEdits.test.ts",
  "test/store/sql.parameterized.test.ts"
]

// Every process a test starts is a Node start (a fork per isolated file, the built CLI again and
// again, MCP servers, sandboxed programs), and Node 20 reads the file `NODE_EXTRA_CA_CERTS` names
// before any JavaScript runs: on machines that set it, about a quarter of a CLI start's CPU. No
// test reaches a server that needs those roots (the TLS test's certificate is refused on purpose),
// so the test run leaves it out, for vitest's workers and every child they start (docs/testing.md).
delete process.env["NODE_EXTRA_CA_CERTS"]

const common = {
  testTimeout: 60_000,
  hookTimeout: 60_000,
  setupFiles: ["test/support/yieldEach.ts", "test/support/configHome.ts"]
}

/**
 * The files that need a process of their own: a fresh fork each. The model harness keeps a tally
 * from one file to the next; the others change the environment, the time zone or the console,
 * hold the lock from a worker thread, count every socket write of the process (a socket an
 * earlier file in a shared thread left open would add to it), or reach modules that keep state
 * between calls (signal handlers, hashing workers) in the test process itself.
 */
const isolated = [
  "test/bench/floor.test.ts",
  "test/bench/smoke.test.ts",
  "test/bench/support.test.ts",
  "test/cli/bundles.test.ts",
  "test/cli/timezones.test.ts",
  "test/exec/markers-before-lock.test.ts",
  "test/exec/service.test.ts",
  "test/foundation/Lock.test.ts",
  "test/foundation/faults.boundary.test.ts",
  "test/harness/**/*.test.ts",
  "test/monitor/windows.props.test.ts",
  "test/store/pg.grants.test.ts",
  "test/store/pg.harness.test.ts",
  "test/store/pg.journal.append.test.ts",
  "test/store/pg.journal.command.test.ts"
]

export default defineConfig({
  test: {
    // Two files at a time: most tests wait on the processes they start (the built CLI, a sandbox,
    // a PostgreSQL cluster), and vitest's default on a 2-core machine is one worker (cores - 1).
    maxWorkers: 2,
    minWorkers: 1,
    // vitest takes `isolate` from the pool, not from the project: the files that share their
    // workers run in worker threads, not recycled between a project's files; the isolated files
    // in fresh forks. The projects run one after another (`groupOrder`): never more than two
    // workers at once.
    poolOptions: { threads: { isolate: false } },
    projects: [
      {
        // Files that start nothing: pure functions, properties, services over memory or folders.
        test: {
          ...common,
          setupFiles: [...common.setupFiles, "test/support/inProcessGuard.ts"],
          name: "in-process",
          include: inProcess,
          pool: "threads",
          sequence: { groupOrder: 0 }
        }
      },
      {
        // Files that start processes (the built CLI, MCP servers, clusters, sandboxes) and keep
        // nothing in the test process: each works in its own temporary folders, clusters and
        // namespaces, one after another in a shared thread (effect and the modules they import
        // load once per thread, not once per file).
        test: {
          ...common,
          setupFiles: [...common.setupFiles, "test/support/sharedGuard.ts"],
          name: "shared",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...inProcess, ...isolated],
          pool: "threads",
          sequence: { groupOrder: 1 },
          // One `initdb` per run, copied by every PostgreSQL test file's cluster (test/support/postgres.ts).
          globalSetup: ["test/support/pgTemplate.ts"]
        }
      },
      {
        test: {
          ...common,
          name: "isolated",
          include: isolated,
          pool: "forks",
          sequence: { groupOrder: 2 },
          globalSetup: ["test/support/pgTemplate.ts"]
        }
      }
    ]
  }
})
