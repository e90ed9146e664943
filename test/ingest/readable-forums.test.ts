/**
 * Forum threads: small pages written here (no copy of any real page), each failing without the
 * rule it tests (readable/posts.ts `posts`, readable/ordinals.ts `withoutPostNumbers`, readable/fields.ts `withoutTemplateSlots`,
 * readable/quotes.ts: a quote's control, readable/repeats.ts: a preview before the whole, readable/votes.ts,
 * readable/subjects.ts, readable/controls.ts, readable/notices.ts, readable/edits.ts,
 * readable/posters.ts, readable/votes.ts: reactions, readable/votes.ts: scores marked in microdata,
 * readable/fields.ts: machine dates, readable/prompts.ts: a guest's prompt and a locked thread's status,
 * readable/posters.ts: presence, readable/similar.ts: other threads offered under a thread,
 * readable/votes.ts: who reacted and counts of comments marked in microdata, readable/controls.ts: reply links,
 * readable/attachments.ts, readable/ads.ts: an advertisement's note, readable/pictures.ts: a video's
 * stand-in, readable/posters.ts: counts of posts, starter badges and letter avatars, readable/votes.ts:
 * "… like this.", readable/boilerplate.ts: a `postsignature`, readable/phoneCopies.ts: a date in two lengths,
 * readable/formNotes.ts: the boxes after a reply box, readable/posterLines.ts: a poster's line over each post,
 * readable/boilerplate.ts and readable/quotes.ts: a quoted post drawn as an aside, readable/chrome.ts: a
 * short post ending in a smiley, readable/meta.ts and readable/content.ts: a thread app's replies anchored
 * one by one, readable/posterLines.ts: a poster's name in the panel beside each post, readable/notices.ts:
 * an alert waiting hidden for a script).
 * Over 400 lines: one small thread per rule, sharing the posts above; a file per rule would repeat them.
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

/**
 * A post: the author's name as a link to the profile (or, `byTitle`, the post's title link first;
 * `toggle`, a link of signs that folds the post), then the text.
 */
const post = (i: number, text: string, byTitle: boolean, toggle = false) =>
  `<div class="windowbg" id="msg${i}"><div class="poster">${
    byTitle ? `<a href="/index.php?topic=42.msg${i}">Re: Tools that write for you</a>` : ""
  }${toggle ? `<a class="fold" href="#msg${i}">[–]</a>` : ""}<h4><a href="/index.php?action=profile;u=${
    100 + i
  }">member${i}</a></h4>` +
  `<ul class="user_info"><li>Posts: ${120 * i}</li></ul></div>` +
  `<div class="postarea"><div class="keyinfo"><a href="/index.php?msg=${i}">Reply #${i} on June 0${i}, 2024</a></div>` +
  `<div class="post"><div class="inner">${text}</div></div>` +
  `<ul class="buttons"><li><a href="/index.php?action=post;quote=${i}">Quote</a></li>` +
  `<li><a href="/index.php?action=report;msg=${i}">Report to moderator</a></li></ul></div></div>`

const thread = (byTitle: boolean, toggle = false) =>
  `<html><head><title>Tools that write for you</title></head><body>
  <nav><a href="/">Forum</a> <a href="/index.php?board=3">Board</a></nav>
  <div id="forumposts"><h2>Tools that write for you</h2>${
    [LONG, ...REPLIES].map((text, i) => post(i + 1, text, byTitle, toggle)).join("<hr>")
  }</div>
  <footer><p>Forum software, all rights reserved.</p></footer></body></html>`

