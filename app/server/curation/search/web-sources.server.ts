/**
 * The two web sources of seeds: a chat model calling a search backend through tools
 * (search-tools), and an OpenAI model with built-in web search (web-research). Each asks once
 * for one dispute and returns the report with how it was found; storing and de-duplicating is
 * the searcher's (../searcher.server.ts).
 */
import type { Domain } from "../../../domain/bundle.ts";
import { FETCH_PAGE_TOOL, SEARCH_TOOLS, WEB_SEARCH_TOOL, DOMAIN_HINTS, exclusionsText } from "../../../domain/curation/search-prompt.ts";
import { z } from "zod";
import { noNewDisputeSchema, seedReportSchema, webSeedReportSchema, type SeedReport, type SeedSource } from "../../../domain/curation/seed.ts";
import type { ChatMessage, Llm } from "../../../domain/llm/types.ts";
import type { Env } from "../../llm/config.server.ts";
import { renderMessages } from "../../pipeline/prompt-templates.server.ts";
import type { SearchToolsConfig, SourceConfig } from "../curation-config.server.ts";
import type { SeedProvenance } from "../../models/seed.server.ts";
import { searchBackendFor } from "./backend.server.ts";
import { fetchPage } from "./fetch-page.server.ts";

export interface AskContext {
  llm: Llm;
  fetch: typeof fetch;
  env?: Env;
  configFile?: string;
}

export interface AskRequest {
  domain: Domain;
  attempt: number;
  /** Disputes the searcher must not report (titles with parties). */
  excluded: readonly string[];
}

export type Found =
  | { ok: true; report: SeedReport; provenance: Omit<SeedProvenance, "attempt"> }
  /** The searcher found nothing new: every dispute it found is already collected. */
  | { ok: "exhausted"; reason: string }
  | { ok: false; error: string };

/** A reply is a seed report or the searcher's "nothing new" (noNewDisputeSchema). */
const replyOr = <T extends z.ZodTypeAny>(report: T) => z.union([report, noNewDisputeSchema]);
const isNothingNew = (value: object): value is z.infer<typeof noNewDisputeSchema> => "noNewDispute" in value;

/** The searcher prompt for one (domain, attempt, exclusions), with the source's search instructions. */
export function searchMessages(request: AskRequest, how: "curation-search-tools" | "curation-search-web"): ChatMessage[] {
  return renderMessages("curation-search", {
    domain: request.domain,
    domain_hint: DOMAIN_HINTS[request.domain],
    attempt: request.attempt,
    exclusions: exclusionsText(request.excluded),
    how_to_search: renderMessages(how, {})[0].content,
  });
}

const subjectOf = (request: AskRequest) => `curation:${request.domain}:${request.attempt}`;

/** search-tools: the tool loop, with the backend's results and reduced pages as tool answers. */
export async function askWithTools(ctx: AskContext, source: SearchToolsConfig, request: AskRequest): Promise<Found> {
  const backend = searchBackendFor(source, { fetch: ctx.fetch, timeoutMs: source.pages.timeoutMs }, ctx.env, ctx.configFile);
  const queries: string[] = [];
  const pages: string[] = [];
  // Only pages a search returned may be fetched: a page's text must not steer the searcher into
  // reading arbitrary (e.g. internal) addresses.
  const found = new Set<string>();
  const runTool = async (name: string, args: Record<string, unknown>): Promise<string> => {
    if (name === WEB_SEARCH_TOOL) {
      const query = String(args.query ?? "").trim();
      if (!query) throw new Error("web_search needs a query");
      queries.push(query);
      const results = await backend.search(query, source.maxResults);
      for (const r of results) found.add(r.url);
      return results.length === 0 ? "No results." : JSON.stringify(results, null, 1);
    }
    if (name === FETCH_PAGE_TOOL) {
      const url = String(args.url ?? "").trim();
      if (!found.has(url)) throw new Error(`${FETCH_PAGE_TOOL} reads only pages that ${WEB_SEARCH_TOOL} returned; ${url} was not among them`);
      pages.push(url);
      const page = await fetchPage(url, source.pages, ctx.fetch);
      return `${page.title ? `Title: ${page.title}\n` : ""}URL: ${page.url}\n\n${page.text}`;
    }
    throw new Error(`no tool named ${name}; use ${WEB_SEARCH_TOOL} or ${FETCH_PAGE_TOOL}`);
  };
  const result = await ctx.llm.callWithTools({
    role: "searcher",
    messages: searchMessages(request, "curation-search-tools"),
    schema: replyOr(webSeedReportSchema),
    subject: subjectOf(request),
    tools: SEARCH_TOOLS,
    runTool,
    maxSteps: source.maxSteps,
  });
  if (!result.ok) return { ok: false, error: result.error };
  if (isNothingNew(result.value)) return { ok: "exhausted", reason: result.value.noNewDispute };
  // Sources no search returned: kept, but named in the provenance for the researcher to check.
  const unverifiedSources = result.value.sources.map((s) => s.url).filter((url) => !found.has(url));
  const provenance = { model: result.model, backend: backend.name, backendUrl: backend.url, queries, pages, ...(unverifiedSources.length ? { unverifiedSources } : {}) };
  return { ok: true, report: result.value, provenance };
}

/** The report's own sources, then any citation it left out (same url once). */
function withCitations(sources: SeedSource[], citations: SeedSource[]): SeedSource[] {
  const seen = new Set(sources.map((s) => s.url));
  return [...sources, ...citations.filter((c) => !seen.has(c.url) && seen.add(c.url))];
}

/** web-research: one Responses API request with the built-in web search tool. */
export async function askWebResearch(ctx: AskContext, source: Extract<SourceConfig, { kind: "web-research" }>, request: AskRequest): Promise<Found> {
  const messages = searchMessages(request, "curation-search-web");
  // The sources may come as the reply's url citations only, so the reply itself may list none.
  const result = await ctx.llm.webResearch({ role: "searcher", messages, schema: replyOr(seedReportSchema), subject: subjectOf(request), tool: source.tool });
  if (!result.ok) return { ok: false, error: result.error };
  if (isNothingNew(result.value)) return { ok: "exhausted", reason: result.value.noNewDispute };
  const checked = webSeedReportSchema.safeParse({ ...result.value, sources: withCitations(result.value.sources, result.citations) });
  if (!checked.success) return { ok: false, error: `the web research reply cites no source (${checked.error.issues[0].message})` };
  return { ok: true, report: checked.data, provenance: { model: result.model, backend: `openai-responses:${source.tool}`, queries: [messages.at(-1)!.content] } };
}
