/**
 * The rows of list answers are typed in their output schemas (`dossier schema <name>`), field by
 * field, as journal-list-output's are, not described in words over an untyped array; that the
 * real answers validate against them is test/mcp/outputs.test.ts's check. Spawns nothing.
 */
import { describe, expect, it } from "vitest"
import { schemaDocument } from "../../src/commands/SchemaAnswers.js"

const rowFields = (name: string, field: string): Array<string> => {
  const doc = schemaDocument(name) as {
    properties: Record<string, { items?: { properties?: Record<string, unknown> } }>
  }
  return Object.keys(doc.properties[field]?.items?.properties ?? {}).sort()
}

describe("output schemas type their rows", () => {
  it.each([
    ["journal-list-output", "studies", ["events", "head", "study", "tail"]],
    ["status-output", "studies", ["checkpoint", "events", "head", "selected", "study", "tail"]],
    ["monitor-list-output", "subscriptions", [
      "activeRunId",
      "id",
      "kind",
      "nextDueAt",
      "nextWindowAt",
      "revision",
      "status",
      "target"
    ]],
    ["monitor-list-output", "runs", ["id", "revision", "status", "subscriptionId", "windowStart"]],
    ["grant-list-output", "grants", [
      "budget",
      "children",
      "deadline",
      "id",
      "parent",
      "remaining",
      "state",
      "task"
    ]],
    ["grant-list-output", "damaged", ["error", "id"]],
    ["source-follow-output", "matches", [
      "end",
      "line",
      "origin",
      "paragraph",
      "path",
      "registered",
      "section",
      "sha256",
      "start"
    ]]
  ])("%s: %s", (name, field, fields) => {
    expect(rowFields(name, field)).toEqual(fields)
  })
})
