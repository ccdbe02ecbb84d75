/**
 * The web server under 50 concurrent annotators, over HTTP: the real server (scripts/serve.ts on
 * the production build, its own temporary database), 50 expert accounts on a consensus study
 * with k = 3, and 50 clients that log in and loop next task → item page → (draft) → submit.
 * Prints submits per second, p50/p95/p99 latency per request type and unexpected answers by
 * status (expected: none), then checks in the database that every acknowledged label is stored.
 * With IMPORT_MB set, a `socrates import` of a synthetic bundle that large runs from the fifth
 * second on, and the latency while it runs is printed separately.
 * With ENGINE=postgres the fixture is copied (`db copy`) into a throwaway PostgreSQL database
 * (harness/postgres.ts, or DATABASE_URL's server) and SERVERS app servers (default 2) serve it,
 * the clients spread over them round-robin: several app servers on one database.
 * With PACE=human the annotators arrive over the first 20 s and spend 20–40 s on each item (about
 * two submits per second from 50), as in bench:annotation-http's human phase (DURATION default 90).
 * Figures only, no pass/fail; the exit code is 1 when a label is missing or an answer was an error.
 *
 *   npm run bench:load        (DURATION=30 seconds, ANNOTATORS=50, IMPORT_MB=46; REBUILD=1 rebuilds build-test/ first)
 *   ENGINE=postgres SERVERS=2 npm run bench:load
 *   ENGINE=postgres SERVERS=2 PACE=human npm run bench:load
 */
import { join } from "node:path";
import { startAppServer } from "../harness/app-server.ts";
import { tempDir } from "../harness/temp-db.ts";
import { pgDatabase, startTestServer, type TestServer } from "../harness/postgres.ts";
import { copyDatabaseBetween } from "../app/server/db-copy.server.ts";
import { ensureTestBuild } from "./load-build.ts";
import { latencyReport, LoadRecord, runAnnotatorClient } from "./load-clients.ts";
import { checkStored, prepareLoadDatabase } from "./load-fixture.ts";
import { largeBundleFile, startCliImport } from "./load-import.ts";

const HUMAN = process.env.PACE === "human";
const SECONDS = Number(process.env.DURATION ?? (HUMAN ? 90 : 30));
const ANNOTATORS = Number(process.env.ANNOTATORS ?? 50);
const IMPORT_MB = Number(process.env.IMPORT_MB ?? 0);
const ENGINE = process.env.ENGINE === "postgres" ? "postgres" : "sqlite";
const SERVERS = Number(process.env.SERVERS ?? (ENGINE === "postgres" ? 2 : 1));

let pgServer: TestServer | undefined;
ensureTestBuild();
const tmp = tempDir("socrates-bench-load-");
const dbPath = join(tmp.dir, "load.db");
try {
  // 100 trajectories ≈ 1,500 items × k = 3: more labels than the run can submit.
  const fixture = await prepareLoadDatabase(dbPath, { annotators: ANNOTATORS, trajectories: 100 });
  const bundle = IMPORT_MB > 0 ? largeBundleFile(tmp.dir, IMPORT_MB) : null;
  const database = ENGINE === "postgres" ? await postgresCopyOf(dbPath) : null;
  const target = database?.url ?? dbPath;
  // One secret for every server: a session signed by one is read by another.
  const env = { SESSION_SECRET: "bench-load-shared-session-secret", ...(database ? { DATABASE_URL: target } : {}) };
  const servers = await Promise.all(Array.from({ length: SERVERS }, () => startAppServer({ dbPath, env })));
  const record = new LoadRecord();
  let stopping = false;
  const start = performance.now();
  const timer = setTimeout(() => (stopping = true), SECONDS * 1000);
  const importRun = new Promise<{ startedAt: number; endedAt: number; code: number | null; output: string } | null>(
    (ok) => {
      if (!bundle) return ok(null);
      setTimeout(() => {
        const run = startCliImport(bundle, dbPath);
        void run.done.then((result) => ok({ startedAt: run.startedAt, ...result }));
      }, 5000);
    },
  );
  let imported: Awaited<typeof importRun>;
  try {
    await Promise.all(
      fixture.accounts.map((account, i) =>
        runAnnotatorClient({
          baseUrl: servers[i % servers.length].url,
          studyId: fixture.studyId,
          account,
          label: fixture.label,
          stop: () => stopping,
          draftEvery: 5,
          record,
          ...(HUMAN ? { thinkMs: () => 20_000 + Math.random() * 20_000, arriveWithinMs: 20_000 } : {}),
        }),
      ),
    );
    imported = await importRun;
  } finally {
    clearTimeout(timer);
    await Promise.all(servers.map((s) => s.stop()));
  }
  const elapsed = (performance.now() - start) / 1000;
  const stored = await checkStored(target, fixture.studyId, record.acknowledged);
  await database?.drop();
  const errors = record.samples.filter((s) => !s.ok).length;
  console.log(
    `Web server under load: ${ANNOTATORS} annotators${HUMAN ? " at human pace" : ""} over HTTP for ${elapsed.toFixed(1)} s (${fixture.items} items, k = 3); ` +
      `${SERVERS} server(s) on ${ENGINE === "postgres" ? "one PostgreSQL database" : "one SQLite file"}`,
  );
  console.log(`  submits acknowledged  ${record.acknowledged.length}`);
  console.log(`  submits per second    ${(record.acknowledged.length / elapsed).toFixed(1)}`);
  console.log(`  requests              ${record.samples.length}`);
  console.log(latencyReport(record.samples));
  console.log(
    `  stored in database    ${stored.acknowledged - stored.missing.length} of ${stored.acknowledged} acknowledged labels; items past k: ${stored.overK}`,
  );
  if (imported) {
    const during = record.samples.filter((x) => x.at >= imported.startedAt && x.at <= imported.endedAt);
    console.log(
      `While \`socrates import\` of a ${IMPORT_MB} MB bundle ran (${((imported.endedAt - imported.startedAt) / 1000).toFixed(1)} s, exit ${imported.code}):`,
    );
    console.log(latencyReport(during));
    if (imported.code !== 0) console.log(imported.output);
  }
  for (const f of record.failures) console.log(`  ! ${f}`);
  if (stored.missing.length > 0 || stored.overK > 0 || errors > 0) process.exitCode = 1;
} finally {
  tmp.cleanup();
  pgServer?.stop();
}

/** A PostgreSQL database holding a copy of the fixture (on DATABASE_URL's server, or a throwaway one). */
async function postgresCopyOf(sqlitePath: string): Promise<{ url: string; drop: () => Promise<void> }> {
  pgServer ??= startTestServer();
  process.env.SOCRATES_TEST_PG = pgServer.url;
  const database = await pgDatabase();
  await copyDatabaseBetween(`sqlite:${sqlitePath}`, database.url);
  return database;
}
