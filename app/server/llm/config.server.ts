/**
 * `socrates.config.json`: which endpoint and model each LLM role uses, and what tokens cost.
 * API keys never live in the file: an endpoint names the environment variable that holds its key.
 * Format: docs/llm.md.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { formatJsonPath } from "../../domain/judge-problems.ts";
import { LLM_ROLES, type LlmRole } from "../../domain/llm/types.ts";

/** Environment variables (process.env by default; tests pass their own). */
export type Env = Record<string, string | undefined>;

export const DEFAULT_CONFIG_PATH = "socrates.config.json";

/** A problem with the configuration; the message names the file and the JSON path. */
export class LlmConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LlmConfigError";
  }
}

const apiKeyEnvSchema = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_]*$/,
    "expected the name of an environment variable, e.g. OPENAI_API_KEY (never the key itself)",
  );
const urlSchema = z.string().url("expected a URL such as http://127.0.0.1:8000/v1");
const concurrencySchema = z.number().int().min(1).max(1000);
const timeoutSchema = z.number().int().min(1);

/** One server of a pool; what it leaves out comes from the pool. */
const replicaSchema = z
  .object({
    baseUrl: urlSchema,
    /** Shown by `llm check` and in errors; default `<pool>#<n>`. */
    name: z.string().min(1).optional(),
    apiKeyEnv: apiKeyEnvSchema.optional(),
    concurrency: concurrencySchema.optional(),
    timeoutMs: timeoutSchema.optional(),
    /** Share of the calls relative to the other replicas (least-loaded by in-flight ÷ weight). */
    weight: z.number().positive().max(1000).default(1),
  })
  .strict();

/** When a replica is taken out of rotation and how long before it is probed again. */
const healthSchema = z
  .object({
    /** Consecutive failures (5xx, 429, network errors, timeouts) that take a replica out. */
    failures: z.number().int().min(1).max(100).default(3),
    /** The first time out; doubled at each further failed probe, up to maxBackoffMs. */
    backoffMs: z.number().int().min(1).default(5_000),
    maxBackoffMs: z.number().int().min(1).default(120_000),
  })
  .strict();

/**
 * An endpoint is one server (`baseUrl`) or a pool of replicas serving the same model
 * (`replicas`); on a pool, apiKeyEnv, concurrency and timeoutMs are each replica's defaults and
 * maxRetries bounds one call over all replicas.
 */
const endpointSchema = z
  .object({
    baseUrl: urlSchema.optional(),
    replicas: z.array(replicaSchema).min(1, "a pool needs at least one replica").optional(),
    health: healthSchema.optional(),
    apiKeyEnv: apiKeyEnvSchema.optional(),
    concurrency: concurrencySchema.default(8),
    timeoutMs: timeoutSchema.default(60_000),
    maxRetries: z.number().int().min(0).max(20).default(5),
  })
  .strict()
  .superRefine((endpoint, ctx) => {
    const issue = (path: string, message: string) =>
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path], message });
    if (endpoint.baseUrl !== undefined && endpoint.replicas !== undefined)
      issue("replicas", "give either baseUrl (one server) or replicas (a pool), not both");
    if (endpoint.baseUrl === undefined && endpoint.replicas === undefined)
      issue("baseUrl", "expected baseUrl (one server) or replicas (a pool of servers)");
    if (endpoint.health !== undefined && endpoint.replicas === undefined)
      issue("health", "health applies to a pool (replicas) only");
    const names = new Set<string>();
    endpoint.replicas?.forEach((r, i) => {
      if (r.name === undefined) return;
      if (names.has(r.name))
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["replicas", i, "name"],
          message: `replica name "${r.name}" is used twice`,
        });
      names.add(r.name);
    });
  });

