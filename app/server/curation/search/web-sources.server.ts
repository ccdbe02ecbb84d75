/**
 * The two web sources of seeds: a chat model calling a search backend through tools
 * (search-tools), and an OpenAI model with built-in web search (web-research). Each asks once
 * for one dispute and returns the report with how it was found; storing and de-duplicating is
 * the searcher's (../searcher.server.ts).
 */
import type { Domain } from "../../../domain/bundle.ts";
import {
  FETCH_PAGE_TOOL,
  SEARCH_TOOLS,
  WEB_SEARCH_TOOL,
  DOMAIN_HINTS,
  exclusionsText,
} from "../../../domain/curation/search-prompt.ts";
import { z } from "zod";
import {
  noNewDisputeSchema,
  seedReportSchema,
  webSeedReportSchema,
  type SeedReport,
  type SeedSource,
} from "../../../domain/curation/seed.ts";
import type { ChatMessage, Llm } from "../../../domain/llm/types.ts";
import type { Env } from "../../llm/config.server.ts";
import { renderMessages } from "../../pipeline/prompt-templates.server.ts";
import type { SearchToolsConfig, SourceConfig } from "../curation-config.server.ts";
import { refusedUrl } from "../../../domain/net/outbound-hosts.ts";
import type { RefusedFetch, SeedProvenance } from "../../models/seed.server.ts";
import {
  checkOutbound,
  outboundPolicy,
  OutboundRefusal,
  type HostLookup,
  type OutboundPolicy,
} from "../../net/outbound.server.ts";
import { searchBackendFor, type SearchBackend, type SearchResult } from "./backend.server.ts";
import { fetchPage, type FetchedPage } from "./fetch-page.server.ts";

