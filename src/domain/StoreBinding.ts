/**
 * `.dossier/store.json`: what a bound folder is bound to (`dossier init --store <url> --dossier
 * <name>`): `{kind: "postgres", url, dossier}`, the URL without its password (the password comes
 * the libpq way, `PGPASSWORD` or `~/.pgpass`, and is never written). Absent: the folder is the
 * dossier (unbound, the default).
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { decodeWith, parseJson } from "./Decode.js"
import { InvalidInput } from "./Errors.js"
import { DOSSIER_NAME, isMalformed, parseStoreUrl } from "./StoreUrl.js"

export const STORE_FILE = ".dossier/store.json"

export const StoreBinding = Schema.Struct({
  kind: Schema.Literal("postgres"),
  /** The store's URL without its password. */
  url: Schema.String.pipe(
    Schema.filter((u) => {
      const parsed = parseStoreUrl(u)
      return isMalformed(parsed)
        ? parsed.malformed
        : parsed.hasPassword
        ? "The store URL holds a password, which is never written to the folder: remove it and give the password in PGPASSWORD or ~/.pgpass."
        : true
    })
  ),
  dossier: Schema.String.pipe(Schema.pattern(DOSSIER_NAME))
}).annotations({ identifier: "store-binding" })
export type StoreBinding = typeof StoreBinding.Type

const decode = decodeWith(StoreBinding)

/** `.dossier/store.json`'s text: the binding as indented JSON and a newline. */
export const bindingText = (b: StoreBinding): string =>
  `${JSON.stringify({ kind: b.kind, url: b.url, dossier: b.dossier }, null, 2)}\n`

/**
 * Read `.dossier/store.json`'s text; a file that is no binding is `InvalidInput`, each issue
 * naming the file (no command names it as an input) and the way out.
 */
export const parseBinding = (text: string): Either.Either<StoreBinding, InvalidInput> =>
  Either.mapLeft(
    Either.flatMap(parseJson(text), decode),
    (e) =>
      new InvalidInput({
        issues: e.issues.map((i) => ({
          path: i.path,
          message: `${STORE_FILE}: ${
            /[.!?]$/.test(i.message) ? i.message : `${i.message}.`
          } Fix it, or remove it and bind the folder again (dossier init --store <url> --dossier <text>).`
        }))
      })
  )
