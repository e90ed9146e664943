/** A JournalStore whose every call runs under the dossier's lock, as a command runs it (PgLock). */
import type { PgLockShape } from "../../../src/layers/postgres/PgLock.js"
import type { JournalStoreShape } from "../../../src/services/ports/JournalStore.js"

export const underLock = (inner: JournalStoreShape, lock: PgLockShape): JournalStoreShape => ({
  read: (study) => lock.withReadLock(() => inner.read(study)),
  append: (study, batch, check) => lock.withLock(inner.append(study, batch, check)),
  studies: lock.withReadLock(() => inner.studies),
  lines: (study, maxBytes) => lock.withReadLock(() => inner.lines(study, maxBytes))
})
