/**
 * The error catalogue: for every domain error tag, whether the same call may succeed later
 * unchanged (`retryable`) and what to do. The mapped type makes this exhaustive: adding an
 * error to `DossierError` without an entry here fails type-checking.
 * Over 400 lines: one entry per error tag, each with the way out on the command line and in a
 * tool call (`hint`) and, where that names a command or a flag, in a program (`library`).
 */
import type { DossierErrorTag } from "../domain/AllErrors.js"
import type { BindingRefused } from "../domain/StoreErrors.js"

export interface ErrorInfo {
  readonly retryable: boolean
  readonly area: "common" | "plan" | "ingest" | "journal" | "gate" | "monitor" | "exec" | "store"
  /** What to do, on the command line and in a tool call (MCP): the `hint` of their answers. */
  readonly hint: string
  /**
   * What to do in a program that embeds the library (`Errors.hint`), where `hint` names a command
   * line or a flag: the service method or the option instead. Absent: `hint` serves every face.
   */
  readonly library?: string
}

export const errorCatalogue: { readonly [K in DossierErrorTag]: ErrorInfo } = {
  InvalidInput: {
    retryable: false,
    area: "common",
    hint:
      "Fix what `issues[].path` names (an option or argument as given, or a dotted path into the input) and call again."
  },
  IoError: {
    retryable: true,
    area: "common",
    hint: "A file-system call failed (permissions, disk full); fix the folder and retry."
  },
  LockTimeout: {
    retryable: true,
    area: "common",
    hint:
      "Another dossier process is writing this work folder, or (`dossier` set) another writer the shared dossier; retry in a moment."
  },
  StaleRevision: {
    retryable: false,
    area: "common",
    hint: "Read the record again (inspect/show), reconcile, and pass the current revision."
  },
  EditedRetainedFile: {
    retryable: false,
    area: "common",
    hint:
      "Retained files are write-once: restore the file to its `expected` bytes or move the edited copy aside (the same capture lands at the same name), then retry; put new content in a new file."
  },
  InputTooLarge: {
    retryable: false,
    area: "common",
    hint:
      "`max` is the limit: 64 KiB for an --input file, 16 MiB for a page for ingest --file and for the gate's state, descriptor and attempts log; split or shorten the input.",
    library:
      "`max` is the limit: 64 KiB for an input file, 16 MiB for a page for Ingest.importFile and for the gate's state, descriptor and attempts log; split or shorten the input."
  },
  InputOutsideWorkdir: {
    retryable: false,
    area: "common",
    hint: "Give a path inside the work folder, relative to it (inputs usually go in research/inputs/)."
  },
  FileNotFound: {
    retryable: false,
    area: "common",
    hint: "Create the file or correct the path (relative to the work folder)."
  },
  PathOutsideArea: {
    retryable: false,
    area: "common",
    hint: "Sources live under research/sources/, results under research/results/."
  },
  UnsafePath: {
    retryable: false,
    area: "common",
    hint:
      "Symlinks, hard links, non-regular files and paths leaving the work folder are never followed, and a path (a flag's, or a file an input names) may not name a file that is not the command's to use (`reason` says whose it is: dossier's own state, the plan, a journal's, a retained or registered file); use a plain file inside the folder (a relative path, no link). For `changed-while-opening` or `replaced-after-publish` another process changed the folder meanwhile: look, then call again."
  },
  LimitExceeded: {
    retryable: false,
    area: "common",
    hint: "A documented limit was reached (`limit`, `max`, `actual`)."
  },
  WorkdirNotFound: {
    retryable: false,
    area: "common",
    hint:
      "Give an existing folder (on the command line with --workdir or DOSSIER_WORKDIR; in a program as the `dir` of `Workdir.live` or `DossierLive`), or create it first (mkdir, then `dossier init`).",
    library: "Give `Workdir.live` or `DossierLive` an existing folder as `dir`, or create it first."
  },
  RecoveryNeeded: {
    retryable: false,
    area: "common",
    hint:
      "Run a writing command of that subsystem in a writable copy of the folder (it recovers first), or make the folder writable; until then nothing is answered from a half-written state."
  },
  StudyNotFound: {
    retryable: false,
    area: "journal",
    hint: "Check the study id (`dossier journal list`); `journal append` creates a new study.",
    library: "Check the study id (Journal.studies lists them); Journal.append creates a new study."
  },
  AliasedFile: {
    retryable: false,
    area: "journal",
    hint: "Replace the symlink or hard link by a plain file (a person's decision)."
  },
  CorruptPlan: {
    retryable: false,
    area: "plan",
    hint:
      "A person must repair the marked section of plan.md; nothing is written until then. With `dossier` set (a bound folder) the damage is in that shared dossier's plan record, not in plan.md (this folder's view of it): a person with access to the store must repair the record there (dossier.records, kind plan)."
  },
  GoalConflict: {
    retryable: false,
    area: "plan",
    hint:
      "Reconcile with the plan's owner, then `plan start --replace-goal --expected <revision>` (MCP: `plan_start` with `replaceGoal`, `expected`).",
    library:
      "Reconcile with the plan's owner, then call Plan.start with `replaceGoal: true` and `expected: <revision>`."
  },
  CompletionRefused: {
    retryable: false,
    area: "plan",
    hint: "Resolve the listed reasons (an output, no findings, nothing unresolved) first."
  },
  UnregisteredDependency: {
    retryable: false,
    area: "plan",
    hint: "Register the dependency as a source (or output) before the output that uses it."
  },
  NoPlan: {
    retryable: false,
    area: "plan",
    hint: "Run `dossier plan start` (MCP: `plan_start`) first.",
    library: "Start a plan with Plan.start first."
  },
  InvalidUrl: { retryable: false, area: "ingest", hint: "Give a complete http(s) URL." },
  UnsupportedScheme: {
    retryable: false,
    area: "ingest",
    hint: "Give an http: or https: URL: only those are fetched, and only those are recorded as an origin (`recorded`)."
  },
  CredentialsInUrl: { retryable: false, area: "ingest", hint: "Remove the user name and password from the URL." },
  ForbiddenDestination: {
    retryable: false,
    area: "ingest",
    hint: "Only public unicast destinations are fetched; there is no override."
  },
  TooManyRedirects: { retryable: false, area: "ingest", hint: "Fetch the final address directly." },
  CompressedResponse: {
    retryable: false,
    area: "ingest",
    hint: "The server ignored Accept-Encoding: identity; the page cannot be captured as is."
  },
  UnsupportedContent: {
    retryable: false,
    area: "ingest",
    hint:
      "Only UTF-8 text/html, application/xhtml+xml and text/plain are captured: import such a page saved as a file with `ingest --file`, naming its type with `--content-type` when its extension does not (MCP: `ingest_file` with `contentType`).",
    library:
      "Only UTF-8 text/html, application/xhtml+xml and text/plain are captured: import such a page saved as a file with Ingest.importFile, naming its type with the `contentType` option when its extension does not."
  },
  ResponseTooLarge: { retryable: false, area: "ingest", hint: "The body exceeds 2 MiB; capture a smaller page." },
  Timeout: {
    retryable: true,
    area: "ingest",
    hint: "Retry later or raise --timeout (1-120 s).",
    library: "Retry later or raise the `timeoutSeconds` option (1-120 s)."
  },
  HttpStatus: { retryable: false, area: "ingest", hint: "The server did not answer 2xx; check the URL." },
  DnsFailure: { retryable: true, area: "ingest", hint: "The name did not resolve; check it or retry later." },
  ConnectionFailed: { retryable: true, area: "ingest", hint: "The connection or TLS handshake failed; retry later." },
  DuplicateEventId: { retryable: false, area: "journal", hint: "Give every event of a batch its own id." },
  UnknownCandidate: {
    retryable: false,
    area: "journal",
    hint: "Create the candidate (candidate_created) earlier in the journal or the batch."
  },
  ConflictingEvent: { retryable: false, area: "journal", hint: "An event id is stable: use a new id for new content." },
  CorruptJournal: {
    retryable: false,
    area: "journal",
    hint:
      "A person must repair the named line (of `study`'s journal, when named); it is never repaired automatically. With `dossier` set (a bound folder) the damage is in that shared dossier's journal, not in this folder's view: a person with access to the store must repair the event there (dossier.events, log journal, stream `study`, position `line`)."
  },
  UnterminatedTail: {
    retryable: false,
    area: "journal",
    hint: "Run `dossier journal recover-tail` (MCP: `journal_recover_tail`), then retry the append.",
    library: "Call Journal.recoverTail, then retry the append."
  },
  UnimportedLegacyManifest: {
    retryable: false,
    area: "journal",
    hint:
      "A legacy manifest: run `dossier journal import` (MCP: `journal_import`) first. A projection edited by hand: move it away (a person's decision), then rebuild.",
    library:
      "A legacy manifest: call Journal.importLegacy first. A projection edited by hand: move it away (a person's decision), then rebuild."
  },
  InvalidManifest: {
    retryable: false,
    area: "journal",
    hint:
      "A legacy manifest: a person must fix it (`issues`). The projection dossier wrote needs no import (the journal holds it). One whose candidates the journal already has (a projection edited by hand) is not imported: move it away, then rebuild."
  },
  NotResearchable: {
    retryable: false,
    area: "gate",
    hint: "Research does not decide this wait: ask a person (a run waiting for nothing needs no gate: resume it)."
  },
  NoVerdict: {
    retryable: false,
    area: "gate",
    hint: "Write a research output for this item and kind, then run the gate again."
  },
  BlockersRemain: { retryable: false, area: "gate", hint: "Blockers remain after the recheck; ask a person." },
  SubscriptionNotFound: {
    retryable: false,
    area: "monitor",
    hint: "Check the subscription id (`dossier monitor list`).",
    library: "Check the subscription id (Monitor.list)."
  },
  RunNotFound: {
    retryable: false,
    area: "monitor",
    hint: "Check the run id (`dossier monitor list`).",
    library: "Check the run id (Monitor.list)."
  },
  ConflictingSubscription: {
    retryable: false,
    area: "monitor",
    hint: "That id is taken by other content; choose a new id or use update-subscription."
  },
  SubscriptionCompleted: {
    retryable: false,
    area: "monitor",
    hint: "A completed subscription never returns; create a new one."
  },
  ActiveRunExists: { retryable: false, area: "monitor", hint: "Finish or cancel the active run first." },
  NotDue: {
    retryable: false,
    area: "monitor",
    hint:
      "Active: wait until nextDueAt. Paused: resume it (set-subscription-status). Completed: it never returns; create a new subscription."
  },
  ReceiptDigestMismatch: {
    retryable: false,
    area: "monitor",
    hint: "The run's frozen receipt was altered; a person must investigate. Nothing uses it."
  },
  InvalidTransition: {
    retryable: false,
    area: "monitor",
    hint:
      "`allowed` lists where `monitor transition-run --to <status>` may take the run (MCP: `monitor_transition_run` with `to`); only `monitor finish-run` completes a run; completed and cancelled runs never reopen.",
    library:
      "`allowed` lists where Monitor.transitionRun may take the run; only Monitor.finishRun completes a run; completed and cancelled runs never reopen."
  },
  BindingMismatch: {
    retryable: false,
    area: "monitor",
    hint: "Write the run id and receipt digest into the stage file and name them in the binding."
  },
  DigestMismatch: {
    retryable: false,
    area: "common",
    hint:
      "Omit sha256 (and bytes) to let dossier compute them from the file, or pass the file's current values; a file edited since a record registered it (`init --store` imports only registered bytes): restore those bytes, or register the new ones (a checkpoint, a journal event) first.",
    library:
      "Omit sha256 (and bytes) to let dossier compute them from the file, or pass the file's current values; a file edited since a record registered it: restore those bytes, or register the new ones (a checkpoint, a journal event) first."
  },
  MissingUnits: { retryable: false, area: "monitor", hint: "List every frozen unit of the run." },
  CitationNotFound: {
    retryable: false,
    area: "monitor",
    hint:
      "Quote the cited file verbatim, at least 20 characters; `reason` says which failed: quote-not-found, quote-too-short or file-missing."
  },
  OutcomeNotFound: {
    retryable: false,
    area: "monitor",
    hint: "Check the outcome id (`dossier monitor unresolved-outcomes`).",
    library: "Check the outcome id (Monitor.unresolvedOutcomes)."
  },
  DispositionAlreadySet: { retryable: false, area: "monitor", hint: "Dispositions are set once." },
  DispositionRefused: {
    retryable: false,
    area: "monitor",
    hint:
      "With `missing`: give it (--authorization, --unit or --review-item as options; authorization, unitPath or reviewItem in an input file). Without it: the disposition does not fit the outcome's label (`reason`); choose another.",
    library:
      "With `missing`: give it (authorization, unitPath or reviewItem in the input). Without it: the disposition does not fit the outcome's label (`reason`); choose another."
  },
  CorruptMonitorRecord: {
    retryable: false,
    area: "monitor",
    hint:
      "A monitor state file under .dossier/monitor/ was damaged by hand; restore it from a backup or remove it. With `dossier` set (a bound folder) the damage is in that shared dossier's row, not in the file `path` (this folder's view of it): a person with access to the store must repair the row there (dossier.records, kind subscription or run)."
  },
  GrantNotFound: {
    retryable: false,
    area: "exec",
    hint: "Check the grant id (`dossier grant list`).",
    library: "Check the grant id (Grants.list)."
  },
  ConflictingGrant: {
    retryable: false,
    area: "exec",
    hint: "Grants are immutable: give new content a new id (or omit the id to derive one)."
  },
  GrantWidening: {
    retryable: false,
    area: "exec",
    hint:
      "A child grant, a narrowing or a run may only stay within what the grant allows; reduce the named field, or ask for a grant that allows it (a run needs 'bash' among the tools)."
  },
  ProtectedPathInGrant: {
    retryable: false,
    area: "exec",
    hint:
      "`reason` says why: no root may be or contain .dossier/ or plan.md, be `research` or a study folder research/<study> (grant a folder below it, e.g. research/<study>/data; `protected` cannot make it acceptable), or lie in a journal's recovered/legacy folder; a work root never lies in research/sources, results, inputs or gate; no root lies inside a `protected` entry of the grant or of an ancestor; holdouts below an input root go in `protected`."
  },
  GrantInactive: {
    retryable: false,
    area: "exec",
    hint: "The grant is revoked, expired or exhausted; ask for a new grant."
  },
  GrantDigestMismatch: {
    retryable: false,
    area: "exec",
    hint: "The stored grant was altered by hand; a person must investigate. It is never used."
  },
  RootIdentityChanged: {
    retryable: false,
    area: "exec",
    hint: "A granted directory was replaced or swapped for a link; restore it or create a new grant."
  },
  SandboxUnavailable: {
    retryable: false,
    area: "exec",
    hint:
      "Read `reason`: \"the sandbox cannot reach the root …\" names the directory to open to it (`chmod o+x`), or run dossier as the folder's owner; \"the sandbox ended before the program started (…)\" ran and charged nothing: try again; otherwise install bubblewrap (`apt-get install bubblewrap`) on Linux. dossier never runs a program unconfined."
  },
  BudgetExhausted: {
    retryable: false,
    area: "exec",
    hint: "The grant has nothing left of the named resource; ask for a new grant."
  },
  BudgetExceeded: {
    retryable: false,
    area: "exec",
    hint:
      "The run was recorded but went beyond the grant's budget (`resource`, `limit`, `actual`); see `dossier exec show`.",
    library: "The run was recorded but went beyond the grant's budget (`resource`, `limit`, `actual`); see Exec.show."
  },
  ExecutionNotFound: {
    retryable: false,
    area: "exec",
    hint: "Check the execution id (the `execution.id` of `dossier exec`).",
    library: "Check the execution id (the `execution.id` Exec.run answered)."
  },
  ExecutionDigestMismatch: {
    retryable: false,
    area: "exec",
    hint:
      "The execution record was altered after it was written; a person must investigate. It is not evidence, and until it is restored no run is admitted and no child grant carved."
  },
  EvidenceKeyUnavailable: {
    retryable: false,
    area: "exec",
    hint:
      "The signing key lives at $XDG_CONFIG_HOME/dossier/evidence.key (else ~/.config/dossier/): a 0600 regular file of the user, outside the work folder and the system directories; fix or move it (see docs/exec.md)."
  },
  GrantUnauthenticated: {
    retryable: false,
    area: "exec",
    hint:
      "The grant is unsigned (made before signing, or its signature removed) or signed with another machine's key; create it again here, under a new id."
  },
  StoreUnavailable: {
    retryable: true,
    area: "store",
    hint:
      "The PostgreSQL server could not be reached or did not answer in time (`reason` says how); the command is one transaction, stored whole or not at all. Check the server and the network, then run the same command again (a write whose commit was cut off may then answer as already done)."
  },
  StoreConflict: {
    retryable: false,
    area: "store",
    hint:
      "Binding a folder that holds state: only a new shared dossier can import it: bind an empty folder to this dossier (it pulls), or give --dossier a new name to import this folder. A pull (`part` set): this folder's view holds what the dossier does not (`part`, `key`: a file edited or written here): move that record's file aside (keep it if it matters) and pull again, or bind an empty folder to this dossier.",
    library:
      "Only a new shared dossier can import a folder's state: bind an empty folder to this dossier (it pulls), or name a new dossier to import this folder. With `part` set, the folder holds what the dossier does not (`part`, `key`): move that record's file aside and copy again, or copy into an empty folder."
  },
  CorruptCaptureLog: {
    retryable: false,
    area: "store",
    hint:
      "A person with access to the store must repair the record there (`line`: dossier.events, log captures, stream '', that position; `path`: dossier.records, kind retained, that key); editing this folder's .dossier/captures.jsonl or research/sources/ changes nothing, since a pull writes the view from the store."
  },
  StoreTooNew: {
    retryable: false,
    area: "store",
    hint: "A newer dossier migrated the store's schema: upgrade dossier on this host to a version that knows it."
  },
  BindingRefused: {
    retryable: false,
    area: "store",
    hint:
      "`reason` says which: unbound, bind the folder first (`dossier init --store <url> --dossier <text>`); plain-folder, run the command in a plain copy (`dossier export --to <path>`); bound-elsewhere, export this folder and bind the copy; target-state or target-bound, export into an empty or new folder (`target`); privilege, bind with a role that may write the `dossier` schema's tables (INSERT, UPDATE, DELETE), or run read-only commands only; credentials, check the URL's user and its password (PGPASSWORD, ~/.pgpass) and the server's pg_hba.conf; no-database, create the database or fix the URL's database name; no-password, set PGPASSWORD or add a line host:port:database:user:password to the password file (PGPASSFILE, else ~/.pgpass; chmod 600 it: one the group or others can read is ignored); no-dossier, check the name the folder is bound to (`dossier store status`) against the server's.",
    library:
      "`reason` says which: privilege, use a role that may write the `dossier` schema's tables (INSERT, UPDATE, DELETE), or read only; credentials, check the URL's user and its password (PGPASSWORD, ~/.pgpass) and the server's pg_hba.conf; no-database, create the database or fix the URL's database name; no-password, set PGPASSWORD or add a line to the password file (PGPASSFILE, else ~/.pgpass, chmod 600); unbound, plain-folder, bound-elsewhere, target-* and no-dossier: binding and exporting folders is done on the command line (docs/store.md)."
  }
}

