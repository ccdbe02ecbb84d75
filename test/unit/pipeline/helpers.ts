/** Shared set-up for the simulation tests: the mock endpoint, a configuration naming it, the real client. */
import type { Db } from "../../../app/server/db.server.ts";
import { createLlm } from "../../../app/server/llm/client.server.ts";
import { parseLlmConfig } from "../../../app/server/llm/config.server.ts";
import type { Llm } from "../../../app/domain/llm/types.ts";
import { seedDemo } from "../../../demo/seed.ts";
import {
  startMockLlm,
  type MockLlm,
  type RecordedRequest,
  type Responder,
} from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { SIMULATION_ROLES, standInResponder } from "../../../app/llm-roles/stand-in.ts";

export const PARTY_MODEL = "sim-party";
export const MEDIATOR_MODEL = "sim-mediator";

/** A configuration with distinct models per role, so requests at the mock show who asked. */
export function simulationConfigJson(url: string): object {
  return {
    endpoints: { mock: { baseUrl: url, maxRetries: 2, timeoutMs: 10_000, concurrency: 8 } },
    roles: {
      party: { endpoint: "mock", model: PARTY_MODEL, temperature: 0.7 },
      mediator: { endpoint: "mock", model: "configured-mediator", temperature: 0.2 },
    },
  };
}

export function testLlm(db: Db, mock: MockLlm): Llm {
  return createLlm({
    db,
    config: parseLlmConfig(simulationConfigJson(mock.url), "test config"),
    sleep: async () => {},
  });
}

/**
 * The demo study in a temp database, a stand-in endpoint (the simulation's by default) and the client for it;
 * `cleanups` undoes them.
 */
export async function demoSimulationSetup(
  cleanups: (() => unknown)[],
  respond: Responder = standInResponder({ roles: SIMULATION_ROLES }),
) {
  const t = await tempDb();
  cleanups.push(t.cleanup);
  await seedDemo(t.db);
  const mock = await startMockLlm({ respond });
  cleanups.push(() => mock.close());
  return { ...t, mock, llm: testLlm(t.db, mock) };
}

export interface ChatBody {
  model: string;
  messages: { role: string; content: string }[];
  seed?: number;
}

export function chatRequests(mock: MockLlm): (RecordedRequest & { body: ChatBody })[] {
  return mock.requests.filter(
    (r): r is RecordedRequest & { body: ChatBody } => r.path === "/v1/chat/completions" && typeof r.body === "object",
  );
}

/** Request bodies answered with HTTP 200, as canonical-enough JSON (the SDK writes keys in a stable order). */
export function servedBodies(mock: MockLlm): string[] {
  return chatRequests(mock)
    .filter((r) => r.status === 200)
    .map((r) => JSON.stringify(r.body));
}

export function duplicates(values: string[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const v of values) (seen.has(v) ? twice : seen).add(v);
  return [...twice];
}

/** A run id without its settings-hash suffix: what the run plays and by whom, and its index. */
export function slotOf(runId: string): string {
  return runId.replace(/:[0-9a-f]{10}$/, "");
}
