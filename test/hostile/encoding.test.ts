/**
 * The bytes of a JSON file dossier is given: UTF-8 (RFC 8259), a leading byte-order mark
 * dropped. Bytes that are not UTF-8 are refused naming their offset, never replaced by U+FFFD
 * and stored as text the file did not hold; a name repeated in one object is refused, never
 * reduced to its last value. Through the built CLI, as an agent meets it.
 */
import * as fc from "effect/FastCheck"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { duplicateKey } from "../../src/domain/DuplicateKeys.js"
import { folder, parkedMaturity } from "../gate/support.js"
import { initialize, raw } from "../mcp/support.js"
import { type CliResult, leaksNothing, put, runCli, snapshot, tempWorkdir } from "../support/cli.js"

const cli = (dir: string, args: ReadonlyArray<string>, input?: string | Uint8Array) =>
  runCli([...args, "--workdir", dir, "--json"], input === undefined ? {} : { input })

/** `café` with its `é` written in Latin-1 (one byte 0xe9, not UTF-8). */
const latin1Event = (id: string) =>
  Buffer.concat([
    Buffer.from(`{"id":"${id}","type":"candidate_created","candidate":{"id":"c-${id}","title":"caf`),
    Buffer.from([0xe9]),
    Buffer.from(`","params":{}}}`)
  ])
const OFFSET = latin1Event("e1").indexOf(0xe9)

const refusedAsNotUtf8 = (dir: string, r: CliResult, offset: number) => {
  expect(r.code, r.stdout + r.stderr).toBe(1)
  expect(r.json.error._tag).toBe("InvalidInput")
  expect(r.json.error.issues).toEqual([{
    path: "",
    message: `not UTF-8 text: the byte at offset ${offset} (0xe9) is not valid UTF-8; save the file as UTF-8`
  }])
  expect(leaksNothing(dir, r)).toBe(true)
}

describe("input files are UTF-8, never decoded with replacement characters", () => {
  it("journal append --input: a Latin-1 byte is InvalidInput at its offset; nothing is written", () => {
    const dir = tempWorkdir()
    put(dir, "research/inputs/latin1.json", latin1Event("e1"))
    const before = snapshot(dir)
    const r = cli(dir, ["journal", "append", "--study", "s", "--input", "research/inputs/latin1.json"])
    refusedAsNotUtf8(dir, r, OFFSET)
    expect(snapshot(dir)).toEqual(before)
    expect(fs.existsSync(path.join(dir, "research/s/research-events.jsonl"))).toBe(false)
  })

  it("journal append --input -: the same bytes on standard input are refused the same way", () => {
    const dir = tempWorkdir()
    const before = snapshot(dir)
    const r = cli(dir, ["journal", "append", "--study", "s", "--input", "-"], latin1Event("e1"))
    refusedAsNotUtf8(dir, r, OFFSET)
    expect(snapshot(dir)).toEqual(before)
  })

  it("a truncated sequence, an overlong form and an encoded surrogate are each refused at their first byte", () => {
    const dir = tempWorkdir()
    for (
      const [bytes, offset] of [
        [[0xc3], 13],
        [[0xc0, 0xaf], 13],
        [[0xed, 0xa0, 0x80], 13]
      ] as const
    ) {
      put(
        dir,
        "research/inputs/bad.json",
        Buffer.concat([Buffer.from(`{"goal":"a b `), Buffer.from(bytes), Buffer.from(`","limits":[]}`)])
      )
      const r = cli(dir, ["plan", "start", "--input", "research/inputs/bad.json"])
      expect(r.code, r.stdout).toBe(1)
      expect(r.json.error.issues[0].message).toContain(`the byte at offset ${offset} (0x${bytes[0].toString(16)})`)
    }
    expect(fs.existsSync(path.join(dir, "plan.md"))).toBe(false)
  })

  it("the gate's state: a Latin-1 byte is refused and the state is left byte for byte", () => {
    const f = folder()
    const text = JSON.stringify(parkedMaturity([{ id: "a" }], { note: "caf\u00e9" }), null, 2)
    const bytes = Buffer.from(text, "latin1")
    put(f.dir, "run/state.json", bytes)
    const before = snapshot(f.dir)
    const r = f.gate([], { DOSSIER_UNATTENDED: "1" })
    expect(r.code, r.stdout).toBe(1)
    expect(r.json.error._tag).toBe("InvalidInput")
    expect(r.json.error.issues[0].message).toContain(`offset ${bytes.indexOf(0xe9)} (0xe9)`)
    expect(f.stateBytes()).toEqual(bytes)
    expect(snapshot(f.dir)).toEqual(before)
  })

  it("a leading byte-order mark is dropped, as the gate always did: plan start and journal append accept it", () => {
    const dir = tempWorkdir()
    const bom = Buffer.from([0xef, 0xbb, 0xbf])
    put(
      dir,
      "research/inputs/start.json",
      Buffer.concat([bom, Buffer.from(`{"goal":"Ship it","limits":[],"nextAction":"research"}`)])
    )
    const start = cli(dir, ["plan", "start", "--input", "research/inputs/start.json"])
    expect(start.code, start.stdout).toBe(0)
    expect(cli(dir, ["plan", "inspect"]).json.goal).toBe("Ship it")
    const event = `{"id":"e1","type":"candidate_created","candidate":{"id":"c1","title":"t","params":{}}}`
    const appended = cli(dir, ["journal", "append", "--study", "s", "--input", "-"], `\ufeff${event}`)
    expect(appended.code, appended.stdout).toBe(0)
    expect(appended.json.appended).toEqual(["e1"])
  })
})

