/** The store URL (what is kept and shown never holds the password) and the password file, the libpq way. */
import { SqlError } from "@effect/sql/SqlError"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { envelopeOf } from "../../src/commands/Envelope.js"
import { parseBinding } from "../../src/domain/StoreBinding.js"
import type { StoreUnavailable } from "../../src/domain/StoreErrors.js"
import { isMalformed, parseStoreUrl } from "../../src/domain/StoreUrl.js"
import { classify, refusedByServer } from "../../src/layers/postgres/PgErrors.js"
import { passwordFromFile } from "../../src/layers/postgres/PgPassword.js"
import { DossierPostgres, type DossierPostgresOptions } from "../../src/postgres.js"
import { runCli } from "../support/cli.js"

describe("store URL", () => {
  it("keeps the parameters and drops the password from what is shown", () => {
    const r = parseStoreUrl("postgres://ann:pa%3Ass@127.0.0.1:5433/research?sslmode=verify-full&application_name=x")
    if (isMalformed(r)) throw new Error(r.malformed)
    expect(r.shown).toBe("postgres://ann@127.0.0.1:5433/research?sslmode=verify-full&application_name=x")
    expect(r.shown).not.toContain("pa")
    expect(r).toMatchObject({ host: "127.0.0.1", port: 5433, database: "research", user: "ann", hasPassword: true })
    expect(r.connect).toContain("pa%3Ass")
  })

  it("refuses what is not a PostgreSQL URL, names no host or database, carries a password, or parameters libpq refuses", () => {
    for (
      const text of [
        "",
        "127.0.0.1:5432/db",
        "mysql://h/db",
        "postgres://h/",
        "postgres:///db",
        "postgres://h:99999/db",
        "postgres://h/db?password=x",
        "postgres://h/a/b",
        "postgres://h/db?sslmode=bogus",
        "postgres://h/db?sslmode=verify-ca",
        "postgres://h/db?uselibpqcompat=true",
        "postgres://h/db?sslpassword=x",
        // A parameter the connection would not honour (a typo, or one the driver ignores or
        // reads otherwise than libpq): refused, never dropped in silence.
        "postgres://h/db?sslmod=require",
        "postgres://h/db?sslmode=require&connect_timeout=5",
        "postgres://h/db?target_session_attrs=read-write",
        "postgres://h/db?ssl=true",
        "postgres://h/db?binary=true",
        "postgres://h/db?replication=database",
        "postgres://h/db?max=1000"
      ]
    ) {
      const r = parseStoreUrl(text)
      expect(isMalformed(r), text).toBe(true)
      // A sentence, as every other message: what is wrong, then what to give; no command-line flag.
      const said = isMalformed(r) ? r.malformed : ""
      expect(said, text).toMatch(/^The store URL.*: [a-z].*\.$/)
      expect(said, text).not.toMatch(/--[a-z]/)
    }
    expect(isMalformed(parseStoreUrl("postgresql://h/db"))).toBe(false)
    expect(isMalformed(parseStoreUrl("postgres://h/db?sslmode=verify-ca&sslrootcert=ca.pem"))).toBe(false)
    expect(isMalformed(parseStoreUrl("postgres://h/db?sslmode=prefer"))).toBe(false)
    expect(isMalformed(parseStoreUrl("postgres:///db?host=/run/postgresql"))).toBe(false)
    expect(
      isMalformed(
        parseStoreUrl(
          "postgres://h/db?sslmode=verify-full&sslrootcert=ca.pem&sslcert=c.pem&sslkey=k.pem&application_name=a&fallback_application_name=b&options=-c%20geqo%3Doff&client_encoding=UTF8"
        )
      )
    ).toBe(false)
    const said = parseStoreUrl("postgres://h/db?sslmod=require")
    expect(isMalformed(said) ? said.malformed : "").toContain("'sslmod'")
  })

  it("reads libpq's Unix-socket form, user@ and no host with the socket folder in `host`, and `port`", () => {
    const socket = parseStoreUrl("postgres://ann:pw@/research?host=/run/postgresql&port=5433")
    expect(socket).toMatchObject({
      connect: "postgres://ann:pw@/research?host=/run/postgresql&port=5433",
      shown: "postgres://ann@/research?host=/run/postgresql&port=5433",
      host: "/run/postgresql",
      port: 5433,
      database: "research",
      user: "ann",
      hasPassword: true
    })
    expect(parseStoreUrl("postgres://ann@/research?host=%2Frun%2Fpostgresql")).toMatchObject({
      shown: "postgres://ann@/research?host=%2Frun%2Fpostgresql",
      host: "/run/postgresql",
      port: 5432
    })
    expect(parseStoreUrl("postgres://h:5434/db?port=7")).toMatchObject({ host: "h", port: 5434 })
    // No host anywhere: the refusal names the socket form that works.
    const none = parseStoreUrl("postgres://ann@/research")
    expect(isMalformed(none) ? none.malformed : "").toContain("postgres://user@/database?host=/socket/folder")
    for (
      const text of ["postgres:///db?host=/s&port=abc", "postgres:///db?host=/s&port=70000", "postgres://ann@/db#x"]
    ) {
      expect(isMalformed(parseStoreUrl(text)), text).toBe(true)
    }
  })
})

