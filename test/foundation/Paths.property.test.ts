/**
 * normalizeRelative's shortcut for paths that are already normal must never change its answer:
 * for any string, the shortcut version and the generic split-and-join agree, and a path the
 * shortcut accepts is exactly what the generic version returns for it.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as fc from "effect/FastCheck"
import { isNormalRelative, normalizeRelative, normalizeRelativeGeneric } from "../../src/domain/Paths.js"

// Strings built from the characters that matter to path normalization, plus ordinary text.
const pathLike = fc.oneof(
  fc.array(fc.constantFrom("a", "b", ".", "..", "/", "\\", ":", "C", "\0", "é", " ", ".dossier", "x.json"), {
    maxLength: 12
  }).map((xs) => xs.join("")),
  fc.string(),
  fc.string({ unit: "binary" })
)

describe("relative path normalization", () => {
  it.prop("the already-normal shortcut agrees with the generic normalization", [pathLike], ([p]) => {
    const generic = normalizeRelativeGeneric(p)
    expect(normalizeRelative(p)).toEqual(generic)
    if (isNormalRelative(p)) expect(generic).toEqual(Either.right(p))
    // Whatever normalizes is normal afterwards, and normalizes to itself (idempotent).
    if (Either.isRight(generic)) {
      expect(isNormalRelative(generic.right)).toBe(true)
      expect(normalizeRelative(generic.right)).toEqual(generic)
    }
  }, { fastCheck: { numRuns: 3000 } })

  it("refuses or rewrites what is not normal", () => {
    for (
      const p of [
        "",
        "/a",
        "a//b",
        "a/",
        "./a",
        "a/./b",
        "a/..",
        "../a",
        "a\\b",
        "C:x",
        "c:/x",
        "a:b",
        "a\0b",
        ".",
        ".."
      ]
    ) {
      expect(isNormalRelative(p)).toBe(false)
    }
    for (const p of ["a", ".dossier/monitor/runs/r.json", "a/.b/..c/...", "1:x/y", "ab:c"]) {
      expect(isNormalRelative(p)).toBe(true)
    }
    expect(normalizeRelative("a/../b")).toEqual(Either.right("b"))
    // A drive letter reached through "." or ".." segments is as absolute as one given directly.
    for (const p of ["./C:x", "a/../C:x", ".\\c:\\x", "C:x"]) {
      expect(Either.isLeft(normalizeRelative(p)) && normalizeRelative(p)).toMatchObject({
        left: { reason: "absolute" }
      })
    }
  })
})

describe("names longer than a file system takes", () => {
  it("a segment of more than 255 bytes of UTF-8 is name-too-long; 255 bytes is a name", () => {
    const refused = (p: string) =>
      Either.isLeft(normalizeRelative(p)) && normalizeRelative(p).pipe(Either.flip, Either.getOrThrow).reason
    expect(refused(`a/${"b".repeat(256)}/c`)).toBe("name-too-long")
    expect(refused(`${"\u00e9".repeat(128)}`)).toBe("name-too-long")
    expect(refused(`x\\${"b".repeat(300)}`)).toBe("name-too-long")
    expect(normalizeRelative(`a/${"b".repeat(255)}`)).toEqual(Either.right(`a/${"b".repeat(255)}`))
    expect(normalizeRelative(`${"\u00e9".repeat(127)}x`)).toEqual(Either.right(`${"\u00e9".repeat(127)}x`))
  })
})
