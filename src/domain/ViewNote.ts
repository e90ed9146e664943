/**
 * What a writing command in a folder bound to a shared dossier says about the refresh of this
 * folder's view that follows its commit (docs/store.md, "The part of the view it touched,
 * refreshed"): nothing when the view was brought up to the store; otherwise the files kept (a
 * `plan.md` edited here, a file holding other bytes than the store's: never overwritten) or why
 * the view was not refreshed, with the way out. The command line says `note` on stderr; a tool
 * call of `dossier mcp` carries the whole object as its answer's `view` field, so that an agent,
 * which never sees the server's stderr, learns it too. The command's answer stands either way:
 * its write is in the store.
 */

/** The refresh's account when there is something to say (`view` in an MCP answer). */
export interface ViewNote {
  /** False: the view was not refreshed at all (`note` says why); `dossier pull` brings it. */
  readonly refreshed: boolean
  /** Files of the view left as they are (other bytes there than the store's), relative, with `/`. */
  readonly kept: ReadonlyArray<string>
  /** One sentence: what happened and the way out. */
  readonly note: string
}

/** The note of a refresh that kept `plan.md` (edited here). */
export const PLAN_KEPT_NOTE =
  "the store holds the change, but plan.md here holds edits the store does not: kept, not refreshed; move it aside (or merge the edits into the plan), then `dossier pull`"

/**
 * The note of a refresh: `kept` the files it left as they were; `failed` why it did not run
 * (null: it ran). Null when there is nothing to say.
 */
export const viewNote = (
  refresh: { readonly kept: ReadonlyArray<string> } | { readonly failed: string }
): ViewNote | null => {
  if ("failed" in refresh) {
    return {
      refreshed: false,
      kept: [],
      note:
        `the store holds the change, but this folder's view was not refreshed (${refresh.failed}); \`dossier pull\` brings it`
    }
  }
  if (refresh.kept.length === 0) return null
  const others = refresh.kept.filter((p) => p !== "plan.md")
  const notes = [
    ...(refresh.kept.includes("plan.md") ? [PLAN_KEPT_NOTE] : []),
    ...(others.length === 0 ? [] : [
      `the store holds the change, but ${others.join(", ")} here ${
        others.length === 1 ? "holds" : "hold"
      } other bytes than the store's: kept, not overwritten; move ${
        others.length === 1 ? "it" : "them"
      } aside (keep what matters), then \`dossier pull\``
    ])
  ]
  return { refreshed: true, kept: [...refresh.kept], note: notes.join("; and ") }
}
