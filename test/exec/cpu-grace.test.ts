/**
 * CPU used between the watchdog's SIGTERM and its SIGKILL is charged, through the built CLI: the
 * watchdog samples the tree until every process of the run is gone.
 */
import { describe, expect, it } from "@effect/vitest"
import { budget, createGrant, D, folder, ok, sandboxWorks } from "./support.js"

/**
 * Two children burn 0.55 CPU seconds each and are reaped: the tree then idles just beyond its
 * 1 s limit, so the watchdog's figure when it sends SIGTERM is about 1.1 s. The program ignores
 * SIGTERM and starts four burners, which run through the grace period until SIGKILL (or until
 * RLIMIT_CPU ends each at its own second).
 */
const GRACE_BURN = String.raw`
my $term = 0; $SIG{TERM} = sub { $term = 1 };
for (1..2) { if (fork() == 0) { $SIG{TERM} = "IGNORE"; 1 while (times)[0] + (times)[1] < 0.55; exit 0 } }
1 while wait() != -1;
sleep 1 until $term;
for (1..4) { if (fork() == 0) { $SIG{TERM} = "IGNORE"; 1 while 1 } }
1 while wait() != -1;
sleep 1 while 1;
`

describe.skipIf(!sandboxWorks)("CPU in the grace period", () => {
  it("a program that ignores SIGTERM and burns CPU until SIGKILL is charged that CPU, beyond its 1 s limit", () => {
    const dir = folder()
    createGrant(dir, { budget: budget({ cpuSeconds: 1 }) })
    const r = D(dir, ["exec", "--grant", "g1", "--", "perl", "-e", GRACE_BURN])
    const x = r.json.execution
    expect(x).toMatchObject({ status: "killed", reason: "cpu-time", signal: "SIGKILL" })
    expect(x.cpuSeconds).toBeGreaterThan(1.6)
    // The grant is charged what the record says.
    expect(ok(dir, ["grant", "show", "--grant", "g1"]).remaining.cpuSeconds).toBe(0)
  }, 60_000)
})
