import { describe, expect, it } from "@effect/vitest"
import { heldOnOtherSites, wordScore } from "../../bench/wcxb.js"

describe("bench/wcxb: the development set's metric and halves", () => {
  it("scores word bags: precision, recall and F1, an empty copy 0", () => {
    const s = wordScore("The cat sat on the mat", "the cat sat")
    expect(s.precision).toBeCloseTo(3 / 6)
    expect(s.recall).toBeCloseTo(1)
    expect(s.f1).toBeCloseTo(2 / 3)
    expect(wordScore("", "the cat").f1).toBe(0)
  })

  it("counts as held on another site only a held page whose host has no tuned page (an address that does not parse: no known site)", () => {
    const ids = heldOnOtherSites([
      { id: "a", url: "https://shop.example/one", held: false },
      { id: "b", url: "https://shop.example/two", held: true },
      { id: "c", url: "https://other.example/x", held: true },
      { id: "d", url: "https://third.example/y", held: false },
      { id: "e", url: "", held: true }
    ])
    expect([...ids].sort()).toEqual(["c"])
  })
})
