/**
 * The values the scenario writer's templates are filled with: a seed report and a written
 * scenario as plain text. Pure functions of their input, so the same seed always yields the
 * same prompt and a resumed curation is answered from the LLM cache.
 */
import type { TemplateValues } from "../prompts/template.ts";
import type { SeedReport } from "./seed.ts";
import type { WriterReply } from "./writer.ts";

const bullets = (items: string[]) => (items.length > 0 ? items.map((i) => `- ${i}`).join("\n") : "- (none recorded)");

export function seedReportText(report: SeedReport): string {
  return [
    `# ${report.title}`,
    report.summary,
    `## Parties\n${bullets(report.parties.map((p) => `${p.name}: ${p.description}`))}`,
    `## Contested issues\n${bullets(report.issues)}`,
    `## Timeline\n${bullets(report.timeline.map((e) => `${e.date}: ${e.event}`))}`,
    `## Institutional tensions\n${bullets(report.tensions)}`,
    `## Status\n${report.status}`,
  ].join("\n\n");
}

export function writerValues(domain: string, report: SeedReport): TemplateValues {
  return { domain, report: seedReportText(report) };
}

/** The scenario as the weights call sees it: background, topics with options, each party with its stances. */
export function weightsValues(reply: WriterReply): TemplateValues {
  const topics = reply.topics.map((t) =>
    [`### ${t.name} (${t.id})`, t.description, ...t.options.map((o) => `- ${o.label}: ${o.description}`)].join("\n"),
  );
  const parties = reply.parties.map((p) =>
    [
      `### ${p.name} (${p.id})`,
      `Role: ${p.role}`,
      `Relation: ${p.relation}`,
      ...reply.topics.map((t) => `- Stance on ${t.id}: ${p.preferences[t.id] ?? "(none)"}`),
    ].join("\n"),
  );
  return {
    scenario: [`# ${reply.title}`, reply.background, "## Topics", ...topics, "## Parties", ...parties].join("\n\n"),
    topic_ids: reply.topics.map((t) => t.id).join(", "),
    party_ids: reply.parties.map((p) => p.id).join(", "),
  };
}
