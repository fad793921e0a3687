import crypto from "node:crypto";
import os from "node:os";
import path from "node:path";

/**
 * What belongs to one test file. Modules are fresh for each test file, so these are one per file,
 * kept across a server restart within it.
 */
export const TEST_FILE_ID = crypto.randomBytes(5).toString("hex");

/** The file's stored media, sessions secret and the like; removed after the file (worker-database.ts). */
export const TEST_FILE_DATA_DIR = path.join(os.tmpdir(), `chorus-test-data-${TEST_FILE_ID}`);
