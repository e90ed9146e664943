/** Implementation of `dossier source follow` (loaded lazily). */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { SourcesLayer } from "../layers/SourcesLayer.js"
import { relativeToWorkdir } from "../services/InputFile.js"
import { Sources } from "../services/Sources.js"
import { work } from "./Work.js"

export const follow = (
  o: { readonly workdir: string; readonly quote: string; readonly path: Option.Option<string> }
) => {
  // --path is taken as every path option is (from the current directory when it names something
  // there, else from the work folder; outside: InputOutsideWorkdir naming --path).
  const effect = Effect.gen(function*() {
    const path = Option.isSome(o.path) ? yield* relativeToWorkdir(o.path.value, "--path") : undefined
    return yield* Effect.flatMap(Sources, (s) => s.follow(o.quote, { path }))
  })
  return work({
    effect,
    layer: SourcesLayer(o.workdir),
    human: (r) =>
      [
        r.matches.length === 0
          ? r.skipped.length === 0
            ? "no match: the excerpt is not in any retained source (check it, or give --path)"
            : "no match in the files searched (fix those below, or give --path to see each refusal)"
          : r.matches
            .map((m) =>
              [
                `${m.path}:${m.line} (code points ${m.start}-${m.end}; ${
                  m.registered ? "registered bytes" : "not the registered bytes"
                }${m.origin === null ? "" : `; from ${m.origin}`})`,
                ...(m.section === null ? [] : [`  section: ${m.section}`]),
                `  ${m.paragraph}`
              ].join("\n")
            )
            .join("\n\n"),
        ...(r.skipped.length === 0 ? [] : [
          `${r.matches.length === 0 ? "" : "\n"}not searched (${r.skipped.length}):`,
          ...r.skipped.map((k) => `  ${k.path}: ${k.error}: ${k.message}`)
        ])
      ].join("\n")
  })
}
