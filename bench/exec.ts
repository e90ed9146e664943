/**
 * Benchmarks of confined execution (see bench/support.ts). Baseline: a bare `bwrap … true` with
 * the same namespaces and mounts, spawned from Node and awaited. Against it: the Sandbox service
 * starting a confined `true` (wrapper, pids cgroup when root, env and prlimit inside, watchdog),
 * the whole Exec service in process (admission under the lock, in-flight marker, work-root scans,
 * the run, stdout/stderr and the sealed record, each fsynced), and `dossier exec` through the
 * CLI (the CLI's own start is most of it). Runs are interleaved so both sides see the same load.
 */
import * as Effect from "effect/Effect"
import * as ManagedRuntime from "effect/ManagedRuntime"
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { bwrapArgs, ETC_FILES, SYSTEM_DIRS } from "../src/domain/Execution.js"
import { ExecLayer } from "../src/layers/ExecLayer.js"
import { Exec } from "../src/services/Exec.js"
import { Grants } from "../src/services/Grants.js"
import { Sandbox } from "../src/services/Sandbox.js"
import { CLI, counts, median, record, tempDir } from "./support.js"

const run = (cmd: string, args: ReadonlyArray<string>) =>
  new Promise<void>((resolve, reject) => {
    const c = spawn(cmd, args, { stdio: "ignore" })
    c.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited ${code}`))))
  })

const ms = async (f: () => Promise<unknown>) => {
  const t = process.hrtime.bigint()
  await f()
  return Number(process.hrtime.bigint() - t) / 1e6
}

export const benchExec = async (): Promise<void> => {
  if (spawnSync("bwrap", ["--version"]).status !== 0) {
    console.log("  SKIPPED: bubblewrap is not installed")
    return
  }
  const dir = tempDir("dossier-bench-exec-")
  // The key that signs the records goes to a config directory of the bench's own, not the user's
  // (the CLI rows inherit it).
  process.env["XDG_CONFIG_HOME"] = tempDir("dossier-bench-config-")
  fs.mkdirSync(path.join(dir, "research/b/data"), { recursive: true })
  fs.writeFileSync(path.join(dir, "research/b/data/x.csv"), "1,2\n")
  const runtime = ManagedRuntime.make(ExecLayer(dir))
  try {
    const { grant } = await runtime.runPromise(Effect.flatMap(Grants, (g) =>
      g.create({
        id: "bench",
        task: "bench",
        inputs: ["research/b/data"],
        work: "research/b/runs/w",
        tools: ["read", "bash"],
        budget: { runs: 100_000, wallSeconds: 10_000_000, cpuSeconds: 10_000_000, memoryMiB: 1024, outputMiB: 1024 },
        deadline: "2099-01-01T00:00:00Z"
      })))
    const limits = { wallSeconds: 60, cpuSeconds: 60, memoryMiB: 1024, processes: 256, fileMiB: 64 }
    const system = SYSTEM_DIRS.filter((p) => fs.existsSync(p)).map((p) => {
      const st = fs.lstatSync(p)
      return { path: p, link: st.isSymbolicLink() ? fs.readlinkSync(p) : null }
    })
    const etc = ETC_FILES.filter((p) => fs.existsSync(p))
    // The same namespaces and mounts, running true directly (no wrapper, env or prlimit).
    const full = bwrapArgs({
      root: dir,
      grant,
      argv: ["true"],
      limits,
      system,
      etc,
      masks: [],
      prlimit: "/usr/bin/prlimit",
      env: "/usr/bin/env"
    })
    const bare = [...full.slice(0, full.indexOf("--")), "--", "/usr/bin/true"]
    const sandboxRun = () =>
      runtime.runPromise(
        Effect.flatMap(Sandbox, (s) =>
          s.run({ root: dir, grant, argv: ["true"], limits, masks: [] }, {
            echo: false,
            check: () => Effect.succeed(null)
          }))
      )
    const execRun = () => runtime.runPromise(Effect.flatMap(Exec, (x) => x.run("bench", ["true"])))
    const cliRun = () =>
      run(process.execPath, [CLI, "exec", "--grant", "bench", "--workdir", dir, "--json", "--", "true"])
    const bareRun = () => run("bwrap", bare)

    for (let i = 0; i < counts.exec.warmup; i++) {
      await bareRun()
      await sandboxRun()
      await execRun()
      await cliRun()
    }
    const t = {
      bare: [] as Array<number>,
      sandbox: [] as Array<number>,
      exec: [] as Array<number>,
      cli: [] as Array<number>,
      bare2: [] as Array<number>
    }
    for (let i = 0; i < counts.exec.runs; i++) {
      t.bare.push(await ms(bareRun))
      t.sandbox.push(await ms(sandboxRun))
      t.bare2.push(await ms(bareRun))
      t.exec.push(await ms(execRun))
      t.cli.push(await ms(cliRun))
    }
    const baseline = median([...t.bare, ...t.bare2])
    record({
      name: "exec: Sandbox service starts a confined true",
      ms: median(t.sandbox),
      baseline: "bare bwrap true, same mounts",
      baselineMs: baseline,
      target: 3
    })
    record({
      name: "exec: Exec service, true with evidence",
      ms: median(t.exec),
      baseline: "bare bwrap true, same mounts",
      baselineMs: baseline,
      note: "lock, marker, scans, 4 fsynced writes"
    })
    record({
      name: "exec: dossier exec -- true (CLI)",
      ms: median(t.cli),
      baseline: "bare bwrap true, same mounts",
      baselineMs: baseline,
      note: "includes the CLI's start"
    })
  } finally {
    await runtime.dispose()
  }
}
