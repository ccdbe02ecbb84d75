/**
 * The searcher's stand-in (never a model): answers the templates curation-search and
 * curation-search-file over the stand-in search server's disputes (./stand-in-corpus.ts).
 *
 * Tool loop (search-tools): first a `web_search` call for the domain; after its results, a
 * `fetch_page` call on one result; after the page, the seed report citing that page. Which
 * result is picked depends on the search round and the excluded disputes, so different domains
 * and rounds give different disputes, and a rerun gives the same one.
 * Web research (Responses API): the report at once, with the page as its url citation.
 * Free-text seed files: a report built from the notes' heading and "between X and Y".
 */
import { DOMAINS, type Domain } from "../../domain/bundle.ts";
import { FETCH_PAGE_TOOL, WEB_SEARCH_TOOL } from "../../domain/curation/search-prompt.ts";
import type { SeedReport } from "../../domain/curation/seed.ts";
import { disputesFor, pagePath, STAND_IN_DISPUTES, type StandInDispute } from "./stand-in-corpus.ts";
import {
  type LlmRoleDefinition,
  type MockChatRequest,
  type MockMessage,
  StandInRequestError,
} from "../stand-in-request.ts";

export interface ToolCallsReply {
  toolCalls: { name: string; arguments: Record<string, unknown> }[];
}

interface SearchAsk {
  domain: Domain;
  round: number;
  excluded: string[];
}

function searchAsk(messages: MockMessage[]): SearchAsk {
  const user = messages.find((m) => m.role === "user")?.content ?? "";
  const domain = /^Domain: (.+)$/m.exec(user)?.[1].trim() as Domain;
  if (!DOMAINS.includes(domain))
    throw new Error(`curation-search stand-in: no known domain in the prompt (${JSON.stringify(domain)})`);
  const round = Number(/^Search round: (\d+)$/m.exec(user)?.[1] ?? 0);
  const excluded = [...user.matchAll(/^- (.+)$/gm)].map((m) => m[1].trim());
  return { domain, round, excluded };
}

const labelOf = (d: StandInDispute) => `${d.title} (${d.parties.map((p) => p.name).join(" vs ")})`;

/** The round's pick among the disputes not excluded. */
function pick(candidates: StandInDispute[], ask: SearchAsk): StandInDispute | undefined {
  const open = candidates.filter((d) => !ask.excluded.some((e) => e === labelOf(d) || e === d.title));
  return open.length === 0 ? undefined : open[ask.round % open.length];
}

export function reportOf(d: StandInDispute, url: string): SeedReport {
  const { title, summary, parties, issues, timeline, tensions, status } = d;
  return {
    title,
    summary,
    parties,
    issues,
    timeline,
    tensions,
    status,
    sources: [{ url, title: `${title} | Stand-in News` }],
  };
}

/** The chat tool loop: search, read one page, report. */
function toolLoopReply(messages: MockMessage[]): string | ToolCallsReply {
  const ask = searchAsk(messages);
  const toolAnswers = messages.filter((m) => m.role === "tool").map((m) => m.content);
  if (toolAnswers.length === 0) {
    return {
      toolCalls: [{ name: WEB_SEARCH_TOOL, arguments: { query: `${ask.domain} dispute negotiation stalled` } }],
    };
  }
  if (toolAnswers.length === 1) {
    let results: { url: string }[] = [];
    try {
      results = JSON.parse(toolAnswers[0]) as { url: string }[];
    } catch {
      /* "No results." or an error: report that nothing was found */
    }
    const bySlug = results.flatMap((r) =>
      STAND_IN_DISPUTES.filter((d) => r.url.endsWith(pagePath(d))).map((d) => ({ d, url: r.url })),
    );
    const chosen = pick(
      bySlug.map((x) => x.d),
      ask,
    );
    if (!chosen) return JSON.stringify({ noNewDispute: "every dispute the search returned is already collected" });
    return { toolCalls: [{ name: FETCH_PAGE_TOOL, arguments: { url: bySlug.find((x) => x.d === chosen)!.url } }] };
  }
  const url = /^URL: (\S+)$/m.exec(toolAnswers.at(-1)!)?.[1] ?? "";
  const dispute = STAND_IN_DISPUTES.find((d) => url.endsWith(pagePath(d)));
  if (!dispute) return JSON.stringify({ error: `the page ${url} is not a stand-in page` });
  return `Here is the seed report.\n${JSON.stringify(reportOf(dispute, url))}`;
}

/** A report from free-text notes: their heading and "between X and Y". */
function fileReply(messages: MockMessage[]): SeedReport {
  const user = messages.find((m) => m.role === "user")?.content ?? "";
  const notes = user.split("## The notes").at(-1)!.trim();
  const title = /^#\s+(.+)$/m.exec(notes)?.[1].trim() ?? notes.split("\n")[0].slice(0, 80);
  const between = /between (?:the )?([A-Z][\w' -]+?) and (?:the )?([A-Z][\w' -]+?)[,.;]/.exec(notes);
  const [a, b] = between ? [between[1], between[2]] : ["First party", "Second party"];
  const urls = [...notes.matchAll(/https?:\/\/\S+/g)].map((m) => ({ url: m[0].replace(/[).,]+$/, "") }));
  return {
    title,
    summary: notes.replace(/^#.*$/m, "").replace(/\s+/g, " ").trim().slice(0, 400),
    parties: [
      { name: a, description: "named in the notes" },
      { name: b, description: "named in the notes" },
    ],
    issues: ["not stated"],
    timeline: [],
    tensions: [],
    status: "not stated",
    sources: urls,
  };
}

export interface CurationSearchOptions {
  /** Where web-research citations point: the stand-in search server's URL, when one runs. */
  pagesBaseUrl?: string;
}

/**
 * The searcher's replies, by template: curation-search as the chat tool loop or, asked through the
 * Responses API, as web research; curation-search-file as a report from free-text notes.
 */
export function curationSearchReply(
  request: Pick<MockChatRequest, "messages" | "template"> & { api?: "chat" | "responses" },
  options: CurationSearchOptions = {},
): string | object {
  if (request.template === "curation-search-file") return fileReply(request.messages);
  if (request.template !== "curation-search")
    throw new StandInRequestError(`searcher stand-in: no template ${JSON.stringify(request.template ?? null)}`);
  return request.api === "responses"
    ? curationWebResearchReply(request.messages, options.pagesBaseUrl)
    : toolLoopReply(request.messages);
}

export const searcher = {
  id: "searcher",
  standIn: (request, options) => curationSearchReply(request, { pagesBaseUrl: options.searchUrl }),
} as const satisfies LlmRoleDefinition;

/**
 * The Responses API (web-research) answer: the round's dispute at once, citing its page under
 * `pagesBaseUrl` (the stand-in search server, when one runs).
 */
export function curationWebResearchReply(
  messages: MockMessage[],
  pagesBaseUrl = "http://127.0.0.1:9/stand-in",
): { text: string; citations: { url: string; title: string }[] } {
  const ask = searchAsk(messages);
  const chosen = pick(disputesFor(ask.domain), ask);
  if (!chosen)
    return { text: JSON.stringify({ noNewDispute: "every dispute found is already collected" }), citations: [] };
  const url = `${pagesBaseUrl.replace(/\/+$/, "")}${pagePath(chosen)}`;
  const { sources, ...rest } = reportOf(chosen, url);
  // The report lists no sources itself: they come as the reply's url citations, as from a real model.
  return {
    text: JSON.stringify({ ...rest, sources: [] }),
    citations: sources.map((s) => ({ url: s.url, title: s.title! })),
  };
}