describe("MCP messages are UTF-8, never decoded with replacement characters", () => {
  it("a tools/call whose inline input holds a Latin-1 byte is a parse error under its id; nothing is written", async () => {
    const dir = tempWorkdir()
    const s = raw(dir)
    s.send(initialize(1))
    await s.next()
    s.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }))
    const call = (id: number, title: string) =>
      Buffer.from(JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: {
          name: "journal_append",
          arguments: {
            study: "s",
            input: [{ id: "e1", type: "candidate_created", candidate: { id: "c1", title, params: {} } }]
          }
        }
      }))
    const line = call(2, "cafX")
    const offset = line.indexOf("X")
    line[offset] = 0xe9
    const before = snapshot(dir)
    s.send(line)
    expect(await s.next(10_000)).toEqual({
      jsonrpc: "2.0",
      id: 2,
      error: {
        code: -32700,
        message: `Parse error: a message is UTF-8 text; the byte at offset ${offset} is not valid UTF-8`
      }
    })
    expect(snapshot(dir)).toEqual(before)
    // The server goes on serving: the same call in UTF-8 is appended.
    s.send(call(3, "caf\u00e9"))
    let answer = await s.next(10_000)
    while (answer.id !== 3) answer = await s.next(10_000)
    expect(answer.result.structuredContent).toMatchObject({ ok: true, appended: ["e1"] })
    expect(fs.readFileSync(path.join(dir, "research/s/research-events.jsonl"), "utf8")).toContain("caf\u00e9")
    expect((await s.end()).code).toBe(0)
  })
})

describe("a name repeated in one object is refused, never reduced to its last value", () => {
  it("journal append: a repeated name is InvalidInput at its path; nothing is written", () => {
    const dir = tempWorkdir()
    put(
      dir,
      "research/inputs/twice.json",
      `{"id":"e1","type":"candidate_created","candidate":{"id":"c1","title":"first","title":"second","params":{}}}`
    )
    const before = snapshot(dir)
    const r = cli(dir, ["journal", "append", "--study", "s", "--input", "research/inputs/twice.json"])
    expect(r.code, r.stdout).toBe(1)
    expect(r.json.error._tag).toBe("InvalidInput")
    expect(r.json.error.issues).toEqual([{
      path: "candidate.title",
      message: "the key 'title' appears more than once in this object"
    }])
    expect(snapshot(dir)).toEqual(before)
  })

  it("plan checkpoint: a repeated name inside an array element, spelled with an escape, is refused", () => {
    const dir = tempWorkdir()
    put(dir, "research/inputs/start.json", `{"goal":"Ship it","limits":[],"nextAction":"research"}`)
    expect(cli(dir, ["plan", "start", "--input", "research/inputs/start.json"]).code).toBe(0)
    put(
      dir,
      "research/inputs/cp.json",
      `{"nextAction":"x","completedSteps":[{"id":"a","summary":"s"},{"id":"b","summary":"s","\\u0069d":"c"}]}`
    )
    const r = cli(dir, ["plan", "checkpoint", "--input", "research/inputs/cp.json", "--expected", "1"])
    expect(r.code, r.stdout).toBe(1)
    expect(r.json.error.issues[0].path).toBe("completedSteps.1.id")
    expect(cli(dir, ["plan", "inspect"]).json.revision).toBe(1)
  })

  it("JSON without a repeated name is never refused; a name given twice is found after any value", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), fc.string({ maxLength: 8 }), (value, name) => {
        const text = JSON.stringify(value)
        expect(duplicateKey(text)).toBeNull()
        const key = JSON.stringify(name)
        const twice = `[${text},{${key}:${text},"${name === "x" ? "y" : "x"}":${text},${key}:2}]`
        expect(duplicateKey(twice)?.path).toBe(`1.${name}`)
      }),
      { numRuns: 500 }
    )
    expect(duplicateKey(`[{"a":1},{"a":2},{"b":{"a":"}{\\"","a2":[1,{"a":3}]}}]`)).toBeNull()
  })
})
