/**
 * Worker thread that hashes an already opened and checked file descriptor (file descriptors are
 * process-wide). The main thread does every boundary check and owns the descriptor; the worker
 * only reads it (synchronous 1 MiB reads) and answers `{id, bytes, sha256}` or `{id, error}`.
 * Bundled as `hash-worker.mjs` next to the code that starts it.
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import { parentPort } from "node:worker_threads"

const CHUNK = 1024 * 1024
const buf = Buffer.allocUnsafe(CHUNK)

parentPort?.on("message", (m: { id: number; fd: number; max: number }) => {
  try {
    const h = createHash("sha256")
    let total = 0
    for (;;) {
      const n = fs.readSync(m.fd, buf, 0, CHUNK, total)
      if (n === 0) break
      total += n
      if (total > m.max) {
        parentPort!.postMessage({ id: m.id, tooLarge: total })
        return
      }
      h.update(n === CHUNK ? buf : buf.subarray(0, n))
    }
    parentPort!.postMessage({ id: m.id, bytes: total, sha256: h.digest("hex") })
  } catch (e) {
    parentPort!.postMessage({ id: m.id, error: (e as NodeJS.ErrnoException).code ?? "EUNKNOWN" })
  }
})
