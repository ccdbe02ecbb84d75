/**
 * `socrates llm check`: one tiny request per configured role, so a wrong URL, model name or key
 * shows up before a long job starts rather than in the middle of it.
 */
import OpenAI from "openai";
import { apiKeyFor, LlmConfigError, type Env, type LlmConfig } from "./config.server.ts";
import { describeError } from "./endpoints.server.ts";
import { LLM_ROLES, type LlmRole } from "../../domain/llm/types.ts";

export interface RoleCheck {
  role: LlmRole;
  status: "ok" | "failed" | "not configured";
  model?: string;
  baseUrl?: string;
  latencyMs?: number;
  error?: string;
  /** The printed line, e.g. `party  ok  model-x @ http://127.0.0.1:8000/v1 (123 ms)`. */
  line: string;
}

export interface CheckOptions {
  /** Per request; a check never retries. */
  timeoutMs?: number;
  env?: Env;
}

/** Checks every role at once; the result is in LLM_ROLES order. */
export async function checkRoles(config: LlmConfig, options: CheckOptions = {}): Promise<RoleCheck[]> {
  const width = Math.max(...LLM_ROLES.map((r) => r.length));
  const timeout = options.timeoutMs ?? 10_000;

  return Promise.all(
    LLM_ROLES.map(async (role): Promise<RoleCheck> => {
      const name = role.padEnd(width);
      const roleConfig = config.roles[role];
      if (!roleConfig) return { role, status: "not configured", line: `${name}  -  not configured` };
      const { baseUrl } = config.endpoints[roleConfig.endpoint];
      const { model } = roleConfig;
      const started = Date.now();
      try {
        const client = new OpenAI({
          baseURL: baseUrl,
          apiKey: apiKeyFor(config, roleConfig.endpoint, options.env),
          maxRetries: 0,
          timeout,
        });
        // One token is enough to prove the URL, the key and the model name.
        await client.chat.completions.create({
          model,
          messages: [{ role: "user", content: "Reply with the word ok." }],
          max_tokens: 1,
        });
        const latencyMs = Date.now() - started;
        return { role, status: "ok", model, baseUrl, latencyMs, line: `${name}  ok  ${model} @ ${baseUrl} (${latencyMs} ms)` };
      } catch (err) {
        const error = err instanceof LlmConfigError ? err.message : describeError(err, timeout);
        return { role, status: "failed", model, baseUrl, error, line: `${name}  FAILED  ${model} @ ${baseUrl}: ${error}` };
      }
    })
  );
}
