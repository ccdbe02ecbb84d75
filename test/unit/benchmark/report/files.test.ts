import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HtmlValidate } from "html-validate";
import { buildBenchmarkReport } from "../../../../app/server/benchmark/report.server.ts";
import { writeReportFiles } from "../../../../app/server/benchmark/report-files.server.ts";
import { figureRows } from "../../../../app/domain/benchmark/report/format.ts";
import { openDatabase } from "../../../../app/server/db.server.ts";
import { runCli } from "../../../helpers/cli.ts";
import { tempDir } from "../../../../harness/temp-db.ts";
import { ALT_JUDGE, fixturePlan, seededPlanFile } from "./fixture.ts";
import { checkSvg } from "./svg-check.ts";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const loaded = fixturePlan({
  ablations: {
    evaluators: [{ model: ALT_JUDGE }],
    repeats: { runs: 3 },
    simulators: [{ model: "sim-alt", mediators: ["alpha"] }],
  },
});

async function seededFile(): Promise<{ dir: string; dbPath: string }> {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  return { dir, dbPath: await seededPlanFile(dir, loaded) };
}

describe("report files", () => {
  it("writes md, csv per table and figure, svg per figure and one script-free html", async () => {
    const { dir, dbPath } = await seededFile();
    const db = await openDatabase(dbPath);
    cleanups.unshift(() => db.$client.close());
    const report = await buildBenchmarkReport(db, loaded);
    const out = join(dir, "out");
    const files = await writeReportFiles(report, out, ["md", "csv", "svg", "html"]);
    const ids = [...report.tables.map((t) => t.id), ...report.figures.map((f) => f.id)];
    expect(readdirSync(out).sort()).toEqual(
      ["report.html", "report.md", ...ids.map((id) => `${id}.csv`), ...report.figures.map((f) => `${f.id}.svg`)].sort(),
    );
    expect(files).toHaveLength(readdirSync(out).length);

    const md = readFileSync(join(out, "report.md"), "utf8");
    for (const needle of [
      `hash ${loaded.hash}`,
      "Evaluator: judge-main",
      "simulator: sim-main",
      "s0 = 1",
      "delta = 0.05",
      "W = 10",
      "h = 5",
      "timing bins = 5",
      "1000 draws",
      "seed 1",
      "Table 3",
      "Table 9",
      "(n 12)",
    ]) {
      expect(md).toContain(needle);
    }

    const t3 = readFileSync(join(out, "table3.csv"), "utf8").trim().split("\n");
    expect(t3[0]).toBe("table,row,column,mean,median,n,missing,ci_low,ci_high,text");
    const table3 = report.tables[0];
    expect(t3).toHaveLength(1 + table3.rows.length * table3.columns.length);
    const alphaAvg = t3.find((l) => l.startsWith("table3,alpha,CG|Avg,"))!.split(",");
    const cell = table3.rows.find((r) => r.key === "alpha")!.cells["CG|avg"] as { mean: number; n: number };
    expect(Number(alphaAvg[3])).toBe(cell.mean);
    expect(Number(alphaAvg[5])).toBe(cell.n);

    for (const figure of report.figures) {
      const csv = readFileSync(join(out, `${figure.id}.csv`), "utf8")
        .trim()
        .split("\n");
      expect(csv).toHaveLength(1 + figureRows(figure).length);
      const svg = checkSvg(readFileSync(join(out, `${figure.id}.svg`), "utf8"));
      expect(svg.root).toBe("svg");
      const bars = figureRows(figure).filter(
        (r) => (r.cg !== null && r.cg !== undefined) || r.shift !== undefined,
      ).length;
      if (figure.id === "figure4") expect(svg.marks.line).toBeGreaterThan(0);
      else expect(svg.marks.rect).toBe(bars);
    }

    const html = readFileSync(join(out, "report.html"), "utf8");
    expect(html).not.toMatch(/<script/i);
    expect(html.match(/<svg /g)).toHaveLength(report.figures.length);
    for (const t of report.tables) expect(html).toContain(t.title);
    const validation = await new HtmlValidate({
      extends: ["html-validate:recommended"],
      rules: { "no-inline-style": "off", "long-title": "off" },
    }).validateString(html.replace(/<svg[\s\S]*?<\/svg>/g, ""));
    expect(validation.results.flatMap((r) => r.messages.map((m) => `${m.ruleId}: ${m.message}`))).toEqual([]);
  });

  it("the CLI writes the files, prints them and the build time; a bad plan or an empty grid exits 2 with a message", {
    timeout: 120_000,
  }, async () => {
    const { dir, dbPath } = await seededFile();
    const planPath = join(dir, "benchmark.json");
    writeFileSync(planPath, JSON.stringify(loaded.plan));
    const out = join(dir, "cli-out");
    const ok = runCli(["report", "--plan", planPath, "--out", out, "--format", "md,csv"], { SOCRATES_DB: dbPath });
    expect(ok.stderr).toBe("");
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain(`wrote ${join(out, "report.md")}`);
    expect(ok.stdout).toMatch(/report built in \d+\.\d\d s/);
    expect(readdirSync(out)).toContain("table3.csv");
    expect(readdirSync(out).some((f) => f.endsWith(".svg"))).toBe(false);

    const byHash = runCli(["report", "--hash", loaded.hash, "--out", join(dir, "by-hash"), "--format", "md"], {
      SOCRATES_DB: dbPath,
    });
    expect(byHash.status).toBe(0);
    expect(readFileSync(join(dir, "by-hash", "report.md"), "utf8")).toContain(`hash ${loaded.hash}`);
    const unknownHash = runCli(["report", "--hash", "nope"], { SOCRATES_DB: dbPath });
    expect(unknownHash.status).toBe(2);
    expect(unknownHash.stderr).toContain("no benchmark plan nope is recorded");

    const badPath = join(dir, "bad.json");
    writeFileSync(badPath, JSON.stringify({ ...loaded.plan, runs: 0 }));
    const bad = runCli(["report", "--plan", badPath], { SOCRATES_DB: dbPath });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(`${badPath}: $.runs:`);

    const emptyPath = join(dir, "empty.json");
    writeFileSync(
      emptyPath,
      JSON.stringify({ ...loaded.plan, mediators: [{ name: "nobody", model: "never-run" }], ablations: {} }),
    );
    const empty = runCli(["report", "--plan", emptyPath], { SOCRATES_DB: dbPath });
    expect(empty.status).toBe(2);
    expect(empty.stderr).toMatch(/no mediated run of the plan .* is stored/);

    const format = runCli(["report", "--plan", planPath, "--format", "pdf"], { SOCRATES_DB: dbPath });
    expect(format.status).toBe(2);
    expect(format.stderr).toContain("--format");
  });
});
