import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two files at a time: most tests wait on the processes they start (the built CLI, a sandbox,
    // a PostgreSQL cluster), and vitest's default on a 2-core machine is one worker (cores - 1).
    // Files share no state: each works in its own temporary folders, clusters and namespaces.
    maxWorkers: 2,
    minWorkers: 1,
    setupFiles: ["test/support/yieldEach.ts", "test/support/configHome.ts"],
    // One `initdb` per run, copied by every PostgreSQL test file's cluster (test/support/postgres.ts).
    globalSetup: ["test/support/pgTemplate.ts"]
  }
})
