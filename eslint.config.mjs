// Lint and format (dprint through @effect/eslint-plugin), in the style of the Effect repositories'
// eslint.config.mjs: their recommended sets, their dprint options (line width 120) and their rule
// choices, less the rules of plugins this repository does not install (import, codegen,
// simple-import-sort, sort-destructure-keys). `npm run lint` checks, `npm run lint:fix` formats.
import * as effectEslint from "@effect/eslint-plugin"
import js from "@eslint/js"
import tseslint from "typescript-eslint"

/** Array.push with spread arguments (every file). */
const pushSpread = {
  selector: "CallExpression[callee.property.name='push'] > SpreadElement.arguments",
  message: "Do not use spread arguments in Array.push"
}

/**
 * A regular expression literal holding a character outside ASCII (src/ only). esbuild escapes such
 * characters in strings but writes a regular expression's as they are, and the CLI's bundle must be
 * ASCII (scripts/cli-bundle.mjs), so the build failed only after bundling, naming no file.
 */
const nonAsciiRegExp = {
  selector: "Literal[regex.pattern=/[^\\x00-\\x7F]/]",
  message: "Write this regular expression's characters outside ASCII as \\u escapes (\\u2026 for \u2026): " +
    "the CLI's bundle must be ASCII, and esbuild does not escape them in a regular expression"
}

export default [
  {
    ignores: ["**/dist", "**/node_modules", ".bench-tmp/**", ".test-tmp-*/**", "test/fixtures/replay/**", "**/*.md"]
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...effectEslint.configs.dprint,
  {
    files: ["**/*.ts", "**/*.mts", "**/*.mjs", "**/*.js"],
    languageOptions: {
      parser: tseslint.parser,
      ecmaVersion: 2022,
      sourceType: "module",
      globals: {
        // Node's globals (the sources, the tests and the scripts all run on Node).
        process: "readonly",
        Buffer: "readonly",
        console: "readonly",
        __dirname: "readonly",
        __filename: "readonly",
        require: "readonly",
        module: "writable",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        setImmediate: "readonly",
        clearImmediate: "readonly",
        queueMicrotask: "readonly",
        structuredClone: "readonly",
        URL: "readonly",
        URLSearchParams: "readonly",
        TextEncoder: "readonly",
        TextDecoder: "readonly",
        AbortController: "readonly",
        AbortSignal: "readonly",
        fetch: "readonly",
        performance: "readonly",
        globalThis: "readonly",
        NodeJS: "readonly",
        WebAssembly: "readonly",
        SharedArrayBuffer: "readonly",
        Atomics: "readonly"
      }
    },
    rules: {
      // As in the Effect repositories.
      "no-fallthrough": "off",
      "no-irregular-whitespace": "off",
      "object-shorthand": "error",
      "prefer-destructuring": "off",
      "sort-imports": "off",
      "no-restricted-syntax": ["error", pushSpread],
      "no-unused-vars": "off",
      "require-yield": "off",
      "prefer-rest-params": "off",
      "prefer-spread": "off",
      "@typescript-eslint/array-type": ["warn", { default: "generic", readonly: "generic" }],
      "@typescript-eslint/no-non-null-assertion": "off",
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-empty-object-type": "off",
      "@typescript-eslint/no-unsafe-function-type": "off",
      "@typescript-eslint/no-wrapper-object-types": "off",
      // `typeof import("./X.js")` stays allowed: it types a module that is loaded lazily (start-up
      // time, src/cli/Bundles.ts), which an `import type` at the top would not express.
      "@typescript-eslint/consistent-type-imports": ["warn", {
        disallowTypeAnnotations: false,
        fixStyle: "inline-type-imports"
      }],
      // The house matches control characters on purpose: ANSI escapes stripped from help text,
      // the ASCII check of the bundles, NUL and C0 characters in extracted text.
      "no-control-regex": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/ban-ts-comment": "off",
      "@typescript-eslint/explicit-function-return-type": "off",
      "@typescript-eslint/explicit-module-boundary-types": "off",
      "@typescript-eslint/no-array-constructor": "off",
      "@typescript-eslint/no-use-before-define": "off",
      "@typescript-eslint/no-namespace": "off",
      "@effect/dprint": [
        "error",
        {
          config: {
            indentWidth: 2,
            lineWidth: 120,
            semiColons: "asi",
            quoteStyle: "alwaysDouble",
            trailingCommas: "never",
            operatorPosition: "maintain",
            "arrowFunction.useParentheses": "force"
          }
        }
      ]
    }
  },
  {
    // Tests write holes in arrays on purpose (canonical JSON and input validation of sparse arrays).
    files: ["test/**/*.ts"],
    rules: { "no-sparse-arrays": "off" }
  },
  {
    // The library's sources import effect's modules by path (start-up time, STYLE.md), never the barrel.
    files: ["src/**/*.ts"],
    rules: {
      // The CLI's bundle is built from src/: its regular expressions are written in ASCII (`nonAsciiRegExp`).
      "no-restricted-syntax": ["error", pushSpread, nonAsciiRegExp],
      "@effect/no-import-from-barrel-package": ["error", {
        packageNames: ["effect", "@effect/platform", "@effect/sql"]
      }]
    }
  }
]
