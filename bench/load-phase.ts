/**
 * One timed run of HTTP annotator clients against the real server on a prepared database: start
 * the server, run a client per account until the time is up, stop, and check in the database that
 * every acknowledged label is stored and no item is past k. Used by bench:annotation-http.
 */
import { startAppServer } from "../harness/app-server.ts";
import { LoadRecord, runAnnotatorClient, type ClientOptions } from "./load-clients.ts";
import { checkStored, type LoadFixture, type StoredCheck } from "./load-fixture.ts";
import { listenerPid, processCpuMs } from "./server-cpu.ts";

export interface PhaseResult {
  record: LoadRecord;
  seconds: number;
  stored: StoredCheck;
  /** Requests the clients did not expect (any error status, no answer, a wrong redirect). */
  errors: number;
  /**
   * CPU time (user + system, ms) the server process spent in the phase, or null where it cannot be read (no `ss`
   * or /proc): unlike throughput, it hardly depends on what else shares the machine.
   */
  serverCpuMs: number | null;
  /** CPU time of this process (the clients) in the phase, ms. */
  clientCpuMs: number;
  /**
   * The server's CPU and the acknowledged submits after the phase's first quarter, when the logins (a deliberate
   * scrypt each) and first page loads are over: the steady state's cost per submit. Null where CPU cannot be read.
   */
  steady: { serverCpuMs: number; acknowledged: number } | null;
}

export interface PhaseOptions extends Pick<ClientOptions, "mode" | "thinkMs" | "draftEvery" | "arriveWithinMs"> {
  dbPath: string;
  fixture: LoadFixture;
  seconds: number;
  /** Extra environment for the server process (e.g. NODE_OPTIONS=--cpu-prof). */
  serverEnv?: Record<string, string>;
}

function steadyState(
  quarter: { cpu: number | null; acknowledged: number } | null,
  cpuAtEnd: number | null,
  acknowledgedAtEnd: number,
): PhaseResult["steady"] {
  if (quarter?.cpu == null || cpuAtEnd === null) return null;
  return { serverCpuMs: cpuAtEnd - quarter.cpu, acknowledged: acknowledgedAtEnd - quarter.acknowledged };
}

export async function runLoadPhase(o: PhaseOptions): Promise<PhaseResult> {
  const server = await startAppServer({ dbPath: o.dbPath, env: o.serverEnv });
  const record = new LoadRecord();
  let stopping = false;
  const pid = listenerPid(new URL(server.url).port);
  const serverCpuAtStart = processCpuMs(pid);
  let serverCpuAtEnd: number | null = null;
  const clientCpuAtStart = process.cpuUsage();
  const start = performance.now();
  const timer = setTimeout(() => (stopping = true), o.seconds * 1000);
  let quarter: { cpu: number | null; acknowledged: number } | null = null;
  const quarterTimer = setTimeout(
    () => (quarter = { cpu: processCpuMs(pid), acknowledged: record.acknowledged.length }),
    o.seconds * 250,
  );
  try {
    await Promise.all(
      o.fixture.accounts.map((account) =>
        runAnnotatorClient({
          baseUrl: server.url,
          studyId: o.fixture.studyId,
          account,
          label: o.fixture.label,
          stop: () => stopping,
          draftEvery: o.draftEvery,
          record,
          mode: o.mode,
          thinkMs: o.thinkMs,
          arriveWithinMs: o.arriveWithinMs,
        }),
      ),
    );
    serverCpuAtEnd = processCpuMs(pid);
  } finally {
    clearTimeout(timer);
    clearTimeout(quarterTimer);
    await server.stop();
  }
  const seconds = (performance.now() - start) / 1000;
  const clientCpu = process.cpuUsage(clientCpuAtStart);
  return {
    record,
    seconds,
    stored: await checkStored(o.dbPath, o.fixture.studyId, record.acknowledged),
    errors: record.samples.filter((s) => !s.ok).length,
    serverCpuMs: serverCpuAtStart === null || serverCpuAtEnd === null ? null : serverCpuAtEnd - serverCpuAtStart,
    clientCpuMs: (clientCpu.user + clientCpu.system) / 1000,
    steady: steadyState(quarter, serverCpuAtEnd, record.acknowledged.length),
  };
}
