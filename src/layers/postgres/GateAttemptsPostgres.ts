/**
 * The gate's attempts log in a shared dossier (PostgreSQL): the `GateAttempts` port
 * (src/services/ports/GateAttempts.ts) over `dossier.events`, log `gate-attempts`, one stream per
 * log path, one event per line in position order (the event is the line's text without its
 * newline, the digest its SHA-256, the id its position). Every host's gate counts the rounds of
 * every host's attempts. Appends run inside the command's lock (the dossier's advisory lock), so
 * positions never collide. Every statement is parameterized; driver failures are
 * `StoreUnavailable` or `LockTimeout`.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { createHash } from "node:crypto"
import { LimitExceeded } from "../../domain/Errors.js"
import { GateAttempts, type GateAttemptsShape } from "../../services/ports/GateAttempts.js"
import { PgStore, type PgStoreShape } from "./PgStore.js"

/** The `log` of the gate's attempts in `dossier.events`. */
export const GATE_ATTEMPTS_LOG = "gate-attempts"

export const makeGateAttemptsPostgres = (store: PgStoreShape): GateAttemptsShape => {
  const { sql, config, mapErrors } = store
  const dossier = config.dossier
  return {
    read: (path, maxBytes) =>
      mapErrors(Effect.gen(function*() {
        const size = yield* sql<{ n: string | null }>`SELECT sum(octet_length(event) + 1)::text AS n
          FROM dossier.events WHERE dossier = ${dossier} AND log = ${GATE_ATTEMPTS_LOG} AND stream = ${path}`
        const total = Number(size[0]?.n ?? 0)
        if (total > maxBytes) {
          return yield* new LimitExceeded({ limit: "attempts-log-bytes", max: maxBytes, actual: total })
        }
        const rows = yield* sql<{ event: string }>`SELECT event FROM dossier.events
          WHERE dossier = ${dossier} AND log = ${GATE_ATTEMPTS_LOG} AND stream = ${path} ORDER BY position`
        return rows.map((r) => `${r.event}\n`).join("")
      })),
    append: (path, line) =>
      mapErrors(Effect.gen(function*() {
        const text = line.endsWith("\n") ? line.slice(0, -1) : line
        const digest = createHash("sha256").update(text).digest("hex")
        yield* sql`INSERT INTO dossier.events (dossier, log, stream, position, id, digest, event)
          SELECT ${dossier}, ${GATE_ATTEMPTS_LOG}, ${path}, base.last + 1, (base.last + 1)::text, ${digest}, ${text}
          FROM (SELECT coalesce(max(position), 0) AS last FROM dossier.events
            WHERE dossier = ${dossier} AND log = ${GATE_ATTEMPTS_LOG} AND stream = ${path}) AS base`
      })),
    paths: mapErrors(
      Effect.map(
        sql<{ stream: string }>`SELECT DISTINCT stream FROM dossier.events
          WHERE dossier = ${dossier} AND log = ${GATE_ATTEMPTS_LOG}`,
        (rows) => rows.map((r) => r.stream).sort()
      )
    )
  }
}

export const GateAttemptsPostgres: Layer.Layer<GateAttempts, never, PgStore> = Layer.effect(
  GateAttempts,
  Effect.map(PgStore, makeGateAttemptsPostgres)
)
