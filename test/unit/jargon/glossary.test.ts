import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { GLOSSARY, docsReference, glossaryAnchor, glossaryEntry, headingAnchor } from "../../../app/domain/glossary.ts";
import { PARAM_SPECS } from "../../../app/domain/metrics/metric-params.ts";
import { METRIC_IDS } from "../../../app/domain/metrics/registry.ts";

/** The anchors GitHub gives a Markdown file's headings (outside code fences). */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(resolve(file), "utf8").split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (m) anchors.add(headingAnchor(m[1]));
  }
  return anchors;
}

describe("glossary", () => {
  it("names, for every entry, a heading that exists in its docs file", () => {
    const anchors = new Map<string, Set<string>>();
    const missing = GLOSSARY.filter((e) => {
      if (!anchors.has(e.doc)) anchors.set(e.doc, anchorsOf(e.doc));
      return !anchors.get(e.doc)?.has(headingAnchor(e.heading));
    }).map((e) => `${e.key}: ${docsReference(e)}`);
    expect(missing).toEqual([]);
  });

  it("makes GitHub's anchors from headings", () => {
    expect(headingAnchor("Definitions, as implemented")).toBe("definitions-as-implemented");
    expect(headingAnchor("Trajectory and consensus C[t]")).toBe("trajectory-and-consensus-ct");
    expect(headingAnchor("Human validation: alignment and agreement")).toBe("human-validation-alignment-and-agreement");
    expect(docsReference(glossaryEntry("IT"))).toBe("docs/metrics.md#the-metrics-one-by-one");
    expect(docsReference(glossaryEntry("ER"))).toBe("docs/metrics-emotion.md#the-metrics");
  });

  it("has an entry for every registered metric and every metric parameter", () => {
    const keys = new Set(GLOSSARY.map((e) => e.key));
    expect(METRIC_IDS.filter((id) => !keys.has(id))).toEqual([]);
    expect([...PARAM_SPECS.keys()].filter((k) => !keys.has(k))).toEqual([]);
    // A parameter's glossary symbol is the one the pages print (the descriptor's).
    for (const [key, spec] of PARAM_SPECS) expect(glossaryEntry(key).symbol, key).toBe(spec.symbol);
  });

  it("gives each entry one distinct page anchor and some text", () => {
    const ids = GLOSSARY.map((e) => glossaryAnchor(e.key));
    expect(new Set(ids).size).toBe(ids.length);
    for (const e of GLOSSARY) expect(e.text.length, e.key).toBeGreaterThan(10);
    expect(() => glossaryEntry("nonsense")).toThrow(/no glossary entry "nonsense"/);
  });
});
