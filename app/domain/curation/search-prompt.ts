/**
 * The values the searcher prompts are filled with (app/llm-roles/searcher/curation-search*.md):
 * what each domain covers, and the disputes the searcher must not report again. Pure, so the
 * prompt — and so the LLM cache key — is a function of (domain, attempt, exclusions) alone.
 */
import type { Domain } from "../bundle.ts";
import type { ToolSpec } from "../llm/tool-spec.ts";

/** One line per domain: the kind of dispute it stands for (the eight classes of SoCRATES §3.2). */
export const DOMAIN_HINTS: Record<Domain, string> = {
  transactional: "one-off deals between a buyer and a seller: sales of homes, cars, goods or services gone wrong",
  healthcare: "disputes among patients, clinicians, hospitals, insurers and health regulators",
  environmental:
    "conflicts over land, water, pollution, conservation or energy projects between users, communities and authorities",
  "business-to-business":
    "disputes between companies: supply, licensing, partnership, franchise or distribution contracts",
  "public-policy":
    "conflicts between governments, agencies and citizens' or interest groups over a public policy or its rollout",
  international: "disputes between states or across borders: trade, territory, resources, treaties",
  legal:
    "conflicts being fought, or about to be, in court or before a tribunal: employment, tenancy, liability, family or contract claims",
  "intra-organizational":
    "conflicts inside one organisation: between departments, management and staff, or co-founders",
};

/** The "do not report these again" paragraph, empty when nothing is excluded. */
export function exclusionsText(excluded: readonly string[]): string {
  if (excluded.length === 0) return "Any suitable dispute will do.";
  return ["These disputes are already collected; find a different one:", ...excluded.map((e) => `- ${e}`)].join("\n");
}

/** How an already-collected dispute is named to the searcher: its title and parties. */
export function disputeLabel(report: { title: string; parties: { name: string }[] }): string {
  return `${report.title} (${report.parties.map((p) => p.name).join(" vs ")})`;
}

export const WEB_SEARCH_TOOL = "web_search";
export const FETCH_PAGE_TOOL = "fetch_page";

/** The tools the searcher's model may call (search-tools source). */
export const SEARCH_TOOLS: ToolSpec[] = [
  {
    name: WEB_SEARCH_TOOL,
    description: "Search the web. Returns a few results, each with url, title and a snippet.",
    parameters: {
      type: "object",
      properties: { query: { type: "string", description: "what to search for" } },
      required: ["query"],
      additionalProperties: false,
    },
  },
  {
    name: FETCH_PAGE_TOOL,
    description: "Read a web page found by web_search. Returns its title and text, shortened if long.",
    parameters: {
      type: "object",
      properties: { url: { type: "string", description: "the page's url, from a search result" } },
      required: ["url"],
      additionalProperties: false,
    },
  },
];