describe("readable copy: a thread's short posts", () => {
  it("keeps a short post that opens with its author's link among its links", () => {
    const text = copy(thread(false))
    expect(text).toContain("what keeps members coming back")
    for (const reply of REPLIES) expect(text).toContain(reply)
    expect(text).not.toContain("Report to moderator")
  })

  it("reads past a link of signs before the author's link (a fold toggle)", () => {
    const text = copy(thread(false, true))
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

/** A post headed by its author, its date and its number (a link to the post itself). */
const numberedPost = (i: number, text: string) =>
  `<div class="entry"><p class="head">Written by member${i} on June ${i}, 2024, in reply to the first post ` +
  `<a href="/threads/tools.42/post-${i}">#${i}</a></p><div class="body"><p>${text}</p></div></div>`

const numberedThread = (texts: ReadonlyArray<string>) =>
  `<html><head><title>Tools that write for you</title></head><body>
  <div class="block-body"><h1>Tools that write for you</h1>${texts.map((t, i) => numberedPost(i + 1, t)).join("")}</div>
  </body></html>`

describe("readable copy: a thread's post numbers", () => {
  it("leaves out the links that number the posts one by one", () => {
    const md = htmlToMarkdown(numberedThread([LONG, ...REPLIES]), URL_)
    expect(readerText(md)).toContain(REPLIES[2])
    for (let i = 1; i <= 4; i++) expect(md).not.toContain(`[#${i}]`)
  })

  it("keeps numbers cited as links that do not count up (issues in release notes)", () => {
    const notes = `<html><head><title>Release 2.4</title></head><body><main><h1>Release 2.4</h1><p>${LONG}</p><ul>` +
      `<li>Faster start-up on large boards, with the cache warmed before the first request <a href="/issues/1240">#1240</a></li>` +
      `<li>Replies quote the right post after an edit made by a moderator <a href="/issues/1187">#1187</a></li>` +
      `<li>Search finds words inside code blocks and quoted replies again <a href="/issues/1302">#1302</a></li>` +
      `</ul></main></body></html>`
    const md = htmlToMarkdown(notes, URL_)
    for (const n of [1240, 1187, 1302]) expect(md).toContain(`[#${n}]`)
  })
})

describe("readable copy: a template's unfilled slots", () => {
  const page = (extra: string) =>
    `<html><head><title>Tools that write for you</title></head><body><main><h1>Tools that write for you</h1>
    <p>${LONG}</p>${
      REPLIES.map((r) => `<div class="reply"><p>${r}</p><p class="error">{{ board.errors[0].message }}</p></div>`).join(
        ""
      )
    }
    ${extra}</main></body></html>`

  it("leaves out a short block holding a slot a script never filled", () => {
    const text = copy(page(""))
    for (const reply of REPLIES) expect(text).toContain(reply)
    expect(text).not.toContain("board.errors")
  })

  it("keeps a template shown as code", () => {
    const text = copy(page(`<pre><code>&lt;h1&gt;Hello {{ person.name }}!&lt;/h1&gt;</code></pre>`))
    expect(text).toContain("{{ person.name }}")
  })
})

describe("readable copy: a quote's control", () => {
  /** A reply quoting a post of an earlier page (not in the copy), the quote ending in a link drawn as a button. */
  const reply = (i: number, text: string) =>
    `<div class="reply"><p>member${i} wrote this reply to a post on the first page of the thread, a while ago.</p>` +
    `<blockquote class="quote"><div class="quote-title">member${i + 10} said:</div>` +
    `<div class="quote-content">Posts written on the first page of the thread ${i} are not on this one.</div>` +
    `<div class="quote-more"><a role="button" tabindex="0">Click to expand...</a></div></blockquote>` +
    `<p>${text}</p></div>`

  it("leaves out the link drawn as a button that unfolds a quote", () => {
    const html =
      `<html><head><title>Tools that write for you</title></head><body><main><h1>Tools that write for you</h1>
      <p>${LONG}</p>${REPLIES.map((r, i) => reply(i + 1, r)).join("")}</main></body></html>`
    const text = copy(html)
    for (const r of REPLIES) expect(text).toContain(r)
    expect(text).toContain("are not on this one")
    expect(text).not.toContain("Click to expand")
  })
})

describe("readable copy: an answer's preview before the whole answer", () => {
  it("keeps the whole answer once, without the preview cut from its start", () => {
    const answers = [LONG, `${REPLIES.join(" ")} Nothing else changed on the board since, and nobody asked.`]
    const html =
      `<html><head><title>Tools that write for you</title></head><body><main><h1>Tools that write for you</h1>
      ${
        answers.map((a, i) =>
          `<div class="answer"><div class="clamped"><p>${a.slice(0, 140 + 10 * i)}</p></div>` +
          `<div class="whole"><p>${a}</p></div></div>`
        ).join("")
      }</main></body></html>`
    const md = htmlToMarkdown(html, URL_)
    expect(md.split("I have run the board on the same small server").length - 1).toBe(1)
    expect(md.split(REPLIES[0]!).length - 1).toBe(1)
    expect(readerText(md)).toContain("drive away the few who do the work")
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

const RENAMED = ["Haiku counts as writing", "Counting syllables", "Tagging old threads"]

/** A board's thread: each reply headed by its subject, "Re:" and the thread's (or, `renamed`, its own). */
const subjectThread = (renamed: ReadonlyArray<number> = []) =>
  `<html><head><title>Tools that write for you</title></head><body><main><h1>Tools that write for you</h1>
  <div class="post"><p>${LONG}</p></div>${
    REPLIES.map((r, i) =>
      `<div class="post"><h3><a href="/viewtopic.php?t=42#p${i + 2}">${
        renamed.includes(i) ? `Re: ${RENAMED[i]}` : "Re: Tools that write for you"
      }</a></h3><div class="postdate">${i + 2}. June 2024</div><div class="content"><p>${r}</p></div></div>`
    ).join("")
  }</main></body></html>`

describe("readable copy: a reply's subject line", () => {
  it("leaves out the thread's subject said again after \"Re:\" over each reply", () => {
    const text = copy(subjectThread())
    for (const r of REPLIES) expect(text).toContain(r)
    expect(text).not.toContain("Re: Tools that write for you")
  })

  it("keeps a subject a reply renamed, and a lone \"Re:\" line", () => {
    const renamed = copy(subjectThread([0]))
    expect(renamed).toContain("Re: Haiku counts as writing")
    expect(renamed).not.toContain("Re: Tools that write for you")
    const lone = copy(subjectThread([0, 1]))
    expect(lone).toContain("Re: Counting syllables")
    expect(lone).toContain("Re: Tools that write for you")
  })
})

/**
 * A thread of short posts (copied as the page's visible text: no block scores), each ending with a
 * vote's arrows drawn as links to a script, around the post's score.
 */
const votedThread = (word: string) =>
  `<html><head><title>Tools that write for you</title></head><body><main><h1>Tools that write for you</h1>${
    REPLIES.map((text, i) =>
      `<article class="message"><div class="message-body"><p>${text} ${
        i === 1 ? `Ask the <a href="javascript:void(0)">${word}</a> who wrote it.` : ""
      }</p></div><div class="message-vote"><a href="javascript:"><span class="u-srOnly">Upvote</span></a>` +
      `<span class="score">${i}</span><a href="javascript:"><span class="u-srOnly">Downvote</span></a></div></article>`
    ).join("")
  }</main></body></html>`

describe("readable copy: a thread's controls drawn as links to a script", () => {
  it("leaves out the repeated short links that run a script and their score, keeping one inside a sentence", () => {
    const text = copy(votedThread("moderator"))
    expect(text).toContain(REPLIES[0])
    expect(text).toContain(REPLIES[2])
    expect(text).toContain("Ask the moderator who wrote it.")
    expect(text).not.toContain("Upvote")
    expect(text).not.toContain("Downvote")
    // The scores the arrows stood around go with them.
    expect(text).not.toMatch(/^\s*\d\s*$/m)
  })
})

const NOTICE = "Members are reminded never to send money before they see the machine, and to meet the " +
  "seller in person: scammers have answered wanted ads on this board with photographs of other people's tools."

/** A thread under the site's notice, dismissible by a link; `after`: the same notice under the thread's heading. */
const noticedThread = (after: boolean) => {
  const notice = `<ul class="notices"><li class="notice"><div class="notice-content">` +
    `<a href="/account/dismiss-notice?notice_id=30" class="notice-close"></a><p>${NOTICE}</p></div></li></ul>`
  return `<html><head><title>Tools that write for you</title></head><body><main>${
    after ? "" : notice
  }<h1>Tools that write for you</h1>${after ? notice : ""}<div class="post"><p>${LONG}</p></div>${
    REPLIES.map((r) => `<div class="post"><p>${r} ${LONG.slice(0, 160)}</p></div>`).join("")
  }</main></body></html>`
}

describe("readable copy: a site's dismissible notice above a thread", () => {
  it("leaves out the notice a reader can dismiss before the thread's heading", () => {
    const text = copy(noticedThread(false))
    expect(text).toContain("what keeps members coming back")
    expect(text).toContain(REPLIES[2])
    expect(text).not.toContain("scammers have answered")
  })

  it("keeps a dismissible block after the heading", () => {
    expect(copy(noticedThread(true))).toContain("scammers have answered")
  })
})

/**
 * A thread whose second post was edited: the board's note of who edited it and when under the
 * post (`inline`: the same words opening a sentence of a reply instead).
 */
const editedThread = (inline = false) =>
  `<html><head><title>Tools that write for you</title></head><body><main><h1>Tools that write for you</h1>
  <div class="post"><div class="content"><p>${LONG}</p></div></div>${
    REPLIES.map((r, i) =>
      `<div class="post"><div class="content"><p>${r}${
        inline && i === 2 ? " Last edited by the moderator on 3 June 2024, the wiki page says otherwise." : ""
      }</p>${
        !inline && i === 1
          ? `<div class="notice">Last edited by <a href="/memberlist.php?u=7">Ann</a> on Sun Jun 02, 2024 ` +
            `2:08 am, edited 2 times in total.</div>`
          : !inline && i === 2
          ? `<span class="edited">Edited June 19, 2024 by <a href="/profile/9-ben/">Ben</a></span>`
          : ""
      }</div></div>`
    ).join("")
  }</main></body></html>`

describe("readable copy: a post's edit note", () => {
  it("leaves out the board's note of who edited a post and when", () => {
    const text = copy(editedThread())
    for (const r of REPLIES) expect(text).toContain(r)
    expect(text).not.toContain("Last edited by")
    expect(text).not.toContain("edited 2 times in total")
    expect(text).not.toContain("Edited June 19")
  })

  it("keeps the same words inside a post's sentence", () => {
    const text = copy(editedThread(true))
    expect(text).toContain("Last edited by the moderator on 3 June 2024, the wiki page says otherwise.")
  })
})

/** A thread whose posts each have a column of the author's record: name, joining date, place, count of posts. */
const postersThread = (): string =>
  `<html><head><title>Winter tyres on a small car</title></head><body><main>` +
  `<h1>Winter tyres on a small car</h1>${
    REPLIES.map((r, i) =>
      `<div class="post"><div class="poster"><a href="/member.php?u=${i + 3}">Member${i + 3}</a>` +
      `<div>Join Date: Aug 20${10 + i}</div><div>Location: Lakeside</div><div>Posts: ${120 + i * 7}</div></div>` +
      `<div class="body"><p>${r}</p></div></div>`
    ).join("")
  }<p>Location: the meeting is at the club house, as every year.</p></main></body></html>`

describe("readable copy: a poster's facts beside each post", () => {
  it("leaves out the author's joining date, place and count of posts, keeping the posts", () => {
    const text = copy(postersThread())
    for (const r of REPLIES) expect(text).toContain(r)
    expect(text).not.toContain("Join Date")
    expect(text).not.toContain("Posts: 1")
    expect(text).not.toContain("Location: Lakeside")
    expect(text).toContain("Location: the meeting is at the club house, as every year.")
  })
})

/** A thread whose posts each end with the count of readers' reactions on the control that adds one. */
const reactedThread = (): string =>
  `<html><head><title>Winter tyres on a small car</title></head><body><main>` +
  `<h1>Winter tyres on a small car</h1>${
    REPLIES.map((r, i) =>
      `<div class="post"><div class="body"><p>${r}</p></div><div class="actions">` +
      `<a class="reaction">${i === 0 ? "Thanks" : `${i} Thanks`}</a>` +
      `<span class="likes">${i + 2} Likes</span></div></div>`
    ).join("")
  }<div class="post"><div class="body"><p>Thanks</p></div></div></main></body></html>`

describe("readable copy: a post's reactions", () => {
  it("leaves out the counts of reactions and their controls, keeping a reply that says thanks", () => {
    const text = copy(reactedThread())
    for (const r of REPLIES) expect(text).toContain(r)
    expect(text).not.toContain("Likes")
    expect(text).not.toContain("1 Thanks")
    expect(text.split(/\bThanks\b/).length - 1).toBe(1)
  })
})

/** A question and its answers marked with schema.org microdata (no JSON-LD): each post's score is `upvoteCount`. */
const markedQuestion = (): string =>
  `<html><head><title>How to back up a whole system?</title></head><body itemscope ` +
  `itemtype="https://schema.org/QAPage"><main><h1>How to back up a whole system?</h1>${
    REPLIES.map((r, i) =>
      `<div class="answer" itemprop="suggestedAnswer" itemscope itemtype="https://schema.org/Answer">` +
      `<div class="votes"><button aria-label="Up vote"></button><div class="count" itemprop="upvoteCount">` +
      `${184 - i * 61}</div><button aria-label="Down vote"></button></div>` +
      `<div class="body" itemprop="text"><p>${r}</p><p>${1977 + i}</p></div></div>`
    ).join("")
  }</main></body></html>`

describe("readable copy: a post's score marked in microdata", () => {
  it("leaves out the numbers named upvoteCount, keeping a number a post writes", () => {
    const text = copy(markedQuestion())
    for (const r of REPLIES) expect(text).toContain(r)
    expect(text).not.toContain("184")
    expect(text).not.toContain("123")
    expect(text).toContain("1977")
  })
})

/** Answers each followed by how many comments it has, a number microdata names `commentCount`, and a heading that `answerCount` counts. */
const countedAnswers = (): string =>
  `<html><head><title>Why is RAID not a backup?</title></head><body itemscope ` +
  `itemtype="https://schema.org/QAPage"><main><h1>Why is RAID not a backup?</h1>` +
  `<h2>Answers <span class="d-none" itemprop="answerCount">3</span></h2>${
    REPLIES.map((r, i) =>
      `<div class="answer" itemprop="suggestedAnswer" itemscope itemtype="https://schema.org/Answer">` +
      `<div class="body" itemprop="text"><p>${r}</p><p>${1815 + i}</p></div>` +
      `<span class="d-none" itemprop="commentCount">${64 + i}</span><ul class="comments"><li>` +
      `<span class="comment-copy">A fair point about the disks.</span></li></ul></div>`
    ).join("")
  }</main></body></html>`

describe("readable copy: a count of comments marked in microdata", () => {
  it("leaves out the numbers named commentCount and answerCount, keeping a number a post writes", () => {
    const text = copy(countedAnswers())
    for (const r of REPLIES) expect(text).toContain(r)
    expect(text).not.toMatch(/\b6[456]\b/)
    expect(text).not.toMatch(/Answers 3/)
    expect(text).toContain("1815")
  })
})

/** Answers each followed by the instant it was written in its machine form, hidden by a style sheet. */
const stampedComments = (): string =>
  `<html><head><title>Why is a bare except a bad practice?</title></head><body><main>` +
  `<h1>Why is a bare except a bad practice?</h1><p>${LONG}</p>${
    REPLIES.map((r, i) =>
      `<div class="answer"><div itemprop="text"><p>${r}</p></div>` +
      `<time class="d-none" itemprop="dateCreated">2019-01-2${i}T21:40:59.62Z+00:00</time></div>`
    ).join("")
  }<p>The log read 2019-01-20T21:40:59Z when it failed.</p></main></body></html>`

describe("readable copy: a date written for a program", () => {
  it("leaves out a time element whose text is an ISO instant, keeping one a sentence writes", () => {
    const text = copy(stampedComments())
    for (const r of REPLIES) expect(text).toContain(r)
    expect(text).not.toContain("21:40:59.62Z")
    expect(text).toContain("The log read 2019-01-20T21:40:59Z when it failed.")
  })
})

/** A thread that ends, for a guest, with a line asking them to log in to answer, then a box of the site's offers. */
const guestThread = (tail: string): string =>
  `<html><head><title>DHCP gives an address but no DNS record</title></head><body><main>` +
  `<h1>DHCP gives an address but no DNS record</h1><p>${LONG}</p>${
    REPLIES.map((r) => `<div class="answer"><p>${r}</p></div>`).join("")
  }<p>You must log in to reply, the old board told us, so most of us never did and read along instead.</p>` +
  `<h2 class="notice">You must <a href="/users/login">log in</a> to answer this question.</h2>${tail}</main></body></html>`

const ASK_BOX =
  `<div class="notice"><p>Start asking to get answers</p><p>Find the answer to your question by asking.</p>` +
  `<a class="button" href="/questions/ask">Ask question</a><p>Explore related questions</p>` +
  `<ul><li><a href="/questions/tagged/dns">dns</a></li></ul><p>See similar questions with these tags.</p></div>`

describe("readable copy: a guest's prompt to log in to reply", () => {
  it("leaves out the prompt and the short box after it, keeping a post that says the same in a sentence", () => {
    const text = copy(guestThread(ASK_BOX))
    for (const r of REPLIES) expect(text).toContain(r)
    expect(text).toContain("You must log in to reply, the old board told us")
    expect(text).not.toContain("to answer this question")
    expect(text).not.toContain("Start asking")
    expect(text).not.toContain("See similar questions")
  })

  it("keeps a long text after the prompt", () => {
    const text = copy(guestThread(`<p>${LONG}</p>`.replace("I have run", "After the prompt: I have run")))
    expect(text).not.toContain("to answer this question")
    expect(text).toContain("After the prompt: I have run the board")
  })
})

/** A thread whose posts each carry the author's presence, for screen readers, on the avatar's dot. */
const presenceThread = (): string =>
  `<html><head><title>Which version for the new release?</title></head><body><main>` +
  `<h1>Which version for the new release?</h1>${
    REPLIES.map((r, i) =>
      `<div class="post"><div class="poster"><a href="/user/m${i}"><span class="avatar">M</span> ` +
      `<span class="status"><span class="visually-hidden">${i === 1 ? "Online" : "Offline"}</span></span></a> ` +
      `<a href="/user/m${i}">member${i}</a></div><div class="body"><p>${r}</p></div></div>`
    ).join("")
  }</main></body></html>`

describe("readable copy: a poster's presence", () => {
  it("leaves out the Offline and Online words beside the posters, keeping the posts", () => {
    const text = copy(presenceThread())
    for (const r of REPLIES) expect(text).toContain(r)
    expect(text).not.toMatch(/\bOffline\b/)
    expect(text).not.toMatch(/\bOnline\b/)
  })
})

/** A locked thread: its status, a term and its value, over the posts and again under them (`twice`) or once. */
const lockedThread = (twice: boolean): string => {
  const status = `<dl class="status"><dt>Status</dt><dd>Not open for further replies.</dd></dl>`
  return `<html><head><title>Which card for the new case?</title></head><body><main>` +
    `<h1>Which card for the new case?</h1>${status}${
      REPLIES.map((r) => `<div class="post"><div class="body"><p>${r}</p></div></div>`).join("")
    }${twice ? status : ""}</main></body></html>`
}

describe("readable copy: a locked thread's status", () => {
  it("leaves out the status said over and under the posts, with its label", () => {
    const text = copy(lockedThread(true))
    for (const r of REPLIES) expect(text).toContain(r)
    expect(text).not.toContain("further replies")
    expect(text).not.toMatch(/\bStatus\b/)
  })

  it("keeps the line when the page says it once", () => {
    expect(copy(lockedThread(false))).toContain("Not open for further replies.")
  })
})

/** A thread closed by a block of the board's other threads, each a title, its date and its counts. */
const SIMILAR_TITLES = [
  "Wide lens for the Milky Way",
  "Star trails with a kit lens",
  "A faster lens or a tracking mount",
  "Night sky from a city balcony"
]

const similarThread = (): string =>
  `<html><head><title>Which lens for night skies?</title></head><body><main>` +
  `<h1>Which lens for night skies?</h1>${
    REPLIES.map((r) => `<div class="post"><div class="body"><p>${r}</p></div></div>`).join("")
  }<div class="post"><div class="body"><p>Similar threads asked this before, but none of them ` +
  `settled on a lens for a small budget.</p></div></div>` +
  `<div class="block"><div class="block-container"><h2>Similar threads</h2><div class="block-body">${
    SIMILAR_TITLES.map((t, i) =>
      `<div class="item"><div class="item-main"><div class="item-title"><a href="/t/${i}">${t}</a></div>` +
      `<ul class="item-parts"><li><time datetime="2013-08-0${i + 1}">Aug ${i + 1}, 2013</time></li></ul></div>` +
      `<div class="item-meta"><dl><dt>Replies</dt><dd>${12 + i}</dd></dl><dl><dt>Views</dt><dd>${
        i + 3
      }K</dd></dl></div></div>`
    ).join("")
  }</div></div></div></main></body></html>`

describe("readable copy: other threads offered under a thread", () => {
  it("leaves out the block and its heading, keeping a post that names similar threads in a sentence", () => {
    const text = copy(similarThread())
    for (const r of REPLIES) expect(text).toContain(r)
    expect(text).toContain("Similar threads asked this before")
    expect(text).not.toMatch(/^#* *Similar threads$/m)
    for (const t of SIMILAR_TITLES) expect(text).not.toContain(t)
    expect(text).not.toMatch(/\bReplies\b/)
    expect(text).not.toContain("Aug 1, 2013")
  })
})

/** A thread whose liked posts name who liked them, after a label for screen readers, the names one link. */
const reactorsThread = (): string =>
  `<html><head><title>Which filter for a dusty sky?</title></head><body><main>` +
  `<h1>Which filter for a dusty sky?</h1>${
    REPLIES.map((r, i) =>
      `<div class="post"><div class="body"><p>${r}</p></div><div class="reactionsBar">` +
      `<ul class="reactionSummary"><li><img src="like.gif" alt="" /></li></ul>` +
      `<span class="sr-only">Reactions:</span> <a href="/posts/${i}/reactions"><bdi>ann${i}</bdi> and ` +
      `<bdi>bo${i}</bdi></a></div></div>`
    ).join("")
  }<div class="post"><div class="body"><p>Reactions: mixed, but most members liked the filter after ` +
  `a week of clear nights.</p></div></div></main></body></html>`

describe("readable copy: who reacted to a post", () => {
  it("leaves out the names under each post, keeping a post that opens with the same word", () => {
    const text = copy(reactorsThread())
    for (const r of REPLIES) expect(text).toContain(r)
    expect(text).toContain("Reactions: mixed, but most members liked the filter")
    expect(text).not.toMatch(/\bann\d\b/)
    expect(text).not.toMatch(/^Reactions:\s*$/m)
  })
})

/** A thread whose posts each close with a link to the reply form that quotes them. */
const replyLinksThread = (): string =>
  `<html><head><title>Which mount for a small scope?</title></head><body><main>` +
  `<h1>Which mount for a small scope?</h1>${
    REPLIES.map((r, i) =>
      `<div class="post"><div class="content"><blockquote class="postcontent">${r}</blockquote></div>` +
      `<div class="postfoot"><span class="postcontrols"><a class="newreply" href="/newreply?p=${i}" ` +
      `rel="nofollow"><img src="clear.gif" alt="" /> Reply With Quote</a></span></div></div>`
    ).join("")
  }<p>To answer, <a href="/newreply?t=1">Reply</a> opens the form at the foot of the page.</p></main></body></html>`

describe("readable copy: a post's reply controls", () => {
  it("leaves out the reply link every post repeats, keeping a lone one in a sentence", () => {
    const text = copy(replyLinksThread())
    for (const r of REPLIES) expect(text).toContain(r)
    expect(text).not.toContain("Reply With Quote")
    expect(text).toContain("To answer, Reply opens the form at the foot of the page.")
  })
})

/** A thread whose posts list their attached files, each with its size and how often it was fetched. */
const attachmentsThread = (): string =>
  `<html><head><title>The guest hangs on start</title></head><body><main>` +
  `<h1>The guest hangs on start</h1>${
    REPLIES.map((r, i) =>
      `<div class="post"><div class="content">${r}</div><dl class="attachbox"><dt>Attachments</dt><dd>` +
      `<dl class="file"><dt><a class="postlink" href="/download/file.php?id=${i}">logs-${i}.zip</a></dt>` +
      `<dd>(95.79 KiB) Downloaded ${40 + i} times</dd></dl></dd></dl></div>`
    ).join("")
  }<div class="post"><div class="content">The old build was downloaded 478 times before anyone saw the ` +
  `bug, so the logs are worth reading.</div></div></main></body></html>`

describe("readable copy: a post's attached files", () => {
  it("leaves out the files' box with its sizes and counts, keeping a sentence that gives a count", () => {
    const text = copy(attachmentsThread())
    for (const r of REPLIES) expect(text).toContain(r)
    expect(text).toContain("The old build was downloaded 478 times before anyone saw the bug")
    expect(text).not.toMatch(/Downloaded \d+ times/)
    expect(text).not.toContain("logs-0.zip")
    expect(text).not.toMatch(/^Attachments$/m)
  })
})

/** A thread with a board's advertisement slot between its posts, labelled with a note for guests. */
const adNoteThread = (): string =>
  `<html><head><title>Which mount for a small scope?</title></head><body><main>` +
  `<h1>Which mount for a small scope?</h1>${
    REPLIES.map((r) =>
      `<div class="post"><div class="slot"><div style="font-size: 11px">Advertisement - ` +
      `<a href="/register">Members</a> don't see this ad</div></div><div class="content">${r}</div></div>`
    ).join("")
  }<div class="post"><div class="content"><p>Advertisement: the word alone on a banner was ` +
  `how the old club paid for its server in 2003.</p></div></div></main></body></html>`

describe("readable copy: an advertisement's label with a note", () => {
  it("leaves out the label and its note, keeping a sentence that opens with the word", () => {
    const text = copy(adNoteThread())
    for (const r of REPLIES) expect(text).toContain(r)
    expect(text).not.toContain("don't see this ad")
    expect(text).toContain("Advertisement: the word alone on a banner was how the old club paid")
  })
})

/** A thread whose post embeds a video, written as an empty frame and a link to it for readers without the script. */
const mediaFallbackThread = (): string =>
  `<html><head><title>Which mount for a small scope?</title></head><body><main>` +
  `<h1>Which mount for a small scope?</h1>${
    REPLIES.map((r, i) =>
      `<div class="post"><div class="content">${r} This might help: <div class="mediaWrapper">` +
      `<div class="mediaWrapper-inner"></div></div><i><span style="font-size: 10px">` +
      `<a href="https://video.example/watch?v=${i}abc">View: https://video.example/watch?v=${i}abc</a>` +
      `</span></i></div></div>`
    ).join("")
  }<div class="post"><div class="content"><p>The whole log from last night is here, ` +
  `<a href="https://paste.example/log">View: https://paste.example/log.txt</a>, and it shows the same ` +
  `error twice before the guest hangs.</p></div></div></main></body></html>`

describe("readable copy: a video's stand-in link", () => {
  it("leaves out a link whose text is View: and its own address, keeping one that names another", () => {
    const text = copy(mediaFallbackThread())
    for (const r of REPLIES) expect(text).toContain(r)
    expect(text).not.toContain("watch?v=")
    expect(text).toContain("View: https://paste.example/log.txt")
  })
})

/** A thread whose posters' panels give each member's count of posts after the number. */
const postCountThread = (): string =>
  `<html><head><title>First trip to Japan</title></head><body><main>` +
  `<h1>First trip to Japan</h1>${
    [...REPLIES, "Kyoto in April is worth the crowds."].map((r, i) =>
      `<div class="post"><div class="meta"><div class="author">Posted by Member ${i}</div>` +
      `<div class="post-count">${4931 + i * 17} posts</div></div><div class="content"><p>${r}</p></div></div>`
    ).join("")
  }</main><aside><p>This forum has 12 posts today.</p></aside></body></html>`

describe("readable copy: a poster's count of posts written after the number", () => {
  it("leaves out the counts beside each post", () => {
    const text = copy(postCountThread())
    for (const r of REPLIES) expect(text).toContain(r)
    expect(text).not.toMatch(/\d posts\b/)
  })
})

/** A thread whose starter's posts carry a badge saying so, and a reply that names the starter in a sentence. */
const starterBadgeThread = (): string =>
  `<html><head><title>Which mount for a small scope?</title></head><body><main>` +
  `<h1>Which mount for a small scope?</h1>${
    REPLIES.map((r, i) =>
      `<div class="post"><div class="ribbonBox"><div class="ribbon"><span>${i === 1 ? "" : "OP"}</span>` +
      `</div></div><div class="content"><p>${r}</p></div></div>`
    ).join("")
  }<div class="post"><div class="content"><p>OP</p><p>is right: the light mount is enough for a ` +
  `first year.</p></div></div></main></body></html>`

describe("readable copy: the thread starter's badge", () => {
  it("leaves out the badge over each of the starter's posts", () => {
    const text = copy(starterBadgeThread())
    for (const r of REPLIES) expect(text).toContain(r)
    expect(text.match(/^OP$/gm) ?? []).toHaveLength(0)
  })
})

/** A thread whose liked posts name who liked them, each name a link to the member. */
const likersThread = (): string =>
  `<html><head><title>Which mount for a small scope?</title></head><body><main>` +
  `<h1>Which mount for a small scope?</h1>${
    REPLIES.map((r, i) =>
      `<div class="post"><div class="content"><p>${r}</p></div><div class="liked">` +
      `<a href="/members/ann${i}">ann${i}</a>, <a href="/members/bo${i}">bo${i}</a> and ` +
      `<a href="#" onclick="return false">3 others</a> like this.</div></div>`
    ).join("")
  }<div class="post"><div class="content"><p>Most of the members I asked like this.</p></div></div>` +
  `</main></body></html>`

describe("readable copy: the names of who liked a post", () => {
  it("leaves out the names and 'like this', keeping a sentence that ends the same way", () => {
    const text = copy(likersThread())
    for (const r of REPLIES) expect(text).toContain(r)
    expect(text).not.toMatch(/\bann\d\b/)
    expect(text).toContain("Most of the members I asked like this.")
  })
})

/** A thread whose posters have no picture: each avatar is a coloured disc with the name's initial. */
const letterAvatarThread = (): string =>
  `<html><head><title>Which mount for a small scope?</title></head><body><main>` +
  `<h1>Which mount for a small scope?</h1>${
    REPLIES.map((r, i) =>
      `<div class="post"><div class="poster"><span class="avatar avatar-rounded" ` +
      `style="background-color: #607d8b">${"JKN"[i]}</span></div><div class="content"><p>${r}</p>` +
      `</div></div>`
    ).join("")
  }<div class="post"><div class="content"><p>The three options were:</p><ul><li>A</li><li>B</li>` +
  `<li>C</li></ul></div></div></main></body></html>`

describe("readable copy: a poster's letter avatar", () => {
  it("leaves out the initial drawn as an avatar, keeping one-letter items of a list", () => {
    const text = copy(letterAvatarThread())
    for (const r of REPLIES) expect(text).toContain(r)
    expect(text).not.toMatch(/^\s*[JKN]\s*$/m)
    expect(text).toMatch(/^\s*B\s*$/m)
  })
})

/** A thread whose posts close with a signature named as the post's own (`postsignature`). */
const postSignatureThread = (): string =>
  `<html><head><title>Which mount for a small scope?</title></head><body><main>` +
  `<h1>Which mount for a small scope?</h1>${
    REPLIES.map((r) =>
      `<div class="post"><h3>Re: Which mount for a small scope?</h3><div class="postmsg"><p>${r}</p></div>` +
      `<div class="postsignature postmsg"><hr /><p><a href="/wiki/collimation">How to collimate</a> · ` +
      `<a href="/wiki/dew">Fight the dew</a></p></div></div>`
    ).join("")
  }</main></body></html>`

describe("readable copy: a signature named as the post's own", () => {
  it("leaves out the signature under each post", () => {
    const text = copy(postSignatureThread())
    for (const r of REPLIES) expect(text).toContain(r)
    expect(text).not.toContain("How to collimate")
  })
})

/** A thread whose posts' headers are templates a script fills: the time each was written and edited. */
const templateNotesThread = (): string =>
  `<html><head><title>Which mount for a small scope?</title></head><body><main>` +
  `<h1>Which mount for a small scope?</h1>${
    REPLIES.map((r, i) =>
      `<div class="post"><div class="d-flex"><a href="/user/member${i}">member${i}</a> ` +
      `<div class="d-flex gap-1"><span class="text-muted">wrote on <a href="/post/${i}" class="timeago" ` +
      `title="2024-04-17T10:58:44.717Z"></a></span> <span class="visually-hidden">last edited by ` +
      `${i === 1 ? "member1 " : ""}<span class="timeago" title="Invalid Date"></span></span></div></div>` +
      `<div class="content"><p>${r}</p></div></div>`
    ).join("")
  }<div class="post"><div class="content"><p>Last edited by the moderator, the first post now ` +
  `links the mount's manual.</p></div></div></main></body></html>`

describe("readable copy: a post's edit note whose dates a script fills", () => {
  it("leaves out the note with its empty dates, keeping a sentence that opens with the words", () => {
    const text = copy(templateNotesThread())
    for (const r of REPLIES) expect(text).toContain(r)
    expect(text).not.toMatch(/wrote on|last edited by/)
    expect(text).toContain("Last edited by the moderator, the first post now links the mount's manual.")
  })
})

/** A thread whose posts' dates are written twice in their `time`, long for wide screens and short for phones. */
const twoLengthDatesThread = (): string =>
  `<html><head><title>Which mount for a small scope?</title></head><body><main>` +
  `<h1>Which mount for a small scope?</h1>${
    REPLIES.map((r, i) =>
      `<div class="post"><a href="/user/member${i}">member${i}</a> <time datetime="2024-06-1${i}T13:22:54Z" ` +
      `class="ipsTime ipsTime--long"><span class="ipsTime__long">June 1${i}, 2024</span>` +
      `<span class="ipsTime__short">1 yr</span></time><div class="content"><p>${r}</p></div></div>`
    ).join("")
  }<div class="post"><div class="content"><p>A short tube on a long mount tracks well.</p></div></div>` +
  `</main></body></html>`

describe("readable copy: a date written in a long and a short form", () => {
  it("keeps the long form of each post's date and leaves out the short one", () => {
    const text = copy(twoLengthDatesThread())
    for (const r of REPLIES) expect(text).toContain(r)
    expect(text).toContain("June 10, 2024")
    expect(text).not.toContain("1 yr")
    expect(text).toContain("A short tube on a long mount tracks well.")
  })
})

/**
 * A question thread that ends with its reply box (a form holding a `textarea`), then two short
 * boxes that point elsewhere; `search`, a search form (no `textarea`) with a line after it instead.
 */
const replyBoxThread = (search = false): string =>
  `<html><head><title>Which glue for a cracked mug?</title></head><body><main><div id="thread">` +
  `<h1>Which glue for a cracked mug?</h1><div class="post"><p>${LONG}</p></div>${
    REPLIES.map((r) => `<div class="post"><p>${r}</p></div>`).join("")
  }${
    search
      ? `<form action="/search"><input type="search" name="q"><button>Search</button></form>` +
        `<div class="box"><p>Mugs glued with epoxy stay safe in the dishwasher.</p></div>`
      : `<form action="/reply" method="post"><h2>Your reply</h2><textarea name="body"></textarea>` +
        `<button type="submit">Post your reply</button></form>` +
        `<div class="box"><p>Not what you were looking for?</p><a href="/ask">Start a new thread</a></div>` +
        `<div class="box"><p>Browse more threads about repairs.</p></div>`
  }</div></main></body></html>`

describe("readable copy: the boxes after a thread's reply box", () => {
  it("leaves out the short boxes after the reply box, keeping a line after a search form", () => {
    const text = copy(replyBoxThread())
    for (const r of REPLIES) expect(text).toContain(r)
    expect(text).not.toMatch(/Not what you were looking for|Start a new thread|Browse more threads/)
    expect(copy(replyBoxThread(true))).toContain("Mugs glued with epoxy stay safe in the dishwasher.")
  })
})

/**
 * A thread whose posts open with a byline-named line (`post-meta`) holding the poster's name,
 * marked as the author in microdata, the post's date and its place in the thread; `article`, the
 * same page without the schema.org data that says it is a discussion.
 */
const posterLinesThread = (article = false): string =>
  `<html><head><title>Which bench for a small shop?</title>${
    article ? "" : `<script type="application/ld+json">{"@type":"DiscussionForumPosting",` +
      `"headline":"Which bench for a small shop?"}</script>`
  }</head><body><main><h1>Which bench for a small shop?</h1>${
    [LONG, ...REPLIES].map((r, i) =>
      `<div class="topic-body"><div class="post-meta"><span itemprop="author"><a href="/u/carver${i}">` +
      `<span itemprop="name">carver${i}</span></a></span> <time datetime="2024-03-0${i + 1}">` +
      `March ${i + 1}, 2024, 9:1${i}am</time> <span itemprop="position">${i + 1}</span></div>` +
      `<div class="post" itemprop="text"><p>${r}</p></div></div>`
    ).join("")
  }</main></body></html>`

describe("readable copy: the poster's line over each post of a thread", () => {
  it("keeps each poster's name and date, without the post's number, on a discussion only", () => {
    const text = copy(posterLinesThread())
    for (const r of REPLIES) expect(text).toContain(r)
    for (const i of [0, 1, 2, 3]) expect(text).toContain(`carver${i} March ${i + 1}, 2024, 9:1${i}am`)
    expect(text).not.toMatch(/am \d/)
    const article = copy(posterLinesThread(true))
    for (const r of REPLIES) expect(article).toContain(r)
    expect(article).not.toContain("carver1")
  })
})

/**
 * A thread without schema.org data whose posts open with a short block named `author` (who wrote
 * the post and when, as phpBB writes it); `single`, a page with one such block only (an article's
 * author line).
 */
const postHeadsThread = (single = false): string =>
  `<html><head><title>Which bench for a small shop?</title></head><body><div id="page-body">${
    (single ? [LONG] : [LONG, ...REPLIES]).map((r, i) =>
      `<div class="post"><div class="postbody"><p class="author">by <strong><a href="/memberlist.php?u=${i}">` +
      `carver${i}</a></strong> » Tue Mar 0${i + 1}, 2024 9:1${i} am</p><div class="content">${r}</div></div></div>`
    ).join("")
  }</div></body></html>`

describe("readable copy: the author line over each post of a thread without schema.org data", () => {
  it("keeps each poster's name and date where several posts open with one, not a lone author line", () => {
    const text = copy(postHeadsThread())
    for (const r of REPLIES) expect(text).toContain(r)
    for (const i of [0, 1, 2, 3]) expect(text).toContain(`by carver${i} » Tue Mar 0${i + 1}, 2024 9:1${i} am`)
    const single = copy(postHeadsThread(true))
    expect(single).toContain("nine years")
    expect(single).not.toContain("carver0")
  })
})

/**
 * A thread whose first post quotes two posts of another thread in quote boxes drawn as asides
 * (`aside.quote`, each holding its title and a `blockquote`): one a paragraph long, one a line.
 */
const asideQuotesThread = (): string =>
  `<html><head><title>How do you value a fast grower?</title></head><body><main>${
    [LONG, ...REPLIES].map((r, i) =>
      `<article class="post"><div class="poster">carver${i}</div><div class="cooked">${
        i === 0 ?
          `<p>Continuing the discussion from another thread:</p><aside class="quote no-group">` +
          `<div class="title">planer7:</div><blockquote><p>I merely try to think about reasonable ` +
          `expectations for the next few years, what the company may earn by then and what a buyer ` +
          `would pay for those earnings, and I leave the rest of the arithmetic to others.</p></blockquote></aside>` +
          `<aside class="quote no-group"><div class="title">planer7:</div><blockquote><p>Where is the ` +
          `gate again?</p></blockquote></aside>` :
          ""
      }<p>${r}</p></div></article>`
    ).join("")
  }</main></body></html>`

describe("readable copy: a quoted post drawn as an aside", () => {
  it("keeps a quote box's paragraph inside the post that quotes it, not a line", () => {
    const text = copy(asideQuotesThread())
    for (const r of [LONG, ...REPLIES]) expect(text).toContain(r)
    expect(text).toContain("I merely try to think about reasonable expectations for the next few years")
    expect(text).not.toContain("Where is the gate again?")
  })
})

const FIRST = "I have run the board on the same small server for nine years, and what keeps members " +
  "coming back is never the software itself."

/**
 * A thread whose second post is one short line ending in a smiley drawn as a picture (`img` whose
 * `alt` is the typed face), quoted by the fourth post; `alt`, the smiley's text.
 */
const smileyThread = (alt = ":D"): string =>
  `<html><head><title>If the board closes</title></head><body><main>${
    [FIRST, "SMILEY", ...REPLIES].map((r, i) =>
      `<article class="post"><div class="poster">carver${i}</div><div class="postBody">${
        r === "SMILEY" ?
          `<p>I made lots of friends here. <span><img alt="${alt}" src="/smilies/grin.gif"></span></p>` :
          i === 3 ?
          `<blockquote class="bbQuote"><div class="bbQuote__text"><p>I made lots of friends here. ` +
          `<span><img alt="${alt}" src="/smilies/grin.gif"></span></p></div></blockquote><p>${r}</p>` :
          `<p>${r}</p>`
      }</div></article>`
    ).join("")
  }</main></body></html>`

describe("readable copy: a short post ending in a smiley", () => {
  it("keeps a short line with a smiley's picture, written in two posts, as the posts' text", () => {
    const text = copy(smileyThread())
    for (const r of [FIRST, ...REPLIES]) expect(text).toContain(r)
    expect(text.match(/I made lots of friends here\./g)?.length).toBe(2)
    const emoji = copy(smileyThread(":grinning:"))
    expect(emoji.match(/I made lots of friends here\./g)?.length).toBe(2)
  })
})

const CHANGES = [
  "Always save the data of remote images, so that a post keeps its pictures when their server goes",
  "Apply the limit on scheduled posts to future posts instead of past posts, and test it",
  "Swap the language picker and the reply buttons around under the box where a comment is written",
  "Avoid a stack overflow when fetching deeply nested comments, and cap their depth at fifty",
  "Add the ability to search for a community by its description as well as by its title",
  "Add entries to the moderation log for every removal made in bulk by an administrator"
]

const INTRO = "Here is our regular update on what we have been working on for the past two weeks, so " +
  "that readers can keep up with the project without reading its code reviews."

/**
 * A thread app's page without schema.org data: the first post (its `h1` over a changelog: who
 * wrote what) in one box, the tree of replies under it in a sibling box, each reply an `article` with
 * its own anchor (`comment-N`) inside a list named `comments`; `ogType`, the page's Open Graph type.
 */
const threadAppPage = (ogType: string): string =>
  `<html><head><title>Development update</title><meta property="og:type" content="${ogType}"></head>` +
  `<body><main><div class="row"><div class="col-main"><div class="post-listing">` +
  `<div class="post-title"><h1><a href="/post/7">Development update</a></h1><div>by <a href="/u/ann">ann</a></div></div>` +
  `<article id="postContent"><div class="md-div"><p>${INTRO}</p>${
    ["ann", "bo", "cy"].map((who, g) =>
      `<h2>${who}</h2><ul>${CHANGES.slice(2 * g, 2 * g + 2).map((c) => `<li>${c}</li>`).join("")}</ul>`
    ).join("")
  }</div></article></div><div><ul class="comments">${
    [LONG, ...REPLIES].map((r, i) =>
      `<li class="comment"><article class="comment-node" id="comment-${100 + i}">` +
      `<div class="comment-content"><p>${r}</p></div></article></li>`
    ).join("")
  }</ul></div></div></div></main></body></html>`

describe("readable copy: a thread app's replies anchored one by one", () => {
  it("keeps the first post and its replies on a website's page, not an article's comments", () => {
    const text = copy(threadAppPage("website"))
    for (const r of [LONG, ...REPLIES]) expect(text).toContain(r)
    for (const c of CHANGES) expect(text).toContain(c)
    expect(text).toContain(INTRO)
    const article = copy(threadAppPage("article"))
    expect(article).toContain(CHANGES[0])
    expect(article).not.toContain(REPLIES[0])
  })
})

const POSTERS = ["Ann Example", "otheruser42", "Bo"]

/**
 * A board's thread drawn with a poster panel beside each post: the avatar, then the panel
 * (`message-userDetails`) holding the poster's name as a heading over a title and a banner, then
 * counts (`message-userExtras`); the post's date and text in the cell beside it.
 */
const panelThread = (): string =>
  `<html><head><title>Tools that write for you</title></head><body><main>` +
  `<h1>Tools that write for you</h1><div class="block-body">${
    [LONG, ...REPLIES].map((text, i) =>
      `<article class="message message--post" id="post-${i}"><div class="message-inner">` +
      `<div class="message-cell message-cell--user"><section class="message-user">` +
      `<div class="message-avatar"><a href="/members/${i}/"><img src="/a/${i}.jpg" alt=""></a></div>` +
      `<div class="message-userDetails"><h4 class="message-name"><a href="/members/${i}/">${
        POSTERS[i % POSTERS.length]
      }</a></h4><h5 class="userTitle">Well-known member</h5>` +
      `<div class="userBanner"><strong>Supporter</strong></div></div>` +
      `<div class="message-userExtras"><dl><dt>Joined</dt><dd>Mar 3, 2016</dd></dl>` +
      `<dl><dt>Messages</dt><dd>${1200 + i}</dd></dl></div></section></div>` +
      `<div class="message-cell message-cell--main"><header class="message-attribution">` +
      `<time datetime="2024-06-0${i + 1}">Jun ${i + 1}, 2024</time></header>` +
      `<div class="message-content"><div class="message-userContent"><article class="message-body">` +
      `<div class="bbWrapper">${text}</div></article></div></div></div></div></article>`
    ).join("")
  }</div></main></body></html>`

describe("readable copy: a poster's name in the panel beside each post", () => {
  it("keeps each poster's name over the post, not the panel's title, banner and counts", () => {
    const text = copy(panelThread())
    for (const r of [LONG, ...REPLIES]) expect(text).toContain(r)
    for (const who of POSTERS) expect(text).toContain(who)
    expect(text.indexOf(POSTERS[1]!)).toBeLessThan(text.indexOf(REPLIES[0]!))
    expect(text).not.toContain("Well-known member")
    expect(text).not.toContain("Supporter")
    expect(text).not.toContain("Joined")
  })
})

/**
 * A thread whose page holds, over the posts, the alert its script shows only once the thread is
 * deleted (`alert … hidden`), and a shown alert (`alert`, no hiding class) under the posts.
 */
const alertThread = (): string =>
  `<html><head><title>Tools that write for you</title></head><body><main><div class="topic">` +
  `<h1>Tools that write for you</h1>` +
  `<div class="alert alert-warning d-flex justify-content-between hidden"><span>This topic has been ` +
  `deleted. Only users with topic management privileges can see it.</span><span></span></div>` +
  `<ul class="posts timeline">${
    [LONG, ...REPLIES].map((text, i) =>
      `<li class="post" data-index="${i}"><div class="post-header"><a href="/user/u${i}">u${i}</a></div>` +
      `<div class="content"><p>${text}</p></div></li>`
    ).join("")
  }</ul><div class="alert alert-info">Replies are closed for the summer break.</div></div></main></body></html>`

describe("readable copy: an alert waiting hidden for a script", () => {
  it("leaves out an alert hidden by its class, keeping the posts and a shown alert", () => {
    const text = copy(alertThread())
    for (const r of [LONG, ...REPLIES]) expect(text).toContain(r)
    expect(text).not.toContain("This topic has been deleted")
    expect(text).toContain("Replies are closed for the summer break.")
  })
})
