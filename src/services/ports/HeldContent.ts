/**
 * HeldContent: bytes a shared dossier holds by their SHA-256 (`dossier.content`), for a reading
 * command of a bound folder whose records name bytes this host's folder lacks or holds otherwise
 * (another host captured the source; the file was edited here). Such a command reads the store's
 * bytes and writes nothing, in the store or in the folder (`dossier pull` writes the view).
 *
 * Contract: `get(sha256)` answers the bytes stored under that digest (None when none are); it only
 * reads. A folder has no such store: its layers do not provide this port, and the services that
 * use it (`SourcesLive`) read the folder alone then.
 *
 * Adapter: `HeldContentPostgres` (src/layers/postgres/HeldContentPostgres.ts).
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { LockTimeout } from "../../domain/Errors.js"
import type { StoreUnavailable } from "../../domain/StoreErrors.js"

export interface HeldContentShape {
  readonly get: (sha256: string) => Effect.Effect<Option.Option<Uint8Array>, StoreUnavailable | LockTimeout>
}

export class HeldContent extends Context.Tag("dossier/HeldContent")<HeldContent, HeldContentShape>() {}
