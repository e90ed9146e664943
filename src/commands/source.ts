/** `dossier source follow`, declared as data (see src/commands/Spec.ts). */
import { command, type CommandSpec, json, workdir } from "./Spec.js"

export const sourceGroup = {
  name: "source",
  description: "The files retained under research/sources/: follow an excerpt to its whole passage."
}

export const sourceSpecs: ReadonlyArray<CommandSpec> = [
  command({
    path: ["source", "follow"],
    description:
      "Find a remembered excerpt in the readable copies and text originals under research/sources/ (or only --path) and show the whole passage: " +
      "the excerpt may be clipped at either end and hold … or ... where words were left out; its pieces must occur in order inside one paragraph " +
      "(list item, table row, quote block), matched under the shared quote rule (the text a reader sees, NFC, whitespace collapsed; at least 20 characters in all). " +
      "Answers matches [{path, sha256, registered (the current bytes are the ones the plan registered), origin, start, end (code points in the file's text), line, paragraph, section (nearest heading)}]; " +
      "no match is matches: [] (the excerpt may be wrong). Without --path, files it cannot read as text (a hard link, a symlink, not UTF-8, over 16 MiB) are listed in skipped [{path, error, message}] with the refusal --path would give; past the first 10,000 files, skipped names research/sources with LimitExceeded. Never writes; in a bound folder a file missing or other here is read from the store.",
    flags: {
      workdir,
      json,
      quote: { kind: "text", name: "quote", description: "The excerpt, as remembered (… or ... for left-out words)." },
      path: {
        kind: "optionalText",
        name: "path",
        value: "path",
        description:
          "Search only this file under research/sources/ (any text format, HTML originals included); relative: from the current directory if it is there, else the work folder."
      }
    },
    run: (v) => import("./source.impl.js").then((m) => m.follow(v))
  })
]
