/**
 * A folder's binding to a shared store, `.dossier/store.json` (src/domain/StoreBinding.ts), read
 * and written through the folder's FileStore (its path checks: no symlink, a regular file, at most
 * 64 KiB; writes durable: write-temp, fsync, rename, fsync the directory). The one reader of the
 * binding: the commands that manage it (src/commands/store.impl.ts), the services of a bound
 * folder (./bound/BoundBase.ts), a plain folder's journal commands refusing a bound one
 * (src/commands/journal.impl.ts) and a refusal naming the dossier (src/commands/Bound.ts).
 *
 * Light on purpose: nothing of PostgreSQL (the driver, src/layers/postgres/), so that a plain
 * folder's bundle may read the binding without loading the store (test/cli/bundles.test.ts).
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { bindingText, parseBinding, STORE_FILE, type StoreBinding } from "../domain/StoreBinding.js"
import { FileStore, type FileStoreShape } from "../services/FileStore.js"
import { Workdir } from "../services/Workdir.js"
import { FileStoreLive } from "./FileStoreLive.js"

/** The folder's binding; None when it is unbound (no `.dossier/store.json`). */
export const readBinding = (files: FileStoreShape) =>
  files.readText(STORE_FILE, { maxBytes: 64 * 1024 }).pipe(
    Effect.map(Option.some),
    Effect.catchTag("FileNotFound", () => Effect.succeed(Option.none<string>())),
    Effect.flatMap(Option.match({
      onNone: () => Effect.succeed(Option.none<StoreBinding>()),
      onSome: (text) =>
        Either.match(parseBinding(text), { onLeft: Effect.fail, onRight: (b) => Effect.succeed(Option.some(b)) })
    }))
  )

/** The binding of the folder `dir` (resolved as a command resolves its work folder). */
export const readBindingIn = (dir: string) =>
  Effect.provide(Effect.flatMap(FileStore, readBinding), FileStoreLive.pipe(Layer.provide(Workdir.live(dir))))

/** Write the binding (the URL already without its password). */
export const writeBinding = (files: FileStoreShape, binding: StoreBinding) =>
  files.writeAtomic(STORE_FILE, bindingText(binding))
