import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

// docs/architecture.md and the README are the map of the code. A folder added under app/ and named
// in neither is a part of the app nobody will find; a folder named but gone sends readers nowhere.

const ROOT = path.resolve(__dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

const subfolders = (dir: string) =>
  fs
    .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${dir}/${entry.name}`);

/** Every folder under app/, two levels deep: `app/services`, `app/services/accounts`. */
function appFolders(): string[] {
  return subfolders("app")
    .flatMap((folder) => [folder, ...subfolders(folder)])
    .sort();
}

const FOLDER_TOKEN = /^([\w.$-]+)\/(?=\s|$)/;

/**
 * The folders the architecture page's "Folders" tree names: a line that starts with `name/` is a
 * folder inside the nearest line above it that is indented less; lines that go on with the words of
 * the line before start with no `name/`.
 */
function foldersInArchitectureTree(markdown: string): string[] {
  const section = markdown.split(/^## Folders$/m)[1] ?? "";
  const block = section.split("```")[1] ?? "";
  const open: { indent: number; path: string }[] = [];
  const named: string[] = [];
  for (const line of block.split("\n")) {
    const indent = line.length - line.trimStart().length;
    const token = FOLDER_TOKEN.exec(line.trimStart());
    if (!token) continue;
    while (open.length && open[open.length - 1]!.indent >= indent) open.pop();
    const folder = [...open.map((parent) => parent.path), token[1]].join("/");
    named.push(folder);
    open.push({ indent, path: token[1]! });
  }
  return named;
}

/**
 * The folders the README's folder table names: a row's first cell names `app/x/`, and each
 * `` `y/` `` in its second cell is a folder inside it.
 */
function foldersInReadmeTable(markdown: string): string[] {
  const named: string[] = [];
  for (const row of markdown.split("\n").filter((line) => line.startsWith("| `"))) {
    const [first = "", second = ""] = row.split(/(?<!\\)\|/).slice(1);
    for (const [, parent] of first.matchAll(/`([\w./$-]+)\/`/g)) {
      named.push(parent!);
      for (const [, child] of second.matchAll(/`([\w.$-]+)\/`/g)) named.push(`${parent}/${child}`);
    }
  }
  return named;
}

const MAPS = [
  { file: "docs/architecture.md", named: () => foldersInArchitectureTree(read("docs/architecture.md")) },
  { file: "README.md", named: () => foldersInReadmeTable(read("README.md")) },
];

describe.each(MAPS)("$file maps app/", ({ named }) => {
  test("names every folder under app/, two levels deep", () => {
    const names = new Set(named());
    expect(appFolders().filter((folder) => !names.has(folder))).toEqual([]);
  });

  test("names no folder under app/ that is not there", () => {
    const folders = new Set(appFolders());
    const gone = named().filter((folder) => folder.startsWith("app/") && folder.split("/").length <= 3 && !folders.has(folder));
    expect(gone).toEqual([]);
  });
});

describe("reading the maps", () => {
  test("a tree line names a folder inside the line above it that is indented less", () => {
    const tree = [
      "## Folders",
      "",
      "```",
      "app/",
      "  services/     use cases:",
      "                  accounts/   log-in",
      "    going on",
      "  lib/",
      "```",
    ];
    expect(foldersInArchitectureTree(tree.join("\n"))).toEqual(["app", "app/services", "app/services/accounts", "app/lib"]);
  });

  test("a table row names its folder and the folders its second cell lists", () => {
    const table = ["| folder | holds |", "|---|---|", "| `app/services/` | use cases: `accounts/` (log-in), `events/` |"];
    expect(foldersInReadmeTable(table.join("\n"))).toEqual(["app/services", "app/services/accounts", "app/services/events"]);
  });
});
