import { describe, expect, it } from "vitest";
import {
  dedupeKeyOf,
  normaliseWords,
  seedReportSchema,
  webSeedReportSchema,
  type SeedReport,
} from "../../../app/domain/curation/seed.ts";

const report: SeedReport = {
  title: "Riverside Water Rights Dispute",
  summary: "Two towns contest the allocation of a river's water in a dry year.",
  parties: [
    { name: "Town of Alder", description: "Upstream farming town" },
    { name: "Birch City Council", description: "Downstream city" },
  ],
  issues: ["allocation in drought"],
  timeline: [{ date: "2021-06", event: "Upstream dam raised" }],
  tensions: ["state water board vs local councils"],
  status: "in arbitration",
  sources: [{ url: "https://example.org/water", title: "Water news" }],
};

describe("seed report schema", () => {
  it("accepts a complete report and rejects one with a single party", () => {
    expect(seedReportSchema.safeParse(report).success).toBe(true);
    const single = seedReportSchema.safeParse({ ...report, parties: [report.parties[0]] });
    expect(single.success).toBe(false);
    expect(JSON.stringify(single.error?.issues)).toContain("at least two parties");
  });

  it("lets an offline seed have no sources but requires one from the web", () => {
    expect(seedReportSchema.safeParse({ ...report, sources: [] }).success).toBe(true);
    expect(webSeedReportSchema.safeParse({ ...report, sources: [] }).success).toBe(false);
    expect(webSeedReportSchema.safeParse({ ...report, sources: [{ url: "not a url" }] }).success).toBe(false);
  });
});

describe("dedupeKeyOf", () => {
  it("gives the same dispute found twice one key", () => {
    const again = {
      ...report,
      title: "  the RIVERSIDE water-rights dispute! ",
      parties: [
        { name: "Birch City Council", description: "x" },
        { name: "Town of Alder", description: "y" },
      ],
    };
    expect(dedupeKeyOf(again)).toBe(dedupeKeyOf(report));
  });

  it("ignores accents and corporate suffixes", () => {
    const a = {
      title: "Café Workers v. Owner",
      parties: [
        { name: "Café Union", description: "" },
        { name: "Owner Inc.", description: "" },
      ],
    };
    const b = {
      title: "Cafe workers vs owner",
      parties: [
        { name: "Owner", description: "" },
        { name: "cafe union", description: "" },
      ],
    };
    expect(dedupeKeyOf(a)).toBe(dedupeKeyOf(b));
  });

  it("gives different disputes different keys", () => {
    const other = { ...report, parties: [report.parties[0], { name: "Cedar Farms", description: "z" }] };
    expect(dedupeKeyOf(other)).not.toBe(dedupeKeyOf(report));
    expect(dedupeKeyOf({ ...report, title: "Harbour dredging dispute" })).not.toBe(dedupeKeyOf(report));
  });

  it("normalises words", () => {
    expect(normaliseWords("The Müller–Smith Case (2020)")).toBe("muller smith 2020");
  });
});
