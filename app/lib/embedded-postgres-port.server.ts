import fs from "node:fs/promises";
import net from "node:net";

/** The embedded PostgreSQL's port when none is set and none is kept. */
export const DEFAULT_EMBEDDED_POSTGRES_PORT = 54329;

/** How many ports after the default are tried before giving up. */
const PORTS_TRIED = 100;

/** The file beside the cluster's folder that keeps the port it was given (`data/postgres.port`). */
export const keptPortFile = (databaseDir: string) => `${databaseDir}.port`;

/**
 * The port the cluster in `databaseDir` runs on: the one set (EMBEDDED_POSTGRES_PORT), else the one
 * kept beside its folder by an earlier start, else the default when it is free. When the default is
 * taken (another copy of the app runs its own cluster there), or the kept one was taken since by
 * something else, the next free port after the default is taken and kept, so links, tools and later
 * starts find the cluster at the same address. A port that the cluster itself still holds (the
 * process that started it was killed) is not "taken": it is its own.
 */
export async function embeddedPostgresPort(
  databaseDir: string,
  configured: number | undefined,
  { defaultPort = DEFAULT_EMBEDDED_POSTGRES_PORT, log }: { defaultPort?: number; log?: (line: string) => void } = {},
): Promise<number> {
  if (configured) return configured;
  const kept = await readKeptPort(databaseDir);
  const preferred = kept ?? defaultPort;
  if ((await portIsFree(preferred)) || (await clusterHolds(databaseDir, preferred))) {
    if (kept === undefined) await keepPort(databaseDir, preferred);
    return preferred;
  }
  for (let port = defaultPort + 1; port <= defaultPort + PORTS_TRIED; port++) {
    if (port !== preferred && (await portIsFree(port))) {
      log?.(
        `Port ${preferred} is taken (another copy of Chorus?): this one's PostgreSQL uses ${port}, kept in ${keptPortFile(databaseDir)}`,
      );
      await keepPort(databaseDir, port);
      return port;
    }
  }
  throw new Error(
    `No free port for the embedded PostgreSQL between ${defaultPort} and ${defaultPort + PORTS_TRIED}: set EMBEDDED_POSTGRES_PORT or DATABASE_URL.`,
  );
}

async function readKeptPort(databaseDir: string): Promise<number | undefined> {
  const text = await fs.readFile(keptPortFile(databaseDir), "utf8").catch(() => "");
  const port = Number(text.trim());
  return Number.isInteger(port) && port > 0 && port < 65_536 ? port : undefined;
}

async function keepPort(databaseDir: string, port: number) {
  await fs.writeFile(keptPortFile(databaseDir), `${port}\n`);
}

/** Whether the port can be listened on where PostgreSQL listens (localhost). */
function portIsFree(port: number) {
  return new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen({ port, host: "127.0.0.1", exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * Whether this folder's own cluster is what holds the port: PostgreSQL writes its pid and port into
 * `postmaster.pid` (lines 1 and 4) while it runs.
 */
async function clusterHolds(databaseDir: string, port: number) {
  const lines = (await fs.readFile(`${databaseDir}/postmaster.pid`, "utf8").catch(() => "")).split("\n");
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0 || Number(lines[3]) !== port) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists, and belongs to another user (the `postgres` user when run as root).
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