const roleSchema = z
  .object({
    endpoint: z.string().min(1),
    model: z.string().min(1),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().min(1).optional(),
    seed: z.number().int().optional(),
    /** Ask the server for a JSON object (`response_format: json_object`); off for servers without it. */
    jsonMode: z.boolean().default(true),
    /**
     * Send the reply's schema as `response_format: json_schema` (structured outputs: OpenAI, vLLM,
     * SGLang, Ollama); a server that refuses it gets the call again without. Off by default.
     */
    structuredOutput: z.boolean().default(false),
  })
  .strict();

const priceSchema = z.object({ inputPerMillion: z.number().min(0), outputPerMillion: z.number().min(0) }).strict();

const roleShape = Object.fromEntries(LLM_ROLES.map((role) => [role, roleSchema.optional()])) as Record<
  LlmRole,
  z.ZodOptional<typeof roleSchema>
>;

const configSchema = z
  .object({
    $comment: z.string().optional(),
    endpoints: z.record(z.string().min(1), endpointSchema),
    roles: z.object(roleShape).strict(),
    prices: z.record(z.string().min(1), priceSchema).default({}),
    /** Scenario curation's own settings (search sources, quotas); validated by app/server/curation. */
    curation: z.record(z.string(), z.unknown()).optional(),
  })
  .strict()
  .superRefine((config, ctx) => {
    for (const [role, roleConfig] of Object.entries(config.roles)) {
      if (roleConfig && !(roleConfig.endpoint in config.endpoints)) {
        const known =
          Object.keys(config.endpoints)
            .map((n) => `"${n}"`)
            .join(", ") || "none";
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["roles", role, "endpoint"],
          message: `unknown endpoint "${roleConfig.endpoint}" (defined: ${known})`,
        });
      }
    }
  });

export type EndpointConfig = z.infer<typeof endpointSchema>;
export type RoleConfig = z.infer<typeof roleSchema>;
export type HealthConfig = z.infer<typeof healthSchema>;
export type LlmConfig = z.infer<typeof configSchema> & {
  /** Where the configuration came from, for error messages. */
  source: string;
};

/** Validates an already-parsed configuration; `source` names it in errors. */
export function parseLlmConfig(value: unknown, source: string): LlmConfig {
  const result = configSchema.safeParse(value);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `${source}: ${formatJsonPath(issue.path)}: ${issue.message}`);
    throw new LlmConfigError(lines.join("\n"));
  }
  return { ...result.data, source };
}

