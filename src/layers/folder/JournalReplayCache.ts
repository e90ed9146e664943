/**
 * The replays one Journal service instance verified under the lock, and the memory recycled for
 * the appends' locked reads (src/layers/JournalLive.ts uses both; only locked operations, which
 * the lock serializes, touch them).
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { CorruptJournal } from "../../domain/JournalErrors.js"
import { extendReplay, type Replay, replay } from "../../domain/JournalLines.js"

/**
 * How many bytes of verified journals one service instance keeps between locked operations
 * (least recently used first out); a larger journal is replayed whole each time.
 */
export const VERIFIED_CACHE_BYTES = 64 * 1024 * 1024

/** Journals larger than this are read into fresh memory for each append (see `readBuffer`). */
const RECYCLED_MAX_BYTES = 16 * 1024 * 1024

/** A replay verified under the lock, and the recycled memory its bytes are in (when they are). */
interface Verified {
  readonly replay: Replay
  readonly memory: Buffer | undefined
}

export const makeVerifiedReplays = () => {
  /**
   * Replays this instance verified under the lock, by journal path: the replay of the bytes read
   * then (kept with them). The next locked read of the same journal reads the whole file again
   * and hands it to `extendReplay`, which compares it byte for byte with those bytes and
   * replays only what follows them: an append by another process is verified line by line, and
   * any other change (edit of any size, truncation, replacement) means a full replay. Nothing
   * is trusted from timestamps or sizes. An entry is taken out while in use and put back only
   * after its operation succeeded, so a refused or failed operation leaves no entry behind.
   */
  const verified = new Map<string, Verified>()
  let verifiedTotal = 0
  const takeVerified = (path: string): Verified | undefined => {
    const v = verified.get(path)
    if (v !== undefined) {
      verified.delete(path)
      verifiedTotal -= v.replay.committedBytes
    }
    return v
  }
  const remember = (path: string, r: Replay, memory?: Buffer) => {
    takeVerified(path)
    if (r.corrupt !== null || r.committedBytes > VERIFIED_CACHE_BYTES) return
    verified.set(path, { replay: r, memory })
    verifiedTotal += r.committedBytes
    for (const [p, old] of verified) {
      if (verifiedTotal <= VERIFIED_CACHE_BYTES) break
      verified.delete(p)
      verifiedTotal -= old.replay.committedBytes
    }
  }
  const keepVerified = (path: string, r: Replay) => Effect.sync(() => remember(path, r))

  /**
   * Memory recycled for the appends' locked reads (`readThenAppend`'s `buffer`): first touching
   * fresh memory can cost more than reading a small journal, a noticeable part of an append
   * beside its fsync (bench/journal.ts). A verified replay read into recycled memory keeps that
   * memory with it (`Verified.memory`); once the replay has been taken and continued (or dropped)
   * by `verifiedReplay`, nothing reads that memory any more and it becomes the `spare`, handed out
   * for the next read. Only locked operations, which the lock serializes, use either.
   */
  let spare: Buffer | undefined
  const release = (memory: Buffer | undefined) => {
    if (memory !== undefined && (spare === undefined || spare.byteLength < memory.byteLength)) spare = memory
  }
  const readBuffer = (size: number): Buffer => {
    if (size > RECYCLED_MAX_BYTES) return Buffer.allocUnsafe(size)
    const s = spare
    if (s !== undefined && s.byteLength >= size) {
      spare = undefined
      return s
    }
    // Room to grow: a journal is read again after each append.
    return Buffer.allocUnsafe(Math.min(RECYCLED_MAX_BYTES, Math.max(64 * 1024, size + (size >> 1))))
  }

  /** The replay of a journal's bytes read under the lock: this instance's last verified replay, continued, when it still applies. */
  const verifiedReplay = (path: string, bytes: Uint8Array): Either.Either<Replay, CorruptJournal> => {
    const previous = takeVerified(path)
    const r = (previous === undefined ? undefined : extendReplay(previous.replay, bytes)) ?? replay(bytes)
    // `previous` is consumed or dropped: the memory behind it is free (`bytes` is elsewhere).
    release(previous?.memory)
    return r.corrupt === null ? Either.right(r) : Either.left(new CorruptJournal(r.corrupt))
  }

  /** Whether this instance holds a verified replay of the journal at `path`. */
  const hasVerified = (path: string) => verified.has(path)

  return { verifiedReplay, remember, keepVerified, readBuffer, hasVerified }
}
