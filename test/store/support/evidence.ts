/**
 * Grants and execution records in a work folder, for the transfer tests (test/store): two grants
 * made through the built CLI, one narrowed and one revoked (so both have events), and one
 * execution record with its logs — from a real `dossier exec` when bubblewrap can start a
 * sandbox here, else written with the folder adapter (an unsigned record, as an older dossier
 * wrote). The grants' roots are under `research/exp/`: files local to the host, never copied.
 */
import * as Effect from "effect/Effect"
import { executionPaths } from "../../../src/domain/Execution.js"
import { makeFileStoreLive } from "../../../src/layers/FileStoreLive.js"
import { makeExecutionStoreFolder } from "../../../src/layers/folder/ExecutionStoreFolder.js"
import { recordOf } from "../../../src/testing/GrantStoreConformance.js"
import { sandboxWorks } from "../../exec/support.js"
import { put, putInput, runCli } from "../../support/cli.js"
import { NOW, ok } from "./populated.js"

/** Where the grants' roots are: local files a transfer does not copy. */
export const GRANT_ROOTS = "research/exp/"

const grant = (id: string, work: string) => ({
  id,
  task: `task of ${id}`,
  inputs: ["research/exp/data"],
  work,
  protected: [],
  tools: ["read", "bash"],
  budget: { runs: 20, wallSeconds: 120, cpuSeconds: 120, memoryMiB: 256, outputMiB: 16 },
  deadline: "2030-01-01T00:00:00Z"
})

/** Add the grants and the execution record to `dir`; answers the execution's id. */
export const addEvidence = async (dir: string): Promise<string> => {
  put(dir, "research/exp/data/train.csv", "a,b\n1,2\n")
  const cli = (args: ReadonlyArray<string>) => ok(runCli([...args, "--workdir", dir, "--json"]))
  cli(["grant", "create", "--input", putInput(dir, "g1.json", grant("g1", "research/exp/runs/r1")), "--now", NOW])
  cli([
    "grant",
    "narrow",
    "--grant",
    "g1",
    "--input",
    putInput(dir, "narrow.json", { budget: { runs: 10 }, reason: "fewer runs" }),
    "--now",
    NOW
  ])
  cli(["grant", "create", "--input", putInput(dir, "g2.json", grant("g2", "research/exp/runs/r2")), "--now", NOW])
  cli(["grant", "revoke", "--grant", "g2", "--reason", "done", "--now", NOW])
  if (sandboxWorks) {
    // The flags go before `--`: what follows it is the program's.
    const argv = ["/bin/sh", "-c", "echo out; echo err >&2; echo 1 > result.txt"]
    return ok(runCli(["exec", "--grant", "g1", "--workdir", dir, "--json", "--", ...argv])).execution.id as string
  }
  const record = recordOf("x-20261208T100000-0000000a", "g1")
  const executions = makeExecutionStoreFolder(makeFileStoreLive(dir))
  await Effect.runPromise(Effect.all([
    executions.put(record),
    executions.putLog(executionPaths(record.id).stdout, new TextEncoder().encode("ok\n")),
    executions.putLog(executionPaths(record.id).stderr, new Uint8Array(0))
  ]))
  return record.id
}

/** What the grant and exec commands answer in `dir`. */
export const evidenceAnswers = (dir: string, execution: string) => {
  const cli = (args: ReadonlyArray<string>) => runCli([...args, "--workdir", dir, "--json"]).json
  return {
    list: cli(["grant", "list", "--now", NOW]),
    g1: cli(["grant", "show", "--grant", "g1", "--now", NOW]),
    g2: cli(["grant", "show", "--grant", "g2", "--now", NOW]),
    execution: cli(["exec", "show", "--execution", execution])
  }
}
