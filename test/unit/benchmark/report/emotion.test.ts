/**
 * The emotion part of the report on hand-made subjects with known means: emotional repair per
 * mediator × condition (emotion axis first), the per-mediator summary beside the unmediated
 * runs, the figure's rows, the warning without emotion; Table 1's automatic proxy; the
 * leaderboard's emotional-repair column.
 */
import { describe, expect, it } from "vitest";
import { isReportCell, type ReportTable, type ReportValue } from "../../../../app/domain/benchmark/report-model.ts";
import { leaderboard, withLeaderboardColumn } from "../../../../app/domain/benchmark/report-view.ts";
import { buildReportParts } from "../../../../app/domain/benchmark/report/build.ts";
import { DEFAULT_BOOTSTRAP } from "../../../../app/domain/benchmark/report/cells.ts";
import { ALL_CONDITIONS, NO_EMOTION_WARNING, UNMEDIATED_ROW } from "../../../../app/domain/benchmark/report/emotion.ts";
import { figureRows } from "../../../../app/domain/benchmark/report/format.ts";
import type {
  ReportInput,
  ReportSubject,
  RunEmotion,
  RunPlace,
} from "../../../../app/domain/benchmark/report/input.ts";
import { AVG } from "../../../../app/domain/benchmark/report/rows.ts";
import type { StudyResults } from "../../../../app/domain/benchmark/report/studies.ts";
import { buildEmotionRepairFigure } from "../../../../app/report-parts/emotion-repair-figure.ts";
import { buildEmotionRepairTable } from "../../../../app/report-parts/emotion-repair.ts";
import { buildEmotionSummaryTable } from "../../../../app/report-parts/emotion-summary.ts";
import { REPORT_PARTS } from "../../../../app/report-parts/registry.ts";
import { buildTable1Proxy } from "../../../../app/report-parts/table1proxy.ts";
import { reportCell } from "./recompute.ts";

/** The emotion section of the registry: its tables and figure, built as the report builds them. */
const buildEmotionParts = (input: ReportInput) =>
  buildReportParts(
    input,
    REPORT_PARTS.filter((p) => p.section === "emotion"),
  );

const emotion = (values: Partial<RunEmotion>): RunEmotion => ({
  source: "self-report",
  ER: null,
  EF: null,
  EV: null,
  EC: null,
  interventions: [],
  ...values,
});

let counter = 0;
function place(conditionKey: string, scenarioId: string, e: RunEmotion | null): RunPlace {
  const [axis, variant] = conditionKey === "general" ? ["general", "default"] : conditionKey.split(":");
  return {
    runId: `run-${++counter}`,
    scenarioId,
    domain: "transactional",
    conditionKey,
    axis,
    variant,
    part: "main",
    simulator: "sim",
    runIndex: 0,
    emotion: e,
  };
}
function subject(mediator: string, conditionKey: string, scenarioId: string, e: RunEmotion | null): ReportSubject {
  return { ...place(conditionKey, scenarioId, e), mediator, IF: null, FI: null, judged: {} };
}

function input(subjects: ReportSubject[], unmediated: RunPlace[]): ReportInput {
  return {
    planName: "p",
    planHash: "h",
    evaluators: ["judge"],
    simulator: "sim",
    ablationSimulators: [],
    mediators: [
      { name: "alpha", mode: "generic" },
      { name: "beta", mode: "social" },
    ],
    subjects,
    unmediated,
    conditions: { selected: [], scenarios: [] },
    bootstrap: DEFAULT_BOOTSTRAP,
    bins: 5,
  };
}

/**
 * alpha: emotion:CC ER 0.2 (s1), 0.4 (s2) → mean 0.3, n 2; emotion:RR ER −0.1 (s1), null (s2,
 * missing) → mean −0.1, n 1, missing 1; general: no trajectory (not counted); strategy:competing
 * ER 0.5. All: (0.2 + 0.4 − 0.1 + 0.5) / 4 = 0.25, n 4, missing 1.
 * beta: emotion:CC ER 0.1 (s1) → 0.1; general ER 0 (s1). All: 0.05.
 */