export interface AskContext {
  llm: Llm;
  /** The resolver the outbound policy checks (the system's by default; tests map their own names). */
  lookup?: HostLookup;
  /** Told of every result or page the outbound policy refused (the CLI prints them). */
  onRefusal?: (refusal: RefusedFetch) => void;
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
export function searchMessages(
  request: AskRequest,
  how: "curation-search-tools" | "curation-search-web",
): ChatMessage[] {
  return renderMessages("curation-search", {
    domain: request.domain,
    domain_hint: DOMAIN_HINTS[request.domain],
    attempt: request.attempt,
    exclusions: exclusionsText(request.excluded),
    how_to_search: renderMessages(how, {})[0].content,
  });
}

const subjectOf = (request: AskRequest) => `curation:${request.domain}:${request.attempt}`;

/** What the tool loop did, for the seed's provenance. */
interface ToolLog {
  queries: string[];
  pages: string[];
  refused: RefusedFetch[];
  /** URLs a search returned: the only pages fetch_page reads. */
  found: Set<string>;
}

/**
 * The two tools over the backend and the outbound policy; refusals are logged, and the model is told only "not
 * available".
 */
function searchToolRunner(
  ctx: AskContext,
  source: SearchToolsConfig,
  backend: SearchBackend,
  policy: OutboundPolicy,
  log: ToolLog,
) {
  const refuse = (refusal: RefusedFetch) => {
    log.refused.push(refusal);
    ctx.onRefusal?.(refusal);
  };
  return async (name: string, args: Record<string, unknown>): Promise<string> => {
    if (name === WEB_SEARCH_TOOL) {
      const query = String(args.query ?? "").trim();
      if (!query) throw new Error("web_search needs a query");
      log.queries.push(query);
      let results: SearchResult[];
      try {
        results = await backend.search(query, source.maxResults);
      } catch (err) {
        if (!(err instanceof OutboundRefusal)) throw err;
        refuse({ url: err.requested, ...(err.redirected ? { redirectedTo: err.url } : {}), reason: err.reason });
        throw new Error(`${backend.name} search is not available`);
      }
      results = results.filter((r) => {
        // Results at internal addresses are dropped before the model sees them.
        const why = URL.canParse(r.url) ? refusedUrl(new URL(r.url), policy.allow) : "not a valid URL";
        if (why) refuse({ url: r.url, reason: why });
        return why === null;
      });
      for (const r of results) log.found.add(r.url);
      return results.length === 0 ? "No results." : JSON.stringify(results, null, 1);
    }
    if (name === FETCH_PAGE_TOOL) {
      const url = String(args.url ?? "").trim();
      // Only pages a search returned may be fetched: a page's text must not steer the searcher
      // into reading arbitrary (e.g. internal) addresses.
      if (!log.found.has(url))
        throw new Error(
          `${FETCH_PAGE_TOOL} reads only pages that ${WEB_SEARCH_TOOL} returned; ${url} was not among them`,
        );
      let page: FetchedPage;
      try {
        page = await fetchPage(url, source.pages, policy);
      } catch (err) {
        if (!(err instanceof OutboundRefusal)) {
          log.pages.push(url);
          throw err;
        }
        refuse({ url, ...(err.redirected ? { redirectedTo: err.url } : {}), reason: err.reason });
        throw new Error(`cannot fetch ${url}: the page is not available`);
      }
      log.pages.push(url);
      return `${page.title ? `Title: ${page.title}\n` : ""}URL: ${page.url}\n\n${page.text}`;
    }
    throw new Error(`no tool named ${name}; use ${WEB_SEARCH_TOOL} or ${FETCH_PAGE_TOOL}`);
  };
}

/**
 * The backend's own address, checked before the first model turn: a private instance that is not
 * listed is a configuration error, reported with the setting to add, and no call is paid for.
 */
async function checkBackend(backend: SearchBackend, policy: OutboundPolicy): Promise<void> {
  try {
    await checkOutbound(backend.url, policy);
  } catch (err) {
    if (!(err instanceof OutboundRefusal)) return; // e.g. a name that does not resolve: the search itself reports it
    const { hostname, port } = new URL(backend.url);
    const entry = `${hostname}${port ? `:${port}` : ""}`;
    throw new Error(
      `${backend.name} search refused: ${err.message} (a search instance on your own network must be listed: "allowPrivateHosts": ["${entry}"] in curation.source)`,
    );
  }
}

/** search-tools: the tool loop, with the backend's results and reduced pages as tool answers. */
export async function askWithTools(ctx: AskContext, source: SearchToolsConfig, request: AskRequest): Promise<Found> {
  const policy = outboundPolicy({ allowPrivateHosts: source.allowPrivateHosts, lookup: ctx.lookup });
  const backend = searchBackendFor(
    source,
    { policy, timeoutMs: source.pages.timeoutMs, maxBytes: source.maxAnswerBytes },
    ctx.env,
    ctx.configFile,
  );
  await checkBackend(backend, policy);
  const log: ToolLog = { queries: [], pages: [], refused: [], found: new Set() };
  const result = await ctx.llm.callWithTools({
    role: "searcher",
    messages: searchMessages(request, "curation-search-tools"),
    template: "curation-search",
    schema: replyOr(webSeedReportSchema),
    subject: subjectOf(request),
    tools: SEARCH_TOOLS,
    runTool: searchToolRunner(ctx, source, backend, policy, log),
    maxSteps: source.maxSteps,
  });
  if (!result.ok) return { ok: false, error: result.error };
  if (isNothingNew(result.value)) return { ok: "exhausted", reason: result.value.noNewDispute };
  // Sources no search returned: kept, but named in the provenance for the researcher to check.
  const unverifiedSources = result.value.sources.map((s) => s.url).filter((url) => !log.found.has(url));
  const provenance = {
    model: result.model,
    backend: backend.name,
    backendUrl: backend.url,
    queries: log.queries,
    pages: log.pages,
    ...(unverifiedSources.length ? { unverifiedSources } : {}),
    ...(log.refused.length ? { refused: log.refused } : {}),
  };
  return { ok: true, report: result.value, provenance };
}

/** The report's own sources, then any citation it left out (same url once). */
function withCitations(sources: SeedSource[], citations: SeedSource[]): SeedSource[] {
  const seen = new Set(sources.map((s) => s.url));
  return [...sources, ...citations.filter((c) => !seen.has(c.url) && seen.add(c.url))];
}

/** web-research: one Responses API request with the built-in web search tool. */
export async function askWebResearch(
  ctx: AskContext,
  source: Extract<SourceConfig, { kind: "web-research" }>,
  request: AskRequest,
): Promise<Found> {
  const messages = searchMessages(request, "curation-search-web");
  // The sources may come as the reply's url citations only, so the reply itself may list none.
  const schema = replyOr(seedReportSchema);
  const subject = subjectOf(request);
  const result = await ctx.llm.webResearch({
    role: "searcher",
    messages,
    template: "curation-search",
    schema,
    subject,
    tool: source.tool,
  });
  if (!result.ok) return { ok: false, error: result.error };
  if (isNothingNew(result.value)) return { ok: "exhausted", reason: result.value.noNewDispute };
  const checked = webSeedReportSchema.safeParse({
    ...result.value,
    sources: withCitations(result.value.sources, result.citations),
  });
  if (!checked.success)
    return { ok: false, error: `the web research reply cites no source (${checked.error.issues[0].message})` };
  return {
    ok: true,
    report: checked.data,
    provenance: {
      model: result.model,
      backend: `openai-responses:${source.tool}`,
      queries: [messages.at(-1)!.content],
    },
  };
}
