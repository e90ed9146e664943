/**
 * A grant made in the test's own process, through the layer `dossier grant create` uses
 * (GrantsLayer over the work folder): set-up for tests whose subject is what a run under the
 * grant does, not the grant's creation, which test/exec/grants.test.ts checks through the CLI.
 * It saves a start of the built CLI per grant. The grant records the inodes of this folder's
 * roots, as the CLI's does, so it is made in each test's own folder, never copied.
 */
import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { GrantsLayer } from "../../src/layers/GrantsLayer.js"
import { Grants } from "../../src/services/Grants.js"
import { putInput } from "../support/cli.js"
import { grantInput } from "./support.js"

/** `createGrant(dir, over, name)` without the CLI: the same input file written, the same grant created. */
export const createGrantInProcess = async (dir: string, over: object = {}, name = "grant.json") => {
  const input = grantInput(over)
  putInput(dir, name, input)
  const r = await Effect.runPromise(
    Effect.gen(function*() {
      return yield* (yield* Grants).create(input)
    }).pipe(Effect.provide(GrantsLayer(dir)))
  )
  expect(r.created).toBe(true)
  return r
}
