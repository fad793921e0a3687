import fs from "node:fs/promises";
import postgres from "postgres";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { closeDb } from "~/lib/db.server";
import { pieceOnce } from "~/render/piece-once.server";
import type { StoredPiece } from "~/render/piece-store";
import { storedPieces } from "~/services/render/render-pieces.server";
import { freePort } from "../support/global-database";
import { makeTempDir } from "../support/media-fixtures";
import { testDatabaseName } from "../support/test-database";
import { applyTestEnvironment } from "../support/test-server";
import { until } from "../support/wait";

// A piece another process is making is waited for, not looked for again and again: two stores,
// each with its claims on connections of their own as two worker processes have them. The one
// that comes second gives its render slot back, waits blocked on the maker's claim, and finds the
// piece once it is stored; an abort ends the wait at once; a wait whose connection is lost waits
// again on another.

let dir: Awaited<ReturnType<typeof makeTempDir>>;
/** Another database of the server: it watches the test database's sessions. */
let admin: postgres.Sql;

beforeAll(async () => {
  dir = await makeTempDir("render-piece-wait");
  applyTestEnvironment(await freePort(), { DATA_DIR: dir.path("data"), RENDER_CONCURRENCY: "1" });
  admin = postgres(inject("databaseServerUrl"), { max: 1, onnotice: () => {} });
});
afterAll(async () => {
  await closeDb();
  await admin?.end({ timeout: 5 });
  await dir?.remove();
});

/** Sessions of the test database waiting for an advisory lock. */
const lockWaiters = async () =>
  (
    await admin<{ pid: number }[]>`
      select pid from pg_stat_activity
      where datname = ${testDatabaseName()} and wait_event_type = 'Lock' and wait_event = 'advisory'`
  ).map((row) => row.pid);

/** A gate the test opens. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** Another process making `key`: it holds the piece's claim until `done` opens, then stores the piece. */
async function makerElsewhere(key: string) {
  const done = gate();
  const holding = gate();
  const maker = storedPieces();
  const claimed = maker.claims!.claim(key, async () => {
    holding.open();
    await done.opened;
    const file = dir.path(`${key}.mp4`);
    await fs.writeFile(file, `the piece ${key}`);
    return maker.put(key, "clip", { body: file }, 30);
  });
  await Promise.race([holding.opened, claimed]);
  return { finish: () => (done.open(), claimed) };
}

/** This process wanting `key`: a store of its own, counting its look-ups and makes. */
function wanting(key: string, signal?: AbortSignal) {
  const store = storedPieces();
  const counts = { lookUps: 0, made: 0 };
  const outcome = pieceOnce<StoredPiece>(key, {
    store,
    signal,
    lookUp: () => {
      counts.lookUps++;
      return store.get(key);
    },
    make: () => {
      counts.made++;
      throw new Error("made here too");
    },
  });
  outcome.catch(() => {});
  return { counts, outcome };
}

test("a piece another process is making is waited for without looking again meanwhile, with the render slot given back, then found", async () => {
  const key = `wait-${Date.now()}`;
  const maker = await makerElsewhere(key);
  const waiter = wanting(key);
  // Looked up once, found missing, then found the maker's claim taken (in a render slot).
  await until(() => waiter.counts.lookUps >= 1, { timeout: 20_000, interval: 50, what: "the piece to be looked up" });

  // The maker takes its time: the waiter looks for the piece no more while it does (a window of
  // 3 s: looking again every half second, it looked six times more), blocked on the maker's claim
  // in the database.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  expect(waiter.counts.lookUps).toBe(1);
  await until(async () => (await lockWaiters()).length === 1, { timeout: 20_000, interval: 100, what: "the wait for the maker's claim" });
  // The one render slot (RENDER_CONCURRENCY=1) is free meanwhile: another piece is made in it.
  const other = await pieceOnce(`${key}-other`, { store: storedPieces(), lookUp: async () => null, make: async () => "made" });
  expect(other).toEqual({ value: "made", made: true });

  await maker.finish();
  const { value, made } = await waiter.outcome;
  expect(made).toBe(false);
  expect(await fs.readFile(value.files.body!, "utf8")).toBe(`the piece ${key}`);
  expect(waiter.counts.made).toBe(0);
  // It looked once more when woken, and found it.
  expect(waiter.counts.lookUps).toBe(2);
  expect(await lockWaiters()).toEqual([]);
});

test("a render cancelled while it waits for a piece stops waiting at once, and its wait leaves the database", async () => {
  const key = `abort-${Date.now()}`;
  const maker = await makerElsewhere(key);
  const cancel = new AbortController();
  const waiter = wanting(key, cancel.signal);
  await until(async () => (await lockWaiters()).length === 1, { timeout: 20_000, interval: 100, what: "the wait for the maker's claim" });

  const cancelledAt = Date.now();
  cancel.abort();
  await expect(waiter.outcome).rejects.toMatchObject({ name: "AbortError" });
  expect(Date.now() - cancelledAt).toBeLessThan(1000);
  await until(async () => (await lockWaiters()).length === 0, { timeout: 10_000, interval: 100, what: "the cancelled wait to leave" });
  await maker.finish();
  expect(waiter.counts.made).toBe(0);
});

test("a wait whose connection the database ends waits again on a new one, and finds the piece once made", async () => {
  const key = `lost-${Date.now()}`;
  const maker = await makerElsewhere(key);
  const waiter = wanting(key);
  const [first] = await until(
    async () => {
      const pids = await lockWaiters();
      return pids.length === 1 && pids;
    },
    { timeout: 20_000, interval: 100, what: "the wait for the maker's claim" },
  );
  await admin`select pg_terminate_backend(${first!})`;

  // Waiting again, on another connection, for the same claim.
  await until(
    async () => {
      const pids = await lockWaiters();
      return pids.length === 1 && pids[0] !== first;
    },
    { timeout: 20_000, interval: 100, what: "a new wait for the maker's claim" },
  );
  await maker.finish();
  const { value, made } = await waiter.outcome;
  expect(made).toBe(false);
  expect(await fs.readFile(value.files.body!, "utf8")).toBe(`the piece ${key}`);
  expect(waiter.counts.made).toBe(0);
});
