/**
 * A throwaway PostgreSQL cluster for the store's tests, never a server started by hand.
 *
 * - `DOSSIER_TEST_PG` set (a `postgres://` URL of a server the tests may create databases on):
 *   every test file gets a fresh database there (`CREATE DATABASE`), dropped at the end.
 * - Otherwise the server binaries are looked up (`initdb` on PATH, else Debian's
 *   `/usr/lib/postgresql/<v>/bin`, the newest version), and each test file that asks starts its
 *   own cluster: a copy of the run's one `initdb` (test/support/pgTemplate.ts) in a temporary
 *   folder, a free port on 127.0.0.1, the socket in that folder, trust authentication for the
 *   test's own connections, no fsync (the machine does not crash under a test; a server crash
 *   keeps every commit). As root, the cluster runs as the `postgres` user (PostgreSQL refuses
 *   root), the folder owned by it.
 * - Neither: `pgAvailable` is false; suites `describe.skipIf(!pgAvailable)` and print one line.
 *
 * CI (`.ci/run`) installs Debian's `postgresql` package when `initdb` cannot be found.
 */
import { execFileSync, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import * as Pg from "pg"
import { afterAll, beforeAll } from "vitest"

/** The directory of the server binaries (`initdb`, `pg_ctl`, `postgres`), or null. */
const findBinDir = (): string | null => {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir !== "" && fs.existsSync(path.join(dir, "initdb")) && fs.existsSync(path.join(dir, "pg_ctl"))) return dir
  }
  const root = "/usr/lib/postgresql"
  if (!fs.existsSync(root)) return null
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a))
  return versions.length === 0 ? null : path.join(root, versions[0]!, "bin")
}

const externalUrl = process.env.DOSSIER_TEST_PG
const binDir = externalUrl === undefined || externalUrl === "" ? findBinDir() : null
const isRoot = typeof process.getuid === "function" && process.getuid() === 0

/** Whether the PostgreSQL suites can run here. */
export const pgAvailable = (externalUrl !== undefined && externalUrl !== "") || binDir !== null

/** The one-line note a skipped suite prints. */
export const pgSkipNote =
  "PostgreSQL tests skipped: no server binaries (install Debian's `postgresql`) and no DOSSIER_TEST_PG."

if (!pgAvailable) console.warn(pgSkipNote)

