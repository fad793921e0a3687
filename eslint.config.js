// Lint rules for the whole repo: TypeScript's recommended set, React's rules of hooks, accessible
// JSX, one import order, and the layers of app/ (docs/architecture.md, docs/decisions/054). Formatting
// is Prettier's (.prettierrc.json), not ESLint's.
import { readdirSync } from "node:fs";
import path from "node:path";
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const root = import.meta.dirname;
const routesDir = path.join(root, "app/routes");

/**
 * A route module is a file directly in app/routes or a folder there with a route.* file; any other
 * folder holds pieces that the flat routes of its name share (app/routes/start-a-chorus/).
 */
const routeFolders = readdirSync(routesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .filter((entry) => readdirSync(path.join(routesDir, entry.name)).some((name) => /^route\.[jt]sx?$/.test(name)))
  .map((entry) => entry.name);
const flatRoutes = "app/routes/*.{ts,tsx}";
const routeFolderFiles = (name) => `app/routes/${name}/**`;

/** A route never imports another route: what two routes share lives in a service, a component or lib. */
const noOtherRoute = [
  { target: flatRoutes, from: [flatRoutes, ...routeFolders.map(routeFolderFiles)] },
  ...routeFolders.map((name) => ({
    target: routeFolderFiles(name),
    from: [flatRoutes, ...routeFolders.filter((other) => other !== name).map(routeFolderFiles)],
  })),
].map((zone) => ({ ...zone, message: "A route never imports another route: move what both need out of app/routes." }));

/**
 * The layers of app/, each importing only those below it:
 *   routes → services → models, integrations, jobs → lib → domain
 * components render what loaders return, so they import view types, never server code.
 */
const layerZones = [
  {
    target: "app/lib",
    from: ["app/routes", "app/services", "app/models", "app/jobs", "app/integrations"],
    message: "app/lib sits under models, services and jobs: move this file up, or hand it what it needs.",
  },
  {
    // Pure rules, unit-tested without a database, files or a network (STYLE.md "Pure core, thin edges").
    target: "app/domain",
    from: [
      "app/routes",
      "app/services",
      "app/models",
      "app/jobs",
      "app/integrations",
      "app/lib",
      "app/realtime",
      "app/media",
      "app/components",
    ],
    message: "app/domain holds pure rules: nothing with I/O.",
  },
  {
    target: "app/domain",
    from: ["app/render/**/*.server.*"],
    message: "app/domain holds pure rules: nothing with I/O.",
  },
  {
    // Outside services are reached through a service, which owns what their answers mean.
    target: "app/routes",
    from: ["app/integrations"],
    message: "Routes reach outside services through a service, not app/integrations.",
  },
  ...noOtherRoute,
  {
    // A component is bundled for the browser: it imports the view types it is handed from files of
    // their own (services/<area>/<thing>-view.ts), never a server module of another layer. Its own
    // *.server.ts modules are view code too: inline scripts and markup that only the server writes
    // into the page, left out of the browser's bundle (docs/decisions/039, 043).
    target: "app/components",
    from: ["app/!(components)/**/*.server.*", "app/*.server.*"],
    message: "Components import no server module: put the view type in a file of its own (…-view.ts).",
  },
  {
    target: "app/components",
    from: ["app/models", "app/integrations", "app/jobs", "app/routes"],
    message: "Components import view types, not models, integrations, jobs or routes.",
  },
];

/** Modules with I/O that app/domain may not import (what its folder zone cannot see: packages). */
const ioModules = [
  "fs",
  "fs/*",
  "net",
  "http",
  "https",
  "child_process",
  "node:fs",
  "node:fs/*",
  "node:net",
  "node:http",
  "node:https",
  "node:child_process",
  "postgres",
  "pg",
  "pg-boss",
  "drizzle-orm/postgres-js",
];

export default tseslint.config(
  { ignores: ["build/", "public/build/", "data/", "test-results/", "node_modules/", ".cache/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js}"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "import-x": importX, "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "import-x/order": [
        "error",
        {
          groups: ["builtin", "external", "internal", ["parent", "sibling", "index"]],
          pathGroups: [
            { pattern: "~/**", group: "internal" },
            // drizzle/ (the tables' folder at the root) sorts among the packages, as it did before
            // the TypeScript resolver below found it to be a folder of ours.
            { pattern: "drizzle/**", group: "external" },
          ],
          alphabetize: { order: "asc", caseInsensitive: true },
          "newlines-between": "never",
        },
      ],
      "import-x/no-duplicates": "error",
    },
  },
  {
    files: ["app/**/*.{ts,tsx}", "server.ts"],
    settings: {
      // TypeScript files are read as modules (import-x reads only .js by default) and `~/` is resolved
      // as tsconfig.json says, so the rules below see every import of app/.
      "import-x/extensions": [".ts", ".tsx", ".js"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "tsconfig.json" })],
    },
    rules: {
      // No circle of files: a circle has no layer order, and one at run time can load half a module.
      // Packages are left out (ignoreExternal), which keeps the walk to app/ and quick.
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-restricted-paths": ["error", { basePath: root, zones: layerZones }],
    },
  },
  {
    files: ["app/domain/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ioModules, message: "app/domain holds pure rules: nothing with I/O." }] }],
    },
  },
  // The service worker is plain JavaScript served as it is (docs/decisions/027).
  { files: ["public/sw.js"], languageOptions: { globals: globals.serviceworker } },
  { files: ["app/**/*.tsx"], ...jsxA11y.flatConfigs.recommended },
  {
    files: ["app/**/*.tsx"],
    rules: {
      // People's own clips and the montage have no caption text to offer; words are drawn into the video.
      "jsx-a11y/media-has-caption": "off",
      // Labels wrap their control and a title and a hint: the text sits three elements deep.
      "jsx-a11y/label-has-associated-control": ["error", { depth: 3 }],
    },
  },
  {
    // Test clients read JSON answers of every shape.
    files: ["tests/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
