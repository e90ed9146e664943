/**
 * What an MCP host is told about each tool beyond its arguments: a title, the behaviour hints
 * (MCP `ToolAnnotations`: read-only, destructive, idempotent, open world), the arguments a
 * tool's mode requires though the command takes them optionally (`ingest` needs `url`,
 * `ingest_file` needs `file` and `origin`), and the `dossier schema` name of its success output.
 * Hosts use the hints to decide what to run without asking a person, so they say what the
 * command does, not what it usually does:
 * - readOnly: never writes a record (readers may refresh the derived scan index and finish an
 *   interrupted monitor transaction, as every reader does: docs/cli.md);
 * - destructive: may replace or remove what is there (a plan section, a journal's torn tail, a
 *   record's status); false: only adds (a retained file, a journal event, a record);
 * - idempotent: the same call again changes nothing more (it answers the same, or is refused);
 * - openWorld: reaches outside the folder (only `ingest` fetches from the internet).
 * A test checks that every tool of the command table has its entry here.
 */

export interface ToolHints {
  readonly title: string
  readonly readOnly: boolean
  readonly destructive?: boolean
  readonly idempotent?: boolean
  readonly openWorld?: boolean
  /** The success output's name in `dossier schema`. */
  readonly output: string | ReadonlyArray<string>
  /** Arguments this tool requires though the command's flag is optional. */
  readonly required?: ReadonlyArray<string>
}

const read = (title: string, output: ToolHints["output"]): ToolHints => ({
  title,
  readOnly: true,
  idempotent: true,
  output
})

const write = (
  title: string,
  output: ToolHints["output"],
  o: { destructive: boolean; idempotent: boolean }
): ToolHints => ({
  title,
  readOnly: false,
  destructive: o.destructive,
  idempotent: o.idempotent,
  output
})

const ADDS = { destructive: false, idempotent: false }
const ADDS_ONCE = { destructive: false, idempotent: true }
const CHANGES = { destructive: true, idempotent: false }
const CHANGES_ONCE = { destructive: true, idempotent: true }

export const TOOL_HINTS: Readonly<Record<string, ToolHints>> = {
  init: write("Prepare the work folder", "init-output", ADDS_ONCE),
  status: read("Overview of the work folder", "status-output"),
  plan_start: write("Start (or re-goal) the plan", "plan-start-output", CHANGES),
  plan_checkpoint: write("Record plan progress", "plan-checkpoint-output", CHANGES),
  plan_inspect: read("Show the plan", "plan-inspect-output"),
  ingest: {
    ...write("Capture a public web page", ["ingest-output", "ingest-dry-run-output"], ADDS),
    openWorld: true,
    required: ["url"]
  },
  ingest_file: { ...write("Import a saved page", "ingest-file-output", ADDS), required: ["file", "origin"] },
  journal_list: read("List study journals", "journal-list-output"),
  journal_append: write("Append journal events", "journal-append-output", ADDS_ONCE),
  journal_inspect: read("Show a study's history", "journal-inspect-output"),
  journal_rebuild: write("Rebuild a study's manifest and index", "journal-rebuild-output", CHANGES_ONCE),
  journal_recover_tail: write("Recover a journal's torn tail", "journal-recover-tail-output", CHANGES_ONCE),
  journal_import: write("Import a legacy manifest", "journal-import-output", ADDS_ONCE),
  gate: write("Research before asking (gate)", "gate-output", CHANGES),
  gate_recheck: { ...read("Re-verify the gate's closures", "gate-recheck-output"), required: ["descriptor"] },
  monitor_create_subscription: write("Create a monitor subscription", "create-subscription-output", ADDS),
  monitor_update_subscription: write("Edit a monitor subscription", "update-subscription-output", CHANGES_ONCE),
  monitor_set_subscription_status: write(
    "Pause, resume or complete a subscription",
    "set-subscription-status-output",
    CHANGES_ONCE
  ),
  monitor_due: read("List due subscriptions", "due-output"),
  monitor_list: read("List subscriptions and runs", "monitor-list-output"),
  monitor_create_due_run: write("Create the due monitor run", "create-due-run-output", ADDS_ONCE),
  monitor_transition_run: write("Move a monitor run along", "transition-run-output", CHANGES_ONCE),
  monitor_finish_run: write("Finish a monitor run", "finish-run-output", CHANGES_ONCE),
  monitor_set_outcome_disposition: write(
    "Set an outcome's disposition",
    "set-outcome-disposition-output",
    CHANGES_ONCE
  ),
  monitor_unresolved_outcomes: read("List unresolved outcomes", "unresolved-outcomes-output"),
  monitor_show: read("Show a subscription or run", "show-output"),
  next: read("What to do next (facts)", "next-output"),
  source_follow: read("Find a remembered excerpt", "source-follow-output"),
  grant_create: write("Create a grant", "grant-create-output", ADDS),
  grant_show: read("Show a grant", "grant-show-output"),
  grant_list: read("List grants", "grant-list-output"),
  grant_revoke: write("Revoke a grant", "grant-revoke-output", CHANGES_ONCE),
  grant_narrow: write("Narrow a grant", "grant-narrow-output", CHANGES),
  exec: write("Run a confined program", "exec-output", CHANGES),
  exec_show: read("Show an execution", "exec-show-output"),
  store_status: read("Store binding", "store-status-output"),
  schema: read("JSON Schema of an input or output", "schema-output")
}

/** The area a tool belongs to (`--tools`): the first word of its command. */
export const toolArea = (name: string): string => name.split("_")[0]!
