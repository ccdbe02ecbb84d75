/**
 * The /runs page at benchmark scale: the synthetic database of bench/db-scale.ts (40 scenarios × 15
 * conditions × 9 mediator settings = 5,400 runs of 30 turns, each evaluated twice), then the page's
 * data for the first page, a filtered page (one mediator, searched) and a late page (page 100 of 108):
 *   (a) in process: what the loader queries (the total, the page, the filter choices);
 *   (b) over HTTP against the real server (build-test/), as an admin: the document and `.data`
 *       (client navigation) requests.
 * Prints median and p95 in ms beside the target (under 200 ms). Figures only, no pass/fail.
 *
 *   npm run bench:runs    (N=30 requests per page, SCALE=0.1 for a quick look, HTTP=0 to skip (b),
 *                          REBUILD=1 rebuilds build-test/ first)
 */
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseConditionKey, RUN_PAGE_SIZE } from "../app/domain/run-list.ts";
import { createAccount } from "../app/server/annotation/accounts.server.ts";
import { importBundleFiles } from "../app/server/bundle-store.server.ts";
import { countRuns, runFacets, runsPage, type RunListFilter } from "../app/server/catalog.server.ts";
import { openDatabase, type Db } from "../app/server/db.server.ts";
import { closeDatabase } from "../app/server/db-transaction.server.ts";
import { startAppServer } from "../harness/app-server.ts";
import { loginCookie } from "../harness/login.ts";
import { tempDir } from "../harness/temp-db.ts";
import { buildApp, ROOT, TEST_BUILD_DIR } from "../harness/test-build.ts";
import { percentile } from "./load-clients.ts";
import { syntheticBundle } from "./synthetic-bundle.ts";

const N = Number(process.env.N ?? 30);
const SCALE = Number(process.env.SCALE ?? 1);
const SCENARIOS = Math.max(1, Math.round(40 * SCALE));
const ADMIN = { username: "bench-admin", password: "bench-admin-Kx7q!pass" };
const TARGET = "target: < 200 ms";

/** The three pages: their query strings and the loader's filter and page for each. */
function pages(total: number): { name: string; search: string; filter: RunListFilter; page: number }[] {
  const late = Math.max(1, Math.ceil(total / RUN_PAGE_SIZE) - 8);
  return [
    { name: "first page", search: "", filter: {}, page: 1 },
    {
      name: "filtered (mediator, condition, word)",
      search: "?q=bench&cond=emotion:CC&mediator=m3",
      filter: { text: "bench", condition: parseConditionKey("emotion:CC"), mediator: "m3" },
      page: 1,
    },
    { name: `late page (${late})`, search: `?page=${late}`, filter: {}, page: late },
  ];
}

async function times(n: number, run: () => unknown): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await run();
    out.push(performance.now() - start);
  }
  return out;
}

const ms = (x: number) => x.toFixed(1).padStart(7);
function line(name: string, values: number[]): string {
  const figures = `median ${ms(percentile(values, 50))} p95 ${ms(percentile(values, 95))} ms`;
  return `  ${name.padEnd(50)} n=${String(values.length).padStart(3)} ${figures}   (${TARGET})`;
}

async function inProcess(db: Db): Promise<void> {
  const total = await countRuns(db);
  console.log(`(a) in process — the loader's queries over ${total.toLocaleString("en")} runs`);
  for (const p of pages(total)) {
    const values = await times(N, async () => {
      await runsPage(db, p.filter, p.page, RUN_PAGE_SIZE);
      await runFacets(db);
    });
    console.log(line(p.name, values));
  }
}

async function overHttp(dbPath: string, total: number): Promise<void> {
  const server = await startAppServer({ dbPath });
  try {
    const cookie = await loginCookie(server.url, ADMIN);
    console.log("(b) over HTTP (the built app, logged in as an admin)");
    for (const p of pages(total)) {
      for (const kind of ["document", ".data"] as const) {
        const path = kind === "document" ? `/runs${p.search}` : `/runs.data${p.search}`;
        const get = async () => {
          const res = await fetch(server.url + path, { headers: { cookie } });
          if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
          await res.arrayBuffer();
        };
        await get(); // warm: the first request compiles the route's module
        console.log(line(`${p.name}, ${kind}`, await times(N, get)));
      }
    }
  } finally {
    await server.stop();
  }
}

const tmp = tempDir("socrates-bench-runs-");
try {
  const dbPath = join(tmp.dir, "runs.db");
  const db = await openDatabase(dbPath);
  await importBundleFiles(db, [{ file: "synthetic.json", text: JSON.stringify(syntheticBundle(SCENARIOS)) }]);
  await createAccount(db, { ...ADMIN, displayName: "Bench admin", role: "admin" });
  console.log(`/runs at scale (${SCENARIOS} synthetic scenarios, ${RUN_PAGE_SIZE} runs a page)`);
  // Wall-clock figures: on a shared machine they read high when the load is.
  console.log(
    `load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}`,
  );
  await inProcess(db);
  const total = await countRuns(db);
  await closeDatabase(db);
  if (process.env.HTTP !== "0") {
    if (!existsSync(join(ROOT, TEST_BUILD_DIR, "server/index.js")) || process.env.REBUILD === "1") buildApp();
    await overHttp(dbPath, total);
  }
} finally {
  tmp.cleanup();
}
