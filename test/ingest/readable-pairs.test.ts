/**
 * A description list of name/value pairs (readable/render.ts `pairsTable`): each name stays beside
 * its value, one row a pair in the page's order, where paragraphs set each name apart from it; a
 * glossary of long definitions stays paragraphs. A list of one pair is one line: "Name: value".
 */
import { describe, expect, it } from "@effect/vitest"
import { readerText } from "../../bench/readerText.js"
import { htmlToMarkdown } from "../../src/domain/Readable.js"

const URL_ = "https://shop.example/kettle-k2"
const page = (list: string): string =>
  `<html><head><title>Kettle K2</title></head><body><main><h1>Kettle K2</h1>` +
  `<p>A steel kettle that boils a litre of water in three minutes, with a lid that opens wide for cleaning.</p>` +
  `<h2>Details</h2>${list}</main></body></html>`

describe("readable copy: a description list of name/value pairs", () => {
  it("writes each name beside its value, a row a pair, in the page's order", () => {
    const md = htmlToMarkdown(
      page(
        `<dl class="details"><dt>Material</dt><dd>Stainless steel</dd><dt>Colour</dt><dd>Black</dd>` +
          `<div><dt>Cord length</dt><dd>75 cm</dd></div></dl>`
      ),
      URL_
    )
    expect(md).toContain("| Material | Stainless steel |\n| --- | --- |\n| Colour | Black |\n| Cord length | 75 cm |")
    // The gate reads the pairs as the page's words in their order.
    expect(readerText(md).replace(/\s+/g, " ")).toContain("Material Stainless steel Colour Black Cord length 75 cm")
  })

  it("writes a list of one pair as one line, the name then its value", () => {
    const md = (list: string) => htmlToMarkdown(page(list), URL_)
    expect(md(`<dl class="details"><dt>Material</dt><dd>Stainless steel</dd></dl>`)).toContain(
      "## Details\n\nMaterial: Stainless steel\n"
    )
    // A name that ends with its own colon or question mark gets no second one.
    expect(md(`<dl><div><dt>Lining:</dt><dd>100% polyester</dd></div></dl>`)).toContain("\n\nLining: 100% polyester\n")
    expect(md(`<dl><dt>Dishwasher safe?</dt><dd>Yes</dd></dl>`)).toContain("\n\nDishwasher safe? Yes\n")
    // A name that would open a list is escaped as a paragraph's start.
    expect(md(`<dl><dt>1. Size</dt><dd>1.7 litres</dd></dl>`)).toContain("\n\n1\\. Size: 1.7 litres\n")
    // A definition that is a sentence stays a paragraph under its term.
    expect(md(`<dl><dt>sort</dt><dd>Sort the lines of a text file by the first field.</dd></dl>`)).toContain(
      "\n\nsort\n\nSort the lines of a text file by the first field.\n"
    )
  })

  it("keeps a glossary whose definitions are sentences as paragraphs", () => {
    const md = htmlToMarkdown(
      page(
        `<dl><dt>sort</dt><dd>Sort the lines of a text file by the first field.</dd>` +
          `<dt>filter</dt><dd>Keep the lines that match a pattern, drop the rest.</dd></dl>`
      ),
      URL_
    )
    expect(md).toContain("sort\n\nSort the lines of a text file by the first field.\n\nfilter\n\n")
  })

  it("keeps a glossary of long definitions as paragraphs", () => {
    const long = "A vessel for boiling water, heated on a stove or by an element of its own, ".repeat(3)
    const md = htmlToMarkdown(page(`<dl><dt>Kettle</dt><dd>${long}</dd><dt>Lid</dt><dd>${long}</dd></dl>`), URL_)
    expect(md).toContain("Kettle\n\nA vessel for boiling water")
    expect(md).not.toContain("| Kettle |")
  })
})
