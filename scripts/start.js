// `npm start`: build the app if the build is missing or older than its sources, then serve it in
// production mode.
// Plain JavaScript so it runs on a fresh clone before anything is compiled.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const buildFile = path.join(root, "build/index.js");

function newestSource(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

function buildIsStale() {
  if (!fs.existsSync(buildFile) || !fs.existsSync(path.join(root, "public/build"))) return true;
  const builtAt = fs.statSync(buildFile).mtimeMs;
  const sources = Math.max(
    newestSource(path.join(root, "app")),
    newestSource(path.join(root, "drizzle/schema")),
    fs.statSync(path.join(root, "remix.config.js")).mtimeMs,
    fs.statSync(path.join(root, "package.json")).mtimeMs,
  );
  return sources > builtAt;
}

if (buildIsStale()) {
  console.log("Building the app (first start, or sources changed)...");
  const result = spawnSync(process.execPath, [path.join(root, "node_modules/@remix-run/dev/dist/cli.js"), "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// A second copy of Chorus (another checkout) started while one serves on 3000 serves on the next
// free port instead of failing: its database does the same (app/lib/embedded-postgres-port.server.ts).
// A PORT that is set is used as it is.
const port = process.env.PORT || String(await firstFreePort(3000, 3100));
if (!process.env.PORT && port !== "3000") console.log(`Port 3000 is taken (another copy of Chorus?): serving on ${port}.`);

// `npm start` is how Chorus runs for real: production mode (no stacks in answers, Remix and Express
// in their production paths). `npm run dev` is the development server.
const server = spawn(process.execPath, ["--import", "tsx", path.join(root, "server.ts")], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, PORT: port, NODE_ENV: process.env.NODE_ENV || "production" },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

/** The first port from `from` to `to` that can be listened on, as the server listens (every address); `from` when none can. */
async function firstFreePort(from, to) {
  for (let candidate = from; candidate <= to; candidate++) {
    const free = await new Promise((resolve) => {
      const probe = net.createServer();
      probe.once("error", () => resolve(false));
      probe.listen(candidate, () => probe.close(() => resolve(true)));
    });
    if (free) return candidate;
  }
  return from;
}
