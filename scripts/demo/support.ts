/** Demo helpers: run the built CLI in a temporary folder and narrate what happened. */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"

export const CLI = path.resolve("dist/dossier.cjs")

export const say = (text: string) => console.log(text)

/** Run `dossier <args> --json` in `dir`, print the command and a short view of its answer. */
export const dossier = (
  dir: string,
  args: ReadonlyArray<string>,
  show: (json: any) => string = (j) => JSON.stringify(j),
  /** The exit code the step shows (1: a refusal the demo means to show); any other stops the demo. */
  exit = 0
) => {
  const r = spawnSync(process.execPath, [CLI, ...args, "--json"], { cwd: dir, encoding: "utf8" })
  console.log(`$ dossier ${args.join(" ")} --json   (exit ${r.status})`)
  if (r.status !== exit) {
    throw new Error(`the demo expected exit ${exit} from dossier ${args.join(" ")}:\n${r.stdout}${r.stderr}`)
  }
  const json = JSON.parse(r.stdout)
  console.log(`  ${show(json)}`)
  return json
}

export const write = (dir: string, rel: string, content: string) => {
  const p = path.join(dir, rel)
  fs.mkdirSync(path.dirname(p), { recursive: true })
  fs.writeFileSync(p, content)
}
