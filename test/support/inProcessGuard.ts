/**
 * Set-up of vitest's "in-process" project (vitest.config.ts): its files share their worker, one
 * after another, so a file there must leave nothing behind for the next. Starting a process or a
 * worker thread, handling a signal or changing the working directory fails the test that does
 * it, and a file that leaves the environment changed fails at its end (test/support/threadGuard.ts).
 */
import { guardThread } from "./threadGuard.js"

guardThread("in-process")