describe("password file", () => {
  const target = { host: "db.example", port: 5432, database: "research", user: "ann" }
  it("answers the first matching line, with wildcards and escapes", () => {
    const text = [
      "# comment",
      "other:5432:research:ann:no",
      "db.example:5432:*:bob:no",
      "db.example:*:research:ann:p\\:w\\\\d",
      "*:*:*:*:last"
    ].join("\n")
    expect(passwordFromFile(text, target)).toBe("p:w\\d")
    expect(passwordFromFile("*:*:*:*:any\n", target)).toBe("any")
    expect(passwordFromFile("db.example:5433:research:ann:x\n", target)).toBeUndefined()
    expect(passwordFromFile("malformed line\n", target)).toBeUndefined()
  })
})

describe("no password", () => {
  it("init --help names every place the password may come from: the URL, PGPASSWORD, the password file", () => {
    const help = runCli(["init", "--help"]).stdout.replace(/\s+/g, " ")
    expect(help).toContain("postgres://[user[:password]@]host")
    expect(help).toMatch(
      /from the URL \(for this init only\), PGPASSWORD or the password file \(PGPASSFILE, else ~\/\.pgpass\)/
    )
  })

  it("says that a password file others can read is ignored, and how to fix it", () => {
    const error = new SqlError({
      cause: new Error("SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string")
    })
    const mapped = classify(error, 10_000)
    expect(mapped?._tag).toBe("StoreUnavailable")
    expect((mapped as StoreUnavailable).reason).toContain("chmod 600")
  })

  it("is BindingRefused no-password in a command, never retryable: retrying without a password never helps", () => {
    for (
      const message of [
        "SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string",
        "SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a non-empty string"
      ]
    ) {
      const mapped = classify(new SqlError({ cause: new Error(message) }), 10_000)
      const e = envelopeOf(refusedByServer("plan inspect", "q1")(mapped) as Parameters<typeof envelopeOf>[0])
      expect(e, message).toMatchObject({
        _tag: "BindingRefused",
        command: "plan inspect",
        dossier: "q1",
        reason: "no-password",
        retryable: false
      })
      expect(e.message).toContain("PGPASSWORD")
      expect(e.hint).toContain("PGPASSWORD")
      expect(e.hint).toContain("~/.pgpass")
    }
  })
})

