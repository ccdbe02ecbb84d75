/**
 * Leases on shared benchmark work (work_leases), between two connections to one SQLite file (or,
 * in the PostgreSQL half, one PostgreSQL database) as two processes would hold them: lease times
 * are read on the database's clock, a claim is exclusive while the lease lives, renewal keeps it,
 * a lapsed lease is taken over, release frees it, a lease of a process of this machine that has
 * ended is taken over at once, and a new worker clears the leases no claim would reach. Two LLM
 * clients sharing leases send an identical request once.
 */
import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, rawRows, type Db } from "../../../app/server/db.server.ts";
import { leasedQueue, workerLeases } from "../../../app/server/benchmark/work-leases.server.ts";
import {
  claimLease,
  heldByOther,
  leaseClock,
  releaseLease,
  renewLeases,
} from "../../../app/server/models/work-lease.server.ts";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { createLlm } from "../../../app/server/llm/client.server.ts";
import { until } from "../../helpers/cli.ts";
import { tempDir, testEngine } from "../../../harness/temp-db.ts";
import { pgDatabase } from "../../../harness/postgres.ts";
import { closeDatabase } from "../../../app/server/db-transaction.server.ts";
import { workLeases } from "../../../db/schema.ts";
import { mockConfig } from "../../../app/server/llm/stand-in/config.server.ts";
import { startMockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Two handles on one database, as two workers hold them: on one SQLite file, or one PostgreSQL database. */
async function twoConnections(): Promise<[Db, Db]> {
  let target: string;
  if (testEngine() === "postgres") {
    const database = await pgDatabase({ migrated: true });
    cleanups.push(database.drop);
    target = database.url;
  } else {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    target = join(dir, "leases.db");
  }
  const a = await openDatabase(target);
  const b = await openDatabase(target);
  cleanups.push(
    () => closeDatabase(a),
    () => closeDatabase(b),
  );
  return [a, b];
}

const leaseKeys = async (db: Db) =>
  (await db.select({ k: workLeases.workKey }).from(workLeases).orderBy(workLeases.workKey)).map((r) => r.k);

describe("work leases", () => {
  it("read lease times on the database's clock (PostgreSQL's server clock; SQLite's machine)", async () => {
    const [a] = await twoConnections();
    const clock = await leaseClock(a);
    if (testEngine() === "postgres") {
      const [row] = await rawRows<{ ms: number }>(
        a,
        sql`select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms`,
      );
      expect(Math.abs(clock() - Number(row.ms))).toBeLessThan(1_000);
      expect(Number.isInteger(clock())).toBe(true); // lease times are bigint columns
    } else expect(clock).toBe(Date.now);
  });

  it("are exclusive while alive, renewed by their holder, taken over once lapsed, freed on release", async () => {
    const [a, b] = await twoConnections();
    expect(await claimLease(a, "unit:r1", "A", 1_000, 100)).toBe(true);
    expect(await claimLease(b, "unit:r1", "B", 1_050, 100)).toBe(false);
    expect((await heldByOther(b, "unit:r1", "B", 1_050))?.holder).toBe("A");
    // Renewed at 1 090 until 1 190: still A's at 1 150.
    expect(await renewLeases(a, "A", ["unit:r1"], 1_090, 100)).toBe(1);
    expect(await claimLease(b, "unit:r1", "B", 1_150, 100)).toBe(false);
    // A stops renewing: at its expiry B takes it over, and A's late renewal no longer holds it.
    expect(await claimLease(b, "unit:r1", "B", 1_190, 100)).toBe(true);
    expect(await renewLeases(a, "A", ["unit:r1"], 1_200, 100)).toBe(0);
    // A's release of a lease it lost leaves B's in place; B's own release frees it.
    await releaseLease(a, "unit:r1", "A");
    expect((await heldByOther(a, "unit:r1", "A", 1_200))?.holder).toBe("B");
    await releaseLease(b, "unit:r1", "B");
    expect(await claimLease(a, "unit:r1", "A", 1_200, 100)).toBe(true);
  });

  it("takes a lease of an ended process of this machine at once, never one of a live process", async () => {
    const [a, b] = await twoConnections();
    const ended = spawnSync(process.execPath, ["-e", "process.pid"]).pid!;
    await claimLease(a, "unit:gone", `${hostname()}|${ended}|x`, Date.now(), 60_000);
    await claimLease(a, "unit:live", `${hostname()}|${process.pid}|x`, Date.now(), 60_000);
    const leases = await workerLeases(b);
    cleanups.push(() => leases.close());
    expect(await leases.claim("unit:gone")).toBe(true);
    expect(await leases.claim("unit:live")).toBe(false);
    expect((await heldByOther(a, "unit:gone", "someone", Date.now()))?.holder).toBe(leases.holder);
    await leases.close();
    expect(await heldByOther(a, "unit:gone", "someone", Date.now())).toBeUndefined();
  });

  it("a new worker clears leases nobody will claim again: an ended process's, and lapsed ones", async () => {
    const [a, b] = await twoConnections();
    const ended = spawnSync(process.execPath, ["-e", "process.pid"]).pid!;
    const now = Date.now();
    // Killed after storing its work but before giving the lease up: no claim ever touches this key again.
    await claimLease(a, "call:done", `${hostname()}|${ended}|x`, now, 60_000);
    await claimLease(a, "unit:lapsed", "elsewhere|1|y", now - 120_000, 60_000);
    await claimLease(a, "unit:live", `${hostname()}|${process.pid}|x`, now, 60_000);
    const leases = await workerLeases(b);
    cleanups.push(() => leases.close());
    expect(await leaseKeys(a)).toEqual(["unit:live"]);
  });

  it("a queue hands out only what this worker holds, and waits for what another worker holds", async () => {
    const [a, b] = await twoConnections();
    const mine = await workerLeases(a, { ttlMs: 60_000 });
    const theirs = await workerLeases(b, { ttlMs: 60_000 });
    cleanups.push(
      () => mine.close(),
      () => theirs.close(),
    );
    expect(await theirs.claim("k:2")).toBe(true);
    const queue = leasedQueue(
      ["1", "2", "3"],
      (item) => `k:${item}`,
      mine,
      () => false,
    );
    const order: string[] = [];
    order.push((await queue.next())!, (await queue.next())!);
    expect(order).toEqual(["1", "3"]);
    const third = queue.next();
    // Item 2 comes once the other worker gives it up.
    setTimeout(() => void theirs.release("k:2"), 50);
    expect(await third).toBe("2");
    for (const item of ["1", "2", "3"]) await queue.done(item);
    expect(await queue.next()).toBeUndefined();
    expect(await leaseKeys(a)).toEqual([]);
  });
});

describe("requests in flight shared between two clients on one database", () => {
  const schema = z.object({ echo: z.string() });
  const ask = (text: string) => ({
    role: "mediator" as const,
    messages: [{ role: "user" as const, content: text }],
    schema,
  });

  it("the second client waits for the first one's stored reply instead of sending the request", async () => {
    const mock = await startMockLlm({ latencyMs: 150 }); // the default responder echoes the last message
    cleanups.push(() => mock.close());
    const [a, b] = await twoConnections();
    const leasesA = await workerLeases(a);
    const leasesB = await workerLeases(b);
    cleanups.push(
      () => leasesA.close(),
      () => leasesB.close(),
    );
    const first = createLlm({ db: a, config: mockConfig(mock.url), shared: leasesA });
    const second = createLlm({ db: b, config: mockConfig(mock.url), shared: leasesB });

    const asked = first.call(ask("one question"));
    await until(() => mock.requests.length === 1, "the first client's request to arrive");
    const [one, two] = await Promise.all([asked, second.call(ask("one question"))]);
    expect(one).toMatchObject({ ok: true, cached: false, value: { echo: "one question" } });
    expect(two).toMatchObject({ ok: true, cached: true, value: { echo: "one question" }, requests: 0 });
    expect(mock.requests).toHaveLength(1);
    // Nothing is left held once the call is recorded.
    expect(await leaseKeys(a)).toEqual([]);
  });

  it("a request whose sender failed is sent by the one that waited", async () => {
    const mock = await startMockLlm({ latencyMs: 100, faults: [{ fault: { kind: "status", status: 400 }, times: 1 }] });
    cleanups.push(() => mock.close());
    const [a, b] = await twoConnections();
    const leasesA = await workerLeases(a);
    const leasesB = await workerLeases(b);
    cleanups.push(
      () => leasesA.close(),
      () => leasesB.close(),
    );
    const first = createLlm({ db: a, config: mockConfig(mock.url), shared: leasesA });
    const second = createLlm({ db: b, config: mockConfig(mock.url), shared: leasesB });

    const asked = first.call(ask("asked twice"));
    await until(() => mock.requests.length === 1, "the first client's request to arrive");
    const [one, two] = await Promise.all([asked, second.call(ask("asked twice"))]);
    expect(one.ok).toBe(false);
    expect(two).toMatchObject({ ok: true, cached: false, value: { echo: "asked twice" } });
    expect(mock.requests).toHaveLength(2);
  });
});
