/**
 * The study dashboard at scale, uncached against cached: a consensus study of 100 trajectories
 * (about 1,300 snippets × 4 topics ≈ 5,200 alpha units) labelled k = 3 by 30 experts, then
 *   (a) in process: the uncached page data (alpha at two levels with their 1,000-draw bootstraps,
 *       alignment, trend and its SVG, gold, channels) against N cached calls;
 *   (b) over HTTP against the real server (build-test/): the first request, then N document and
 *       N `.data` (client navigation) requests, once with the cache off
 *       (SOCRATES_DASHBOARD_CACHE=off, the "before") and once on.
 * Prints p50/p95/p99 in ms beside the target (p95 < 30 ms cached), and over HTTP the server's CPU
 * per request. Figures only, no pass/fail.
 *
 *   npm run bench:dashboard     (N=200 cached requests, UNCACHED=10 requests with the cache off,
 *                                WARMUP=20 documents and .data requests first, cache on, printed but not counted,
 *                                SCALE=1 for 100 trajectories, HTTP=0 to skip (b),
 *                                REBUILD=1 rebuilds build-test/ first; it is rebuilt anyway when
 *                                app/ or db/ changed since, bench/load-build.ts;
 *                                PROFILE=dir: the server writes a CPU profile per phase into dir/cache-<off|on>/)
 */
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { dashboardPage, freshPage } from "../app/server/annotation/dashboard-cache.server.ts";
import { openDatabase } from "../app/server/db.server.ts";
import { closeDatabase } from "../app/server/db-transaction.server.ts";
import { ADMIN, EXPERTS, K, prepareDashboardStudy } from "./study-fixture.ts";
import { startAppServer } from "../harness/app-server.ts";
import { loginCookie } from "../harness/login.ts";
import { tempDir } from "../harness/temp-db.ts";
import { ensureTestBuild } from "./load-build.ts";
import { listenerPid, processCpuMs } from "./server-cpu.ts";
import { percentile } from "./load-clients.ts";

const N = Number(process.env.N ?? 200);
const UNCACHED = Number(process.env.UNCACHED ?? 10);
const WARMUP = Number(process.env.WARMUP ?? 20);
const SCALE = Number(process.env.SCALE ?? 1);
const TRAJECTORIES = Math.max(2, Math.round(100 * SCALE));
const TARGET = "target: p95 < 30 ms cached";
const PROFILE = process.env.PROFILE ? resolve(process.env.PROFILE) : null;
const PROFILE_HOOK = pathToFileURL(resolve(import.meta.dirname, "load-cpu-profile.mjs")).href;

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

async function times(n: number, run: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await timed(run));
  return out;
}

const ms = (x: number) => x.toFixed(1).padStart(8);
function line(name: string, values: number[]): string {
  return `  ${name.padEnd(34)} n=${String(values.length).padStart(4)} p50 ${ms(percentile(values, 50))} p95 ${ms(percentile(values, 95))} p99 ${ms(percentile(values, 99))} ms`;
}

async function inProcess(dbPath: string, studyId: number): Promise<void> {
  const db = await openDatabase(dbPath);
  try {
    const options = { excludeFlagged: false, reference: null };
    const page = await freshPage(db, studyId, options);
    const { agreement } = page.view;
    console.log(`(a) in process — alpha ${agreement.units} units × ${agreement.raters} raters`);
    console.log(
      line(
        "uncached page data (+ charts)",
        await times(UNCACHED, async () => await (await freshPage(db, studyId, options)).charts),
      ),
    );
    console.log(
      line("first cached call (computes)", [
        await timed(async () => await (await dashboardPage(db, studyId, options)).charts),
      ]),
    );
    console.log(
      `${line("cached calls", await times(N, async () => await (await dashboardPage(db, studyId, options)).charts))}   (${TARGET})`,
    );
  } finally {
    await closeDatabase(db);
  }
}

