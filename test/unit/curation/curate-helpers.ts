/** Seed folders for the `socrates curate` tests. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Domain } from "../../../app/domain/bundle.ts";

const TOPICS = [
  "ward closures",
  "shift pay",
  "land access",
  "water quotas",
  "late delivery",
  "a licence renewal",
  "data sharing",
  "a merger vote",
  "rent arrears",
  "a recall",
  "border tolls",
  "noise limits",
];

/** A folder of seed reports in the `files` source's format, `count` per domain, each a distinct dispute. */
export function writeSeedFolder(
  dir: string,
  domains: Domain[],
  count: number,
  marks: Record<string, string> = {},
): void {
  for (const domain of domains) {
    mkdirSync(join(dir, domain), { recursive: true });
    for (let i = 0; i < count; i++) {
      const topic = TOPICS[i % TOPICS.length];
      // A mark (e.g. "[writer:weights-sum-9]") makes the stand-in writer break a rule for this seed.
      const mark = marks[`${domain}/${i + 1}`];
      const title = `${domain} dispute ${i + 1} over ${topic}${mark ? ` ${mark}` : ""}`;
      const text = [
        "---",
        `domain: ${domain}`,
        `title: ${title}`,
        "---",
        "## Summary",
        `Two organisations in the ${domain} field have been at odds over ${topic} for two years.`,
        "## Parties",
        `- Aldermoor Company ${i + 1}: the operator, under financial pressure.`,
        `- Brightwell Agency ${i + 1}: the regulator, bound by statute.`,
        "## Issues",
        `- Who pays for ${topic}`,
        "- How fast the change happens",
        "- Who answers for past failures",
        "## Timeline",
        `- 12 May 2021: the dispute over ${topic} began.`,
        "- 3 February 2023: talks broke down.",
        "## Tensions",
        "- Financial pressure against a statutory mandate.",
        "## Status",
        "Unresolved; a hearing is scheduled.",
        "## Sources",
        `- https://example.org/${domain}/${i + 1}`,
        "",
      ].join("\n");
      writeFileSync(join(dir, domain, `seed-${String(i + 1).padStart(2, "0")}.md`), text);
    }
  }
}
