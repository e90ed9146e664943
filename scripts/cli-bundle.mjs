// The CLI's bundles as scripts/build.mjs builds them, and the loader that runs one: the esbuild
// options, the plugins every bundle of effect gets, the CommonJS wrapper the loader compiles and
// the SHA-256 its code cache is checked against (src/cli/CodeCache.ts). bench/startup.ts builds its
// floor programs with the same (scripts/build-floor.mjs), so that they start as a bundle does.
import { build } from "esbuild"
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"

/**
 * effect/Utils decides at load whether V8 keeps the `effect_internal_function` frame in a stack
 * trace by formatting one: `new Error().stack`. Formatting a stack trace makes V8 compute the line
 * ends of the whole script it comes from (the 1.6 MB bundle: ~19 million instructions, about an
 * eighth of `--version`'s cost over `node -e 0`). On V8 the answer is always yes (the frame is
 * named by its property key, which minifying keeps), so the CLI's bundle gets the answer as a
 * constant. The build stops when the expression is not found (an effect upgrade changed it).
 */
export const effectStackProbe = {
  name: "effect-stack-probe",
  setup(b) {
    b.onLoad({ filter: /[\\/]effect[\\/]dist[\\/](esm|cjs)[\\/]Utils\.js$/ }, (args) => {
      const text = readFileSync(args.path, "utf8")
      const probe =
        /standard\.effect_internal_function\(\(\) => new Error\(\)\.stack\)\?\.includes\("effect_internal_function"\) === true/
      if (!probe.test(text)) {
        throw new Error(`${args.path}: effect's stack probe changed; see effectStackProbe in scripts/cli-bundle.mjs`)
      }
      return { contents: text.replace(probe, "true"), loader: "js" }
    })
  }
}

/**
 * effect's Schema classes (`Schema.TaggedError`, `Schema.Class`, …) build six schemas of their
 * fields when the class is defined (its type side, constructor, encoded side, surrogates) and a
 * TaggedError also its whole schema (its fields' struct extended by `_tag`): ~1 million
 * instructions per class, and the domain defines ~80 errors, all at load, though a command meets
 * one of them at most. In the CLI's bundle each of these is built on first use (when the class is
 * first constructed, decoded with, or asked for its `ast`) and kept: the same values, computed from
 * the same immutable inputs, later. Measured by instruction count on importing every domain error:
 * 114 million over `effect/Schema` alone before, 34 million after. The build stops when the code
 * it rewrites is not found (an effect upgrade changed it); the library keeps effect external and is
 * not rewritten.
 */
const LAZY_CLASS_VALUES = [
  "typeSchema_",
  "declarationSurrogate",
  "typeSide",
  "constructorSchema",
  "encodedSide",
  "transformationSurrogate"
]
export const effectLazyClasses = {
  name: "effect-lazy-classes",
  setup(b) {
    b.onLoad({ filter: /[\\/]effect[\\/]dist[\\/]esm[\\/]Schema\.js$/ }, (args) => {
      const changed = (what) =>
        new Error(`${args.path}: effect's ${what} changed; see effectLazyClasses in scripts/cli-bundle.mjs`)
      const replaceOnce = (text, from, to) => {
        const i = text.indexOf(from)
        if (i === -1 || text.indexOf(from, i + 1) !== -1) throw changed(JSON.stringify(from))
        return text.slice(0, i) + to + text.slice(i + from.length)
      }
      /** The text of the top-level function starting at `head`, and a rewrite of it. */
      const rewrite = (text, head, f) => {
        const start = text.indexOf(head)
        const end = text.indexOf("\n};\n", start)
        if (start === -1 || end === -1) throw changed(head)
        return text.slice(0, start) + f(text.slice(start, end)) + text.slice(end)
      }
      let text = readFileSync(args.path, "utf8")
      text = rewrite(text, "export const TaggedError = identifier => (tag, fieldsOr, annotations) => {", (body) => {
        body = replaceOnce(
          body,
          "const schema = getSchemaFromFieldsOr(fieldsOr);",
          "const schema$f = () => getSchemaFromFieldsOr(fieldsOr);"
        )
        return replaceOnce(
          body,
          "schema: extend(schema, Struct(newFields)),",
          "schema: new LazyClassSchema(() => extend(schema$f(), Struct(newFields))),"
        )
      })
      text = rewrite(text, "const makeClass = ({", (body) => {
        body = replaceOnce(
          body,
          "  kind,\n  schema\n}) => {\n",
          "  kind,\n  schema: schema$in\n}) => {\n  let schema$v;\n  const schema = () => schema$v ??= schema$in instanceof LazyClassSchema ? schema$in.f() : schema$in;\n"
        )
        const declStart = body.indexOf("  const typeSchema_ = typeSchema(schema);")
        const declEnd = body.indexOf("  const fallbackInstanceOf")
        if (declStart === -1 || declEnd < declStart) throw changed("makeClass")
        let decls = body.slice(declStart, declEnd)
        let rest = body.slice(declEnd)
        for (const n of LAZY_CLASS_VALUES) {
          const declaration = new RegExp(`const ${n} = ([\\s\\S]*?);\\n(?=  const |$)`)
          if (!declaration.test(decls)) throw changed(`makeClass's ${n}`)
          decls = decls.replace(declaration, (_, expr) => `let ${n}$v;\n  const ${n} = () => ${n}$v ??= ${expr};\n`)
        }
        // Every use (not a property key, not a member) becomes a call of the memoized thunk.
        for (const n of [...LAZY_CLASS_VALUES, "schema"]) {
          decls = decls.replace(new RegExp(`(?<![\\w$.])${n}(?=[.)])`, "g"), `${n}()`)
          rest = rest.replace(new RegExp(`(?<![\\w$.])${n}(?![\\w$:(])`, "g"), `${n}()`)
        }
        return `class LazyClassSchema {\n  constructor(f) {\n    this.f = f;\n  }\n}\n${
          body.slice(0, declStart)
        }${decls}${rest}`
      })
      return { contents: text, loader: "js" }
    })
  }
}

