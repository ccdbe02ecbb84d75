/**
 * `socrates llm check`: one tiny request per configured role (per replica, for a pool), so a
 * wrong URL, model name or key shows up before a long job starts rather than in the middle of it.
 * A pool's replicas also get the health check the client uses (GET /models): whether the server
 * lists the role's model.
 */
import {
  apiKeyFor,
  endpointFor,
  LlmConfigError,
  replicasOf,
  type Env,
  type LlmConfig,
  type ReplicaConfig,
} from "./config.server.ts";
import { chatPoster } from "./chat-transport.server.ts";
import { describeError, listModels, sdkClient } from "./endpoints.server.ts";
import { CHECK_TEMPLATE, LLM_ROLES, type LlmRole } from "../../domain/llm/types.ts";
import { requestHeaders } from "./context.server.ts";

/** One server answering for a role. */
interface ServerCheck {
  ok: boolean;
  latencyMs?: number;
  error?: string;
}

export interface ReplicaCheck extends ServerCheck {
  name: string;
  baseUrl: string;
  /** Whether GET /models lists the role's model (undefined when the listing failed). */
  modelListed?: boolean;
  /** The printed line, e.g. `  cluster#2       OUT  http://10.0.0.2:8000/v1: HTTP 503 (…); models: HTTP 503`. */
  line: string;
}

export interface RoleCheck {
  role: LlmRole;
  status: "ok" | "failed" | "not configured";
  model?: string;
  baseUrl?: string;
  latencyMs?: number;
  error?: string;
  /** The printed line, e.g. `party  ok  model-x @ http://127.0.0.1:8000/v1 (123 ms)`. */
  line: string;
  /** A pool's replicas, one line each (absent for a plain endpoint). */
  replicas?: ReplicaCheck[];
}

export interface CheckOptions {
  /** Per request; a check never retries. */
  timeoutMs?: number;
  env?: Env;
}

/** A check's options for one role: the request names the role (and the check template) in its headers. */
type RoleCheckOptions = CheckOptions & { timeoutMs: number; role: LlmRole };

/** One 1-token chat request: proves the URL, the key and the model name. */
async function askOnce(
  config: LlmConfig,
  endpoint: string,
  replica: number,
  server: ReplicaConfig,
  model: string,
  options: RoleCheckOptions,
): Promise<ServerCheck> {
  const started = Date.now();
  try {
    // The transport the calls use (chat-transport.server.ts), so the check proves their path.
    const chat = chatPoster(server.baseUrl, apiKeyFor(config, endpoint, options.env, replica), options.timeoutMs);
    const messages = [{ role: "user" as const, content: "Reply with the word ok." }];
    await chat({ model, messages, max_tokens: 1 }, requestHeaders(options.role, CHECK_TEMPLATE));
    return { ok: true, latencyMs: Date.now() - started };
  } catch (err) {
    return { ok: false, error: err instanceof LlmConfigError ? err.message : describeError(err, options.timeoutMs) };
  }
}

/** A pool replica: the chat request and the health check (GET /models); a failing replica would be taken out. */
async function checkReplica(
  config: LlmConfig,
  endpoint: string,
  replica: number,
  server: ReplicaConfig,
  model: string,
  options: RoleCheckOptions,
): Promise<ReplicaCheck> {
  const asked = await askOnce(config, endpoint, replica, server, model, options);
  let listing = "models: not asked (no key)";
  let modelListed: boolean | undefined;
  try {
    const models = await listModels(
      sdkClient(server.baseUrl, apiKeyFor(config, endpoint, options.env, replica), options.timeoutMs),
      options.timeoutMs,
    );
    modelListed = models.ok ? models.models.includes(model) : undefined;
    listing = models.ok
      ? modelListed
        ? "model listed"
        : "model NOT listed by GET /models"
      : `models: ${models.error}`;
  } catch {
    // the missing key is already the chat request's error
  }
  const name = `  ${server.name}`.padEnd(16);
  const line = asked.ok
    ? `${name}  ok   ${server.baseUrl} (${asked.latencyMs} ms; ${listing})`
    : `${name}  OUT  ${server.baseUrl}: ${asked.error}; ${listing}`;
  return { ...asked, name: server.name, baseUrl: server.baseUrl, modelListed, line };
}

/** Checks one role: a plain endpoint in one line, a pool with a line per replica. */
async function checkRole(
  config: LlmConfig,
  role: LlmRole,
  name: string,
  options: RoleCheckOptions,
): Promise<RoleCheck> {
  const roleConfig = config.roles[role];
  if (!roleConfig) return { role, status: "not configured", line: `${name}  -  not configured` };
  const { model } = roleConfig;
  const endpoint = endpointFor(config, role);
  const servers = replicasOf(endpoint.name, endpoint.endpoint);
  if (!endpoint.endpoint.replicas) {
    const { baseUrl } = servers[0];
    const asked = await askOnce(config, endpoint.name, 0, servers[0], model, options);
    if (asked.ok)
      return {
        role,
        status: "ok",
        model,
        baseUrl,
        latencyMs: asked.latencyMs,
        line: `${name}  ok  ${model} @ ${baseUrl} (${asked.latencyMs} ms)`,
      };
    return {
      role,
      status: "failed",
      model,
      baseUrl,
      error: asked.error,
      line: `${name}  FAILED  ${model} @ ${baseUrl}: ${asked.error}`,
    };
  }
  const replicas = await Promise.all(
    servers.map((server, i) => checkReplica(config, endpoint.name, i, server, model, options)),
  );
  const out = replicas.filter((r) => !r.ok).length;
  const where = `${model} @ pool "${endpoint.name}" (${replicas.length} replicas, ${out} out)`;
  if (out < replicas.length) return { role, status: "ok", model, line: `${name}  ok  ${where}`, replicas };
  const error = `every replica failed`;
  return { role, status: "failed", model, error, line: `${name}  FAILED  ${where}: ${error}`, replicas };
}

/** Checks every role at once; the result is in LLM_ROLES order. */
export async function checkRoles(config: LlmConfig, options: CheckOptions = {}): Promise<RoleCheck[]> {
  const width = Math.max(...LLM_ROLES.map((r) => r.length));
  const timeoutMs = options.timeoutMs ?? 10_000;
  return Promise.all(
    LLM_ROLES.map((role) => checkRole(config, role, role.padEnd(width), { ...options, timeoutMs, role })),
  );
}
