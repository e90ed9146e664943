/**
 * The record of the plan.md bytes dossier last wrote in the view of a folder bound to a shared
 * dossier: `.dossier/plan-view.json` `{sha256}`, written through the folder's FileStore (durable:
 * write-temp, fsync, rename, fsync the directory), as `.dossier/store.json` is. In a bound folder
 * plan.md is a copy of the store's plan that people read (and may edit); the store keeps only its
 * current plan, so what was written at an earlier revision cannot be rendered again: this record
 * is how a refresh (src/layers/StoreTransfer.ts) tells an edited plan.md, which it keeps, from
 * the copy it wrote, which it replaces. A plain folder has none: there plan.md is the plan.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { PLAN_FILE, PLAN_MD_MAX_BYTES } from "../domain/Plan.js"
import type { FileStoreShape } from "../services/FileStore.js"

export const PLAN_VIEW_FILE = ".dossier/plan-view.json"

/** Where plan.md's bytes are kept apart from the store's plan (a bound folder's view; see above). */
export interface PlanViewShape {
  /** The SHA-256 of the plan.md bytes dossier last wrote here; None when none is recorded (or the record is unreadable). */
  readonly written: Effect.Effect<Option.Option<string>>
  /** Record that dossier wrote plan.md with bytes of this SHA-256. */
  readonly record: (sha256: string) => ReturnType<FileStoreShape["writeAtomic"]>
}

const SHA256 = /^[0-9a-f]{64}$/

export const planViewOf = (files: FileStoreShape): PlanViewShape => ({
  written: files.readText(PLAN_VIEW_FILE, { maxBytes: 4096 }).pipe(
    Effect.map((text) => {
      try {
        const sha256 = (JSON.parse(text) as { readonly sha256?: unknown }).sha256
        return typeof sha256 === "string" && SHA256.test(sha256) ? Option.some(sha256) : Option.none<string>()
      } catch {
        return Option.none<string>()
      }
    }),
    // No record, or one that cannot be read as a record: the file is judged without it.
    Effect.orElseSucceed(() => Option.none<string>())
  ),
  record: (sha256) => files.writeAtomic(PLAN_VIEW_FILE, `${JSON.stringify({ sha256 })}\n`)
})

/** The SHA-256 of the folder's plan.md as it is now; None when there is none. */
export const planMdDigest = (files: FileStoreShape) =>
  Effect.flatMap(
    files.stat(PLAN_FILE),
    Option.match({
      onNone: () => Effect.succeed(Option.none<string>()),
      onSome: () =>
        Effect.map(
          files.hash(PLAN_FILE, { maxBytes: PLAN_MD_MAX_BYTES, requireSingleLink: false }),
          (d) => Option.some(d.sha256)
        )
    })
  )

/**
 * Record plan.md as it is now as the view's copy (after an import or a bind that finds the
 * folder holding the dossier's state: its plan.md is what the store holds). Nothing when there is
 * no plan.md.
 */
export const adoptPlanView = (files: FileStoreShape) =>
  Effect.flatMap(
    planMdDigest(files),
    Option.match({
      onNone: () => Effect.void,
      onSome: (sha256) => Effect.asVoid(planViewOf(files).record(sha256))
    })
  )
