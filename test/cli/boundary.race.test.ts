/**
 * The boundary under concurrent swaps (issue 13, item 1). A helper process
 * (test/fixtures/swap.py) exchanges a directory of the work folder with a symlink to an outside
 * folder over and over (renameat2 RENAME_EXCHANGE), while dossier reads and writes below that
 * directory: through FileStoreLive directly (thousands of operations), and through the built CLI
 * (journal rebuild and append, plan checkpoint, the gate's state write) and the ingest service
 * (retention). Every answer must be a success or a typed refusal, no byte outside may change,
 * and nothing read may come from outside. Bounded in rounds and in time.
 *
 * A real swapper's timing depends on the scheduler: on the code before the boundary primitive the
 * FileStore test saw outside reads in every run (1 to 13 per run on a loaded machine), the CLI
 * tests rarely catch one in their few rounds. test/foundation/boundary.interleave.test.ts makes
 * the same race deterministic (a swap right before each file-system call).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { makeFileStoreLive } from "../../src/layers/FileStoreLive.js"
import { Ingest } from "../../src/services/Ingest.js"
import { folder, NOW, parkedMaturity } from "../gate/support.js"
import { httpLayer, ingestLayer, loopbackForTests, recorder, startServer, type TestServer } from "../ingest/support.js"
import { leaksNothing, put, putInput, runCli, snapshot, tempWorkdir } from "../support/cli.js"

const SWAP = path.resolve(__dirname, "../fixtures/swap.py")
/** Upper bounds of each scenario: whichever is reached first ends it. */
const SECONDS = 6
const CLI_ROUNDS = 14

const python =
  spawnSync("python3", ["-c", "import ctypes; ctypes.CDLL(None).renameat2"], { stdio: "ignore" }).status === 0
if (!python) console.log("boundary.race: skipped, python3 with renameat2 is not available to run the swapper")

interface Swapper {
  readonly stop: () => Promise<void>
}

/**
 * Start swapping `a` and `b`; resolves once the swapper has swapped once (and back).
 * `continuous` swaps as fast as it can; `pulse` shows the symlink only for an instant, so that a
 * command's checks mostly pass and a use by path right after one would follow the symlink (a CLI
 * command makes several path operations, each of which refuses half the time when swapped
 * continuously).
 */
const swapping = (
  a: string,
  b: string,
  mode: "continuous" | "pulse" = "pulse",
  seconds = SECONDS + 30
): Promise<Swapper> =>
  new Promise((resolve, reject) => {
    const child: ChildProcess = spawn("python3", [SWAP, a, b, String(seconds), mode], {
      stdio: ["ignore", "pipe", "inherit"]
    })
    let out = ""
    const exited = new Promise<void>((done) => child.on("exit", () => done()))
    child.stdout!.on("data", (d) => {
      out += d
      if (out.includes("ready")) resolve({ stop: () => (child.kill("SIGTERM"), exited) })
      else if (out.includes("fail") || out.includes("no renameat2")) reject(new Error(out))
    })
  })

/** Everything under a folder, by path: digest of each file (and symlinks, other entries). */
const tree = (dir: string) => snapshot(dir)

const sha = (b: string | Uint8Array) => createHash("sha256").update(b).digest("hex")

/** An answer the contract allows: a success, or a typed refusal (exit 1 with an error tag that is not a defect). */
const allowed = (dir: string, r: ReturnType<typeof runCli>) => {
  expect(leaksNothing(dir, r), r.stdout + r.stderr).toBe(true)
  expect([0, 1], r.stdout + r.stderr).toContain(r.code)
  if (r.code === 0) expect(r.json?.ok).toBe(true)
  else {
    // Any refusal of the catalogue (a gate state already researched is NotResearchable…), never a defect.
    expect(r.json?.error?._tag, r.stdout).toMatch(/^[A-Z][A-Za-z]+$/)
    expect(r.json?.error?._tag, r.stdout).not.toBe("Defect")
  }
  return r
}

/** `dir/<inside>` is a directory, `dir/<link>` a symlink to a copy of it outside; returns the outside folder. */
const outsideCopy = (dir: string, inside: string, link: string, strip: ReadonlyArray<string> = []) => {
  const outside = tempWorkdir("dossier-outside-")
  fs.cpSync(path.join(dir, inside), path.join(outside, "copy"), { recursive: true })
  for (const name of strip) fs.rmSync(path.join(outside, "copy", name), { force: true })
  fs.symlinkSync(path.join(outside, "copy"), path.join(dir, link))
  return outside
}

