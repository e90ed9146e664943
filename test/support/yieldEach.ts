/**
 * After every test, one turn of the event loop. Synchronous tests (properties, `spawnSync` runs of
 * the CLI) otherwise run back to back without one, so the worker cannot read vitest's replies: a
 * file of them that takes over 60 s fails with `Timeout calling "onTaskUpdate"` though every test
 * passed.
 */
import { afterEach } from "vitest"

afterEach(() => new Promise<void>((resolve) => setImmediate(resolve)))
