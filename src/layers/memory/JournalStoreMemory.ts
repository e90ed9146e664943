/**
 * The memory adapter of JournalStore: each study's events in an array, with its ids' digests and
 * the names its events claim. Every call runs to its end without yielding, so each is atomic on
 * its own; a journal in memory has no torn writes (its tail is always clean). `lines` renders the
 * journal's exchange form with `encodeLine`, the bytes the folder adapter would hold.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { type JournalEvent, journalTooLarge } from "../../domain/Journal.js"
import { splitBatch } from "../../domain/JournalAppend.js"
import type { ConflictingEvent } from "../../domain/JournalErrors.js"
import { encodeLine, eventText } from "../../domain/JournalLines.js"
import type { StudyRow } from "../../domain/JournalOutput.js"
import {
  type AppendView,
  type JournalAppended,
  type JournalEntry,
  JournalStore,
  type JournalStoreShape,
  type JournalTail
} from "../../services/ports/JournalStore.js"
import type { LoggedEvent } from "../../services/Store.js"

const CLEAN: JournalTail = { state: "clean", bytes: 0 }

interface Stream {
  readonly events: Array<LoggedEvent<JournalEvent>>
  readonly digests: Map<string, string>
  readonly claimed: Set<string>
}

export const makeJournalStoreMemory = (): JournalStoreShape => {
  const streams = new Map<string, Stream>()
  const headOf = (s: Stream | undefined) => {
    const last = s?.events[s.events.length - 1]
    return last === undefined ? null : { seq: s!.events.length, id: last.id }
  }

  const append = <E>(
    study: string,
    batch: ReadonlyArray<JournalEntry>,
    check: (view: AppendView) => E | null
  ): Effect.Effect<JournalAppended, E | ConflictingEvent> =>
    Effect.suspend((): Effect.Effect<JournalAppended, E | ConflictingEvent> => {
      const stream = streams.get(study)
      const view: AppendView = {
        events: stream?.events.length ?? 0,
        head: headOf(stream),
        tail: CLEAN,
        digestOf: (id) => stream?.digests.get(id),
        claimed: (name) => stream?.claimed.has(name) ?? false
      }
      const refused = check(view)
      if (refused !== null) return Effect.fail(refused)
      const split = splitBatch(batch, view.digestOf)
      if (Either.isLeft(split)) return Effect.fail(split.left)
      const { existing, fresh } = split.right
      if (fresh.length === 0) return Effect.succeed<JournalAppended>({ appended: [], existing, head: view.head })
      const s: Stream = stream ?? { events: [], digests: new Map(), claimed: new Set() }
      streams.set(study, s)
      for (const e of fresh) {
        s.events.push({ id: e.id, digest: e.digest, event: e.event })
        s.digests.set(e.id, e.digest)
        for (const name of e.claims) s.claimed.add(name)
      }
      return Effect.succeed<JournalAppended>({ appended: fresh.map((e) => e.id), existing, head: headOf(s) })
    })

  const read: JournalStoreShape["read"] = (study) =>
    Effect.sync(() => {
      const s = streams.get(study)
      return s === undefined ? Option.none() : Option.some({ events: [...s.events], tail: CLEAN })
    })

  const studies: JournalStoreShape["studies"] = Effect.sync(() =>
    [...streams.keys()].sort().map((study): StudyRow => ({
      study,
      tail: "clean",
      tailBytes: 0,
      corruptLine: null,
      head: headOf(streams.get(study))
    }))
  )

  const lines: JournalStoreShape["lines"] = (study, maxBytes) =>
    Effect.suspend(() => {
      const s = streams.get(study)
      if (s === undefined) return Effect.succeed(Option.none())
      const bytes = Buffer.from(
        s.events.map((e, i) => encodeLine(i + 1, eventText(e.event), e.digest)).join(""),
        "utf8"
      )
      return bytes.byteLength > maxBytes
        ? Effect.fail(
          journalTooLarge(study, maxBytes, bytes.byteLength)
        )
        : Effect.succeed(Option.some(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)))
    })

  return { read, append, studies, lines }
}

/** A fresh, empty in-memory JournalStore per layer build. */
export const JournalStoreMemory: Layer.Layer<JournalStore> = Layer.sync(JournalStore, makeJournalStoreMemory)
