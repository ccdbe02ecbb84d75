/**
 * The worked examples of docs/metrics.md "Human-scale quantities", read from the page: each
 * `human-scale-example` block's expert and judge scores are fed to runQuantities
 * (app/domain/estimation/run-quantities.ts) and the four stated values checked, so the page and the
 * code agree.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runQuantities, type RunQuantity } from "../../../app/domain/estimation/run-quantities.ts";
import type { AlignmentItem } from "../../../app/domain/validation/alignment-table.ts";

interface Block {
  line: number;
  fields: Map<string, string>;
}

function blocks(text: string): Block[] {
  const lines = text.split("\n");
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== "```human-scale-example") continue;
    const fields = new Map<string, string>();
    const line = i + 1;
    for (i++; lines[i].trim() !== "```"; i++) {
      const m = /^([^:]+):(.*)$/.exec(lines[i]);
      if (!m) throw new Error(`docs/metrics.md:${i + 1}: expected "key: value"`);
      fields.set(m[1].trim(), m[2].trim());
    }
    out.push({ line, fields });
  }
  return out;
}

const value = (text: string): number | null => {
  if (text === "none") return null;
  const f = /^(\d+)\/(\d+)$/.exec(text);
  return f ? Number(f[1]) / Number(f[2]) : Number(text);
};

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

const examples = blocks(readFileSync("docs/metrics.md", "utf8"));

describe("docs/metrics.md human-scale worked examples", () => {
  it("has at least one, including a run without a complete trajectory", () => {
    expect(examples.length).toBeGreaterThanOrEqual(2);
    expect(examples.some((e) => e.fields.get("expert trajectory") === "none")).toBe(true);
  });

  for (const example of examples) {
    it(`docs/metrics.md:${example.line}`, () => {
      const f = example.fields;
      const ends = (f.get("snippet ends") ?? "").split(/\s+/).map(Number);
      const topics = [...f.keys()].filter((k) => k.startsWith("expert.")).map((k) => k.slice("expert.".length));
      const items: AlignmentItem[] = ends.map((endTurn, i) => ({
        itemId: i,
        runId: "doc",
        snippetPosition: i + 1,
        isLastSnippet: i === ends.length - 1,
        endTurn,
        topicIds: topics,
        isGold: false,
      }));
      const perSnippet = (key: string) => (f.get(key) ?? "").split(/\s+/);
      const expert = runQuantities(items, (item, k) => {
        const cell = perSnippet(`expert.${k}`)[item.snippetPosition - 1];
        return cell === "-" ? null : mean(cell.split(",").map(Number));
      }).get("doc")!;
      const judge = runQuantities(items, (item, k) => Number(perSnippet(`judge.${k}`)[item.snippetPosition - 1])).get(
        "doc",
      )!;
      for (const q of ["outcome", "trajectory"] as RunQuantity[]) {
        for (const [who, got] of [
          ["expert", expert[q]],
          ["judge", judge[q]],
        ] as const) {
          const stated = value(f.get(`${who} ${q}`) ?? "");
          if (stated === null) expect(got, `${who} ${q}`).toBeNull();
          else expect(got, `${who} ${q}`).toBeCloseTo(stated, 12);
        }
      }
    });
  }
});
