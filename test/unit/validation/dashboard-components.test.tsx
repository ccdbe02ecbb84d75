// The dashboard's display components, rendered to HTML from the validation modules' real output.
import { describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import {
  AgreementPanel,
  AlignmentTable,
  AnnotatorTable,
  FidelityTable,
  ProgressPanel,
  TrendChart,
  formatCi,
  formatCoefficient,
  formatP,
  formatSeconds,
} from "../../../app/components/dashboard/index.ts";
import {
  abSummary,
  alignmentTable,
  consensusAgreement,
  consensusTrend,
  flagAnnotators,
  goldAccuracy,
  seriesLookup,
  studyProgress,
  summarizeAgreement,
  type AbItem,
} from "../../../app/domain/validation/index.ts";
import { consensusCharts } from "../../../app/task-types/consensus-snippet/dashboard.server.ts";
import { item, label } from "./fixtures.ts";
import { alignmentSummary } from "../../../app/domain/validation/alignment-summary.ts";

const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

describe("number formats", () => {
  it("shows r and alpha to 3 decimals, small p in scientific notation", () => {
    expect(formatCoefficient(0.87654)).toBe("0.877");
    expect(formatCoefficient(-0.12345)).toBe("−0.123");
    expect(formatCoefficient(null)).toBe("—");
    expect(formatP(0.0123)).toBe("0.012");
    expect(formatP(0.001)).toBe("0.001");
    expect(formatP(0.0000423)).toBe("4.2e−5");
    expect(formatCi([0.1234, -0.5])).toBe("[0.123, −0.500]");
    expect(formatSeconds(42.4)).toBe("42 s");
    expect(formatSeconds(185)).toBe("3 min 05 s");
  });
});

// A small consensus study: two runs, experts e1–e3 (e3 careless), one crowd worker.
const items = [
  item(1, "r1", 1, { endTurn: 3 }),
  item(2, "r1", 2, { endTurn: 6, last: true }),
  item(3, "r2", 1, { endTurn: 3 }),
  item(4, "r2", 2, { endTurn: 6, last: true }),
  item(9, "g", 1, { gold: true }),
];
const labels = [
  label(1, "e1", "expert", { T1: 1, T2: 2 }, 40),
  label(1, "e2", "expert", { T1: 2, T2: 2 }, 65),
  label(1, "e3", "expert", { T1: 5, T2: 1 }, 5),
  label(2, "e1", "expert", { T1: 4, T2: 4 }, 30),
  label(2, "e2", "expert", { T1: 4, T2: 5 }, 50),
  label(3, "e1", "expert", { T1: 2, T2: 3 }, 35),
  label(3, "e3", "expert", { T1: 1, T2: 5 }, 4),
  label(4, "e2", "expert", { T1: 5, T2: 4 }, 70),
  label(4, "e3", "expert", { T1: 2, T2: 1 }, 6),
  label(9, "e1", "expert", { T1: 3, T2: 3 }),
  label(9, "e3", "expert", { T1: 5, T2: 5 }),
  label(1, "c1", "crowd", { T1: 2, T2: 2 }),
];
const series = ["r1", "r2"].flatMap((runId) =>
  ["T1", "T2"].map((topicId, k) => ({ runId, topicId, values: [1, 1, 2, 2, 3, 4, 4 + k].map((v) => Math.min(v, 5)) })),
);

describe("dashboard components", () => {
  it("ProgressPanel shows the stacked bar and the counts, or an empty state", () => {
    const progress = studyProgress(items, labels, [{ itemId: 4, annotatorId: "e1" }], 3);
    const html = renderToStaticMarkup(<ProgressPanel progress={progress} />);
    // Complete: item 1 (3 labels); in progress: 2, 3, 4, 9 (fewer than 3); open: none.
    expect(html).toContain('class="progress-complete" style="width:20%"');
    expect(html).toContain('class="progress-inProgress" style="width:80%"');
    expect(html).not.toContain('class="progress-open" style');
    expect(text(html)).toContain("1 complete");
    expect(text(html)).toContain("of 5 items · 12 labels · 3 per item to complete");
    expect(renderToStaticMarkup(<ProgressPanel progress={studyProgress([], [], [], 2)} />)).toContain("No items yet");
  });

  it("AgreementPanel shows alpha per level with its CI, side by side without flagged annotators", () => {
    const all = consensusAgreement(items, labels, { pool: "expert", draws: 200 });
    const without = consensusAgreement(items, labels, { pool: "expert", exclude: ["e3"], draws: 200 });
    const html = renderToStaticMarkup(
      <AgreementPanel agreement={summarizeAgreement(all)} withoutFlagged={summarizeAgreement(without)} />,
    );
    const t = text(html);
    expect(t).toContain("All annotators");
    expect(t).toContain("Without flagged");
    expect(t).toContain(
      `interval ${formatCoefficient(all.interval.result.alpha)} ${formatCi(all.interval.bootstrap.ci)}`,
    );
    expect(t).toContain(`${formatCoefficient(without.ordinal.result.alpha)} ${formatCi(without.ordinal.bootstrap.ci)}`);
    expect(t).toContain("3 · 8 (8)");
    expect(t).toContain("200 draws, seed 1");
    expect(t).toContain("e3 left out");
    // Without exclusions, one pair of columns only.
    expect(text(renderToStaticMarkup(<AgreementPanel agreement={summarizeAgreement(all)} />))).not.toContain(
      "Without flagged",
    );
    const empty = consensusAgreement(items, [], { pool: "crowd", draws: 100 });
    expect(renderToStaticMarkup(<AgreementPanel agreement={summarizeAgreement(empty)} />)).toContain("No labels yet");
  });

  it("AlignmentTable shows r, p, n and CI per row, and — with the reason when r is undefined", () => {
    const table = alignmentTable(items, labels, { evaluators: [{ backbone: "gpt-x", valueAt: seriesLookup(series) }] });
    const html = renderToStaticMarkup(<AlignmentTable table={alignmentSummary(table)} />);
    const t = text(html);
    const [evaluator, crowd] = table.rows;
    expect(evaluator.trajectory.r).not.toBeNull();
    expect(t).toContain(
      `Topic-localized evaluator (gpt-x) ${formatCoefficient(evaluator.trajectory.r)} ${formatP(evaluator.trajectory.p)} ${evaluator.trajectory.n} ${formatCi(evaluator.trajectory.ci)}`,
    );
    // The crowd labelled one snippet: two units, too few for r.
    expect(crowd.trajectory.r).toBeNull();
    expect(t).toContain(
      "Non-expert pool (crowd mean) 6 of 8 units without a value — n = 2: at least 3 pairs are needed",
    );
    expect(
      renderToStaticMarkup(<AlignmentTable table={alignmentSummary(alignmentTable(items, [], { evaluators: [] }))} />),
    ).toContain("No expert labels yet");
  });

  it("TrendChart inlines Figure 5 as the server draws it, every series named, or an empty state", async () => {
    const table = alignmentTable(items, labels, { evaluators: [{ backbone: "gpt-x", valueAt: seriesLookup(series) }] });
    const { trend } = await consensusCharts(consensusTrend(table), table);
    const html = renderToStaticMarkup(<TrendChart chart={trend} />);
    expect(html).toContain('data-testid="trend-chart"');
    expect(html).toContain("<svg");
    expect(html).not.toContain("<script");
    // One line per series: expert mean, evaluator, crowd (its single point is a line of one), in each drawing.
    expect(trend?.svg.match(/class="mark-line role-mark/g)).toHaveLength(3);
    expect(trend?.narrowSvg.match(/class="mark-line role-mark/g)).toHaveLength(3);
    expect(html).toContain("Show data");
    for (const name of ["Expert mean", "Topic-localized evaluator (gpt-x)", "Non-expert pool (crowd mean)"])
      expect(text(html)).toContain(name);
    expect(text(html)).toContain("snippet position");
    const empty = alignmentTable(items, [], { evaluators: [] });
    expect(await consensusCharts(consensusTrend(empty), empty)).toEqual({});
    expect(renderToStaticMarkup(<TrendChart chart={undefined} />)).toContain("No labels yet");
  });

  it("AnnotatorTable shows counts, median time, gold accuracy and a flag", () => {
    const progress = studyProgress(items, labels, [], 2);
    const gold = goldAccuracy({ "consensus-snippet": [{ itemId: 9, reference: { T1: 3, T2: 3 } }] }, labels);
    const flagged = flagAnnotators(gold, 0.7, 1);
    expect(flagged).toEqual(["e3"]);
    const t = text(
      renderToStaticMarkup(
        <AnnotatorTable progress={progress} gold={gold} flagged={flagged} names={{ e1: "Dr. One" }} />,
      ),
    );
    expect(t).toContain("Dr. One 4 1 0 35 s 100% (1/1)"); // e1: median of 40, 30, 35 (gold label untimed)
    expect(t).toContain("e3 flagged 4 1 0 5 s 0% (0/1)");
    expect(t).toContain("c1 1 0 0 — no gold yet");
    expect(
      renderToStaticMarkup(<AnnotatorTable progress={studyProgress(items, [], [], 2)} gold={[]} flagged={[]} />),
    ).toContain("No labels yet");
  });

  it("FidelityTable shows pairs, correct, no majority and fidelity per backbone", () => {
    const abItems: AbItem[] = [
      { itemId: 1, pairId: "p1", backbone: "ds", levelA: 1, levelB: 0, isGold: false },
      { itemId: 2, pairId: "p2", backbone: "gpt", levelA: 0, levelB: 1, isGold: false },
      { itemId: 3, pairId: "p3", backbone: "gpt", levelA: 0, levelB: 1, isGold: false },
    ];
    const ab = (itemId: number, annotatorId: string, choice: "A" | "B") => ({
      itemId,
      annotatorId,
      payload: { kind: "ab-reactiveness" as const, choice },
    });
    const summary = abSummary(abItems, [ab(1, "u1", "A"), ab(1, "u2", "A"), ab(2, "u1", "B"), ab(2, "u2", "A")], {
      draws: 100,
    });
    // The automatic proxy beside it: ds's runs carry no emotion; gpt's both pairs are measured.
    const proxyRow = (
      backbone: string,
      pairs: number,
      measuredPairs: number,
      ordered: number,
      r: number | null,
      p: number | null,
    ) => ({
      backbone,
      pairs,
      measuredPairs,
      ordered,
      ties: 0,
      agreement: measuredPairs ? ordered / measuredPairs : null,
      observations: measuredPairs * 2,
      r,
      p,
    });
    const proxy = {
      byBackbone: [proxyRow("ds", 1, 0, 0, null, null), proxyRow("gpt", 2, 2, 1, 0.8, 0.2)],
      overall: proxyRow("all", 3, 2, 1, 0.8, 0.2),
    };
    const t = text(renderToStaticMarkup(<FidelityTable summary={{ ...summary, proxy }} />));
    expect(t).toContain("ds 1 1 0 2 100%");
    expect(t).toContain("gpt 1 0 1 2 0%");
    expect(t).toContain("All backbones 2 1 1 4 50%");
    expect(t).toContain("1 pair without labels yet");
    // Table 1 layout: nominal alpha with its CI and pairable units per backbone. ds: one unit, both
    // labels A (no variation: undefined); gpt: one unit split A/B (alpha 0).
    expect(t).toContain("Fidelity Nominal α 95% CI n units");
    expect(t).toContain("ds 1 1 0 2 100% — — 1");
    expect(t).toContain("gpt 1 0 1 2 0% 0.000 [0.000, 0.000] 1");
    expect(t).toContain("n units Measured pairs Auto agreement Auto r (p)");
    expect(t).toContain("ds 1 1 0 2 100% — — 1 0 of 1 — —");
    expect(t).toContain("gpt 1 0 1 2 0% 0.000 [0.000, 0.000] 1 2 of 2 50% 0.800 (0.200)");
    expect(t).toContain("Auto agreement: the share of measured pairs");
    expect(t).not.toContain("carries emotion yet");
    const agreement = text(renderToStaticMarkup(<AgreementPanel agreement={summarizeAgreement(summary)} />));
    expect(agreement).toContain("nominal");
    expect(agreement).toContain("Units: A/B pairs");
    // No crowd choices yet: the proxy alone; and where no run carries emotion, the note says how to get it.
    const unlabelled = text(
      renderToStaticMarkup(<FidelityTable summary={{ ...abSummary(abItems, [], { draws: 100 }), proxy }} />),
    );
    expect(unlabelled).toContain("No A/B labels yet");
    expect(unlabelled).toContain("gpt 2 of 2 50% 0.800 (0.200)");
    const unmeasured = {
      byBackbone: [proxyRow("ds", 1, 0, 0, null, null)],
      overall: proxyRow("all", 1, 0, 0, null, null),
    };
    expect(text(renderToStaticMarkup(<FidelityTable summary={{ ...summary, proxy: unmeasured }} />))).toContain(
      "runs carries emotion yet, hence the dashes",
    );
  });
});
