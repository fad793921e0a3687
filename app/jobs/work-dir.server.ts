import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

// Temporary folders of jobs (docs/decisions/015). Each is named after what the job works on and
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

/** The job that works in a folder: enough to find its row in the queue again. */
export interface JobRef {
  name: string;
  id: string;
  startedOn: Date;
}

/**
 * The job's own empty folder: whatever an earlier attempt of the same job left there is removed.
 * `job`: the queue's job working in it, so a worker starting after this one died can hand the job
 * on at once instead of waiting for its lease to lapse.
 */
export async function openWorkDir(name: string, job?: JobRef): Promise<WorkDir> {
  const dir = path.join(workRoot(), name);
  await fs.rm(dir, { recursive: true, force: true });
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, OWNER_FILE), JSON.stringify({ pid: process.pid, job }));
  return { path: dir, remove: () => fs.rm(dir, { recursive: true, force: true }) };
}

async function ownerOf(dir: string): Promise<{ pid: number; job: JobRef | null } | null> {
  try {
    const owner = JSON.parse(await fs.readFile(path.join(dir, OWNER_FILE), "utf8")) as {
      pid: number;
      job?: JobRef & { startedOn: string };
    };
    return { pid: owner.pid, job: owner.job ? { ...owner.job, startedOn: new Date(owner.job.startedOn) } : null };
  } catch {
    return null;
  }
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

/**
 * Stops what still works in a dead worker's folder: its ffmpeg goes on after the worker is
 * killed (a child process outlives its parent, and ffmpeg ignores a closed pipe), taking a core
 * and writing a file nobody reads for as long as the clip takes. Found by the folder in their
 * command line, which names an item and a job; Linux only (/proc), elsewhere nothing is found.
 */
async function stopProcessesUsing(dir: string) {
  const pids = await fs.readdir("/proc").catch(() => [] as string[]);
  for (const entry of pids) {
    const pid = Number(entry);
    if (!pid || pid === process.pid) continue;
    const commandLine = await fs.readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
    if (!commandLine.split("\0").some((arg) => arg.startsWith(dir + path.sep))) continue;
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone already, or not ours to stop.
    }
  }
}

/**
 * Removes the folders whose owning process no longer runs on this machine, and stops what still
 * works in them. Returns how many, and the jobs that were working in them: their worker is dead.
 */
export async function sweepOrphanWorkDirs() {
  const names = await fs.readdir(workRoot()).catch(() => [] as string[]);
  const deadJobs: JobRef[] = [];
  let removed = 0;
  for (const name of names) {
    const dir = path.join(workRoot(), name);
    const owner = await ownerOf(dir);
    const made = await fs.stat(dir).catch(() => null);
    if (!made) continue;
    const orphaned = owner ? owner.pid !== process.pid && !isRunning(owner.pid) : Date.now() - made.mtimeMs > UNOWNED_MAX_AGE_MS;
    if (!orphaned) continue;
    await stopProcessesUsing(dir);
    await fs.rm(dir, { recursive: true, force: true });
    if (owner?.job) deadJobs.push(owner.job);
    removed++;
  }
  return { removed, deadJobs };
}
