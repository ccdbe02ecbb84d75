/**
 * Table 5 (the socio-cognitive conditions). The pure builder on a hand-made input whose every
 * cell is worked out below; then the report of a real database, written in md, csv and html
 * in-process and by the CLI, holds it with "—" and the probe command for what is not stored.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_BOOTSTRAP } from "../../../../app/domain/benchmark/report/cells.ts";
import { tableCsv, tableMarkdown } from "../../../../app/domain/benchmark/report/format.ts";
import type { ReportInput, ReportSubject, RunPlace } from "../../../../app/domain/benchmark/report/input.ts";
import { buildTable5, TOTAL_COLUMN, TOTAL_ROW } from "../../../../app/report-parts/table5.ts";
import type { ReportTable, ReportText } from "../../../../app/domain/benchmark/report-model.ts";
import { benchmarkPage } from "../../../../app/server/benchmark/page.server.ts";
import { buildBenchmarkReport } from "../../../../app/server/benchmark/report.server.ts";
import { writeReportFiles } from "../../../../app/server/benchmark/report-files.server.ts";
import { openDatabase } from "../../../../app/server/db.server.ts";
import { touchBenchmarkPlan } from "../../../../app/server/models/benchmark-plan.server.ts";
import { runCli } from "../../../helpers/cli.ts";
import { tempDir } from "../../../../harness/temp-db.ts";
import { fixturePlan, SCENARIOS, seedGrid } from "./fixture.ts";

/** The 15 keys in the paper's order, written out here rather than read from the code. */
const ALL_KEYS = [
  "general",
  "strategy:competing",
  "strategy:avoiding",
  "strategy:accommodating",
  "parties:three-party",
  "history:extended",
  "emotion:CC",
  "emotion:CR",
  "emotion:RR",
  "culture:US-US",
  "culture:CN-CN",
  "culture:KR-KR",
  "culture:US-CN",
  "culture:US-KR",
  "culture:CN-KR",
];

let counter = 0;
function place(scenarioId: string, conditionKey: string): RunPlace {
  const [axis, variant] = conditionKey === "general" ? ["general", "default"] : conditionKey.split(":");
  return {
    runId: `r${++counter}`,
    scenarioId,
    domain: "x",
    conditionKey,
    axis,
    variant,
    part: "main",
    simulator: "sim",
    runIndex: 0,
    emotion: null,
  };
}
const subject = (scenarioId: string, conditionKey: string): ReportSubject => ({
  ...place(scenarioId, conditionKey),
  mediator: "m",
  IF: null,
  FI: null,
  judged: {},
});
const times = <T>(n: number, make: () => T) => Array.from({ length: n }, make);

/**
 * Plan order h-1 (healthcare: all 15 stored), t-1 (transactional: general, strategy:competing,
 * emotion:CR stored), gone (named by the plan, not in the database). The plan selects general,
 * strategy:competing and history:extended, 4 runs each (3 mediators + the unmediated run).
 * Stored runs: h-1 general 4, h-1 competing 2, h-1 history 0; t-1 general 4, t-1 competing 1.
 */
function handInput(): ReportInput {
  const planned = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, 4]));
  return {
    planName: "p",
    planHash: "h",
    evaluators: ["judge"],
    simulator: "sim",
    ablationSimulators: [],
    mediators: [{ name: "m", mode: "generic" }],
    subjects: [
      ...times(3, () => subject("h-1", "general")),
      ...times(2, () => subject("h-1", "strategy:competing")),
      ...times(3, () => subject("t-1", "general")),
    ],
    unmediated: [place("h-1", "general"), place("t-1", "general"), place("t-1", "strategy:competing")],
    conditions: {
      selected: ["general", "strategy:competing", "history:extended"],
      scenarios: [
        {
          scenarioId: "h-1",
          domain: "healthcare",
          stored: [...ALL_KEYS].reverse(),
          plannedRuns: planned(["general", "strategy:competing", "history:extended"]),
        },
        {
          scenarioId: "t-1",
          domain: "transactional",
          stored: ["emotion:CR", "general", "strategy:competing"],
          plannedRuns: planned(["general", "strategy:competing"]),
        },
        { scenarioId: "gone", domain: null, stored: [], plannedRuns: {} },
      ],
    },
    bootstrap: DEFAULT_BOOTSTRAP,
    bins: 5,
  };
}

function cell(table: ReportTable, row: string, column: string): ReportText {
  const v = table.rows.find((r) => r.key === row)?.cells[column];
  if (!v || "n" in v) throw new Error(`no text cell ${row} / ${column}`);
  return v;
}

