import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

// Temporary folders of jobs (docs/decisions/013). Each is named after what the job works on and
// which job it is, and records the process that owns it: a job run again after its worker died
// finds and empties the dead attempt's folder, and a worker starting up removes the folders of
// processes that are gone. A clip's rendition is hundreds of megabytes; none may be left behind.

const OWNER_FILE = ".owner";
/** Folders without an owner file (cut short while being made) are removed once this old. */
const UNOWNED_MAX_AGE_MS = 60 * 60 * 1000;

export const workRoot = () => path.join(os.tmpdir(), "chorus-work");

export interface WorkDir {
  path: string;
  remove: () => Promise<void>;
}

/** The job's own empty folder: whatever an earlier attempt of the same job left there is removed. */
export async function openWorkDir(name: string): Promise<WorkDir> {
  const dir = path.join(workRoot(), name);
  await fs.rm(dir, { recursive: true, force: true });
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, OWNER_FILE), String(process.pid));
  return { path: dir, remove: () => fs.rm(dir, { recursive: true, force: true }) };
}

function isRunning(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes the folders whose owning process no longer runs on this machine. Returns how many. */
export async function sweepOrphanWorkDirs() {
  const names = await fs.readdir(workRoot()).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const dir = path.join(workRoot(), name);
    const owner = Number(await fs.readFile(path.join(dir, OWNER_FILE), "utf8").catch(() => ""));
    const made = await fs.stat(dir).catch(() => null);
    if (!made) continue;
    const orphaned = owner ? owner !== process.pid && !isRunning(owner) : Date.now() - made.mtimeMs > UNOWNED_MAX_AGE_MS;
    if (!orphaned) continue;
    await fs.rm(dir, { recursive: true, force: true });
    removed++;
  }
  return removed;
}