function handInput(): ReportInput {
  const subjects = [
    subject("alpha", "emotion:CC", "s1", emotion({ ER: 0.2, EF: 0.6, EV: 0.1, EC: 0.5 })),
    subject("alpha", "emotion:CC", "s2", emotion({ ER: 0.4, EF: 0.8, EV: 0.3, EC: 0.3 })),
    subject("alpha", "emotion:RR", "s1", emotion({ ER: -0.1, EF: 0.4, EV: 0.2, EC: null })),
    subject("alpha", "emotion:RR", "s2", emotion({ ER: null, EF: null, EV: null, EC: null })),
    subject("alpha", "general", "s1", null),
    subject("alpha", "strategy:competing", "s2", emotion({ ER: 0.5, EF: 0.7, EV: 0.0, EC: 0.1 })),
    subject("beta", "emotion:CC", "s1", emotion({ ER: 0.1, EF: 0.5, EV: 0.4, EC: -0.2 })),
    subject("beta", "general", "s1", emotion({ ER: 0, EF: 0.3, EV: 0.2, EC: 0 })),
  ];
  const unmediated = [
    place("emotion:CC", "s1", emotion({ EF: 0.2, EV: 0.5, EC: 0.4 })),
    place("emotion:CC", "s2", emotion({ EF: 0.4, EV: 0.3, EC: 0.2 })),
    place("general", "s1", null),
  ];
  return input(subjects, unmediated);
}

/** A text (not mean) cell's number. */
const textValue = (v: ReportValue | undefined) => {
  if (v === undefined || isReportCell(v)) throw new Error("expected a text cell");
  return v.value;
};
const textOf = (v: ReportValue | undefined) => (v && !isReportCell(v) ? v.text : "");
const close = (actual: number | null, expected: number) => expect(actual).toBeCloseTo(expected, 12);

