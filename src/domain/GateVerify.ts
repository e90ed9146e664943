/**
 * Quote verification (pure): which text a cited `ref` resolves to, and whether the quote is in
 * it under the shared matcher (src/domain/Quote.ts). The service gathers the evidence (the
 * descriptor, the registered sources' current bytes, the context documents); this module only
 * decides.
 */
import * as Either from "effect/Either"
import type { CitedSource, SourceOrigin, SourceReason, VerifiedSource } from "./Gate.js"
import { isUnder, normalizeRelative } from "./Paths.js"
import { SOURCES_AREA } from "./Plan.js"
import { formatOfPath, makeQuoteMatcher, type QuoteCheck, type TextFormat } from "./Quote.js"

/** What a ref names, before any evidence is consulted. */
export type RefTarget =
  | { readonly _tag: "DescriptorDescription" }
  | { readonly _tag: "DescriptorComment"; readonly id: string }
  | { readonly _tag: "DescriptorOther"; readonly ref: string }
  | { readonly _tag: "SourceFile"; readonly path: string }
  | { readonly _tag: "ContextDocument"; readonly ref: string }

const COMMENT_PREFIX = "descriptor:comment:"

/**
 * Classify a ref. `descriptor:` refs resolve only against `--descriptor`; a path under
 * research/sources/ only against the plan's registry (never against a context document of the
 * same name); anything else is looked up among the context documents.
 */
export const classifyRef = (ref: string): RefTarget => {
  if (ref === "descriptor:description") return { _tag: "DescriptorDescription" }
  if (ref.startsWith(COMMENT_PREFIX) && ref.length > COMMENT_PREFIX.length) {
    return { _tag: "DescriptorComment", id: ref.slice(COMMENT_PREFIX.length) }
  }
  if (ref.startsWith("descriptor:")) return { _tag: "DescriptorOther", ref }
  if (!/^[a-z][a-z0-9+.-]*:/i.test(ref)) {
    const p = normalizeRelative(ref)
    if (Either.isRight(p) && isUnder(p.right, SOURCES_AREA)) return { _tag: "SourceFile", path: p.right }
  }
  return { _tag: "ContextDocument", ref }
}

/** The state of a registered source file as the service found it. */
export type SourceEvidence =
  | { readonly _tag: "Current"; readonly origin: "capture" | "registered"; readonly text: string }
  | { readonly _tag: "Changed" }
  | { readonly _tag: "Missing" }
  | { readonly _tag: "Unreadable" }
  | { readonly _tag: "Unregistered" }

export interface Evidence {
  /** The descriptor's texts, when `--descriptor` was given. */
  readonly descriptor:
    | { readonly description: string | null; readonly comments: ReadonlyMap<string, string> }
    | undefined
  /** Registered-source evidence by normalized path (only cited paths need to be present). */
  readonly sources: ReadonlyMap<string, SourceEvidence>
  /** Context documents by ref. */
  readonly context: ReadonlyMap<string, string>
}

export type Resolution =
  | {
    readonly _tag: "Text"
    readonly origin: SourceOrigin
    readonly key: string
    readonly text: string
    /** How the text is read: a retained file by its name (Markdown, HTML, text); anything else as text. */
    readonly format: TextFormat
  }
  | { readonly _tag: "Unresolved"; readonly reason: SourceReason }

const unresolved = (reason: SourceReason): Resolution => ({ _tag: "Unresolved", reason })

const resolveSourceFile = (path: string, s: SourceEvidence | undefined): Resolution => {
  if (s === undefined) return unresolved("source-unknown")
  switch (s._tag) {
    case "Current":
      return { _tag: "Text", origin: s.origin, key: `file:${path}`, text: s.text, format: formatOfPath(path) }
    case "Changed":
      return unresolved("source-changed")
    case "Missing":
      return unresolved("source-missing")
    case "Unreadable":
      return unresolved("source-unreadable")
    case "Unregistered":
      return unresolved("source-unknown")
  }
}

/** Resolve a ref to exactly one text, or the reason it does not resolve. */
export const resolveRef = (ref: string, evidence: Evidence): Resolution => {
  const target = classifyRef(ref)
  switch (target._tag) {
    case "DescriptorDescription": {
      const d = evidence.descriptor
      if (d === undefined || d.description === null) return unresolved("source-unknown")
      return { _tag: "Text", origin: "descriptor", key: "descriptor:description", text: d.description, format: "text" }
    }
    case "DescriptorComment": {
      const text = evidence.descriptor?.comments.get(target.id)
      return text === undefined
        ? unresolved("source-unknown")
        : { _tag: "Text", origin: "descriptor", key: `descriptor:comment:${target.id}`, text, format: "text" }
    }
    case "DescriptorOther":
      return unresolved("source-unknown")
    case "SourceFile":
      return resolveSourceFile(target.path, evidence.sources.get(target.path))
    case "ContextDocument": {
      const text = evidence.context.get(target.ref)
      return text === undefined
        ? unresolved("source-unknown")
        : { _tag: "Text", origin: "context", key: `context:${target.ref}`, text, format: "text" }
    }
  }
}

/**
 * A verifier over one body of evidence. Each resolved text is read (the text a reader sees) and
 * normalized once and reused for every quote cited from it. A verified quote carries `start`/`end`:
 * where the passage is in that text (code points).
 */
export const makeVerifier = (evidence: Evidence) => {
  const matchers = new Map<string, (quote: string) => QuoteCheck>()
  return (source: CitedSource): VerifiedSource => {
    const base = source.label === undefined
      ? { ref: source.ref, quote: source.quote }
      : { label: source.label, ref: source.ref, quote: source.quote }
    const resolution = resolveRef(source.ref, evidence)
    if (resolution._tag === "Unresolved") return { ...base, verified: false, reason: resolution.reason }
    let match = matchers.get(resolution.key)
    if (match === undefined) {
      match = makeQuoteMatcher(resolution.text, resolution.format)
      matchers.set(resolution.key, match)
    }
    const check = match(source.quote)
    return check.matched
      ? { ...base, verified: true, origin: resolution.origin, start: check.start, end: check.end }
      : { ...base, verified: false, origin: resolution.origin, reason: check.reason }
  }
}

export type Verifier = ReturnType<typeof makeVerifier>

/** The source paths under research/sources/ that a list of cited sources names. */
export const citedSourcePaths = (sources: ReadonlyArray<CitedSource>): ReadonlyArray<string> => {
  const out = new Set<string>()
  for (const s of sources) {
    const t = classifyRef(s.ref)
    if (t._tag === "SourceFile") out.add(t.path)
  }
  return [...out]
}

/** Does any cited source name the descriptor? */
export const citesDescriptor = (sources: ReadonlyArray<CitedSource>): boolean =>
  sources.some((s) => s.ref.startsWith("descriptor:"))
