/**
 * A program that embeds a shared dossier through `dossier/postgres` (copied into the consumer
 * package by test/consumer/consumer.test.ts with the optional peer dependencies linked): the layer
 * types-checks with the services of `dossier`, and a server that is not there is a typed
 * `StoreUnavailable`, retryable, an instance of `Errors.StoreUnavailable`. Prints one JSON object.
 */
import { Errors, Plan } from "dossier"
import { DossierPostgres } from "dossier/postgres"
import * as Effect from "effect/Effect"
import * as os from "node:os"

const layer = DossierPostgres({
  // Port 1 on the loopback address: nothing listens there.
  url: "postgres://dossier@127.0.0.1:1/dossier",
  dossier: "consumer",
  workdir: os.tmpdir(),
  connectTimeoutMs: 2_000
})

const program = Effect.flatMap(Plan.Plan, (plan) => plan.inspect).pipe(
  Effect.provide(layer),
  Effect.match({
    // The error is an instance of the class `dossier` exports, under `require` too (each CommonJS
    // entry point had its own copy of every class).
    onFailure: (e) => ({ tag: e._tag, retryable: Errors.retryable(e), instance: e instanceof Errors.StoreUnavailable }),
    onSuccess: () => ({ tag: "none", retryable: false, instance: false })
  })
)

Effect.runPromise(program).then((r) => console.log(JSON.stringify(r)))
