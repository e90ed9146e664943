/**
 * One id grammar (src/domain/Ids.ts): the rule, its named exceptions, one message and one refusal
 * (`InvalidInput` naming the flag) for a malformed id in every command, and `--help` quoting the
 * rule of every id a user chooses. docs/cli.md ("Ids") states the same.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "effect/FastCheck"
import { EXECUTION_ID } from "../../src/domain/Execution.js"
import { GRANT_ID } from "../../src/domain/Grant.js"
import * as Ids from "../../src/domain/Ids.js"
import { ID_PATTERN, STUDY_ID } from "../../src/domain/Journal.js"
import { MONITOR_ID_PATTERN, RUN_ID_PATTERN } from "../../src/domain/MonitorSchema.js"
import { putInput, runCli, tempWorkdir } from "../support/cli.js"

/** `isIdOf` without its type narrowing (the values here are strings already). */
const is = (kind: Ids.IdKind, value: string): boolean => Ids.isIdOf(kind, value)

describe("ids: one definition", () => {
  it("every id pattern the Schemas and stores use is the one of src/domain/Ids.ts", () => {
    expect(GRANT_ID).toBe(Ids.ID)
    expect(STUDY_ID).toBe(Ids.STUDY_ID)
    expect(MONITOR_ID_PATTERN).toBe(Ids.SUBSCRIPTION_ID)
    expect(RUN_ID_PATTERN).toBe(Ids.RUN_ID)
    expect(ID_PATTERN).toBe(Ids.EVENT_ID)
    expect(EXECUTION_ID).toBe(Ids.EXECUTION_ID)
  })

  it.prop(
    "the exceptions are the rule narrowed (study: lower case; subscription: no '.') or, for events, widened",
    [fc.stringMatching(/^[A-Za-z0-9._:-]{0,70}$/)],
    ([s]) => {
      if (is("study", s)) expect(is("grant", s)).toBe(true)
      if (is("subscription", s)) expect(is("grant", s)).toBe(true)
      if (is("grant", s)) expect(is("event", s)).toBe(true)
      // Only where the exception says: a rule id refused as a study id is upper case or reserved;
      // refused as a subscription id, it holds a dot.
      if (is("grant", s) && !is("study", s)) {
        expect(s !== s.toLowerCase() || Ids.RESERVED_STUDY_IDS.includes(s)).toBe(true)
      }
      if (is("grant", s) && !is("subscription", s)) expect(s).toContain(".")
    },
    { fastCheck: { numRuns: 300 } }
  )
})

describe("ids: the command line", () => {
  const dir = tempWorkdir()
  const refusal = (args: ReadonlyArray<string>) => {
    const r = runCli([...args, "--workdir", dir, "--json"])
    expect(r.code, args.join(" ")).toBe(1)
    return r.json.error
  }

  it("a malformed id is InvalidInput naming its flag, with the one message, whichever command reads it", () => {
    for (
      const [args, kind, path, value] of [
        [["grant", "show", "--grant", "a b"], "grant", "--grant", "a b"],
        [["grant", "revoke", "--grant", "../g"], "grant", "--grant", "../g"],
        [["exec", "show", "--execution", "x-1"], "execution", "--execution", "x-1"],
        [["journal", "inspect", "--study", "Exp-1"], "study", "--study", "Exp-1"],
        [["journal", "inspect", "--study", "a b"], "study", "--study", "a b"],
        [["monitor", "show", "--subscription", "a.b"], "subscription", "--subscription", "a.b"],
        [["monitor", "show", "--run", "a/b"], "run", "--run", "a/b"],
        [["monitor", "create-due-run", "--subscription", "a.b"], "subscription", "--subscription", "a.b"],
        [
          ["monitor", "set-outcome-disposition", "--run", "lit.w1", "--outcome", "o.1", "--disposition", "dismissed"],
          "outcome",
          "--outcome",
          "o.1"
        ]
      ] as const
    ) {
      const e = refusal(args)
      expect(e._tag, args.join(" ")).toBe("InvalidInput")
      expect(e.issues, args.join(" ")).toEqual([{ path, message: Ids.idProblem(kind, value) }])
    }
  })

  it("an id an input file gives is refused with the same message", () => {
    const sub = putInput(dir, "sub.json", { kind: "literature", target: "t", timezone: "UTC", id: "lit.2026" })
    const e = refusal(["monitor", "create-subscription", "--input", sub])
    expect(e._tag).toBe("InvalidInput")
    expect(e.issues).toContainEqual({ path: "id", message: Ids.idProblem("subscription", "lit.2026") })
    const grant = putInput(dir, "grant.json", {
      id: "a b",
      task: "t",
      work: "research/w",
      tools: [],
      budget: { runs: 1, wallSeconds: 1, cpuSeconds: 1, memoryMiB: 16, outputMiB: 1 },
      deadline: "2099-01-01T00:00:00Z"
    })
    const g = refusal(["grant", "create", "--input", grant])
    expect(g._tag).toBe("InvalidInput")
    expect(g.issues).toContainEqual({ path: "id", message: Ids.idProblem("grant", "a b") })
  })

  it("--help of every id a user chooses or names states its grammar, from the one definition", () => {
    for (
      const [command, flag, kind] of [
        [["grant", "show"], "--grant", "grant"],
        [["grant", "revoke"], "--grant", "grant"],
        [["grant", "narrow"], "--grant", "grant"],
        [["exec"], "--grant", "grant"],
        [["exec"], "--study", "study"],
        [["exec"], "--candidate", "candidate"],
        [["exec", "show"], "--execution", "execution"],
        [["journal", "append"], "--study", "study"],
        [["journal", "inspect"], "--study", "study"],
        [["monitor", "show"], "--subscription", "subscription"],
        [["monitor", "create-due-run"], "--subscription", "subscription"],
        [["monitor", "transition-run"], "--run", "run"],
        [["monitor", "set-outcome-disposition"], "--outcome", "outcome"]
      ] as const
    ) {
      const help = runCli([...command, "--help", "--json"]).json
      const option = help.options.find((o: { name: string }) => o.name === flag)
      expect(option?.type, `${command.join(" ")} ${flag}`).toBe("id")
      expect(option?.description, `${command.join(" ")} ${flag}`).toContain(Ids.idRule(kind))
    }
  })

  it("every flag whose value is a file or folder shows <path>", () => {
    for (
      const command of [["gate"], ["ingest"], ["source", "follow"], ["plan", "start"], [
        "monitor",
        "set-outcome-disposition"
      ], ["grant", "create"]]
    ) {
      const help = runCli([...command, "--help", "--json"]).json
      for (const o of help.options as ReadonlyArray<{ name: string; type: string; description: string }>) {
        // A text value that is a file or folder (its first clause says so, flags named aside) would show <text>.
        const first = o.description.replace(/--[a-z-]+/g, "").split(/[.(:]/)[0]!
        if (o.type === "text") {
          expect(/\b(file|folder|log|directory)\b/i.test(first), `${command.join(" ")} ${o.name}: ${first}`).toBe(false)
        }
      }
      expect(help.usage, command.join(" ")).not.toMatch(
        /--(state|research-dir|descriptor|attempts|file|path|input|unit|review-item) <text>/
      )
    }
  })
})
