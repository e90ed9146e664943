/**
 * GrantStore in the work folder (src/services/ports/GrantStore.ts), byte for byte what dossier
 * has always written: `.dossier/grants/<id>.json` (the sealed grant, `JSON.stringify(grant, null,
 * 2)` and a newline, write-once) and `.dossier/grants/<id>.events.jsonl` (one event a line,
 * appended with one write and one fsync). Every read goes through the FileStore's boundary
 * checks: a record or event file that is a link or hard-linked is `UnsafePath`.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { decodeWith, parseJson } from "../../domain/Decode.js"
import { type IoError, type LimitExceeded, StaleRevision, type UnsafePath } from "../../domain/Errors.js"
import { ConflictingGrant, GrantDigestMismatch } from "../../domain/ExecErrors.js"
import {
  GRANT_ID,
  type GrantEvent,
  GrantEvent as GrantEventSchema,
  StoredGrant as StoredGrantSchema
} from "../../domain/Grant.js"
import { FileStore, type FileStoreShape } from "../../services/FileStore.js"
import { GrantStore, type GrantStoreShape } from "../../services/ports/GrantStore.js"

export const GRANTS_DIR = ".dossier/grants"
export const grantPath = (id: string) => `${GRANTS_DIR}/${id}.json`
export const grantEventsPath = (id: string) => `${GRANTS_DIR}/${id}.events.jsonl`

/** A grant record is small: anything larger is refused before it is read (`LimitExceeded`). */
const MAX_GRANT_BYTES = 1024 * 1024

const decodeGrant = decodeWith(StoredGrantSchema)
const decodeEvent = decodeWith(GrantEventSchema)

/** What stands for an event line that does not decode: a revocation (fail closed). */
export const damagedEvent: GrantEvent = { type: "revoked", at: new Date(0).toISOString(), reason: "damaged event line" }

export const grantText = (grant: Parameters<GrantStoreShape["create"]>[0]) => `${JSON.stringify(grant, null, 2)}\n`

/** What the folder itself may fail with. */
export type GrantFolderError = IoError | UnsafePath | LimitExceeded

export const makeGrantStoreFolder = (store: FileStoreShape): GrantStoreShape<GrantFolderError> => {
  const events: GrantStoreShape<GrantFolderError>["events"] = (id) =>
    store.readText(grantEventsPath(id), { requireSingleLink: true }).pipe(
      Effect.map((text) => {
        const value = text.split("\n").filter((l) => l.trim() !== "").map((line): GrantEvent => {
          const e = Either.flatMap(parseJson(line), decodeEvent)
          return Either.isRight(e) ? e.right : damagedEvent
        })
        return { revision: value.length, value }
      }),
      Effect.catchTag("FileNotFound", () => Effect.succeed({ revision: 0, value: [] }))
    )

  return {
    get: (id) =>
      store.readText(grantPath(id), { requireSingleLink: true, maxBytes: MAX_GRANT_BYTES }).pipe(
        Effect.flatMap((text) =>
          Either.match(Either.flatMap(parseJson(text), decodeGrant), {
            onLeft: () => Effect.fail(new GrantDigestMismatch({ grantId: id })),
            onRight: (g) => Effect.succeed(Option.some(g))
          })
        ),
        Effect.catchTag("FileNotFound", () => Effect.succeed(Option.none()))
      ),
    create: (grant) =>
      store.writeRetained(grantPath(grant.id), grantText(grant)).pipe(
        Effect.map((d) => !d.reused),
        Effect.catchTag("EditedRetainedFile", () => Effect.fail(new ConflictingGrant({ grantId: grant.id })))
      ),
    ids: Effect.map(
      store.list(GRANTS_DIR),
      (entries) =>
        entries.filter((e) => e.kind === "file" && e.name.endsWith(".json")).map((e) => e.name.slice(0, -5))
          .filter((id) => GRANT_ID.test(id))
    ),
    events,
    appendEvent: (id, event, expected) =>
      Effect.flatMap(
        events(id),
        (stored): Effect.Effect<number, GrantFolderError | StaleRevision> =>
          stored.revision !== expected
            ? Effect.fail(new StaleRevision({ expected, actual: stored.revision }))
            : Effect.as(store.append(grantEventsPath(id), `${JSON.stringify(event)}\n`), expected + 1)
      )
  }
}

/** GrantStore over the work folder's FileStore. */
export const GrantStoreFolder: Layer.Layer<GrantStore, never, FileStore> = Layer.effect(
  GrantStore,
  Effect.map(FileStore, makeGrantStoreFolder)
)
