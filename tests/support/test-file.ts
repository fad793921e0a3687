import crypto from "node:crypto";
import os from "node:os";
import path from "node:path";

// What belongs to one test file: its id, and from it its storage folder, job queue and realtime
// channel (test-server.ts). A worker process runs many files one after another and keeps the
// modules they import (vitest.config.ts), so the id is not a module's constant: the setup file
// (worker-database.ts) begins each file with a new one, kept across a server restart within it.

const KEY = Symbol.for("chorus.test-file-id");
const state = globalThis as { [KEY]?: string };

/** Gives the test file about to run an id of its own. */
export function beginTestFile() {
  state[KEY] = crypto.randomBytes(5).toString("hex");
}

/** The running test file's id. */
export function testFileId(): string {
  return (state[KEY] ??= crypto.randomBytes(5).toString("hex"));
}

/** The file's stored media, sessions secret and the like; removed after the file (worker-database.ts). */
export function testFileDataDir(): string {
  return path.join(os.tmpdir(), `chorus-test-data-${testFileId()}`);
}
