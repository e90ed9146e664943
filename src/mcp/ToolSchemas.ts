/**
 * The JSON Schemas a tool list carries, kept small: every host re-sends `tools/list` to its
 * model on every turn, so each byte there is paid again and again. Two pure operations over a
 * JSON Schema (draft-07, as effect/JSONSchema writes it):
 * - `compact`: the same schema without what says nothing to a model (`$schema`, `title`, the
 *   descriptions Schema generates for its refinements, "a string at least 1 character(s) long");
 * - `shallow`: a relaxation of it cut at a depth: above the cut the same properties, required
 *   fields, types and enumerations; below it only the type. Every value the full schema accepts,
 *   the shallow one accepts too (it only drops constraints), so a client validating against it
 *   never refuses a real answer; the full schema is one `schema` call away.
 */

type Json = Record<string, unknown>

const isObject = (u: unknown): u is Json => typeof u === "object" && u !== null && !Array.isArray(u)

/** Descriptions effect/Schema generates for its own filters: they repeat the constraint. */
const BOILERPLATE =
  /^(an? (string|non[ -]empty|number|integer|positive|negative|non-negative|non-positive|finite|array|valid|date|boolean|bigint|greater|less|object|record|tuple|unique|trimmed|lowercased|uppercased|character)|a[n]? .* (at least|at most|greater than|less than|between) )/i

const DROP = new Set(["$schema", "$id", "title", "$comment"])

/** The same schema without `$schema`, titles and generated descriptions. */
export const compact = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(compact)
  if (!isObject(schema)) return schema
  const out: Json = {}
  for (const [k, v] of Object.entries(schema)) {
    if (DROP.has(k)) continue
    if (k === "description" && (typeof v !== "string" || BOILERPLATE.test(v))) continue
    // Keys of `properties`, `$defs` and `definitions` are names, not keywords.
    if ((k === "properties" || k === "$defs" || k === "definitions" || k === "patternProperties") && isObject(v)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, compact(s)]))
    } else out[k] = compact(v)
  }
  return out
}

/** Constraints the command checks itself and a model rarely needs to see below the first level. */
const SLIM = new Set(["minLength", "maxLength", "minItems", "maxItems", "additionalProperties"])

/** `schema` without the length limits and closed-object marks of its nested levels (a relaxation). */
export const slim = (schema: unknown, level = 0): unknown => {
  if (Array.isArray(schema)) return schema.map((x) => slim(x, level))
  if (!isObject(schema)) return schema
  const out: Json = {}
  for (const [k, v] of Object.entries(schema)) {
    if (level > 0 && SLIM.has(k)) continue
    if (k === "required" && Array.isArray(v) && v.length === 0) continue
    if ((k === "properties" || k === "$defs" || k === "definitions") && isObject(v)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([name, x]) => [name, slim(x, level + 1)]))
    } else out[k] = slim(v, k === "items" || k === "anyOf" || k === "oneOf" ? level + 1 : level)
  }
  return out
}

const resolve = (schema: Json, defs: Json): Json => {
  let s = schema
  // A chain of references ends (effect/JSONSchema writes no cycle of bare references); bounded all the same.
  for (let i = 0; i < 16 && typeof s["$ref"] === "string"; i++) {
    const name = (s["$ref"] as string).replace(/^#\/(\$defs|definitions)\//, "")
    const target = defs[name]
    if (!isObject(target)) return {}
    s = target
  }
  return typeof s["$ref"] === "string" ? {} : s
}

const ENUM_MAX = 8

/** A schema below the cut: its type (or types, or a small enumeration), else anything. */
const typeOnly = (schema: unknown, defs: Json): Json => {
  if (!isObject(schema)) return {}
  const s = resolve(schema, defs)
  if (Array.isArray(s["enum"]) && s["enum"].length <= ENUM_MAX) return { enum: s["enum"] }
  if (Object.hasOwn(s, "const")) return { const: s["const"] }
  if (typeof s["type"] === "string" || Array.isArray(s["type"])) return { type: s["type"] }
  const alternatives = s["anyOf"] ?? s["oneOf"]
  if (Array.isArray(alternatives)) {
    const types = new Set<unknown>()
    for (const a of alternatives) {
      const t = typeOnly(a, defs)
      if (typeof t["type"] === "string") types.add(t["type"])
      else if (Array.isArray(t["type"])) { for (const x of t["type"]) types.add(x) }
      else if (Object.hasOwn(t, "const") && t["const"] === null) types.add("null")
      else return {}
    }
    return types.size === 0 ? {} : { type: types.size === 1 ? [...types][0] : [...types] }
  }
  return {}
}

export interface ShallowOptions {
  /** Levels kept whole (1: the object's own properties, each by its type only). */
  readonly depth: number
  /** Keep the descriptions of the kept levels (clipped to this many characters; 0: none). */
  readonly describe: number
}

const clipText = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1).replace(/\s+\S*$/, "")}…`)

/** `schema` relaxed below `depth` levels (see the module's comment). `defs`: its `$defs`. */
export const shallow = (schema: unknown, defs: Json, options: ShallowOptions): Json => {
  if (!isObject(schema)) return {}
  const s = resolve(schema, defs)
  if (options.depth <= 0) return typeOnly(s, defs)
  const out: Json = {}
  if (options.describe > 0 && typeof s["description"] === "string" && !BOILERPLATE.test(s["description"])) {
    out["description"] = clipText(s["description"], options.describe)
  }
  const alternatives = s["anyOf"] ?? s["oneOf"]
  if (Array.isArray(alternatives)) {
    const kept = alternatives.map((a) => shallow(a, defs, options))
    // An alternative that accepts anything makes the union accept anything.
    return kept.some((k) => Object.keys(k).filter((x) => x !== "description").length === 0)
      ? out
      : { ...out, anyOf: kept }
  }
  for (const k of ["type", "enum", "const", "required"]) if (Object.hasOwn(s, k)) out[k] = s[k]
  const next = { ...options, depth: options.depth - 1 }
  if (isObject(s["properties"])) {
    out["properties"] = Object.fromEntries(
      Object.entries(s["properties"]).map(([name, p]) => [name, shallow(p, defs, next)])
    )
  }
  if (isObject(s["items"])) out["items"] = shallow(s["items"], defs, next)
  return out
}
