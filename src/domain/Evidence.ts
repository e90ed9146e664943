/**
 * Authenticated evidence: grants and execution records carry an HMAC-SHA-256 over their digest,
 * made with a key the work folder does not hold (`$XDG_CONFIG_HOME/dossier/evidence.key`, else
 * `~/.config/dossier/evidence.key`, see src/layers/EvidenceKeyLive.ts). A confined program never
 * sees the key (it is outside every directory the sandbox shows), so it cannot forge a record; a
 * process with the user's rights that can read the key can. The pure part: the signature, its
 * check, and where a key may not live.
 */
import * as Schema from "effect/Schema"
import { createHmac } from "node:crypto"
import { sha256Hex } from "./Canonical.js"
import type { Authenticity } from "./ExecErrors.js"

export const Signature = Schema.Struct({
  alg: Schema.Literal("HMAC-SHA-256"),
  /** Names the key (16 hex digits of a digest of it), so another machine's key is told apart from a forgery. */
  keyId: Schema.String,
  mac: Schema.String
})
export type Signature = typeof Signature.Type

/** What is signed: the kind of record (a grant's signature is never an execution's) and its digest. */
export type SignedKind = "grant" | "execution" | "marker"

export const KEY_FILE = "evidence.key"

export const keyIdOf = (key: Buffer): string => sha256Hex(`dossier evidence key\n${key.toString("hex")}`).slice(0, 16)

export const signDigest = (key: Buffer, kind: SignedKind, digest: string): Signature => ({
  alg: "HMAC-SHA-256",
  keyId: keyIdOf(key),
  mac: createHmac("sha256", key).update(`dossier/${kind}/v1\n${digest}`).digest("hex")
})

export interface Verdict {
  readonly authenticity: Authenticity
  readonly detail: string
}

/**
 * How a record's signature stands against the key of this machine (null: no usable key here,
 * with why). A record without a signature is `unsigned` (made before signing existed, or its
 * signature was removed: never taken as authentic); one signed with another key, or when there
 * is no key here, `unverifiable`; a signature of this key that does not hold, `tampered`.
 */
export const checkSignature = (
  key: { readonly key: Buffer } | { readonly missing: string },
  kind: SignedKind,
  digest: string,
  signature: Signature | undefined
): Verdict => {
  if (signature === undefined) {
    return {
      authenticity: "unsigned",
      detail: "the record has no signature (made before records were signed, or the signature was removed)"
    }
  }
  if ("missing" in key) {
    return { authenticity: "unverifiable", detail: `signed with key ${signature.keyId}, and ${key.missing}` }
  }
  const expected = signDigest(key.key, kind, digest)
  if (signature.keyId !== expected.keyId) {
    return {
      authenticity: "unverifiable",
      detail: `signed with key ${signature.keyId}, not this machine's key ${expected.keyId}`
    }
  }
  return signature.mac === expected.mac && signature.alg === expected.alg
    ? { authenticity: "signed", detail: `signed with this machine's key ${expected.keyId}` }
    : { authenticity: "tampered", detail: "its signature does not hold: the record was changed after it was signed" }
}