describe("Table 5: the conditions of the plan's scenarios", () => {
  it("lays the 15 conditions out by axis, one row per scenario in domain order, with the plan's stored/planned runs", () => {
    const table = buildTable5(handInput());
    expect(table.id).toBe("table5");
    expect(table.rowLabel).toBe("Scenario");
    expect(table.columns.map((c) => c.key)).toEqual([...ALL_KEYS, TOTAL_COLUMN]);
    expect(table.columns.slice(0, 15).map((c) => `${c.group}|${c.label}`)).toEqual([
      "General|Default",
      "Strategic posture|Competing",
      "Strategic posture|Avoiding",
      "Strategic posture|Accommodating",
      "Party composition|Three-party",
      "History length|Extended",
      "Emotional reactivity|Com-Com",
      "Emotional reactivity|Com-React",
      "Emotional reactivity|React-React",
      "Cultural identity|US-US",
      "Cultural identity|CN-CN",
      "Cultural identity|KR-KR",
      "Cultural identity|US-CN",
      "Cultural identity|US-KR",
      "Cultural identity|CN-KR",
    ]);
    // transactional before healthcare (the paper's domain order); the unknown scenario last.
    expect(table.rows.map((r) => [r.key, r.group])).toEqual([
      ["t-1", "transactional"],
      ["h-1", "healthcare"],
      ["gone", "not in the database"],
      [TOTAL_ROW, undefined],
    ]);

    expect(cell(table, "t-1", "general")).toEqual({ text: "✓ 4/4 runs", value: 4 });
    expect(cell(table, "t-1", "strategy:competing")).toEqual({ text: "✓ 1/4 runs", value: 1 });
    expect(cell(table, "t-1", "emotion:CR")).toEqual({ text: "✓", value: 0 }); // stored, not in the plan
    expect(cell(table, "t-1", "history:extended")).toEqual({ text: "—", value: null }); // selected, not stored
    expect(cell(table, "t-1", "culture:US-CN")).toEqual({ text: "—", value: null });
    expect(cell(table, "t-1", TOTAL_COLUMN)).toEqual({ text: "3 of 15", value: 3 });
    expect(cell(table, "h-1", "general")).toEqual({ text: "✓ 4/4 runs", value: 4 });
    expect(cell(table, "h-1", "strategy:competing")).toEqual({ text: "✓ 2/4 runs", value: 2 });
    expect(cell(table, "h-1", "history:extended")).toEqual({ text: "✓ 0/4 runs", value: 0 });
    expect(cell(table, "h-1", "culture:CN-KR")).toEqual({ text: "✓", value: 0 });
    expect(cell(table, "h-1", TOTAL_COLUMN)).toEqual({ text: "15 of 15", value: 15 });
    for (const key of ALL_KEYS) expect(cell(table, "gone", key)).toEqual({ text: "—", value: null });
    expect(cell(table, "gone", TOTAL_COLUMN)).toEqual({ text: "0 of 15", value: 0 });
    expect(cell(table, TOTAL_ROW, "general")).toEqual({ text: "2 of 3", value: 2 });
    expect(cell(table, TOTAL_ROW, "emotion:CR")).toEqual({ text: "2 of 3", value: 2 });
    expect(cell(table, TOTAL_ROW, "emotion:CC")).toEqual({ text: "1 of 3", value: 1 });
    expect(cell(table, TOTAL_ROW, TOTAL_COLUMN)).toEqual({ text: "18 of 45", value: 18 });
    expect(table.caption).toContain(
      "general 1, strategic posture 3, party composition 1, history length 1, emotional reactivity 3, cultural identity 6",
    );
  });

  it("names, per scenario, the missing conditions (the plan's own marked) and the probe command that fills them", () => {
    const table = buildTable5(handInput());
    const missing = ALL_KEYS.filter((k) => !["general", "strategy:competing", "emotion:CR"].includes(k));
    expect(table.notes).toContain(
      `t-1: — ${missing.join(", ")} (the plan selects history:extended); fill with \`npx socrates probe --scenario t-1 --conditions strategy,parties,history,emotion,culture\`.`,
    );
    expect(table.notes.find((n) => n.startsWith("gone:"))).toBe(
      "gone: the plan names it but the database does not hold this scenario: import its bundle (`npx socrates import FILE`), then `npx socrates probe --scenario gone --conditions all`.",
    );
    expect(table.notes.some((n) => n.startsWith("h-1:"))).toBe(false);
    expect(table.notes.some((n) => n.includes("writer role"))).toBe(true);

    // All stored: no note asks for anything.
    const input = handInput();
    input.conditions.scenarios = [input.conditions.scenarios[0]];
    const complete = buildTable5(input);
    expect(complete.notes.some((n) => n.includes("npx socrates probe") || n.includes("writer role"))).toBe(false);
  });

  it("prints in markdown and csv like every report table", () => {
    const table = buildTable5(handInput());
    const md = tableMarkdown(table);
    expect(md).toContain("## Table 5: socio-cognitive conditions");
    expect(md).toContain("| Scenario | General Default | Strategic posture Competing |");
    expect(md).toContain("| **transactional** |");
    expect(md).toContain("| t-1 | ✓ 4/4 runs | ✓ 1/4 runs | — | — | — | — | — | ✓ | — |");
    const csv = tableCsv(table).trim().split("\n");
    expect(csv).toHaveLength(1 + table.rows.length * table.columns.length);
    expect(csv).toContain("table5,t-1,Emotional reactivity|Com-React,0,,,,,,✓");
    expect(csv).toContain("table5,t-1,History length|Extended,,,,,,,—");
    expect(csv).toContain("table5,Scenarios holding it,Stored (of 15),18,,,,,,18 of 45");
  });
});

