/** Shared set-up for the curation tests: seeds as the writer reads them, and a client on the mock. */
import type { Domain } from "../../../app/domain/bundle.ts";
import type { SeedReport } from "../../../app/domain/curation/seed.ts";
import type { Db } from "../../../app/server/db.server.ts";
import { createLlm } from "../../../app/server/llm/client.server.ts";
import { parseLlmConfig } from "../../../app/server/llm/config.server.ts";
import type { Llm } from "../../../app/domain/llm/types.ts";
import type { MockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { mockConfigJson } from "../../../app/server/llm/stand-in/config.server.ts";

export function seedReport(title: string): SeedReport {
  return {
    title,
    summary: `A real dispute about ${title}.`,
    parties: [
      { name: "Northwind Regional Health", description: "Operator of the hospital." },
      { name: "State Health Department", description: "The regulator." },
    ],
    issues: [
      "Keeping emergency care open",
      "Money for the receiving hospitals",
      "Jobs of the nurses at Northwind Regional Health",
    ],
    timeline: [
      { date: "March 2023", event: "Closure announced." },
      { date: "June 2024", event: "Regulator's hearing." },
    ],
    tensions: ["Operator losses against a statutory duty of care."],
    status: "Unresolved.",
    sources: [{ url: "https://example.org/news/1" }],
  };
}

export function writerSeed(title: string, domain: Domain = "healthcare") {
  return { id: `seed-${title.replace(/[^a-z0-9]+/gi, "-")}`, domain, title, report: seedReport(title) };
}

export function curationLlm(db: Db, mock: MockLlm, options: { structuredWriter?: boolean } = {}): Llm {
  const roles = options.structuredWriter ? { writer: { structuredOutput: true } } : undefined;
  return createLlm({
    db,
    config: parseLlmConfig(mockConfigJson(mock.url, { roles }), "test config"),
    sleep: async () => {},
  });
}
