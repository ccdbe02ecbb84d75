/**
 * One timed run of HTTP annotator clients against the real server on a prepared database: start
 * the server, run a client per account until the time is up, stop, and check in the database that
 * every acknowledged label is stored and no item is past k. Used by bench:annotation-http.
 */
import { startAppServer } from "../harness/app-server.ts";
import { LoadRecord, runAnnotatorClient, type ClientOptions } from "./load-clients.ts";
import { checkStored, type LoadFixture, type StoredCheck } from "./load-fixture.ts";

export interface PhaseResult {
  record: LoadRecord;
  seconds: number;
  stored: StoredCheck;
  /** Requests the clients did not expect (any error status, no answer, a wrong redirect). */
  errors: number;
}

export interface PhaseOptions extends Pick<ClientOptions, "mode" | "thinkMs" | "draftEvery" | "arriveWithinMs"> {
  dbPath: string;
  fixture: LoadFixture;
  seconds: number;
  /** Extra environment for the server process (e.g. NODE_OPTIONS=--cpu-prof). */
  serverEnv?: Record<string, string>;
}

export async function runLoadPhase(o: PhaseOptions): Promise<PhaseResult> {
  const server = await startAppServer({ dbPath: o.dbPath, env: o.serverEnv });
  const record = new LoadRecord();
  let stopping = false;
  const start = performance.now();
  const timer = setTimeout(() => (stopping = true), o.seconds * 1000);
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
  } finally {
    clearTimeout(timer);
    await server.stop();
  }
  const seconds = (performance.now() - start) / 1000;
  return {
    record,
    seconds,
    stored: checkStored(o.dbPath, o.fixture.studyId, record.acknowledged),
    errors: record.samples.filter((s) => !s.ok).length,
  };
}
