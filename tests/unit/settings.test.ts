import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { SETTING_NAMES } from "~/lib/env.server";

const root = path.resolve(import.meta.dirname, "../..");

// Read by the browser tests only, never by the app.
const TEST_ONLY = ["CHROMIUM_PATH"];

// process.env reads that are not settings: the parse itself, the embedded database's address
// becoming DATABASE_URL, and the PATH search for ffmpeg and the environment it runs in.
const RAW_READS_ALLOWED = ["app/lib/env.server.ts", "app/lib/database-bootstrap.server.ts", "app/media/ffmpeg-paths.server.ts"];

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

describe("settings", () => {
  test(".env.example lists every setting in the schema, and nothing else", () => {
    const example = readFileSync(path.join(root, ".env.example"), "utf8");
    const listed = [...example.matchAll(/^([A-Z0-9_]+)=/gm)].map((m) => m[1] ?? "").filter((name) => !TEST_ONLY.includes(name));
    expect([...listed].sort()).toEqual([...SETTING_NAMES].sort());
  });

  test("server code reads settings through env(), not process.env", () => {
    const readers = [...sourceFiles("app"), "server.ts"].filter((file) =>
      readFileSync(path.join(root, file), "utf8").includes("process.env"),
    );
    expect(readers.sort()).toEqual([...RAW_READS_ALLOWED].sort());
  });
});