/**
 * `BindingRefused`'s way out for the one `reason` it carries: a refusal's answer names that one
 * (the catalogue's entry above lists them all, for `dossier schema errors` and the README).
 */
const ON_THE_COMMAND_LINE = "Binding and exporting folders is done on the command line (docs/store.md): "
const folderHint = (hint: string) => ({ hint, library: `${ON_THE_COMMAND_LINE}${hint}` })

export const bindingRefusedHints: {
  readonly [R in BindingRefused["reason"]]: { readonly hint: string; readonly library?: string }
} = {
  unbound: folderHint("Bind the folder first (`dossier init --store <url> --dossier <text>`)."),
  "plain-folder": folderHint("Run the command in a plain copy (`dossier export --to <path>`)."),
  "bound-elsewhere": folderHint("Export this folder (`dossier export --to <path>`) and bind the copy."),
  "target-state": folderHint("Export into an empty or new folder (`target` holds a dossier's state)."),
  "target-bound": folderHint("Export into an empty or new folder (`target` is bound to a shared store)."),
  privilege: {
    hint:
      "Bind with a role that may write the `dossier` schema's tables (INSERT, UPDATE, DELETE), or run read-only commands only.",
    library: "Use a role that may write the `dossier` schema's tables (INSERT, UPDATE, DELETE), or read only."
  },
  credentials: {
    hint: "Check the URL's user and its password (PGPASSWORD, ~/.pgpass) and the server's pg_hba.conf."
  },
  "no-database": { hint: "Create the database or fix the URL's database name." },
  "no-password": {
    hint:
      "Set PGPASSWORD or add a line host:port:database:user:password to the password file (PGPASSFILE, else ~/.pgpass; chmod 600 it: one the group or others can read is ignored)."
  },
  "no-dossier": folderHint(
    "Check the name this folder is bound to (`dossier store status` answers `exists: false`) against the dossier's on the server: put the right name in .dossier/store.json, or bind a new folder (`dossier init --store <url> --dossier <text>`)."
  )
}

export const usageInfo: ErrorInfo = {
  retryable: false,
  area: "common",
  // The same refusal answers a tool call with arguments the tool does not take (MCP).
  hint: "Fix the command line (see --help; exit code 2), or the tool's arguments (MCP: its inputSchema).",
  library: "Fix the call's arguments (a malformed URL, dossier name or option); nothing was started."
}
export const defectInfo: ErrorInfo = {
  retryable: false,
  area: "common",
  hint: "An internal bug (exit code 70); it must never happen. Please report it."
}
