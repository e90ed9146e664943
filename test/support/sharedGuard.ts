/**
 * Set-up of vitest's "shared" project (vitest.config.ts): files that start processes (the built
 * CLI, MCP servers, PostgreSQL clusters, sandboxes) but keep nothing in the test process, sharing
 * their worker thread one after another. A worker thread, a signal handler or a change of
 * directory fails the test that does it, and a file that leaves the environment changed fails at
 * its end (test/support/threadGuard.ts).
 */
import { guardThread } from "./threadGuard.js"

guardThread("shared")