describe("a server that refuses the binding itself", () => {
  /** What a command answers for a driver failure with the SQLSTATE `code`. */
  const answered = (code: string) => {
    const cause = Object.assign(new Error("password authentication failed for user \"ann\" pw-secret"), { code })
    const mapped = classify(new SqlError({ cause }), 10_000)
    return envelopeOf(refusedByServer("journal append", "q1")(mapped) as Parameters<typeof envelopeOf>[0])
  }

  it("credentials (28P01, 28000) and a missing database (3D000) are BindingRefused, never retryable", () => {
    for (
      const [code, reason] of [
        ["28P01", "credentials"],
        ["28000", "credentials"],
        ["3D000", "no-database"],
        ["42501", "privilege"]
      ] as const
    ) {
      const e = answered(code)
      expect(e, code).toMatchObject({
        _tag: "BindingRefused",
        command: "journal append",
        dossier: "q1",
        reason,
        retryable: false
      })
      expect(JSON.stringify(e), code).not.toContain("pw-secret")
    }
    expect(answered("28P01").message).toContain("28P01")
    expect(answered("3D000").message).toContain("does not exist")
    // The server out of reach stays StoreUnavailable: the same command may succeed later.
    expect(answered("08006")).toMatchObject({ _tag: "StoreUnavailable", retryable: true })
  })
})

describe("the binding file", () => {
  it("a damaged .dossier/store.json is InvalidInput naming the file and the way out", () => {
    for (
      const text of [
        "not json",
        "{\"kind\":\"postgres\"}",
        "{\"kind\":\"postgres\",\"url\":\"http://h/db\",\"dossier\":\"a\"}"
      ]
    ) {
      const r = parseBinding(text)
      if (Either.isRight(r)) throw new Error(text)
      expect(r.left.message, text).toContain(".dossier/store.json: ")
      expect(r.left.message, text).toContain("dossier init --store")
    }
    expect(Either.isRight(parseBinding("{\"kind\":\"postgres\",\"url\":\"postgres://h/db\",\"dossier\":\"a\"}"))).toBe(
      true
    )
  })
})

describe("DossierPostgres's options, from JavaScript", () => {
  /** What building the layer answers: a failure's tag and detail (no server is reached: port 1). */
  const built = (options: unknown) =>
    Effect.runPromise(
      Effect.exit(Effect.scoped(Layer.build(DossierPostgres(options as DossierPostgresOptions))))
    ).then((exit) =>
      Exit.isFailure(exit) && Cause.isFailType(exit.cause)
        ? { tag: (exit.cause.error as { _tag: string })._tag, detail: (exit.cause.error as { detail?: string }).detail }
        : { tag: Exit.isSuccess(exit) ? "success" : `DEFECT ${Cause.pretty(exit.cause)}`, detail: undefined }
    )
  const workdir = fs.mkdtempSync(path.join(os.tmpdir(), "dossier-pg-options-"))
  const valid = { url: "postgres://127.0.0.1:1/research", dossier: "q1", workdir, connectTimeoutMs: 2_000 }

  it("a missing options object, or a wrong mode, timeout or dossier name, is UsageError naming it", async () => {
    for (
      const [options, names] of [
        [undefined, "{url, dossier, workdir}"],
        [null, "{url, dossier, workdir}"],
        ["postgres://127.0.0.1:1/research", "{url, dossier, workdir}"],
        [{ ...valid, mode: "Write" }, "mode"],
        [{ ...valid, connectTimeoutMs: "2000" }, "connectTimeoutMs"],
        [{ ...valid, lockTimeoutMs: -1 }, "lockTimeoutMs"],
        [{ ...valid, deadlineMs: Number.NaN }, "deadlineMs"],
        [{ ...valid, dossier: 123 }, "dossier name"]
      ] as const
    ) {
      const r = await built(options)
      expect(r.tag, JSON.stringify(options)).toBe("UsageError")
      expect(r.detail, JSON.stringify(options)).toContain(names)
      // One sentence, as every other message: a capital first, a full stop last.
      expect(r.detail, JSON.stringify(options)).toMatch(/^[A-Z].*\.$/)
    }
    // Well-formed options reach the server (none listens there).
    expect((await built(valid)).tag).toBe("StoreUnavailable")
    expect((await built({ ...valid, mode: "read" })).tag).toBe("StoreUnavailable")
    fs.rmSync(workdir, { recursive: true, force: true })
  })
})