/** Reads and validates a configuration file. */
export function loadLlmConfig(path: string): LlmConfig {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    const hint = code === "ENOENT" ? "; copy socrates.config.example.json to start one (docs/llm.md)" : "";
    throw new LlmConfigError(`${path}: cannot read the LLM configuration (${code})${hint}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new LlmConfigError(`${path}: $: invalid JSON: ${(err as Error).message}`);
  }
  return parseLlmConfig(value, path);
}

/** The configuration path: the `--config` flag, else `SOCRATES_CONFIG`, else ./socrates.config.json. */
export function resolveConfigPath(flag?: string, env: Env = process.env): string {
  return flag ?? (env.SOCRATES_CONFIG || DEFAULT_CONFIG_PATH);
}

/** A role's settings, or an error naming the role when the file leaves it out. */
export function roleConfig(config: LlmConfig, role: LlmRole): RoleConfig {
  const found = config.roles[role];
  if (!found)
    throw new LlmConfigError(`${config.source}: ${formatJsonPath(["roles", role])}: role "${role}" is not configured`);
  return found;
}

/** The sampling parameters a role's calls are sent with (part of a simulated run's identity). */
export function roleSampling(
  config: LlmConfig,
  role: LlmRole,
): { temperature: number | null; max_tokens: number | null } {
  const found = roleConfig(config, role);
  return { temperature: found.temperature ?? null, max_tokens: found.maxTokens ?? null };
}

/**
 * The role's endpoint, with its name (the role's endpoint was checked to exist at load), or the
 * named endpoint a request asks for instead.
 */
export function endpointFor(
  config: LlmConfig,
  role: LlmRole,
  override?: string,
): { name: string; endpoint: EndpointConfig } {
  const name = override ?? roleConfig(config, role).endpoint;
  const endpoint = config.endpoints[name];
  if (!endpoint) {
    const known =
      Object.keys(config.endpoints)
        .map((n) => `"${n}"`)
        .join(", ") || "none";
    throw new LlmConfigError(
      `${config.source}: ${formatJsonPath(["endpoints", name])}: unknown endpoint "${name}" (defined: ${known})`,
    );
  }
  return { name, endpoint };
}

/**
 * The API key of an endpoint (or of one replica of a pool, which may name its own variable), read
 * from the environment. Local servers without `apiKeyEnv` get a placeholder, since the SDK insists
 * on some key.
 */
export function apiKeyFor(config: LlmConfig, name: string, env: Env = process.env, replica?: number): string {
  const endpoint = config.endpoints[name];
  const own = replica === undefined ? undefined : endpoint.replicas?.[replica]?.apiKeyEnv;
  const variable = own ?? endpoint.apiKeyEnv;
  if (variable === undefined) return "not-needed";
  const key = env[variable];
  if (!key) {
    const path =
      own !== undefined ? ["endpoints", name, "replicas", replica!, "apiKeyEnv"] : ["endpoints", name, "apiKeyEnv"];
    throw new LlmConfigError(`${config.source}: ${formatJsonPath(path)}: environment variable ${variable} is not set`);
  }
  return key;
}

/** One server of an endpoint, with the pool's defaults applied (a plain endpoint is a pool of one). */
export interface ReplicaConfig {
  /** The endpoint's name for a plain endpoint; the replica's name (default `<pool>#<n>`) in a pool. */
  name: string;
  baseUrl: string;
  concurrency: number;
  timeoutMs: number;
  weight: number;
}

/** The servers of an endpoint, in configuration order. */
export function replicasOf(name: string, endpoint: EndpointConfig): ReplicaConfig[] {
  const { concurrency, timeoutMs } = endpoint;
  if (!endpoint.replicas) return [{ name, baseUrl: endpoint.baseUrl!, concurrency, timeoutMs, weight: 1 }];
  return endpoint.replicas.map((r, i) => ({
    name: r.name ?? `${name}#${i + 1}`,
    baseUrl: r.baseUrl,
    concurrency: r.concurrency ?? concurrency,
    timeoutMs: r.timeoutMs ?? timeoutMs,
    weight: r.weight,
  }));
}

/**
 * What the cache key and llm_calls record as an endpoint's address: its baseUrl, or `pool:<name>`
 * for a pool, so a reply is found whichever replica gave it and adding or removing a replica keeps
 * every cached reply (a pool's replicas serve the same model).
 */
export function endpointIdentity(name: string, endpoint: EndpointConfig): string {
  return endpoint.replicas ? `pool:${name}` : endpoint.baseUrl!;
}

/** How many requests an endpoint takes at once: the sum over its replicas. */
export function endpointConcurrency(endpoint: EndpointConfig | undefined): number {
  return endpoint ? replicasOf("", endpoint).reduce((n, r) => n + r.concurrency, 0) : 0;
}

/** A pool's health rules with defaults; undefined for a plain endpoint (one server is never taken out). */
export function healthOf(endpoint: EndpointConfig): HealthConfig | undefined {
  return endpoint.replicas ? healthSchema.parse(endpoint.health ?? {}) : undefined;
}

/** Dollar cost of a call from the configured per-million-token prices (0 for unpriced models). */
export function costUsd(config: LlmConfig, model: string, promptTokens: number, completionTokens: number): number {
  const price = config.prices[model];
  if (!price) return 0;
  return (promptTokens * price.inputPerMillion + completionTokens * price.outputPerMillion) / 1_000_000;
}
