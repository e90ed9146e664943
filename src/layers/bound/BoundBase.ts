/**
 * What every command of a folder bound to a shared dossier (`.dossier/store.json`, docs/store.md)
 * runs over: this host's folder for what is local (its FileStore, the key that signs evidence),
 * the store the binding names, connected, with one transaction per command as the `Lock`
 * (`PgLock`); and, after a command that writes, the refresh of the part of the folder's view it
 * touched. The command groups' own compositions (./<group>.bound.ts) add their services over the
 * PostgreSQL adapters of the storage ports; the MCP server's (../CommandsBound.ts) adds them all.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { UsageError } from "../../domain/CliErrors.js"
import { StoreUnavailable } from "../../domain/StoreErrors.js"
import { type ViewParts, WHOLE_VIEW } from "../../domain/StoreTransfer.js"
import type { EvidenceKey } from "../../services/EvidenceKey.js"
import { FileStore } from "../../services/FileStore.js"
import { Workdir } from "../../services/Workdir.js"
import { readBinding } from "../BindingFile.js"
import { EvidenceKeyLive } from "../EvidenceKeyLive.js"
import { FileStoreLive } from "../FileStoreLive.js"
import { PgLockLayer } from "../postgres/PgLock.js"
import { SCHEMA_NOT_CURRENT } from "../postgres/PgSchema.js"
import { PgStore, PgStoreLayer } from "../postgres/PgStore.js"
import type { TransferReport } from "../StoreTransfer.js"

const NOT_BOUND = "this folder is not bound to a shared store; `dossier init --store <url> --dossier <text>` binds it"

/** This host's folder: its FileStore and the key that signs evidence. */
const local = (dir: string) => Layer.merge(FileStoreLive, EvidenceKeyLive).pipe(Layer.provideMerge(Workdir.live(dir)))

/**
 * How a command connects: a command that may write as a writer (an older schema migrated); a
 * read-only one as a reader, which sends no write (docs/store.md: they work under a role with
 * SELECT only). Either way a dossier the store does not hold is refused (`requireDossier`:
 * `BindingRefused no-dossier` once the command's name is known, src/commands/Bound.ts), never
 * created nor read as an empty one: only `init --store` creates a dossier.
 */
export type StoreMode = "write" | "read"

/** The store the folder's binding names, connected in `mode`. */
const boundStore = (mode: StoreMode) =>
  Layer.unwrapEffect(
    Effect.map(
      Effect.flatMap(FileStore, readBinding),
      Option.match({
        onNone: () => Layer.fail(new UsageError({ detail: NOT_BOUND })),
        onSome: (b) =>
          PgLockLayer.pipe(Layer.provideMerge(
            mode === "write"
              ? PgStoreLayer({ url: b.url, dossier: b.dossier, mode, requireDossier: true })
              : Layer.tap(PgStoreLayer({ url: b.url, dossier: b.dossier, mode, requireDossier: true }), (context) =>
                Context.get(context, PgStore).schemaCurrent
                  ? Effect.void
                  : Effect.fail(new StoreUnavailable({ reason: SCHEMA_NOT_CURRENT })))
          ))
      })
    )
  )

/** The folder `dir` and the shared dossier it is bound to: what every bound command runs over. */
export const BoundBase = (dir: string, mode: StoreMode) => boundStore(mode).pipe(Layer.provideMerge(local(dir)))

/** Why a bound command's services could not be built (no binding, no store, a newer schema, …). */
export type BoundError = Layer.Layer.Error<ReturnType<typeof BoundBase>>

/**
 * Bring the `parts` of the folder's view up to what the store holds (`pullInto`, as `dossier
 * pull` does for all of them), under the folder's own lock (the command's `Lock` is the store's),
 * over the command's own FileStore, Workdir and EvidenceKey: only that lock is built for it
 * (building the folder's services again cost ~27 million instructions of a bound `plan
 * checkpoint`'s ~870 million; docs/performance.md, "Shared store"). Answers why when it could not.
 */
export const refreshView = (
  parts: ViewParts
): Effect.Effect<Refreshed, never, PgStore | FileStore | Workdir | EvidenceKey> =>
  Effect.gen(function*() {
    const store = yield* PgStore
    const files = yield* FileStore
    // Loaded when a command has written: a read-only one never evaluates the copy's adapters.
    const [{ pullInto }, { folderSideOfContext }] = yield* Effect.promise(() =>
      Promise.all([import("../StorePull.js"), import("../StoreTransfer.js")])
    )
    return yield* pullInto(store, files, yield* folderSideOfContext(parts), parts)
  }).pipe(
    Effect.scoped,
    Effect.map((report) => ({ refreshed: true as const, report })),
    Effect.catchAll((e) => Effect.succeed({ refreshed: false as const, reason: reasonOf(e) }))
  )

export type Refreshed =
  | { readonly refreshed: true; readonly report: TransferReport }
  | { readonly refreshed: false; readonly reason: string }

const reasonOf = (e: { readonly _tag: string }): string => {
  const message = (e as { readonly message?: unknown }).message
  return typeof message === "string" && message !== "" ? `${e._tag}: ${message}` : e._tag
}

/** Only the parts named, of the view's parts. */
const only = (named: Partial<ViewParts>): ViewParts => ({
  plan: false,
  captures: false,
  journals: false,
  monitor: false,
  grants: false,
  executions: false,
  attempts: false,
  ...named
})

/**
 * The part of the view a command of each group may write, by the command's first word: what its
 * services write through the ports (and the files those records name). A command that writes
 * nothing refreshes nothing.
 */
const TOUCHED: Readonly<Record<string, ViewParts>> = {
  plan: only({ plan: true }),
  journal: only({ journals: true }),
  monitor: only({ monitor: true }),
  next: only({ monitor: true }),
  grant: only({ grants: true }),
  // A run records its execution, uses (and may exhaust) its grant, and links what it made in a journal.
  exec: only({ executions: true, grants: true, journals: true }),
  gate: only({ attempts: true }),
  source: only({ captures: true }),
  ingest: only({ captures: true })
}

/** The part of the view a command (by its first word) touches; an unknown one: the whole view. */
export const touchedParts = (word: string): ViewParts => TOUCHED[word] ?? WHOLE_VIEW
