/**
 * EvidenceKey: signs grants and execution records with a key the work folder does not hold, and
 * checks their signatures (src/domain/Evidence.ts). `sign` creates the key on first use; `check`
 * never creates anything.
 *
 * Layers: `EvidenceKeyLive` (the key file under the user's config directory,
 * src/layers/EvidenceKeyLive.ts), `EvidenceKeyMemory` (a key held in memory, for in-memory layers).
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { Signature, SignedKind, Verdict } from "../domain/Evidence.js"
import type { EvidenceKeyUnavailable } from "../domain/ExecErrors.js"

export interface EvidenceKeyShape {
  readonly sign: (kind: SignedKind, digest: string) => Effect.Effect<Signature, EvidenceKeyUnavailable>
  readonly check: (kind: SignedKind, digest: string, signature: Signature | undefined) => Effect.Effect<Verdict>
}

export class EvidenceKey extends Context.Tag("dossier/EvidenceKey")<EvidenceKey, EvidenceKeyShape>() {}
