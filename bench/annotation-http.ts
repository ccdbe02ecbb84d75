/**
 * The submit path over HTTP: 50 annotators against the real server (scripts/serve.ts on the
 * production build, its own temporary database: a consensus study with k = 3 and more items
 * than a run can fill), in two phases —
 *   - flat out: every annotator submits, takes the next item and submits again without pause;
 *   - human pace: annotators arrive over the first 20 s and spend 20–40 s (uniformly at random) on each item.
 * Each phase starts a fresh server on a fresh copy of the database. The clients send what
 * Chromium sends once the app runs (single-fetch `.data` requests; bench/load-browser-cycle.ts
 * records it) or, in document mode, full page loads as without
 * JavaScript (as bench:load does). Prints submits per second, p50/p95/p99 per request type,
 * unexpected answers (target: none) and the check that every acknowledged label is stored, with
 * the targets beside the figures. Before the phases it runs bench:annotation's in-process allocate + submit
 * measurement (measureInProcess) on this machine, and prints each flat-out figure as a ratio to it; then the
 * route's own work in process (bench/route-work.ts), which splits the server's CPU per submit into the services'
 * part and the HTTP stack's.
 * Figures only, no pass/fail; the exit code is 1 when a label is missing, an item is past k or an
 * answer was an error.
 *
 *   npm run bench:annotation-http
 *     MODE=both|browser|document   (both: flat out in each mode, human pace with the browser client)
 *     ANNOTATORS=50  FLAT_SECONDS=20  HUMAN_SECONDS=90  TRAJECTORIES=300  REBUILD=1 (rebuild build-test/)
 *     FLOOR_SECONDS=8  (the HTTP stack's floor, bench/load-floor.ts: 0 skips it)
 *     IN_PROCESS_TRAJECTORIES=100 (the in-process study's size, bench:annotation's SCALE=1)
 *     PROFILE=dir    (the server writes a CPU profile of each phase into dir/<phase>-<mode>/;
 *     bench/load-cpu-profile.mjs)
 */
import { copyFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { tempDir } from "../harness/temp-db.ts";
import { measureInProcessFresh } from "./annotation.ts";
import { hashPassword, verifyPassword } from "../app/server/auth/password.server.ts";
import { latencyReport, percentile, type ClientMode, type RequestKind } from "./load-clients.ts";
import { ensureTestBuild } from "./load-build.ts";
import { measureFloor } from "./load-floor.ts";
import { prepareLoadDatabase, type LoadFixture } from "./load-fixture.ts";
import { measureRouteWork } from "./route-work.ts";
import { runLoadPhase, type PhaseResult } from "./load-phase.ts";

const MODE = process.env.MODE ?? "both";
const ANNOTATORS = Number(process.env.ANNOTATORS ?? 50);
const FLAT_SECONDS = Number(process.env.FLAT_SECONDS ?? 20);
const HUMAN_SECONDS = Number(process.env.HUMAN_SECONDS ?? 90);
const FLOOR_SECONDS = Number(process.env.FLOOR_SECONDS ?? 8);
const TRAJECTORIES = Number(process.env.TRAJECTORIES ?? 300);
/** bench:annotation's default study (SCALE=1): 100 trajectories. */
const IN_PROCESS_TRAJECTORIES = Number(process.env.IN_PROCESS_TRAJECTORIES ?? 100);
const PROFILE = process.env.PROFILE ? resolve(process.env.PROFILE) : null;
const PROFILE_HOOK = pathToFileURL(resolve(import.meta.dirname, "load-cpu-profile.mjs")).href;
if (!["both", "browser", "document"].includes(MODE)) {
  console.error(`MODE must be both, browser or document, got "${MODE}"`);
  process.exit(2);
}
const modes: ClientMode[] = MODE === "both" ? ["browser", "document"] : [MODE as ClientMode];

/** The requests of an annotation cycle (not the logins before it). */
const CYCLE: RequestKind[] = ["next", "item", "draft", "submit"];
const DESCRIBE: Record<ClientMode, string> = {
  browser: "browser client (single-fetch .data requests)",
  document: "document client (full page loads, no JavaScript)",
};

function report(
  title: string,
  r: PhaseResult,
  fixture: LoadFixture,
  targets: string[],
  inProcessPerSecond?: number,
  routeMsPerSubmit?: number,
): void {
  console.log(`\n${title}: ${ANNOTATORS} annotators for ${r.seconds.toFixed(1)} s (${fixture.items} items, k = 3)`);
  console.log(`  submits acknowledged  ${r.record.acknowledged.length}`);
  const perSecond = r.record.acknowledged.length / r.seconds;
  const ratio =
    inProcessPerSecond === undefined
      ? ""
      : `   flat out / in process ${(perSecond / inProcessPerSecond).toFixed(3)}× (target ≥ 0.4×)`;
  console.log(`  submits per second    ${perSecond.toFixed(1)}${ratio}`);
  const acknowledged = r.record.acknowledged.length;
  if (r.serverCpuMs !== null && acknowledged > 0)
    console.log(
      `  CPU per submit        server ${(r.serverCpuMs / acknowledged).toFixed(2)} ms, clients ${(r.clientCpuMs / acknowledged).toFixed(2)} ms ` +
        `(server busy ${((100 * r.serverCpuMs) / (1000 * r.seconds)).toFixed(0)}% of one core; whole phase, logins included)`,
    );
  if (r.steady && r.steady.acknowledged > 0) {
    const perSubmit = r.steady.serverCpuMs / r.steady.acknowledged;
    // In units of the in-process label time of this run, the figure hardly depends on how fast the machine runs today.
    const inLabels =
      inProcessPerSecond === undefined
        ? ""
        : ` = ${((perSubmit * inProcessPerSecond) / 1000).toFixed(1)}× the in-process allocate + submit time ` +
          "(0.4× flat out needs ≤ 2.5× with a core to the server alone)";
    console.log(
      `  server CPU per submit after the first quarter (logins and first pages done)  ${perSubmit.toFixed(2)} ms${inLabels}`,
    );
    if (routeMsPerSubmit !== undefined)
      console.log(
        `  … of which the services' part (the route's work in process, above) ${routeMsPerSubmit.toFixed(2)} ms; ` +
          `the rest, ${(perSubmit - routeMsPerSubmit).toFixed(2)} ms, is the HTTP stack's (requests, rendering) and the drafts' (one every fifth item)`,
      );
  }
  console.log(latencyReport(r.record.samples));
  const cycle = r.record.samples.filter((s) => CYCLE.includes(s.kind)).map((s) => s.ms);
  console.log(`  p95 over all cycle requests  ${percentile(cycle, 95).toFixed(1)} ms`);
  console.log(`  errors                ${r.errors}   (target 0)`);
  console.log(
    `  stored in database    ${r.stored.acknowledged - r.stored.missing.length} of ${r.stored.acknowledged} acknowledged labels; items past k: ${r.stored.overK}`,
  );
  for (const t of targets) console.log(`  target: ${t}`);
  for (const f of r.record.failures) console.log(`  ! ${f}`);
  if (r.stored.missing.length > 0 || r.stored.overK > 0 || r.errors > 0) process.exitCode = 1;
}

/**
 * A login's floor: one scrypt check of a stored password (the production cost, N = 16384, r = 8) in this process,
 * median of 9, printed beside the login figures: it is the price of the password hash, not of the server.
 */
async function passwordCheckCost(): Promise<string> {
  const stored = await hashPassword("bench-password-check");
  const ms: number[] = [];
  for (let i = 0; i < 9; i++) {
    const t = performance.now();
    await verifyPassword("bench-password-check", stored);
    ms.push(performance.now() - t);
  }
  return `  a login's password check alone (scrypt ${stored.split("$").slice(1, 4).join("/")}, median of 9 here): ${percentile(ms, 50).toFixed(1)} ms`;
}

ensureTestBuild();
const tmp = tempDir("socrates-bench-annotation-http-");
try {
  const fixturePath = join(tmp.dir, "fixture.db");
  const fixture = await prepareLoadDatabase(fixturePath, { annotators: ANNOTATORS, trajectories: TRAJECTORIES });
  console.log(
    `Submit path over HTTP (load average at start: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}; the clients share the machine with the server)`,
  );
  // The in-process figure of this run, on this machine: what the HTTP path is measured against.
  const inProcess = await measureInProcessFresh(IN_PROCESS_TRAJECTORIES);
  const perLabel = (s: number) => ((1000 * s) / inProcess.submitted).toFixed(3);
  console.log(
    `\nIn process (bench:annotation's allocate + submit, ${inProcess.items} items, ${inProcess.submitted} labels): ` +
      `${inProcess.labelsPerSecond.toFixed(0)} labels/s (allocate ${perLabel(inProcess.allocateSeconds)} ms, ` +
      `submit ${perLabel(inProcess.submitSeconds)} ms per label)`,
  );
  const route = await measureRouteWork(IN_PROCESS_TRAJECTORIES);
  console.log(
    `The route's work in process (a browser's submit without HTTP: label, next step and next page in one locked ` +
      `transaction; bench/route-work.ts): ${route.msPerSubmit.toFixed(3)} ms per submit ` +
      `(${(1000 / route.msPerSubmit).toFixed(0)}/s, ${((route.msPerSubmit * inProcess.labelsPerSecond) / 1000).toFixed(2)}× ` +
      "the allocate + submit time)",
  );
  const phase = async (
    name: string,
    mode: ClientMode,
    seconds: number,
    thinkMs?: () => number,
    arriveWithinMs?: number,
  ) => {
    const dbPath = join(tmp.dir, `${name}-${mode}.db`);
    copyFileSync(fixturePath, dbPath);
    const serverEnv = PROFILE
      ? { NODE_OPTIONS: `--import=${PROFILE_HOOK}`, SOCRATES_CPU_PROFILE_DIR: join(PROFILE, `${name}-${mode}`) }
      : undefined;
    return runLoadPhase({ dbPath, fixture, seconds, mode, thinkMs, arriveWithinMs, draftEvery: 5, serverEnv });
  };
  if (FLOOR_SECONDS > 0) {
    const dbPath = join(tmp.dir, "floor.db");
    copyFileSync(fixturePath, dbPath);
    console.log(`\nThe stack's floor: ${ANNOTATORS} signed-in clients repeat one request for ${FLOOR_SECONDS} s`);
    for (const f of await measureFloor(dbPath, fixture, FLOOR_SECONDS)) {
      const cpu = f.serverCpuMs === null ? "" : `, server CPU ${f.serverCpuMs.toFixed(2)} ms per request`;
      console.log(`  ${f.label.padEnd(36)} ${(f.requests / f.seconds).toFixed(0).padStart(6)} requests/s${cpu}`);
    }
  }
  for (const mode of modes) {
    const r = await phase("flat", mode, FLAT_SECONDS);
    const targets = ["≥ 0.4× the in-process figure of this run, 0 errors"];
    report(`Flat out, ${DESCRIBE[mode]}`, r, fixture, targets, inProcess.labelsPerSecond, route.msPerSubmit);
  }
  if (HUMAN_SECONDS > 0) {
    // People arrive over the first 20 s rather than all in one instant (50 password checks at once would be a login
    // storm, not this workload).
    const r = await phase("human", modes[0], HUMAN_SECONDS, () => 20_000 + Math.random() * 20_000, 20_000);
    report(`Human pace (one submit per 20–40 s each), ${DESCRIBE[modes[0]]}`, r, fixture, [
      "p95 < 50 ms per request type, 0 errors",
    ]);
    console.log(await passwordCheckCost());
  }
} finally {
  tmp.cleanup();
}
