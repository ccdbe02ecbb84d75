/**
 * The values the condition writer's templates (probe-*.md) are filled with. Pure functions of
 * the scenario and its seed, so a resumed probe sends identical requests and the LLM cache
 * answers them.
 */
import type { SeedReport } from "../curation/seed.ts";
import { seedReportText } from "../curation/writer-values.ts";
import type { TemplateValues } from "../prompts/template.ts";
import type { BaseScenario } from "./expand.ts";
import { TARGET_RATIO } from "./history.ts";
import type { NewParty } from "./three-party.ts";

export interface ProbeScenario extends BaseScenario {
  title: string;
}

const NO_SEED = "No seed report is stored for this scenario: work from the background above.";

const sourceText = (seed: SeedReport | null) => (seed ? seedReportText(seed) : NO_SEED);

function topicsText(s: BaseScenario): string {
  return s.topics
    .map((t) =>
      [`### ${t.name} (${t.id})`, t.description, ...t.options.map((o) => `- ${o.label}: ${o.description}`)].join("\n"),
    )
    .join("\n\n");
}

export function threePartyValues(s: ProbeScenario, seed: SeedReport | null): TemplateValues {
  return {
    title: s.title,
    background: s.background,
    topics: topicsText(s),
    parties: s.parties
      .map((p) => [`### ${p.name} (${p.id})`, `Role: ${p.role}`, `Relation: ${p.relation}`].join("\n"))
      .join("\n\n"),
    topic_ids: s.topics.map((t) => t.id).join(", "),
    party_ids: s.parties.map((p) => p.id).join(", "),
    source: sourceText(seed),
  };
}

export function partyWeightsValues(s: ProbeScenario, party: NewParty, introduction: string): TemplateValues {
  return {
    scenario: [`# ${s.title}`, `${s.background}\n\n${introduction}`, "## Topics", topicsText(s)].join("\n\n"),
    name: party.name,
    party_id: party.id,
    role: party.role,
    relation: party.relation,
    stances: s.topics.map((t) => `- Stance on ${t.id}: ${party.preferences[t.id] ?? "(none)"}`).join("\n"),
    topic_ids: s.topics.map((t) => t.id).join(", "),
  };
}

export function historyValues(s: ProbeScenario, seed: SeedReport | null): TemplateValues {
  const original = s.background.length;
  return {
    title: s.title,
    background: s.background,
    source: sourceText(seed),
    original_chars: String(original),
    entries_chars: String((TARGET_RATIO - 1) * original),
  };
}