async function overHttp(dbPath: string, studyId: number, cache: "on" | "off"): Promise<void> {
  const profile: Record<string, string> = PROFILE
    ? { NODE_OPTIONS: `--import=${PROFILE_HOOK}`, SOCRATES_CPU_PROFILE_DIR: join(PROFILE, `cache-${cache}`) }
    : {};
  const server = await startAppServer({ dbPath, env: { SOCRATES_DASHBOARD_CACHE: cache, ...profile } });
  try {
    const cookie = await loginCookie(server.url, ADMIN);
    const bytes: Record<string, number> = {};
    const get = (path: string) => async () => {
      const res = await fetch(server.url + path, { headers: { cookie } });
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
      bytes[path] = (await res.arrayBuffer()).byteLength;
    };
    const size = (path: string) => `; ${((bytes[path] ?? 0) / 1000).toFixed(0)} kB`;
    const n = cache === "on" ? N : UNCACHED;
    // The server's CPU per request beside the latencies: it depends far less on what else runs on the machine.
    const pid = listenerPid(new URL(server.url).port);
    const withCpu = async (run: () => Promise<number[]>) => {
      const before = processCpuMs(pid);
      const values = await run();
      const after = processCpuMs(pid);
      const cpu =
        before === null || after === null
          ? ""
          : `; server CPU ${((after - before) / values.length).toFixed(1)} ms per request`;
      return { values, cpu };
    };
    console.log(`(b) over HTTP, cache ${cache}`);
    console.log(line("first document request", [await timed(get(`/admin/studies/${studyId}`))]));
    if (cache === "on" && WARMUP > 0) {
      // A server just started compiles the page's code on its first requests (V8's JIT): printed, not counted, so the
      // figures below are those of a server that has been running, as a real one has.
      const warm = await times(WARMUP, get(`/admin/studies/${studyId}`));
      await times(WARMUP, get(`/admin/studies/${studyId}.data`));
      console.log(`${line(`warm-up (${WARMUP} documents, not counted)`, warm)}`);
    }
    const docs = await withCpu(() => times(n, get(`/admin/studies/${studyId}`)));
    const doc = `/admin/studies/${studyId}`;
    console.log(
      `${line("document requests", docs.values)}${cache === "on" ? `   (${TARGET})` : ""}${docs.cpu}${size(doc)}`,
    );
    const data = await withCpu(() => times(n, get(`/admin/studies/${studyId}.data`)));
    console.log(
      `${line(".data requests", data.values)}${cache === "on" ? `   (${TARGET})` : ""}${data.cpu}${size(`${doc}.data`)}`,
    );
  } finally {
    await server.stop();
  }
  if (PROFILE) await profileWritten(join(PROFILE, `cache-${cache}`));
}

/** Waits (up to 30 s) for the stopped server's profile in `dir`, and says where it is. */
async function profileWritten(dir: string): Promise<void> {
  for (let waited = 0; waited < 30_000; waited += 100) {
    const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".cpuprofile")) : [];
    if (files.length > 0) return console.log(`  CPU profile: ${files.map((f) => join(dir, f)).join(", ")}`);
    await new Promise((ok) => setTimeout(ok, 100));
  }
  console.log(`  no CPU profile in ${dir} after 30 s`);
}

const tmp = tempDir("socrates-bench-dashboard-");
try {
  const dbPath = join(tmp.dir, "dashboard.db");
  const db = await openDatabase(dbPath);
  const studyId = await prepareDashboardStudy(db, TRAJECTORIES);
  await closeDatabase(db);
  console.log(`Study dashboard at scale (${TRAJECTORIES} trajectories, ${EXPERTS} experts, k = ${K})`);
  await inProcess(dbPath, studyId);
  if (process.env.HTTP !== "0") {
    ensureTestBuild();
    await overHttp(dbPath, studyId, "off");
    await overHttp(dbPath, studyId, "on");
  }
} finally {
  tmp.cleanup();
}
