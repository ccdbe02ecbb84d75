/**
 * The `curation` section of socrates.config.json: where seeds come from (the evidence source) and
 * the quotas. Validated here, not by the LLM configuration, so errors name the file and the JSON
 * path under `curation`. Keys for search backends come from environment variables the section
 * names, never from the file. Format: docs/curation-search.md, example: socrates.config.example.json.
 */
import { z } from "zod";
import { DOMAINS } from "../../domain/bundle.ts";
import { formatJsonPath } from "../../domain/judge-problems.ts";
import { parseAllowEntry } from "../../domain/net/outbound-hosts.ts";
import { LlmConfigError, type LlmConfig } from "../llm/config.server.ts";

export const DEFAULT_PER_DOMAIN = 5;
export const DEFAULT_REPLAYS = 3;

const envName = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_]*$/,
    "expected the name of an environment variable, e.g. TAVILY_API_KEY (never the key itself)",
  );

/** Page fetching and reduction for the search-tools source. */
const pagesSchema = z
  .object({
    /** Fetch the pages a result links, reduced to text, when the model asks for them. */
    timeoutMs: z.number().int().min(1).default(10_000),
    /** The most bytes read from one page. */
    maxBytes: z.number().int().min(1_000).default(1_000_000),
    /** The most characters of a page's text shown to the model. */
    maxChars: z.number().int().min(200).default(6_000),
  })
  .strict();

/** "host" or "host:port" of a private host curation may reach (the lab's search instance). */
const allowEntry = z.string().superRefine((text, ctx) => {
  const entry = parseAllowEntry(text);
  if ("error" in entry) ctx.addIssue({ code: z.ZodIssueCode.custom, message: entry.error });
});

export const SEARCH_BACKENDS = ["searxng", "tavily", "brave"] as const;

const searchToolsSchema = z
  .object({
    kind: z.literal("search-tools"),
    /** searxng: a self-hosted instance's JSON API (no key); tavily, brave: hosted APIs with a key. */
    backend: z.enum(SEARCH_BACKENDS),
    /** searxng: the instance (required); tavily, brave: their API base (defaults to the public one). */
    url: z.string().url("expected a URL such as http://127.0.0.1:8888").optional(),
    /** tavily, brave: the environment variable holding the key (default TAVILY_API_KEY, BRAVE_API_KEY). */
    apiKeyEnv: envName.optional(),
    /** Results per search. */
    maxResults: z.number().int().min(1).max(20).default(5),
    pages: pagesSchema.default({}),
    /** The most bytes read of the backend's own answer; a longer answer is an error. */
    maxAnswerBytes: z.number().int().min(10_000).default(2_000_000),
    /**
     * Hosts admitted although they resolve to private addresses (a SearXNG on the lab network):
     * every other page or search request must reach a public address (docs/security.md).
     */
    allowPrivateHosts: z.array(allowEntry).default([]),
    /** Model turns in the search loop before the answer is forced. */
    maxSteps: z.number().int().min(2).max(30).default(6),
  })
  .strict();

const webResearchSchema = z
  .object({ kind: z.literal("web-research"), tool: z.literal("web_search_preview").default("web_search_preview") })
  .strict();

const filesSchema = z
  .object({ kind: z.literal("files"), dir: z.string().min(1, "name the folder of seed reports") })
  .strict();

const sourceSchema = z.discriminatedUnion("kind", [webResearchSchema, searchToolsSchema, filesSchema]);

/** The searxng backend runs on the user's own instance: it needs its url and takes no key. */
function checkSearxng(source: z.infer<typeof sourceSchema>, ctx: z.RefinementCtx): void {
  if (source.kind !== "search-tools" || source.backend !== "searxng") return;
  if (source.url === undefined) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: ["url"],
      message: "the searxng backend needs the instance's url, e.g. http://127.0.0.1:8888",
    });
  }
  if (source.apiKeyEnv !== undefined) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["apiKeyEnv"], message: "the searxng backend takes no key" });
  }
}

const curationSchema = z
  .object({
    $comment: z.string().optional(),
    source: sourceSchema.superRefine(checkSearxng),
    perDomain: z.number().int().min(1).default(DEFAULT_PER_DOMAIN),
    replays: z.number().int().min(1).max(20).default(DEFAULT_REPLAYS),
    domains: z
      .array(z.enum(DOMAINS))
      .min(1)
      .default([...DOMAINS]),
    /** New seeds asked for when the searcher keeps returning disputes already stored. */
    maxDuplicateRetries: z.number().int().min(0).max(10).default(3),
  })
  .strict();

export type SearchToolsConfig = z.infer<typeof searchToolsSchema>;
export type PageSettings = z.infer<typeof pagesSchema>;
export type SourceConfig = z.infer<typeof sourceSchema>;
export type CurationConfig = z.infer<typeof curationSchema> & {
  /** The file it came from, for error messages. */
  configFile?: string;
};

/** Validates a `curation` section; `source` names the file in errors. */
export function parseCurationConfig(value: unknown, source: string): CurationConfig {
  if (value === undefined) {
    throw new LlmConfigError(
      `${source}: ${formatJsonPath(["curation"])}: no curation section (see socrates.config.example.json)`,
    );
  }
  const result = curationSchema.safeParse(value);
  if (!result.success) {
    const lines = result.error.issues.map(
      (issue) => `${source}: ${formatJsonPath(["curation", ...issue.path])}: ${issue.message}`,
    );
    throw new LlmConfigError(lines.join("\n"));
  }
  return { ...result.data, configFile: source };
}

/** The curation section of a loaded LLM configuration. */
export function curationConfigOf(config: LlmConfig): CurationConfig {
  return parseCurationConfig(config.curation, config.source);
}
