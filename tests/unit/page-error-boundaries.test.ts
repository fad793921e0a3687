import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";

// Every page keeps its errors (docs/decisions/055): a route module with a loader and a component
// exports an ErrorBoundary, so a refusal shows in the page's own words inside the shell instead of
// the root's error page. The modules are found on disk, so a new page cannot be left out. Their
// exports are read from the syntax tree, not by importing them: importing every route loads the
// whole app, 40 s of the unit run on two shared cores for what the tree says in under one.

const ROUTES = path.resolve("app/routes");

/** The route modules of app/routes by Remix's flat-routes convention: files, and folders with a `route` module. */
function routeModules() {
  return fs.readdirSync(ROUTES, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith(".")) return [];
    if (entry.isFile()) return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [entry.name] : [];
    const route = fs.readdirSync(path.join(ROUTES, entry.name)).find((name) => /^route\.tsx?$/.test(name));
    return route ? [`${entry.name}/${route}`] : [];
  });
}

const isExported = (node: ts.Node) =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** The names a module exports: declarations, `export { a as b }` (from itself or another module) and `export default`. */
function exportedNames(source: string, file = "module.tsx") {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  const names = new Set<string>();
  for (const node of tree.statements) {
    if (ts.isExportAssignment(node)) names.add("default");
    else if (ts.isExportDeclaration(node)) {
      if (!node.exportClause) names.add("*");
      else if (ts.isNamedExports(node.exportClause)) for (const e of node.exportClause.elements) names.add(e.name.text);
    } else if (isExported(node)) {
      const isDefault = (ts.getModifiers(node as ts.HasModifiers) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
      if (isDefault) names.add("default");
      else if (ts.isVariableStatement(node)) {
        for (const d of node.declarationList.declarations) if (ts.isIdentifier(d.name)) names.add(d.name.text);
      } else if ((ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node)) && node.name) names.add(node.name.text);
    }
  }
  return names;
}

const modules = routeModules().map((file) => ({ file, exports: exportedNames(fs.readFileSync(path.join(ROUTES, file), "utf8"), file) }));
const pages = modules.filter(({ exports }) => exports.has("loader") && exports.has("default"));

describe("pages keep their errors", () => {
  test("a module's exports are read from its syntax tree, however they are written", () => {
    const source = [
      "export const loader = load;",
      'export { action } from "./action.server";',
      "export function ErrorBoundary() {}",
      "export default function Page() {}",
      "const meta = 1;",
      "export { meta as headers };",
      "type View = {};",
    ].join("\n");
    expect([...exportedNames(source)].sort()).toEqual(["ErrorBoundary", "action", "default", "headers", "loader"]);
  });

  test("the route modules are read from app/routes, pages and resource routes apart", () => {
    expect(pages.length).toBeGreaterThan(40);
    expect(pages.map((p) => p.file)).toContain("receipts.$id.tsx");
    // A resource route has no component and so no boundary of its own.
    expect(modules.find((m) => m.file === "api.v2.events.$id.ts")?.exports.has("default")).toBe(false);
    // `export *` would hide what a module exports from this reading.
    expect(modules.filter((m) => m.exports.has("*")).map((m) => m.file)).toEqual([]);
  });

  test("every page with a loader exports an ErrorBoundary", () => {
    const without = pages.filter(({ exports }) => !exports.has("ErrorBoundary")).map((p) => p.file);
    expect(without).toEqual([]);
  });
});
