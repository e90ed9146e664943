/** The README's error catalogue (Markdown), from the error classes and the CLI catalogue. */
import { defectInfo, errorCatalogue, type ErrorInfo, usageInfo } from "../src/commands/ErrorCatalogue.js"
import { AllErrors } from "../src/domain/AllErrors.js"
import { Defect, UsageError } from "../src/domain/CliErrors.js"

type Cls = { readonly _tag: string; readonly fields: Record<string, unknown> }

export const errorCatalogueMarkdown = (): string => {
  const rows = ["| tag | area | fields | retryable | what to do |", "| --- | --- | --- | --- | --- |"]
  const entry = (cls: Cls, info: ErrorInfo) => {
    const fields = Object.keys(cls.fields).filter((f) => f !== "_tag")
    rows.push(
      `| \`${cls._tag}\` | ${info.area} | ${fields.map((f) => `\`${f}\``).join(", ") || "—"} | ${
        info.retryable ? "yes" : "no"
      } | ${info.hint} |`
    )
  }
  // One row per tag: StaleStateFile shares StaleRevision's tag and field names.
  const listed = new Set<string>()
  for (const cls of AllErrors as unknown as ReadonlyArray<Cls>) {
    if (listed.has(cls._tag)) continue
    listed.add(cls._tag)
    entry(cls, errorCatalogue[cls._tag as keyof typeof errorCatalogue])
  }
  entry(UsageError as unknown as Cls, usageInfo)
  entry(Defect as unknown as Cls, defectInfo)
  return rows.join("\n")
}
