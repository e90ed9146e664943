/**
 * What a refusal repeats of what it was given is clipped in one place, the envelope both faces
 * answer (src/commands/Envelope.ts): values past 512 characters keep their ends around a marker
 * saying how much was left out; everything else is unchanged byte for byte.
 */
import { describe, expect, it } from "@effect/vitest"
import { envelopeOf } from "../../src/commands/Envelope.js"
import { UsageError } from "../../src/domain/CliErrors.js"
import { clipped, REFUSAL_VALUE_MAX } from "../../src/domain/Clip.js"
import { EditedRetainedFile, InvalidInput, UnsafePath } from "../../src/domain/Errors.js"

const huge = "a".repeat(100_000)

describe("clipped", () => {
  it("keeps a value of at most the bound whole, else its ends and how much was left out", () => {
    expect(clipped("x".repeat(REFUSAL_VALUE_MAX))).toBe("x".repeat(REFUSAL_VALUE_MAX))
    const c = clipped(`<${huge}>`)
    expect(c).toBe(`<${"a".repeat(255)}\u2026[99490 characters left out]\u2026${"a".repeat(255)}>`)
    expect(clipped("abcdefghij", 4)).toBe("ab\u2026[6 characters left out]\u2026ij")
  })

  it("never splits a surrogate pair", () => {
    const c = clipped("\u{1F600}".repeat(1000), 9)
    expect(c).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/)
    expect(c).toMatch(/\[\d+ characters left out\]/)
  })
})

describe("the refusal envelope clips what it repeats", () => {
  it("a huge value in a field and in the message: clipped in both, the sentence around it whole", () => {
    const e = envelopeOf(new UnsafePath({ path: huge, reason: "symlink" }))
    expect(JSON.stringify(e).length).toBeLessThan(2048)
    expect(e.path).toBe(clipped(huge))
    expect(e.message).toBe(
      `Refused the path '${clipped(huge)}' (symlink): it goes through a symbolic link, which dossier never follows.`
    )
    expect(e.reason).toBe("symlink")
  })

  it("an issue's message and path are clipped; InvalidInput's message says the clipped issue", () => {
    const e = envelopeOf(new InvalidInput({ issues: [{ path: huge, message: `'${huge}' is not a study id: rule` }] }))
    expect(JSON.stringify(e).length).toBeLessThan(4096)
    const issue = (e.issues as ReadonlyArray<{ path: string; message: string }>)[0]!
    expect(issue.path).toBe(clipped(huge))
    expect(issue.message).toMatch(/^'a+\u2026\[\d+ characters left out\]\u2026a+' is not a study id: rule$/)
    expect(e.message).toBe(`The input is invalid at '${issue.path}': ${issue.message}`)
  })

  it("digests, tags and values of normal length are unchanged byte for byte", () => {
    const digest = "f".repeat(64)
    const path = `research/sources/${"b".repeat(300)}.md`
    const e = envelopeOf(new EditedRetainedFile({ path, expected: digest, actual: "0".repeat(64) }))
    expect(e).toMatchObject({ _tag: "EditedRetainedFile", path, expected: digest, actual: "0".repeat(64) })
    expect(e.message).toBe(new EditedRetainedFile({ path, expected: digest, actual: digest }).message)
    const u = envelopeOf(new UsageError({ detail: `unknown option '--${huge}'` }))
    expect(u.detail).toBe(clipped(`unknown option '--${huge}'`))
    expect(u.message).toBe(u.detail)
  })
})