describe("the report's emotion tables and figure", () => {
  it("ER per mediator × condition: the emotion axis first, then general and the other conditions, then all", () => {
    const table = buildEmotionRepairTable(handInput());
    expect(table.columns.map((c) => c.key)).toEqual([
      "emotion:CC",
      "emotion:RR",
      "general",
      "strategy:competing",
      ALL_CONDITIONS,
    ]);
    expect(table.columns.slice(0, 2).every((c) => c.group === "emotion axis")).toBe(true);
    expect(table.rows.map((r) => r.key)).toEqual(["alpha", "beta", AVG]);

    const cc = reportCell(table, "alpha", "emotion:CC");
    close(cc.mean, 0.3);
    expect([cc.n, cc.missing]).toEqual([2, 0]);
    expect(cc.ci).not.toBeNull(); // two scenarios
    const rr = reportCell(table, "alpha", "emotion:RR");
    close(rr.mean, -0.1);
    expect([rr.n, rr.missing, rr.ci]).toEqual([1, 1, null]);
    const general = reportCell(table, "alpha", "general");
    expect([general.mean, general.n, general.missing]).toEqual([null, 0, 0]); // no trajectory: not counted
    const all = reportCell(table, "alpha", ALL_CONDITIONS);
    close(all.mean, 0.25);
    expect([all.n, all.missing]).toEqual([4, 1]);
    close(reportCell(table, "beta", ALL_CONDITIONS).mean, 0.05);
    // Average row: every mediator's runs pooled: (0.2 + 0.4 − 0.1 + 0.5 + 0.1 + 0) / 6.
    close(reportCell(table, AVG, ALL_CONDITIONS).mean, 1.1 / 6);
    expect(table.caption).toContain("self-report");
  });

  it("the summary gives ER, EF, EV and EC per mediator and the unmediated runs' EF, EV, EC", () => {
    const table = buildEmotionSummaryTable(handInput());
    expect(table.rows.map((r) => r.key)).toEqual(["alpha", "beta", UNMEDIATED_ROW]);
    close(reportCell(table, "alpha", "ER").mean, 0.25);
    close(reportCell(table, "alpha", "EF").mean, (0.6 + 0.8 + 0.4 + 0.7) / 4);
    close(reportCell(table, "alpha", "EV").mean, (0.1 + 0.3 + 0.2 + 0) / 4);
    close(textValue(table.rows[0].cells.EC), (0.5 + 0.3 + 0.1) / 3);
    expect(textOf(table.rows[0].cells.EC)).toMatch(/^0\.30 \[.*\] \(3, 2 missing\)$/);

    const base = table.rows[2];
    expect(base.cells.ER).toEqual({ text: "n/a", value: null });
    close(reportCell(table, UNMEDIATED_ROW, "EF").mean, 0.3);
    close(reportCell(table, UNMEDIATED_ROW, "EV").mean, 0.4);
    expect(reportCell(table, UNMEDIATED_ROW, "EF").n).toBe(2);
    close(textValue(base.cells.EC), 0.3);
    // alpha's EC: 0.5, 0.3, null, null (RR s2 has no value), 0.1 → "0.30 [lo, hi] (3, 1 missing)"; beta's −0.2, 0 →
    // −0.10, both in scenario s1, so no interval.
    expect(textOf(table.rows[1].cells.EC)).toBe("-0.10 (2)");
  });

  it("the figure shows ER ×100 on the emotion axis per mediator, with n", () => {
    const figure = buildEmotionRepairFigure(handInput())!;
    const rows = figureRows(figure);
    expect(rows.map((r) => [r.mediator, r.variant, r.er, r.n])).toEqual([
      ["alpha", "CC", 30, 2],
      ["alpha", "RR", -10, 1],
      ["beta", "CC", 10, 1],
    ]);
  });

  it("without any emotion trajectory: no emotion table or figure, one warning naming how to get them", () => {
    const bare = input([subject("alpha", "emotion:CC", "s1", null)], [place("emotion:CC", "s1", null)]);
    expect(buildEmotionParts(bare)).toEqual({ tables: [], figures: [], warnings: [NO_EMOTION_WARNING] });
    expect(NO_EMOTION_WARNING).toMatch(/plan's `emotion` field.*socrates evaluate --method emotion/);
    const parts = buildReportParts(handInput(), REPORT_PARTS);
    expect(parts.tables.map((t) => t.id)).toContain("emotion-repair");
    expect(parts.figures.map((f) => f.id)).toContain("emotion-repair-figure");
    expect(parts.warnings).not.toContain(NO_EMOTION_WARNING);
  });

  it("emotion off the emotion axis only: the tables without the figure, with a warning", () => {
    const parts = buildEmotionParts(input([subject("alpha", "general", "s1", emotion({ ER: 0.1 }))], []));
    expect(parts.tables).toHaveLength(2);
    expect(parts.figures).toEqual([]);
    expect(parts.warnings).toEqual([expect.stringContaining("no emotion-axis")]);
  });

  it("the leaderboard takes its Emotional repair column from the repair table's all-conditions column", () => {
    const repair = buildEmotionRepairTable(handInput());
    const table3: ReportTable = {
      id: "table3",
      title: "",
      caption: "",
      scale: "percent",
      columns: [],
      notes: [],
      rows: [
        { key: "alpha", label: "alpha", cells: {} },
        { key: "beta", label: "beta", cells: {} },
      ],
    };
    const rows = withLeaderboardColumn(
      leaderboard(table3, ["CG"], (m) => `${m}|avg`, "CG", "avg"),
      repair,
      "ER",
      ALL_CONDITIONS,
    );
    close(rows.find((r) => r.mediator === "alpha")!.cells.ER!.mean, 0.25);
    expect(withLeaderboardColumn(rows, undefined, "ER", ALL_CONDITIONS).every((r) => r.cells.ER === undefined)).toBe(
      true,
    );
  });
});

describe("Table 1's automatic proxy", () => {
  const proxy = {
    backbone: "sim-a",
    pairs: 4,
    measuredPairs: 3,
    ordered: 2,
    ties: 1,
    agreement: 2 / 3,
    observations: 6,
    r: 0.8,
    p: 0.056,
  };
  const results = (fidelity: StudyResults["fidelity"]): StudyResults => ({ fidelity, alignment: [], proxy: [proxy] });

  it("lays out measured pairs, agreement, r (p) and observations per simulator backbone", () => {
    const table = buildTable1Proxy(results([]))!;
    expect(table.id).toBe("table1proxy");
    expect(table.title).toMatch(/^Table 1 \(automatic\)/);
    const cells = table.rows[0].cells;
    expect(table.rows[0].label).toBe("sim-a");
    expect(cells.measured).toEqual({ text: "3 of 4", value: 3 });
    expect(cells.agreement).toEqual({ text: "66.7%", value: 2 / 3 });
    expect(cells.r).toEqual({ text: "0.800 (p 0.056)", value: 0.8 });
    expect(cells.observations).toEqual({ text: "6", value: 6 });
    expect(table.notes.join(" ")).toContain("stands alone");
  });

  it("says it is read beside the crowd's Table 1 when a study has one, and is absent without observations", () => {
    const withCrowd = buildTable1Proxy(
      results([
        {
          study: "s",
          studyId: 1,
          rows: [{ backbone: "sim-a", pairs: 1, correct: 1, noMajority: 0, labels: 3, fidelity: 1 }],
        },
      ]),
    )!;
    expect(withCrowd.notes.join(" ")).toContain("Read beside Table 1");
    expect(
      buildTable1Proxy({
        fidelity: [],
        alignment: [],
        proxy: [{ ...proxy, measuredPairs: 0, observations: 0, agreement: null, r: null, p: null }],
      }),
    ).toBeNull();
    expect(buildTable1Proxy({ fidelity: [], alignment: [], proxy: [] })).toBeNull();
  });
});
