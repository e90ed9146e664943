/** The `HeldContent` port over a shared dossier's `dossier.content` (bytes by SHA-256; a `SELECT` only). */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { HeldContent } from "../../services/ports/HeldContent.js"
import { pgContentStore } from "./PgRecords.js"
import { PgStore } from "./PgStore.js"

export const HeldContentPostgres: Layer.Layer<HeldContent, never, PgStore> = Layer.effect(
  HeldContent,
  Effect.map(PgStore, (store) => ({ get: pgContentStore(store).get }))
)
