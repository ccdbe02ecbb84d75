/** The pure shaping behind the curation record on the research pages. */
import { describe, expect, it } from "vitest";
import {
  curationSummary,
  replayViews,
  safeHttpUrl,
  seedReportView,
  sourceLinks,
} from "../../../app/domain/curation/record-view.ts";

describe("curation record views", () => {
  it("lets only absolute http(s) URLs become links", () => {
    expect(safeHttpUrl("https://example.org/a?b=1")).toBe("https://example.org/a?b=1");
    expect(safeHttpUrl(" http://example.org ")).toBe("http://example.org/");
    for (const bad of [
      "javascript:alert(1)",
      "JAVASCRIPT:alert(1)",
      "data:text/html,<b>x</b>",
      "/relative",
      "example.org",
      "ftp://example.org",
      "",
      42,
      null,
    ])
      expect(safeHttpUrl(bad)).toBeNull();
    expect(sourceLinks([{ url: "javascript:alert(1)" }, { url: "https://a.example", title: "A" }])).toEqual([
      { href: null, text: "javascript:alert(1)" },
      { href: "https://a.example/", text: "A" },
    ]);
  });

  it("shows a report with missing or malformed fields as empty, never failing", () => {
    expect(seedReportView({ parties: "none", issues: ["x", 3], timeline: [{ date: "2020" }] }, "Fallback")).toEqual({
      title: "Fallback",
      summary: "",
      parties: [],
      issues: ["x"],
      timeline: [{ date: "2020", event: "" }],
      tensions: [],
      status: "",
    });
    expect(
      replayViews([
        { replay: 2, outcome: "impasse" },
        { replay: 1, outcome: "budget", runId: "r1" },
      ]),
    ).toEqual([
      { replay: 1, outcome: "budget", runId: "r1" },
      { replay: 2, outcome: "impasse", runId: null },
    ]);
  });

  it("counts accepted and rejected candidates by reason per domain", () => {
    const row = (domain: string, status: string, rejection: string | null = null) => ({
      domain,
      status,
      rejection,
      reason: rejection && `because ${rejection}`,
      seedTitle: `${domain} ${status}`,
    });
    const summary = curationSummary([
      row("legal", "accepted"),
      row("healthcare", "rejected", "resolved"),
      row("legal", "rejected", "invalid"),
      row("legal", "rejected", "invalid"),
    ]);
    expect(summary.map((d) => [d.domain, d.accepted, d.rejected])).toEqual([
      ["healthcare", 0, { resolved: 1 }],
      ["legal", 1, { invalid: 2 }],
    ]);
    expect(summary[1].rejectedCandidates).toEqual([
      { seedTitle: "legal rejected", rejection: "invalid", reason: "because invalid" },
      { seedTitle: "legal rejected", rejection: "invalid", reason: "because invalid" },
    ]);
  });
});
