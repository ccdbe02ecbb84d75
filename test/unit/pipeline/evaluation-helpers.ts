/** Shared set-up for the evaluator tests: the demo study in a temp database, the mock judges, the real client. */
import { seedDemo } from "../../../demo/seed.ts";
import { createLlm } from "../../../app/server/llm/client.server.ts";
import { parseLlmConfig } from "../../../app/server/llm/config.server.ts";
import type { Llm } from "../../../app/domain/llm/types.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { startMockLlm, type MockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { chatRequests } from "./helpers.ts";
import { type EvaluationSabotage, JUDGE_ROLES, standInResponder } from "../../../app/llm-roles/stand-in.ts";

/** Not the demo's "demo-judge": the demo already stores evaluations under that backbone. */
export const JUDGE_MODEL = "mock-judge";
export const BASELINE_MODEL = "mock-baseline";
export const MI_MODEL = "mock-mi";
export const EMOTION_MODEL = "mock-emotion";

export const UNMEDIATED = "demo-transactional-1:general:unmediated";
export const MEDIATED = "demo-transactional-1:general:mediated";
export const PAIR = "demo-transactional-1:general:pair";

export function evaluationConfigJson(url: string, maxRetries = 1): object {
  return {
    endpoints: { mock: { baseUrl: url, maxRetries, timeoutMs: 10_000, concurrency: 6 } },
    roles: {
      evaluator: { endpoint: "mock", model: JUDGE_MODEL, temperature: 0 },
      "baseline-judge": { endpoint: "mock", model: BASELINE_MODEL, temperature: 0 },
      "mi-judge": { endpoint: "mock", model: MI_MODEL, temperature: 0 },
      "emotion-judge": { endpoint: "mock", model: EMOTION_MODEL, temperature: 0 },
    },
  };
}

export function judgeLlm(db: Parameters<typeof createLlm>[0]["db"], mock: MockLlm, maxRetries = 1): Llm {
  return createLlm({
    db,
    config: parseLlmConfig(evaluationConfigJson(mock.url, maxRetries), "test config"),
    sleep: async () => {},
  });
}

export async function evaluationSetup(cleanups: (() => unknown)[], sabotage: EvaluationSabotage = {}, maxRetries = 1) {
  const t = await tempDb();
  cleanups.push(t.cleanup);
  await seedDemo(t.db);
  const mock = await startMockLlm({ respond: standInResponder({ roles: JUDGE_ROLES, sabotage }) });
  cleanups.push(() => mock.close());
  return { ...t, mock, llm: judgeLlm(t.db, mock, maxRetries) };
}

/** The system prompts of the chat requests the mock answered, with their user messages. */
export function prompts(mock: MockLlm): { system: string; user: string }[] {
  return chatRequests(mock).map((r) => ({
    system: r.body.messages
      .filter((m) => m.role === "system")
      .map((m) => m.content)
      .join("\n"),
    user: r.body.messages
      .filter((m) => m.role === "user")
      .map((m) => m.content)
      .join("\n"),
  }));
}
