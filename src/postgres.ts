/**
 * `dossier/postgres`: a shared dossier on a PostgreSQL server, as a library.
 * `DossierPostgres({url, dossier, workdir})` provides the same services as `DossierLive(dir)`
 * (`Plan`, `Journal`, `Gate`, `Monitor`, `Ingest`, …, from `dossier`) over the shared dossier
 * `dossier` on the server `url`, one transaction per command; `workdir` is this host's folder
 * (files a command registers are read there). Its own entry point, so that `dossier` alone never
 * loads a database driver: it needs the optional peer dependencies `@effect/sql-pg` 0.53,
 * `@effect/sql` 0.52, `@effect/experimental` 0.61, `pg` 8 and `pg-connection-string` 2.
 * docs/library.md and docs/store.md say more.
 *
 *   import { DossierPostgres } from "dossier/postgres"
 */
export { DossierPostgres, type DossierPostgresOptions } from "./layers/DossierPostgres.js"
