// ESLint: correctness rules for TypeScript and React hooks, and the import rules that keep the
// layers honest (docs/decisions/0012-lint-layering.md). `npm run lint` runs it.
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import { importX } from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import { defineConfig, globalIgnores } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

/** Where the UI and the transport live: the business rules and the helpers under them import none of it. */
const UI = ["app/routes", "app/components", "app/layouts", "app/root.tsx", "app/root-data.ts", "app/entry.server.tsx"];

/**
 * The layering rules, as import-x zones: a file under `target` may not import anything resolved
 * under `from`. Paths are relative to this file's directory; packages are matched by the folder
 * they resolve to in node_modules.
 */
export const layerZones = [
  {
    target: "app/domain",
    from: UI,
    message: "The domain holds the business rules; it never imports routes, components or layouts (decision 0012).",
  },
  {
    target: "app/domain",
    // React resolves to its types in @types, so both folders are listed.
    from: [
      "node_modules/react",
      "node_modules/@types/react",
      "node_modules/react-dom",
      "node_modules/@types/react-dom",
      "node_modules/react-router",
      "node_modules/@react-router",
      "node_modules/remix-utils",
    ],
    message: "The domain is plain TypeScript: no React, React Router or remix-utils; it never sees a Request or a Response (decision 0012).",
  },
  {
    target: "app/lib",
    from: UI,
    message: "app/lib holds cross-cutting helpers; route helpers that know pages or components live in app/routes/_shared (decision 0012).",
  },
  {
    target: "app/db",
    from: UI,
    message: "The database layer never imports routes, components or layouts (decision 0012).",
  },
  {
    // The schema and the client know no business rules. Only the process's composition root
    // (database.server.ts, reseed.ts) and the demo seed, which is made through the domain's own
    // functions, reach into app/domain.
    target: ["app/db/schema*.ts", "app/db/client.server.ts", "app/db/errors.ts"],
    from: ["app/domain"],
    message: "The schema and the database client import no domain code (decision 0012).",
  },
];

export default defineConfig([
  globalIgnores([
    "build/",
    "bench/minimal-router/build/",
    "bench/minimal-router/.react-router/",
    "build-*/",
    ".react-router/",
    "data/",
    "drizzle/",
    "public/",
    "test-results/",
    "playwright-report/",
    "tests/.tmp/",
  ]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: { ...globals.node, ...globals.browser },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // A leading underscore names what is left out on purpose (`const { body: _body, ...rest } = row`).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      // `interface AppLoadContext extends AppContext {}` is how React Router's context is typed.
      "@typescript-eslint/no-empty-object-type": ["error", { allowInterfaces: "with-single-extends" }],
      // Every control character in a pattern here is deliberate: inputs are stripped of them
      // (search queries, headers, hosts) and the search highlighter marks with \x02 and \x03.
      "no-control-regex": "off",
    },
  },
  {
    // Tests read JSON bodies of every shape the API answers.
    files: ["tests/**", "**/*.test.ts", "**/*.test.tsx"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    plugins: { "import-x": importX },
    settings: {
      "import-x/extensions": [".ts", ".tsx", ".js", ".mjs"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/resolver-next": [createTypeScriptImportResolver({ alwaysTryTypes: true, project: "./tsconfig.json" })],
    },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-self-import": "error",
      "import-x/no-restricted-paths": ["error", { zones: layerZones, basePath: import.meta.dirname }],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      // The React Compiler's checks that hold for this code today. Left off: `refs` (9 reads of
      // a ref during render, the latest-value pattern) and `set-state-in-effect` (6 effects that
      // reset state): they matter most to the compiler, which the app does not run, and changing
      // them is a refactor of the chat, realtime and loading-bar components (decision 0012).
      "react-hooks/purity": "error",
      "react-hooks/globals": "error",
      "react-hooks/immutability": "error",
      "react-hooks/set-state-in-render": "error",
      "react-hooks/static-components": "error",
      "react-hooks/use-memo": "error",
      "react-hooks/error-boundaries": "error",
      "react-hooks/unsupported-syntax": "warn",
    },
  },
  {
    // Links and forms carry no route discovery attribute: every route's manifest ships up front
    // (app/components/ui/link.tsx; issue 12, page weight).
    files: ["app/**/*.tsx"],
    ignores: ["app/components/ui/link.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "react-router",
              importNames: ["Link", "NavLink", "Form"],
              message: 'Import Link, NavLink and Form from "~/components/ui/link" (no data-discover attribute; issue 12).',
            },
          ],
        },
      ],
    },
  },
]);
