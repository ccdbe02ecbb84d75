/**
 * A CLI import never stalls the site (issue 12, attack 5): `socrates import` of a bundle over
 * 30 MB runs in its own process, holding SQLite's write lock for seconds, while 20 annotators
 * submit labels to the real server over HTTP (and three more log in and out, which writes session
 * rows once sessions are stored server-side). No request may answer 500, and every label the
 * server acknowledged must be in the database afterwards. The latency while the import ran is
 * printed (figures only; timings are never asserted).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import {
  latencyReport,
  LoadRecord,
  percentile,
  runAnnotatorClient,
  runSessionClient,
} from "../../bench/load-clients.ts";
import { checkStored, prepareLoadDatabase, type LoadFixture } from "../../bench/load-fixture.ts";
import { largeBundleFile, startCliImport } from "../../bench/load-import.ts";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { tableCounts, tempDir } from "../../harness/temp-db.ts";
import { openDatabase } from "../../app/server/db.server.ts";

const ANNOTATORS = 20;
/** Accounts that only log in and out during the import (session rows written and deleted). */
const SESSION_CLIENTS = 3;
const BUNDLE_MB = 30;

let tmp: ReturnType<typeof tempDir>;
let dbPath: string;
let fixture: LoadFixture;
let server: AppServer;
let bundle: string;

beforeAll(async () => {
  tmp = tempDir("socrates-import-load-");
  dbPath = join(tmp.dir, "app.db");
  fixture = await prepareLoadDatabase(dbPath, { annotators: ANNOTATORS + SESSION_CLIENTS, trajectories: 40 });
  bundle = largeBundleFile(tmp.dir, BUNDLE_MB);
  server = await startAppServer({ dbPath });
});

afterAll(async () => {
  await server?.stop();
  tmp?.cleanup();
});

describe("a large CLI import while annotators submit", () => {
  it("answers no request with 500 and stores every acknowledged label", { timeout: 180_000 }, async () => {
    const record = new LoadRecord();
    let importDone = false;
    const clients = fixture.accounts.slice(0, ANNOTATORS).map((account) =>
      runAnnotatorClient({
        baseUrl: server.url,
        studyId: fixture.studyId,
        account,
        label: fixture.label,
        stop: () => importDone,
        draftEvery: 4,
        record,
      }),
    );
    // Let the clients log in and get going before the import takes the lock (a client that fails ends the wait).
    const warmedUp = async () => {
      while (record.acknowledged.length < ANNOTATORS) await new Promise((ok) => setTimeout(ok, 50));
    };
    await Promise.race([warmedUp(), Promise.all(clients)]);
    const run = startCliImport(bundle, dbPath);
    const sessions = fixture.accounts
      .slice(ANNOTATORS)
      .map((account) => runSessionClient({ baseUrl: server.url, account, stop: () => importDone, record }));
    const imported = await run.done;
    importDone = true;
    await Promise.all([...clients, ...sessions]);

    expect(imported.code, imported.output).toBe(0);
    const during = record.samples.filter((s) => s.at >= run.startedAt && s.at <= imported.endedAt);
    const p95 = (kinds: string[]) =>
      percentile(
        during.filter((s) => kinds.includes(s.kind)).map((s) => s.ms),
        95,
      ).toFixed(0);
    console.log(
      `Import of a ${BUNDLE_MB}+ MB bundle took ${((imported.endedAt - run.startedAt) / 1000).toFixed(1)} s; ${during.length} requests during it. ` +
        `p95 of the annotators' requests ${p95(["next", "item", "draft", "submit"])} ms (submits ${p95(["submit"])} ms, item pages ${p95(["item"])} ms)\n${latencyReport(during)}`,
    );

    // Requests really ran while the import held the lock, and none failed.
    expect(during.some((s) => s.kind === "submit")).toBe(true);
    expect(during.some((s) => s.kind === "login")).toBe(true);
    expect(
      record.samples.filter((s) => s.status === 500),
      record.failures.join("\n"),
    ).toEqual([]);
    // Anything else unexpected either (a 503 "busy, retry" is allowed: the client resends).
    expect(
      record.samples.filter((s) => !s.ok && s.status !== 503),
      record.failures.join("\n"),
    ).toEqual([]);

    const stored = await checkStored(dbPath, fixture.studyId, record.acknowledged);
    expect(stored.missing).toEqual([]);
    expect(stored.overK).toBe(0);
    // The import itself landed whole.
    const db = await openDatabase(dbPath);
    try {
      expect((await tableCounts(db)).scenarios).toBeGreaterThanOrEqual(1 + Math.ceil(BUNDLE_MB / 3.8));
    } finally {
      db.$client.close();
    }
  });
});
