/**
 * A store URL naming its server by an IPv6 literal (`postgres://[::1]:5432/db`, the brackets the
 * URL needs): dossier connects to that address, as libpq does, rather than looking the bracketed
 * text up as a host name (`StoreUnavailable` "did not resolve"). Through the built CLI, against a
 * throwaway cluster that also listens on ::1; skipped where the host has no IPv6 loopback, or
 * without the server binaries, or on `DOSSIER_TEST_PG`'s server (which listens where it listens).
 */
import * as os from "node:os"
import { describe, expect, it } from "vitest"
import { runCli, tempWorkdir } from "../support/cli.js"
import { pgAvailable, useTestDatabase } from "../support/postgres.js"
import { ok } from "./support/populated.js"

const hasLoopbackV6 = Object.values(os.networkInterfaces()).some((list) =>
  (list ?? []).some((a) => a.family === "IPv6" && a.address === "::1")
)
const external = (process.env.DOSSIER_TEST_PG ?? "") !== ""

describe.skipIf(!pgAvailable || !hasLoopbackV6 || external)("a store URL with an IPv6 literal host", () => {
  const db = useTestDatabase({ listen: ["::1"] })

  it("binds, answers store status and runs a command over [::1]", () => {
    const u = new URL(db.url)
    u.hostname = "[::1]"
    const url = u.toString()
    const dir = tempWorkdir("dossier-ipv6-")
    const bound = ok(runCli(["init", "--store", url, "--dossier", "v6", "--workdir", dir, "--json"]))
    expect(bound.store).toMatchObject({ url, dossier: "v6" })
    expect(ok(runCli(["store", "status", "--workdir", dir, "--json"])).store).toMatchObject({
      url,
      reachable: true,
      exists: true
    })
    expect(ok(runCli(["journal", "list", "--workdir", dir, "--json"])).studies).toEqual([])
  }, 120_000)
})
