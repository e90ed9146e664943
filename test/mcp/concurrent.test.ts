/**
 * Writing tool calls in flight at once on one `dossier mcp` (the official SDK client sends each
 * request without waiting for the one before): two plan checkpoints naming the same revision and
 * journal appends. One checkpoint wins, the other is `StaleRevision` and changes nothing; every
 * append lands once; the server answers the next call.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { tempWorkdir } from "../support/cli.js"
import { connect, type Connected } from "./support.js"

let server: Connected

beforeAll(async () => {
  server = await connect(tempWorkdir("dossier-mcp-concurrent-"))
})

afterAll(async () => {
  await server?.client.close()
})

const created = (n: number) => ({ id: `e${n}`, type: "candidate_created", candidate: { id: `c${n}`, title: `c${n}` } })

describe("dossier mcp: writing calls in flight at once", () => {
  it("two checkpoints with the same expected revision: one wins, one is StaleRevision; appends all land", async () => {
    const started = await server.call("plan_start", {
      input: { goal: "Find the VAT rate", limits: ["five sources"], nextAction: "search" }
    })
    expect(started.isError, started.text).toBe(false)
    const revision = (await server.call("plan_inspect")).body.revision as number
    const answers = await Promise.all([
      server.call("plan_checkpoint", { expected: revision, input: { nextAction: "A" } }),
      server.call("journal_append", { study: "exp", input: [created(1)] }),
      server.call("plan_checkpoint", { expected: revision, input: { nextAction: "B" } }),
      ...[2, 3, 4, 5, 6, 7].map((n) => server.call("journal_append", { study: "exp", input: [created(n)] }))
    ])
    const [a, first, b, ...appends] = answers
    const checkpoints = [a!, b!]
    const won = checkpoints.filter((c) => !c.isError)
    const lost = checkpoints.filter((c) => c.isError)
    expect(won).toHaveLength(1)
    expect(lost).toHaveLength(1)
    expect(lost[0]!.body.error).toMatchObject({
      _tag: "StaleRevision",
      expected: revision,
      actual: revision + 1,
      retryable: false
    })
    // The plan holds the winner's write, and only it.
    const plan = (await server.call("plan_inspect")).body
    expect(plan.revision).toBe(revision + 1)
    expect(plan.nextAction).toBe(won[0] === a ? "A" : "B")
    // Every append answered and landed once, in some order.
    for (const r of [first!, ...appends]) expect(r.isError, r.text).toBe(false)
    const journal = (await server.call("journal_inspect", { study: "exp" })).body
    expect(journal.events).toBe(7)
    expect(journal.tail.state).toBe("clean")
    expect(journal.candidates.map((c: { id: string }) => c.id).sort()).toEqual(
      ["c1", "c2", "c3", "c4", "c5", "c6", "c7"]
    )
    // The loser may try again with the revision it now reads.
    const again = await server.call("plan_checkpoint", { expected: plan.revision, input: { nextAction: "C" } })
    expect(again.isError, again.text).toBe(false)
    expect((await server.call("plan_inspect")).body).toMatchObject({ revision: revision + 2, nextAction: "C" })
  }, 60_000)
})
