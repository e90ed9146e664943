/** Print what src/cli/Usage.ts answered without running a command: help, the version, a usage error. */
import { printSuccess, printUsageError } from "./Render.js"
import { helpDoc, helpText, type Route, VERSION } from "./Usage.js"

export const answer = (r: Exclude<Route, { readonly _tag: "Run" | "Delegate" }>, json: boolean): void => {
  switch (r._tag) {
    case "Help":
      return printSuccess(json, helpDoc(r.path), helpText(r.path))
    case "Version":
      return printSuccess(json, { version: VERSION }, `dossier ${VERSION}`)
    case "Usage":
      return printUsageError(json, r.message)
  }
}