describe.skipIf(!python)("the boundary holds under concurrent swaps", () => {
  it("FileStoreLive: thousands of reads and writes below a swapped directory touch nothing outside", async () => {
    const dir = tempWorkdir()
    put(dir, "a/f.txt", "inside")
    put(dir, "a/log", "")
    const outside = tempWorkdir("dossier-outside-")
    put(outside, "f.txt", "OUTSIDE")
    put(outside, "log", "")
    put(outside, "only-outside", "x")
    fs.symlinkSync(outside, path.join(dir, "b"))
    const before = tree(outside)
    const store = makeFileStoreLive(dir)
    const swapper = await swapping(path.join(dir, "a"), path.join(dir, "b"), "continuous")
    const outsideReads: Array<string> = []
    const defects: Array<string> = []
    const deadline = Date.now() + SECONDS * 1000
    let succeeded = 0
    try {
      for (let i = 0; i < 4000 && Date.now() < deadline; i++) {
        const results: Array<Exit.Exit<string | null, unknown>> = [
          Effect.runSyncExit(Effect.map(store.readText("a/f.txt"), (t) => (t === "inside" ? null : `read:${t}`))),
          Effect.runSyncExit(
            Effect.map(store.list("a"), (es) => (es.some((e) => e.name === "only-outside") ? "list" : null))
          ),
          Effect.runSyncExit(Effect.as(store.writeAtomic(`a/w${i % 7}.json`, "{}"), null)),
          Effect.runSyncExit(Effect.as(store.append("a/log", "l\n"), null)),
          Effect.runSyncExit(Effect.as(store.writeRetained(`a/r${i % 5}`, "retained"), null)),
          Effect.runSyncExit(Effect.as(store.ensureDir(`a/d${i % 3}`), null)),
          Effect.runSyncExit(Effect.as(store.remove(`a/w${(i + 3) % 7}.json`), null))
        ]
        for (const r of results) {
          if (Exit.isSuccess(r)) {
            succeeded++
            if (r.value !== null) outsideReads.push(r.value)
          } else if (r.cause._tag !== "Fail") defects.push(String(r.cause))
        }
      }
    } finally {
      await swapper.stop()
    }
    expect(succeeded).toBeGreaterThan(0)
    expect(defects).toEqual([])
    expect(outsideReads).toEqual([])
    expect(tree(outside)).toEqual(before)
  }, 60_000)

  it("journal rebuild and append below a swapped study folder write nothing outside", async () => {
    const dir = tempWorkdir()
    const first = runCli([
      "journal",
      "append",
      "--workdir",
      dir,
      "--study",
      "s",
      "--json",
      "--input",
      putInput(dir, "b0.json", [{ id: "c0", type: "candidate_created", candidate: { id: "k0", title: "T" } }])
    ])
    expect(first.code, first.stdout).toBe(0)
    expect(runCli(["journal", "rebuild", "--workdir", dir, "--study", "s", "--json"]).code).toBe(0)
    const outside = outsideCopy(dir, "research/s", "research/t", ["index.json", "manifest.json"])
    const before = tree(outside)
    const inputs = Array.from(
      { length: CLI_ROUNDS },
      (_, i) =>
        putInput(dir, `b${i + 1}.json`, [{
          id: `c${i + 1}`,
          type: "candidate_created",
          candidate: { id: `k${i + 1}`, title: "T" }
        }])
    )
    const swapper = await swapping(path.join(dir, "research/s"), path.join(dir, "research/t"))
    const deadline = Date.now() + SECONDS * 1000
    try {
      for (let i = 0; i < CLI_ROUNDS && Date.now() < deadline; i++) {
        allowed(dir, runCli(["journal", "rebuild", "--workdir", dir, "--study", "s", "--json"]))
        allowed(dir, runCli(["journal", "append", "--workdir", dir, "--study", "s", "--json", "--input", inputs[i]!]))
      }
    } finally {
      await swapper.stop()
    }
    expect(tree(outside)).toEqual(before)
  }, 120_000)

  it(
    "plan checkpoint registers the inside file's digest, never the outside one's, while research/sources is swapped",
    async () => {
      const dir = tempWorkdir()
      expect(
        runCli([
          "plan",
          "start",
          "--workdir",
          dir,
          "--json",
          "--input",
          putInput(dir, "start.json", { goal: "g", limits: [], nextAction: "n" })
        ]).code
      ).toBe(0)
      for (let i = 0; i < CLI_ROUNDS; i++) put(dir, `research/sources/x${i}.md`, `inside ${i}\n`)
      const outside = outsideCopy(dir, "research/sources", "research/elsewhere")
      for (let i = 0; i < CLI_ROUNDS; i++) fs.writeFileSync(path.join(outside, "copy", `x${i}.md`), `OUTSIDE ${i}\n`)
      const before = tree(outside)
      const inputs = Array.from({ length: CLI_ROUNDS }, (_, i) =>
        putInput(dir, `cp${i}.json`, {
          sources: [{ path: `research/sources/x${i}.md`, origin: "https://example.test/x" }]
        }))
      let revision = 1
      const swapper = await swapping(path.join(dir, "research/sources"), path.join(dir, "research/elsewhere"))
      const deadline = Date.now() + SECONDS * 1000
      try {
        for (let i = 0; i < CLI_ROUNDS && Date.now() < deadline; i++) {
          const r = allowed(
            dir,
            runCli([
              "plan",
              "checkpoint",
              "--workdir",
              dir,
              "--json",
              "--input",
              inputs[i]!,
              "--expected",
              String(revision),
              "--now",
              NOW
            ])
          )
          if (r.code === 0) {
            revision = r.json.revision
          }
        }
      } finally {
        await swapper.stop()
      }
      const plan = runCli(["plan", "inspect", "--workdir", dir, "--json"]).json
      for (const s of plan.plan?.sources ?? plan.sources ?? []) {
        expect(s.sha256).toBe(sha(fs.readFileSync(path.join(dir, s.path))))
      }
      expect(tree(outside)).toEqual(before)
    },
    120_000
  )

  it("the gate's state write below a swapped run folder writes nothing outside", async () => {
    const f = folder()
    f.writeState(parkedMaturity([{ id: "b1", category: "description" }]))
    f.writeResearch({ item: "PROJ-12", kind: "maturity", gaps: [] })
    const outside = outsideCopy(f.dir, "run", "run-elsewhere")
    const before = tree(outside)
    const swapper = await swapping(path.join(f.dir, "run"), path.join(f.dir, "run-elsewhere"))
    const deadline = Date.now() + SECONDS * 1000
    try {
      for (let i = 0; i < CLI_ROUNDS && Date.now() < deadline; i++) {
        allowed(f.dir, runCli(["gate", "--state", "run/state.json", "--now", NOW, "--json"], { cwd: f.dir }))
      }
    } finally {
      await swapper.stop()
    }
    expect(tree(outside)).toEqual(before)
  }, 120_000)

  describe("ingest retention below a swapped research/sources", () => {
    let server: TestServer
    beforeAll(async () => {
      server = await startServer(
        Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`/p${i}`, (_req: unknown, res: any) => {
          res.writeHead(200, { "content-type": "text/plain; charset=utf-8" })
          res.end(`page ${i}\n`)
        }]))
      )
    })
    afterAll(() => server.close())

    it("writes both retained files and the capture log inside or refuses", async () => {
      const dir = tempWorkdir()
      put(dir, "research/sources/.keep", "")
      const outside = outsideCopy(dir, "research/sources", "research/elsewhere")
      const before = tree(outside)
      const layer = ingestLayer(dir, httpLayer(recorder(), { "site.test": ["127.0.0.1"] }, loopbackForTests))
      const swapper = await swapping(path.join(dir, "research/sources"), path.join(dir, "research/elsewhere"))
      const deadline = Date.now() + SECONDS * 1000
      const defects: Array<string> = []
      try {
        for (let i = 0; i < 40 && Date.now() < deadline; i++) {
          const exit = await Effect.runPromiseExit(
            Effect.flatMap(Ingest, (ing) => ing.capture(`http://site.test:${server.port}/p${i}`)).pipe(
              Effect.provide(layer)
            )
          )
          if (Exit.isFailure(exit) && exit.cause._tag !== "Fail") defects.push(String(exit.cause))
        }
      } finally {
        await swapper.stop()
      }
      expect(defects).toEqual([])
      expect(tree(outside)).toEqual(before)
    }, 120_000)
  })
})
