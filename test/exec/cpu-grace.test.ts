/**
 * CPU used between the watchdog's SIGTERM and its SIGKILL is charged, through the built CLI: the
 * watchdog samples the tree until every process of the run is gone.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { budget, createGrant, D, folder, ok, sandboxWorks } from "./support.js"

/**
 * Two children burn 0.55 CPU seconds each and are reaped: the tree then idles just beyond its
 * 1 s limit, so the watchdog's figure when it sends SIGTERM is about 1.1 s. The program ignores
 * SIGTERM and starts four burners, which run through the grace period until SIGKILL (or until
 * RLIMIT_CPU ends each at its own second). Each burner writes the CPU time it has used so far to
 * `burn-<n>` in the work folder (the run's current directory) every 20 ms of it, so the test knows
 * a lower bound of the grace period's CPU however little of it a loaded machine gave them.
 */
const GRACE_BURN = String.raw`
my $term = 0; $SIG{TERM} = sub { $term = 1 };
for (1..2) { if (fork() == 0) { $SIG{TERM} = "IGNORE"; 1 while (times)[0] + (times)[1] < 0.55; exit 0 } }
1 while wait() != -1;
sleep 1 until $term;
for my $n (1..4) { if (fork() == 0) { $SIG{TERM} = "IGNORE"; my $last = 0;
  while (1) { my ($u, $s) = times; next if $u + $s - $last < 0.02; $last = $u + $s;
    open(my $f, ">", "burn-$n.tmp") or die; print $f $last; close $f; rename "burn-$n.tmp", "burn-$n" } } }
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
    // Charged beyond the 1.1 s used before SIGTERM by at least half what the burners say they used
    // after it: the watchdog samples every 500 ms, so the last part of the 2 s grace period before
    // SIGKILL may go unseen (the record is a lower bound), and a loaded machine gives the burners
    // less CPU than a quiet one (0.4 s at a load of 15), so the figure is read, not assumed.
    const work = path.join(dir, "research/exp/runs/r1")
    const grace = [1, 2, 3, 4].reduce((sum, n) => {
      const file = path.join(work, `burn-${n}`)
      return sum + (fs.existsSync(file) ? Number(fs.readFileSync(file, "utf8")) : 0)
    }, 0)
    expect(grace).toBeGreaterThan(0.1)
    expect(x.cpuSeconds).toBeGreaterThanOrEqual(1.1 + grace / 2)
    // The grant is charged what the record says.
    expect(ok(dir, ["grant", "show", "--grant", "g1"]).remaining.cpuSeconds).toBe(0)
  }, 60_000)
})
