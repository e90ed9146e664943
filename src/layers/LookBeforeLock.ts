/** What a command's look at a record before it takes the lock may answer by itself. */
import type { LockTimeout } from "../domain/Errors.js"
import type { StoreUnavailable } from "../domain/StoreErrors.js"

/**
 * A look before the lock that found the store out of reach, or waited its whole bound for another
 * writer (a shared store: `StoreUnavailable`, `LockTimeout`), is the command's answer: going on
 * would wait the same bound again under the lock, so the command would answer after twice its
 * bound, the first wait outside its deadline. Any other failure of such a look (a record that
 * does not read) is left to the read under the lock, which answers it.
 */
export const unansweredLook = (e: { readonly _tag: string }): e is StoreUnavailable | LockTimeout =>
  e._tag === "StoreUnavailable" || e._tag === "LockTimeout"