/**
 * Why a bundle is not ASCII: the first character outside it, as a code point and with the bundle's
 * text around it. esbuild escapes such characters in strings but writes a regular expression's as
 * they are; `npx eslint src` names the file and line of such a regular expression (eslint.config.mjs).
 * `at` is its offset, the same in `text` (the bundle read as UTF-8) as in its bytes: all before it is ASCII.
 */
const notAscii = (name, text, at) => {
  const point = text.codePointAt(at)
  const code = `U+${point.toString(16).toUpperCase().padStart(4, "0")} (${String.fromCodePoint(point)})`
  const around = text.slice(Math.max(0, at - 60), at + 20).replace(/\s+/g, " ")
  return `${name} is not ASCII: ${code} in \`${around}\`; a regular expression in src/ holding it? ` +
    "`npx eslint src` names its file and line; write the character as a \\u escape"
}

/**
 * Bundle `entry` (esbuild's `entryPoints` or `stdin`) as a CLI bundle: CommonJS, minified, for
 * Node 20, with effect's stack probe answered and Schema classes built on first use, and `plugins`
 * of the caller's before the last of them. Answers the file's text (the bundle inside CommonJS's
 * own function wrapper, which the loader compiles as it is read: building the wrapped text at run
 * time copied the bundle on every start; a leading `#!` line would not parse there), its SHA-256
 * (hex: what the loader checks a code cache against) and esbuild's metafile. The loader reads the
 * file as latin1, so it must be ASCII (esbuild's default charset escapes the rest).
 */
export const cliBundle = async (entry, plugins = [], name = "bundle") => {
  const r = await build({
    ...entry,
    plugins: [effectStackProbe, effectLazyClasses, ...plugins],
    write: false,
    metafile: true,
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    minify: true,
    legalComments: "none",
    // better-sqlite3's JavaScript is bundled too (src/layers/LockLive.ts names its native addon by path).
    // `import.meta.url` of the sources (the hash worker's and better-sqlite3's location) is the bundle's own URL.
    define: { "import.meta.url": "__dossierMetaUrl" },
    banner: { js: "var __dossierMetaUrl=require('node:url').pathToFileURL(__filename).href;" },
    // node-postgres (the store, src/layers/postgres) requires its optional native binding only
    // when asked for it (`pg.native`), which dossier never does.
    external: ["pg-native"],
    logLevel: "warning"
  })
  // effectLazyClasses rewrites effect's ES module build only.
  if (Object.keys(r.metafile.inputs).some((p) => /[\\/]effect[\\/]dist[\\/]cjs[\\/]Schema\.js$/.test(p))) {
    throw new Error(`${name}: effect's CommonJS Schema was bundled; see effectLazyClasses`)
  }
  const bundled = Buffer.from(r.outputFiles[0].contents).toString("latin1")
  const wide = bundled.search(/[^\x00-\x7f]/)
  if (wide >= 0) throw new Error(notAscii(name, Buffer.from(r.outputFiles[0].contents).toString("utf8"), wide))
  const core = `(function (exports, require, module, __filename, __dirname) {${
    bundled.startsWith("#!") ? bundled.slice(bundled.indexOf("\n") + 1) : bundled
  }\n})`
  const sha256 = createHash("sha256").update(core, "latin1").digest("hex")
  return { core, sha256, metafile: r.metafile }
}

/**
 * Build the loader `entry` (it runs a bundle with src/cli/CodeCache.ts) into `outfile`, knowing each
 * bundle's SHA-256 as `__DOSSIER_BUNDLE_SHA256__`. A CommonJS entry: Node starts an ES module entry
 * through its ES module loader, ~10 ms more.
 */
export const cliLoader = (entry, outfile, sha256s) =>
  build({
    entryPoints: [entry],
    define: { __DOSSIER_BUNDLE_SHA256__: JSON.stringify(sha256s), "import.meta.url": "__dossierMetaUrl" },
    banner: { js: "var __dossierMetaUrl=require('node:url').pathToFileURL(__filename).href;" },
    outfile,
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    minify: true,
    logLevel: "warning"
  })
