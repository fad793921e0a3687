// `npm test`: build the app once (integration and browser tests run the real build), then run
// every vitest project: unit, integration (real PostgreSQL) and end-to-end (Chromium).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const run = (args, env = {}) => {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

run([path.join(root, "node_modules/@remix-run/dev/dist/cli.js"), "build"], { NODE_ENV: "production" });
run([path.join(root, "node_modules/vitest/vitest.mjs"), "run", ...process.argv.slice(2)]);