/** A free TCP port on 127.0.0.1 (the kernel's choice; released just before the cluster binds it). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

/** Run one server binary, as the `postgres` user when we are root. */
const runBin = (bin: string, args: ReadonlyArray<string>, options: { readonly allowFail?: boolean } = {}) => {
  const file = path.join(binDir!, bin)
  const [cmd, argv] = isRoot ? ["runuser", ["-u", "postgres", "--", file, ...args]] : [file, [...args]]
  const r = spawnSync(cmd, argv, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
  if (r.status !== 0 && options.allowFail !== true) {
    throw new Error(`${bin} ${args.join(" ")} failed (${r.status}): ${r.stderr || r.stdout}`)
  }
  return r
}

export interface Cluster {
  /** The superuser URL of the maintenance database (`postgres`), over TCP on 127.0.0.1. */
  readonly adminUrl: string
  readonly port: number
  /** The folder holding the data directory and the socket (null for `DOSSIER_TEST_PG`). */
  readonly dir: string | null
  /** Stop the server (`immediate`: as a crash would; the data stays, `start` brings it back). */
  readonly stop: (mode?: "fast" | "immediate") => void
  /** Start it again on the same port, folder and addresses. */
  readonly start: () => void
  /** Stop it for good and remove its folder. */
  readonly destroy: () => void
}

export interface ClusterOptions {
  /** More addresses to listen on beside 127.0.0.1 (the network-namespace tests' own addresses). */
  readonly listen?: ReadonlyArray<string>
  /** Client addresses (beside 127.0.0.1) whose connections are trusted (`pg_hba.conf`, a /32 each). */
  readonly clients?: ReadonlyArray<string>
}

const initdb = (data: string) =>
  runBin("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "--encoding=UTF8", "--locale=C"])

/**
 * The run's template data directory (test/support/pgTemplate.ts), made by `initdb` in the first
 * file that needs it: that file takes `initdb.lock` (mkdir is atomic), the others wait for
 * `ready` (or `failed`, with the reason). Null when the run has none (a file run outside vitest's
 * set-up), and each cluster then runs `initdb` itself.
 */
const templateData = async (): Promise<string | null> => {
  const root = process.env["DOSSIER_TEST_PG_TEMPLATE"]
  if (root === undefined || root === "" || !fs.existsSync(root)) return null
  const data = path.join(root, "data")
  const ready = path.join(root, "ready")
  const failed = path.join(root, "failed")
  let owner = true
  try {
    fs.mkdirSync(path.join(root, "initdb.lock"))
  } catch {
    owner = false
  }
  if (owner) {
    try {
      if (isRoot) execFileSync("chown", ["postgres:postgres", root])
      initdb(data)
      fs.writeFileSync(ready, "")
    } catch (e) {
      fs.writeFileSync(failed, String(e))
      throw e
    }
    return data
  }
  const deadline = Date.now() + 120_000
  while (!fs.existsSync(ready)) {
    if (fs.existsSync(failed)) throw new Error(`initdb of the template failed: ${fs.readFileSync(failed, "utf8")}`)
    if (Date.now() > deadline) throw new Error("the template data directory was not ready within 120 s")
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return data
}

/** Start a throwaway cluster (only without `DOSSIER_TEST_PG`). */
export const startCluster = async (options: ClusterOptions = {}): Promise<Cluster> => {
  if (binDir === null) throw new Error(pgSkipNote)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dossier-pg-"))
  const data = path.join(dir, "data")
  if (isRoot) execFileSync("chown", ["postgres:postgres", dir])
  const template = await templateData()
  // A copy of the template is what `initdb` would make here: the same options, an empty cluster.
  if (template === null) initdb(data)
  else execFileSync("cp", ["-a", template, data])
  // Host connections from the test's client addresses (a /32 each) are trusted as well.
  const hba = path.join(data, "pg_hba.conf")
  const extra = (options.clients ?? []).map((a) => `host all all ${a}/32 trust\n`).join("")
  if (extra !== "") {
    fs.appendFileSync(hba, extra)
  }
  const port = await freePort()
  const listen = ["127.0.0.1", ...(options.listen ?? [])].join(",")
  const serverOptions = [
    `-p ${port}`,
    `-k ${dir}`,
    `-c listen_addresses=${listen}`,
    // No fsync: the machine does not crash under a test. Commits still reach the WAL before they
    // are answered (synchronous_commit stays on), so an immediate stop keeps every commit.
    "-c fsync=off",
    "-c max_connections=200"
  ].join(" ")
  const log = path.join(dir, "server.log")
  const start = () => {
    runBin("pg_ctl", ["-D", data, "-l", log, "-o", serverOptions, "-w", "-t", "60", "start"])
  }
  const stop = (mode: "fast" | "immediate" = "fast") => {
    runBin("pg_ctl", ["-D", data, "-m", mode, "-w", "-t", "60", "stop"], { allowFail: true })
  }
  start()
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    stop,
    start,
    destroy: () => {
      stop("immediate")
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** Run SQL as the administrator (a one-off connection). */
export const adminQuery = async (adminUrl: string, text: string, values: ReadonlyArray<unknown> = []) => {
  const client = new Pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    return await client.query(text, [...values])
  } finally {
    await client.end()
  }
}

export interface TestDatabase {
  /** The URL of a fresh, empty database for this test file. */
  readonly url: string
  readonly name: string
  /** The cluster when this file started its own (null with `DOSSIER_TEST_PG`). */
  readonly cluster: Cluster | null
  /** Drop the database (and stop this file's cluster). */
  readonly close: () => Promise<void>
}

let counter = 0

/** A URL's database replaced by `name`. */
export const withDatabase = (url: string, name: string): string => {
  const u = new URL(url)
  u.pathname = `/${name}`
  return u.toString()
}

/**
 * A fresh database for one test file: on `DOSSIER_TEST_PG`'s server, or on a cluster of the
 * file's own. Call in `beforeAll`, `close` in `afterAll`.
 */
export const openTestDatabase = async (options: ClusterOptions = {}): Promise<TestDatabase> => {
  const name = `dossier_test_${process.pid}_${Date.now().toString(36)}_${counter++}`
  if (externalUrl !== undefined && externalUrl !== "") {
    await adminQuery(externalUrl, `CREATE DATABASE ${Pg.escapeIdentifier(name)}`)
    return {
      url: withDatabase(externalUrl, name),
      name,
      cluster: null,
      close: async () => {
        await adminQuery(externalUrl, `DROP DATABASE IF EXISTS ${Pg.escapeIdentifier(name)} WITH (FORCE)`)
      }
    }
  }
  const cluster = await startCluster(options)
  await adminQuery(cluster.adminUrl, `CREATE DATABASE ${Pg.escapeIdentifier(name)}`)
  return {
    url: withDatabase(cluster.adminUrl, name),
    name,
    cluster,
    close: async () => {
      cluster.destroy()
    }
  }
}

/**
 * The file's database for the tests of one `describe`: opened in its `beforeAll` (a cluster may
 * take a while to start), closed in its `afterAll`. Its fields are read when a test runs.
 */
export const useTestDatabase = (options: ClusterOptions = {}): TestDatabase => {
  let db: TestDatabase | undefined
  beforeAll(async () => {
    db = await openTestDatabase(options)
  }, 120_000)
  afterAll(async () => {
    await db?.close()
  })
  const opened = (): TestDatabase => {
    if (db === undefined) throw new Error("the test database opens in beforeAll: read it inside a test")
    return db
  }
  return {
    get url() {
      return opened().url
    },
    get name() {
      return opened().name
    },
    get cluster() {
      return opened().cluster
    },
    close: () => opened().close()
  }
}

/** A new, empty database `name` on the server of `url`: its URL, and `drop` to remove it. */
export const createDatabase = async (
  url: string,
  name: string
): Promise<{ readonly url: string; readonly drop: () => Promise<void> }> => {
  const admin = withDatabase(url, "postgres")
  await adminQuery(admin, `CREATE DATABASE ${Pg.escapeIdentifier(name)}`)
  return {
    url: withDatabase(url, name),
    drop: async () => {
      await adminQuery(admin, `DROP DATABASE IF EXISTS ${Pg.escapeIdentifier(name)} WITH (FORCE)`)
    }
  }
}

/**
 * A copy of the database `from` names (a URL on the file's server) as a new database, made by
 * PostgreSQL itself (`CREATE DATABASE … TEMPLATE`): the same rows, schema and dossiers, with none
 * of the commands that made them run again. Set-up that several tests start from and none of them
 * tests is made once in `from`, then copied per test; no session may be connected to `from` while
 * it is copied. Its URL; the copy is dropped when `drop` is called (a file's own cluster removes
 * it anyway).
 */
export const copyDatabase = async (
  from: string,
  name: string
): Promise<{ readonly url: string; readonly drop: () => Promise<void> }> => {
  const source = decodeURIComponent(new URL(from).pathname.slice(1))
  // Over the maintenance database: a session on `from` would keep it from being copied.
  const admin = withDatabase(from, "postgres")
  await adminQuery(admin, `CREATE DATABASE ${Pg.escapeIdentifier(name)} TEMPLATE ${Pg.escapeIdentifier(source)}`)
  return {
    url: withDatabase(from, name),
    drop: async () => {
      await adminQuery(admin, `DROP DATABASE IF EXISTS ${Pg.escapeIdentifier(name)} WITH (FORCE)`)
    }
  }
}
