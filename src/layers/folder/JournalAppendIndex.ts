/**
 * What `journal append` keeps beside a study's journal so that an append in a new process (one
 * CLI call) costs what its batch costs, not a replay of the whole history. Two private files,
 * derived from the journal and never read by anything else:
 *
 * - `.dossier/journal/<study>.append-index.json`: the journal's fingerprint (FileStore
 *   `fingerprint`: device, inode, link count, size, modification and change times) when the index
 *   was written, its event count and head, and the ids of the study's candidates;
 * - `.dossier/journal/<study>.id-hashes`: a 32-bit hash of each event id, 4 bytes per event in
 *   journal order (only the first `events` entries count: a crash may leave more).
 *
 * An append trusts the index only while the journal's fingerprint is the one recorded: any write
 * to the journal by anyone else (another writer, an editor, a truncation, a replacement, a link)
 * changes it, and the append then replays the journal whole as before (which refuses a damaged
 * journal as before) and writes the index afresh. An event id whose hash is in the index may be a
 * retry or a conflict: that append also replays the journal whole, so skipped and conflicting
 * events are decided on the stored text, exactly as before. A new id is new for certain (a hash
 * not in the index is an id not in the journal). The journal's own bytes are what they were.
 *
 * The index is written after the journal line, without its own transaction: a crash between the
 * two leaves an index whose fingerprint no longer matches, so the next append replays. What the
 * fingerprint cannot show: a change to the journal made by another program within the same
 * clock tick (a few milliseconds at most) as dossier's own append, keeping the size; `journal
 * inspect` and `journal rebuild` replay and check every line regardless.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { studyPaths } from "../../domain/Journal.js"
import type { Head } from "../../domain/JournalOutput.js"
import type { FileStoreShape } from "../../services/FileStore.js"

export const appendIndexPaths = (study: string) => ({
  index: `.dossier/journal/${study}.append-index.json`,
  hashes: `.dossier/journal/${study}.id-hashes`
})

/** FNV-1a over the id's UTF-16 code units (ids are ASCII): equal ids, equal hashes. */
export const idHash = (id: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

export interface AppendIndex {
  readonly fingerprint: string
  readonly events: number
  readonly head: Head | null
  readonly candidates: ReadonlyArray<string>
  /** The id hashes of the journal's events, in order (`events` of them). */
  readonly hashes: Uint32Array
}

/** The state an append leaves the index in. */
export interface IndexedState {
  readonly events: number
  readonly head: Head | null
  readonly candidates: ReadonlyArray<string>
}

const INDEX_MAX_BYTES = 64 * 1024 * 1024

const isHead = (u: unknown): u is Head | null =>
  u === null || (typeof u === "object" && typeof (u as Head).seq === "number" && typeof (u as Head).id === "string")

const toBytes = (hashes: Uint32Array): Uint8Array => {
  const out = new Uint8Array(hashes.length * 4)
  const view = new DataView(out.buffer)
  for (let i = 0; i < hashes.length; i++) view.setUint32(i * 4, hashes[i]!, true)
  return out
}

export const makeAppendIndex = (
  store: FileStoreShape & { readonly fingerprint: NonNullable<FileStoreShape["fingerprint"]> }
) => {
  /** The journal's current fingerprint (None: no journal, or it cannot be looked at). */
  const fingerprintOf = (study: string): Effect.Effect<Option.Option<string>> =>
    Effect.orElseSucceed(store.fingerprint(studyPaths(study).journal), () => Option.none())

  /** The index of `study` when it still describes the journal as it is now; None otherwise. */
  const load = (study: string): Effect.Effect<Option.Option<AppendIndex>> =>
    Effect.gen(function*() {
      const paths = appendIndexPaths(study)
      const current = yield* fingerprintOf(study)
      if (Option.isNone(current)) return Option.none()
      const text = yield* Effect.option(
        store.readText(paths.index, { maxBytes: INDEX_MAX_BYTES, requireSingleLink: true })
      )
      if (Option.isNone(text)) return Option.none()
      let v: Record<string, unknown>
      try {
        v = JSON.parse(text.value) as Record<string, unknown>
      } catch {
        return Option.none()
      }
      const events = v["events"]
      const candidates = v["candidates"]
      if (
        v["version"] !== 1 || v["fingerprint"] !== current.value || typeof events !== "number" ||
        !Number.isSafeInteger(events) ||
        events < 0 || !isHead(v["head"]) || !Array.isArray(candidates) || !candidates.every((c) =>
          typeof c === "string"
        )
      ) return Option.none()
      const bytes = yield* Effect.option(
        store.read(paths.hashes, { maxBytes: INDEX_MAX_BYTES, requireSingleLink: true })
      )
      if (Option.isNone(bytes) || bytes.value.byteLength < events * 4) return Option.none()
      const view = new DataView(bytes.value.buffer, bytes.value.byteOffset, events * 4)
      const hashes = new Uint32Array(events)
      for (let i = 0; i < events; i++) hashes[i] = view.getUint32(i * 4, true)
      return Option.some({ fingerprint: current.value, events, head: v["head"] as Head | null, candidates, hashes })
    })

  /** Publish the index record for the journal as it is now (the commit point of an index write). */
  const publish = (study: string, state: IndexedState) =>
    Effect.gen(function*() {
      const fingerprint = yield* fingerprintOf(study)
      if (Option.isNone(fingerprint)) return
      const record = {
        version: 1,
        study,
        fingerprint: fingerprint.value,
        events: state.events,
        head: state.head,
        candidates: state.candidates
      }
      yield* store.writeAtomic(appendIndexPaths(study).index, `${JSON.stringify(record)}\n`)
    })

  /**
   * Write the whole index for a journal just replayed (and appended to): every id's hash, then
   * the record. A failure leaves the index unused (the next append replays), never an error.
   */
  const rebuild = (study: string, state: IndexedState, hashes: Uint32Array) =>
    Effect.ignore(
      Effect.zipRight(store.writeAtomic(appendIndexPaths(study).hashes, toBytes(hashes)), publish(study, state))
    )

  /**
   * Extend an index that was current before this append: the new ids' hashes (after dropping
   * entries a crash may have left past `before.events`), then the record.
   */
  const extend = (study: string, before: AppendIndex, state: IndexedState, added: ReadonlyArray<string>) =>
    Effect.ignore(Effect.gen(function*() {
      const path = appendIndexPaths(study).hashes
      const st = yield* store.stat(path)
      if (Option.isSome(st) && st.value.size !== before.events * 4) yield* store.truncate(path, before.events * 4)
      yield* store.append(path, toBytes(Uint32Array.from(added, idHash)))
      yield* publish(study, state)
    }))

  return { load, rebuild, extend }
}
