/**
 * SQL only through parameterized statements (spec store.md, "Guarantees"). Every statement of
 * src/ goes through @effect/sql's `sql` template, whose interpolations are bound parameters; the
 * only text sent as it is written is fixed: the migration DDL (constants), the transaction's
 * `BEGIN`/`COMMIT`/`ROLLBACK`, and the `BEGIN` that takes the dossier's advisory lock, whose key is
 * a number the server computed from a parameterized statement (checked to be digits). This test
 * reads the source: a new call that sends text as it is (`unsafe`, `executeUnprepared`,
 * `executeRaw`, `executeValues`, `sql.literal`, an identifier helper `sql(…)`) fails here until it
 * is looked at and listed, with why it is safe.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"

const SRC = path.join(__dirname, "..", "..", "src")

const sources = (dir: string): ReadonlyArray<string> =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name)
    return e.isDirectory() ? sources(p) : e.name.endsWith(".ts") ? [p] : []
  })

/** Calls that send SQL text as it is written. */
const RAW = /\.(?:unsafe|executeUnprepared|executeRaw|executeValues|literal)\(|\bsql\(/g

/** Each raw call of src/, by file, with why it is safe. */
const ALLOWED: ReadonlyArray<readonly [string, string]> = [
  // The key is a parameter; the answer is checked to be digits before `beginLockedText` uses it.
  [
    "layers/postgres/PgLock.ts",
    `conn.executeUnprepared("SELECT hashtextextended($1, 0)::text AS key", [lockName(dossier)], undefined)`
  ],
  ["layers/postgres/PgLock.ts", "conn.executeUnprepared(beginLockedText(k), [], undefined)"],
  [
    "layers/postgres/PgLock.ts",
    `conn.executeUnprepared("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY", [], undefined)`
  ],
  ["layers/postgres/PgLock.ts", `sql.unsafe("SELECT pg_cancel_backend($1)", [pid])`],
  ["layers/postgres/PgLock.ts", `conn.executeUnprepared("COMMIT", [], undefined)`],
  ["layers/postgres/PgLock.ts", `conn.executeUnprepared("ROLLBACK", [], undefined)`],
  // The migration DDL: constant statements of MIGRATIONS.
  ["layers/postgres/PgSchema.ts", "sql.unsafe(statement)"]
]

/** The call at `at` in `text` (from its receiver's name), up to its closing parenthesis. */
const callAt = (text: string, at: number): string => {
  let depth = 0
  for (let i = text.indexOf("(", at); i < text.length; i++) {
    if (text[i] === "(") depth++
    if (text[i] === ")" && --depth === 0) {
      let start = at
      while (start > 0 && /[\w.]/.test(text[start - 1]!)) start--
      return text.slice(start, i + 1).replace(/\s+/g, " ").trim()
    }
  }
  return text.slice(at)
}

describe("SQL only through parameterized statements", () => {
  it("every call of src/ that sends SQL text as it is written is a listed, fixed one", () => {
    const found: Array<readonly [string, string]> = []
    for (const file of sources(SRC)) {
      // Comments are prose, not calls.
      const text = fs.readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "")
      for (const m of text.matchAll(RAW)) {
        found.push([path.relative(SRC, file).split(path.sep).join("/"), callAt(text, m.index!)])
      }
    }
    expect(found.filter(([file]) => file.includes("postgres") || file.includes("Store"))).toEqual(ALLOWED)
    // Outside the store's modules nothing sends SQL (SQLite's lock file runs no statement with input).
    expect(found.filter(([file]) => !(file.includes("postgres") || file.includes("Store")))).toEqual([])
  })

  it("the lock's BEGIN takes a key only once the server's answer is checked to be a number", () => {
    const text = fs.readFileSync(path.join(SRC, "layers/postgres/PgLock.ts"), "utf8")
    expect(text).toContain("!/^-?[0-9]{1,20}$/.test(k)")
    expect(text).toContain("const beginLockedText = (k: string) => `BEGIN; SELECT pg_advisory_xact_lock(${k})`")
  })
})
