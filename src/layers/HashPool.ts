/**
 * A small pool of hash workers (one per core, at most 4), used by FileStoreLive for large files so
 * that several registered files hash in parallel. Started lazily; a worker holds the process open
 * only while it has work (ref'd while busy, unref'd when idle). When the worker script is not next to this module (running from
 * source, e.g. under the test runner), `hashPool()` is undefined and hashing stays in-thread.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import { fileURLToPath } from "node:url"
import { Worker } from "node:worker_threads"

export type HashAnswer =
  | { readonly bytes: number; readonly sha256: string }
  | { readonly tooLarge: number }
  | { readonly error: string }

export interface HashPool {
  readonly hash: (fd: number, max: number) => Promise<HashAnswer>
}

let pool: HashPool | undefined | null = null

const create = (): HashPool | undefined => {
  if (process.env["DOSSIER_HASH_WORKERS"] === "0") return undefined
  let script: string
  try {
    script = fileURLToPath(new URL("./hash-worker.mjs", import.meta.url))
  } catch {
    return undefined
  }
  if (!fs.existsSync(script)) return undefined
  const size = Math.max(1, Math.min(4, os.availableParallelism?.() ?? os.cpus().length))
  const workers: Array<{ worker: Worker; busy: number }> = []
  const waiting = new Map<number, (a: HashAnswer) => void>()
  let next = 0
  const spawn = () => {
    const worker = new Worker(script)
    worker.on("message", (m: { id: number } & HashAnswer) => {
      const resolve = waiting.get(m.id)
      waiting.delete(m.id)
      entry.busy--
      if (entry.busy === 0) worker.unref()
      resolve?.(m)
    })
    worker.on("error", () => {
      // A broken worker answers every pending request with an error; it is not used again.
      entry.busy = Number.POSITIVE_INFINITY
      for (const [id, resolve] of waiting) {
        waiting.delete(id)
        resolve({ error: "EWORKER" })
      }
    })
    const entry = { worker, busy: 0 }
    // Listeners ref the worker; an idle worker must not keep the process alive.
    worker.unref()
    workers.push(entry)
    return entry
  }
  return {
    hash: (fd, max) =>
      new Promise((resolve) => {
        const idle = workers.find((w) => w.busy === 0)
        const target = idle ?? (workers.length < size ? spawn() : workers.reduce((a, b) => (a.busy <= b.busy ? a : b)))
        if (!Number.isFinite(target.busy)) return resolve({ error: "EWORKER" })
        const id = next++
        waiting.set(id, resolve)
        target.busy++
        target.worker.ref()
        target.worker.postMessage({ id, fd, max })
      })
  }
}

export const hashPool = (): HashPool | undefined => {
  if (pool === null) pool = create()
  return pool
}
