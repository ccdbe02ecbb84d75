/** An LLM configuration pointing every role at one mock server, for tests and benchmarks. */
import { parseLlmConfig, type EndpointConfig, type LlmConfig } from "../config.server.ts";
import { LLM_ROLES, type LlmRole } from "../../../domain/llm/types.ts";

export interface MockConfigOptions {
  endpoint?: Partial<EndpointConfig>;
  model?: string;
  /** Extra settings of some roles, e.g. `{ writer: { structuredOutput: true } }`. */
  roles?: Partial<Record<LlmRole, Record<string, unknown>>>;
  prices?: Record<string, { inputPerMillion: number; outputPerMillion: number }>;
}

/** The JSON a user would write, so it goes through the same validation as a real file. */
export function mockConfigJson(url: string, options: MockConfigOptions = {}): Record<string, unknown> {
  return {
    endpoints: { mock: { baseUrl: url, ...options.endpoint } },
    roles: Object.fromEntries(
      LLM_ROLES.map((role) => [
        role,
        { endpoint: "mock", model: options.model ?? "mock-model", temperature: 0, ...options.roles?.[role] },
      ]),
    ),
    prices: options.prices ?? {},
  };
}

export function mockConfig(url: string, options: MockConfigOptions = {}): LlmConfig {
  return parseLlmConfig(mockConfigJson(url, options), "mock-config");
}

export interface MockPoolOptions {
  /** Per replica, in order (weight, concurrency, name …). */
  replicas?: Record<string, unknown>[];
  /** Pool-level settings: maxRetries, concurrency, health … */
  pool?: Record<string, unknown>;
}

/** Every role pointed at one pool ("cluster") whose replicas are these stand-in servers. */
export function mockPoolConfigJson(urls: string[], options: MockPoolOptions = {}): Record<string, unknown> {
  const json = mockConfigJson(urls[0]);
  const replicas = urls.map((baseUrl, i) => ({ baseUrl, ...options.replicas?.[i] }));
  const roles = Object.fromEntries(
    Object.entries(json.roles as Record<string, object>).map(([role, r]) => [role, { ...r, endpoint: "cluster" }]),
  );
  return { ...json, endpoints: { ...(json.endpoints as object), cluster: { replicas, ...options.pool } }, roles };
}

export function mockPoolConfig(urls: string[], options: MockPoolOptions = {}): LlmConfig {
  return parseLlmConfig(mockPoolConfigJson(urls, options), "mock-pool-config");
}