describe("Table 5 in the written report", () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });

  it("is in report.md, table5.csv and report.html, in-process and from the CLI, with the probe command for what is missing", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const loaded = fixturePlan();
    const dbPath = join(dir, "bench.db");
    const db = await openDatabase(dbPath);
    await seedGrid(db, loaded);
    const report = await buildBenchmarkReport(db, loaded);
    // The Benchmark page's data is the same report.
    await touchBenchmarkPlan(db, {
      hash: loaded.hash,
      name: loaded.plan.name,
      plan: loaded.plan,
      source: "benchmark.json",
    });
    expect((await benchmarkPage(db, loaded.hash)).report.tables.find((t) => t.id === "table5")).toEqual(
      report.tables.find((t) => t.id === "table5"),
    );
    db.$client.close();
    const table = report.tables.find((t) => t.id === "table5")!;
    // The fixture stores general, strategy:competing and emotion:CR of two demo scenarios. Each is
    // played at run indices 0 and 1 by 3 mediators + the unmediated run (8 runs); general also at
    // the repeats' run index 2 (4 more).
    expect(table.rows.map((r) => r.key)).toEqual([...SCENARIOS, TOTAL_ROW]);
    for (const s of SCENARIOS) {
      expect(cell(table, s, "general")).toEqual({ text: "✓ 12/12 runs", value: 12 });
      expect(cell(table, s, "strategy:competing")).toEqual({ text: "✓ 8/8 runs", value: 8 });
      expect(cell(table, s, "emotion:CR")).toEqual({ text: "✓ 8/8 runs", value: 8 });
      expect(cell(table, s, "emotion:CC")).toEqual({ text: "—", value: null });
    }
    const command = `npx socrates probe --scenario ${SCENARIOS[0]} --conditions strategy,parties,history,emotion,culture`;

    const out = join(dir, "out");
    await writeReportFiles(report, out, ["md", "csv", "html"]);
    const md = readFileSync(join(out, "report.md"), "utf8");
    expect(md).toContain("## Table 5: socio-cognitive conditions");
    expect(md).toContain(command);
    expect(readFileSync(join(out, "table5.csv"), "utf8")).toContain(
      `table5,${SCENARIOS[0]},Emotional reactivity|Com-Com,,,,,,,—`,
    );
    const html = readFileSync(join(out, "report.html"), "utf8");
    expect(html).toContain("<h2>Table 5: socio-cognitive conditions</h2>");
    expect(html).toContain('<th scope="col">Scenario</th>');
    expect(html).toContain(command);

    const planPath = join(dir, "benchmark.json");
    writeFileSync(planPath, JSON.stringify(loaded.plan));
    const cliOut = join(dir, "cli-out");
    const cli = runCli(["report", "--plan", planPath, "--out", cliOut, "--format", "md,csv,html"], {
      SOCRATES_DB: dbPath,
    });
    expect(cli.stderr).toBe("");
    expect(cli.status).toBe(0);
    expect(readFileSync(join(cliOut, "report.md"), "utf8")).toContain(command);
    expect(readFileSync(join(cliOut, "table5.csv"), "utf8")).toBe(readFileSync(join(out, "table5.csv"), "utf8"));
    expect(readFileSync(join(cliOut, "report.html"), "utf8")).toContain("<h2>Table 5: socio-cognitive conditions</h2>");
  }, 120_000); // a CLI child process starts slowly on a loaded machine
});
