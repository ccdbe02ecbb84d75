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

const endpointSchema = z
  .object({
    baseUrl: z.string().url("expected a URL such as http://127.0.0.1:8000/v1"),
    apiKeyEnv: z
      .string()
      .regex(
        /^[A-Za-z_][A-Za-z0-9_]*$/,
        "expected the name of an environment variable, e.g. OPENAI_API_KEY (never the key itself)"
      )
      .optional(),
    concurrency: z.number().int().min(1).max(1000).default(8),
    timeoutMs: z.number().int().min(1).default(60_000),
    maxRetries: z.number().int().min(0).max(20).default(5),
  })
  .strict();

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
export type ModelPrice = z.infer<typeof priceSchema>;
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
  if (!found) throw new LlmConfigError(`${config.source}: ${formatJsonPath(["roles", role])}: role "${role}" is not configured`);
  return found;
}

/**
 * The role's endpoint, with its name (the role's endpoint was checked to exist at load), or the
 * named endpoint a request asks for instead.
 */
export function endpointFor(config: LlmConfig, role: LlmRole, override?: string): { name: string; endpoint: EndpointConfig } {
  const name = override ?? roleConfig(config, role).endpoint;
  const endpoint = config.endpoints[name];
  if (!endpoint) {
    const known = Object.keys(config.endpoints).map((n) => `"${n}"`).join(", ") || "none";
    throw new LlmConfigError(`${config.source}: ${formatJsonPath(["endpoints", name])}: unknown endpoint "${name}" (defined: ${known})`);
  }
  return { name, endpoint };
}

/**
 * The API key of an endpoint, read from the environment. Local servers without `apiKeyEnv` get a
 * placeholder, since the SDK insists on some key.
 */
export function apiKeyFor(config: LlmConfig, name: string, env: Env = process.env): string {
  const variable = config.endpoints[name].apiKeyEnv;
  if (variable === undefined) return "not-needed";
  const key = env[variable];
  if (!key) {
    throw new LlmConfigError(
      `${config.source}: ${formatJsonPath(["endpoints", name, "apiKeyEnv"])}: environment variable ${variable} is not set`
    );
  }
  return key;
}

/** Dollar cost of a call from the configured per-million-token prices (0 for unpriced models). */
export function costUsd(config: LlmConfig, model: string, promptTokens: number, completionTokens: number): number {
  const price = config.prices[model];
  if (!price) return 0;
  return (promptTokens * price.inputPerMillion + completionTokens * price.outputPerMillion) / 1_000_000;
}
