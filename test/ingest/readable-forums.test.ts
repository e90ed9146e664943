/**
 * Forum threads: small pages written here (no copy of any real page), each failing without the
 * rule it tests (readable/posts.ts `posts`, readable/votes.ts).
 */
import { describe, expect, it } from "@effect/vitest"
import { readerText } from "../../bench/readerText.js"
import { htmlToMarkdown } from "../../src/domain/Readable.js"

const URL_ = "https://forum.example/index.php?topic=42.0"

const copy = (html: string): string => readerText(htmlToMarkdown(html, URL_))

const LONG = "I have run the board on the same small server for nine years, and what keeps members " +
  "coming back is never the software itself, but the people who answer a new member's first question " +
  "within the hour, the long threads where someone documents a project from the first sketch to the " +
  "finished thing, and the feeling that a post written today will still be found and read in ten years. " +
  "Tools that write replies for you change none of that, and may well drive away the few who do the work."

const REPLIES = [
  "It can write a pretty mean haiku about almost anything.",
  "Last time I asked it for a poem it could not count the syllables.",
  "We tried it for tagging old threads and gave up after a week."
]

/** A post: the author's name as a link to the profile (or, `byTitle`, the post's title link first), then the text. */
const post = (i: number, text: string, byTitle: boolean) =>
  `<div class="windowbg" id="msg${i}"><div class="poster">${
    byTitle ? `<a href="/index.php?topic=42.msg${i}">Re: Tools that write for you</a>` : ""
  }<h4><a href="/index.php?action=profile;u=${100 + i}">member${i}</a></h4>` +
  `<ul class="user_info"><li>Posts: ${120 * i}</li></ul></div>` +
  `<div class="postarea"><div class="keyinfo"><a href="/index.php?msg=${i}">Reply #${i} on June 0${i}, 2024</a></div>` +
  `<div class="post"><div class="inner">${text}</div></div>` +
  `<ul class="buttons"><li><a href="/index.php?action=post;quote=${i}">Quote</a></li>` +
  `<li><a href="/index.php?action=report;msg=${i}">Report to moderator</a></li></ul></div></div>`

const thread = (byTitle: boolean) =>
  `<html><head><title>Tools that write for you</title></head><body>
  <nav><a href="/">Forum</a> <a href="/index.php?board=3">Board</a></nav>
  <div id="forumposts"><h2>Tools that write for you</h2>${
    [LONG, ...REPLIES].map((text, i) => post(i + 1, text, byTitle)).join("<hr>")
  }</div>
  <footer><p>Forum software, all rights reserved.</p></footer></body></html>`

describe("readable copy: a thread's short posts", () => {
  it("keeps a short post that opens with its author's link among its links", () => {
    const text = copy(thread(false))
    expect(text).toContain("what keeps members coming back")
    for (const reply of REPLIES) expect(text).toContain(reply)
    expect(text).not.toContain("Report to moderator")
  })

  it("judges blocks that open with another link as before", () => {
    const text = copy(thread(true))
    expect(text).toContain("what keeps members coming back")
    expect(text).not.toContain(REPLIES[0])
  })
})

/** A question-and-answer thread: each post with its score between two vote buttons. */
const qa = (votes: ReadonlyArray<string>) =>
  `<html><head><title>Why does my sourdough collapse?</title>
  <script type="application/ld+json">{"@context":"https://schema.org","@type":"QAPage",
  "mainEntity":{"@type":"Question","name":"Why does my sourdough collapse?"}}</script></head><body><main>
  <h1>Why does my sourdough collapse?</h1>${
    [LONG, ...REPLIES].map((text, i) =>
      `<div class="post-layout"><div class="votecell"><button>Up vote</button><div class="count">${
        votes[i]
      }</div><button>Down vote</button></div><div class="postcell"><p>${text}</p><p>${
        i === 0 ? "" : LONG.slice(0, 300)
      }</p></div></div>`
    ).join("")
  }</main></body></html>`

describe("readable copy: a question-and-answer thread's vote counts", () => {
  it("leaves out the block that holds only a post's score", () => {
    const text = copy(qa(["173", "-2", "1.2k", "48"]))
    expect(text).toContain("what keeps members coming back")
    for (const r of REPLIES) expect(text).toContain(r)
    for (const n of ["173", "1.2k", "48"]) expect(text).not.toContain(n)
  })
})
