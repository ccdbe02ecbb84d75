import { describe, expect, it } from "vitest";
import { parseSeedFile, splitFrontMatter } from "../../../app/domain/curation/seed-file.ts";

const structured = `---
domain: healthcare
title: Harbour hospital maternity closure
---
## Summary
A hospital operator wants to close its maternity unit;
the county regulator objects.

## Stakeholders
- Harbour Health Trust: the operator, losing money on the unit
- **County Health Board** — the regulator with a statutory duty

## Contested issues
- emergency access for rural mothers
- staff redeployment

## Timeline
- 2022-01: closure announced
- 2022-06 – public hearing

## Tensions
- financial pressure against a statutory mandate

## Status
Unresolved; a judicial review is pending.

## Sources
- [Local paper report](https://news.example.org/harbour)
- https://board.example.gov/minutes Board minutes
`;

describe("seed files", () => {
  it("reads the front matter and every section of a structured report", () => {
    const parsed = parseSeedFile(structured);
    expect(parsed.kind).toBe("report");
    if (parsed.kind !== "report") return;
    expect(parsed.domain).toBe("healthcare");
    expect(parsed.report).toEqual({
      title: "Harbour hospital maternity closure",
      summary: "A hospital operator wants to close its maternity unit; the county regulator objects.",
      parties: [
        { name: "Harbour Health Trust", description: "the operator, losing money on the unit" },
        { name: "County Health Board", description: "the regulator with a statutory duty" },
      ],
      issues: ["emergency access for rural mothers", "staff redeployment"],
      timeline: [
        { date: "2022-01", event: "closure announced" },
        { date: "2022-06", event: "public hearing" },
      ],
      tensions: ["financial pressure against a statutory mandate"],
      status: "Unresolved; a judicial review is pending.",
      sources: [
        { url: "https://news.example.org/harbour", title: "Local paper report" },
        { url: "https://board.example.gov/minutes", title: "Board minutes" },
      ],
    });
  });

  it("takes the domain from the folder and the title from the # heading", () => {
    const parsed = parseSeedFile(structured.replace(/^---[\s\S]*?---\n/, "# Harbour closure\n"), "legal");
    expect(parsed).toMatchObject({ kind: "report", domain: "legal", report: { title: "Harbour closure" } });
  });

  it("treats a file without a Parties section as free text for the model", () => {
    const parsed = parseSeedFile(
      "---\ndomain: legal\n---\n# A tenancy fight\nNotes I took about a landlord and tenants...",
      "misc",
    );
    expect(parsed).toEqual({
      kind: "free-text",
      domain: "legal",
      title: "A tenancy fight",
      text: "# A tenancy fight\nNotes I took about a landlord and tenants...",
    });
  });

  it("names what is missing in an incomplete report", () => {
    const parsed = parseSeedFile(
      "# Lone party\n## Parties\n- Only one: alone\n## Summary\nx\n## Status\nopen\n## Issues\n- y",
    );
    expect(parsed.kind).toBe("invalid");
    if (parsed.kind === "invalid")
      expect(parsed.errors.join("\n")).toContain("parties: a dispute has at least two parties");
  });

  it("splits front matter only at the very top", () => {
    expect(splitFrontMatter("text\n---\na: b\n---\n").fields).toEqual({});
  });
});
