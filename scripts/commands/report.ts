/** `socrates report`: the paper's tables and figures for a benchmark plan, from the stored metric rows. */
import { join } from "node:path";
import type { Command } from "commander";
import { BenchmarkPlanError } from "../../app/domain/benchmark/plan.ts";
import { buildBenchmarkReport, EmptyReportError } from "../../app/server/benchmark/report.server.ts";
import { StudyScopeError } from "../../app/server/benchmark/report-studies.server.ts";
import { buildManifest, verifyReport, writeManifest } from "../../app/server/benchmark/report-manifest.server.ts";
import { describeSourceChange, ManifestError } from "../../app/domain/benchmark/provenance/manifest.ts";
import { describeDifference } from "../../app/domain/benchmark/provenance/numbers.ts";
import { resolveConfigPath } from "../../app/server/llm/config.server.ts";
import { REPORT_FORMATS, writeReportFiles, type ReportFormat } from "../../app/server/benchmark/report-files.server.ts";
import { openDatabase, type Db } from "../../app/server/db.server.ts";
import { OutputFolderError } from "../../app/server/output-folder.server.ts";
import { guardUserErrors, UserError } from "../cli-kit.ts";
import { loadPlan, parseStudyIds } from "../plan-options.ts";

interface ReportOptions {
  plan?: string;
  hash?: string;
  out?: string;
  format: string;
  study?: string[];
  verify?: string;
  config?: string;
}

const asUserError = guardUserErrors(
  BenchmarkPlanError,
  EmptyReportError,
  StudyScopeError,
  ManifestError,
  OutputFolderError,
);

function parseFormats(raw: string): ReportFormat[] {
  const formats = raw
    .split(",")
    .map((f) => f.trim())
    .filter(Boolean);
  const unknown = formats.filter((f) => !(REPORT_FORMATS as readonly string[]).includes(f));
  if (unknown.length > 0 || formats.length === 0)
    throw new UserError(`--format: expected a comma-separated list of ${REPORT_FORMATS.join(", ")}; got "${raw}"`);
  return formats as ReportFormat[];
}

/**
 * `--verify DIR`: exit 0 when every number of the folder's report is what the database gives now, else 1 naming the
 * first that differs.
 */
async function verify(db: Db, dir: string): Promise<void> {
  const result = await asUserError.async(() => verifyReport(db, dir));
  const changes = result.changes.map((c) => `  ${describeSourceChange(c)}`);
  if (result.difference) {
    console.error(`${dir}: differs from the database: ${describeDifference(result.difference)}`);
    if (changes.length > 0) console.error(`source rows changed since the report was written:\n${changes.join("\n")}`);
    else
      console.error(
        "no source row the manifest hashed changed: the code that computes the report did (compare the manifest's project commit)",
      );
    process.exitCode = 1;
    return;
  }
  console.log(
    `${dir}: verified: all ${result.numbers} numbers identical to a report rebuilt from the database (plan ${result.manifest.plan.hash})`,
  );
  if (changes.length > 0) console.log(`source rows changed without changing a number:\n${changes.join("\n")}`);
}

export function registerReportCommand(program: Command): void {
  program
    .command("report")
    .description(
      "regenerate the paper's Tables 3, 7, 8, 9 and Figures 2, 3, 4, 6 for a benchmark plan from the stored metric rows",
    )
    .option("--plan <file>", "the benchmark plan (benchmark.json)")
    .option("--hash <hash>", "a plan `benchmark run` recorded in the database, by its hash, instead of --plan")
    .option("--out <dir>", "output directory (default exports/report-<plan name>)")
    .option("--format <list>", `comma-separated: ${REPORT_FORMATS.join(",")}`, REPORT_FORMATS.join(","))
    .option(
      "--config <path>",
      "the LLM configuration whose hash (secrets removed) the manifest records (default: SOCRATES_CONFIG or ./socrates.config.json)",
    )
    .option(
      "--verify <dir>",
      "rebuild the report in DIR (its manifest.json) from the database; exit 0 when every number is identical, else 1 naming the first that differs",
    )
    .option(
      "--study <ids...>",
      "the validation studies Tables 1, 2 and 6 read, instead of the plan's `studies` (A/B reactiveness and expert consensus study ids)",
    )
    .addHelpText(
      "after",
      "\nCells are means ×100 with their count, missing values and a 95% bootstrap CI over scenarios; see docs/report.md.",
    )
    .action(async (opts: ReportOptions) => {
      if (opts.verify !== undefined) {
        if (opts.plan || opts.hash || opts.study)
          throw new UserError("--verify reads the plan and the studies from the folder's manifest.json: give it alone");
        await verify(await openDatabase(), opts.verify);
        return;
      }
      const formats = parseFormats(opts.format);
      const studyIds = parseStudyIds(opts.study);
      const started = performance.now();
      const db = await openDatabase();
      const loaded = await loadPlan(db, opts);
      const report = await asUserError.async(() => buildBenchmarkReport(db, loaded, studyIds ? { studyIds } : {}));
      const built = performance.now();
      const outDir = opts.out ?? join("exports", `report-${loaded.plan.name.replace(/[^A-Za-z0-9._-]+/g, "_")}`);
      const files = await asUserError.async(() => writeReportFiles(report, outDir, formats));
      files.push(
        await asUserError.async(async () =>
          writeManifest(
            outDir,
            await buildManifest(db, { loaded, report, configPath: resolveConfigPath(opts.config), files }),
          ),
        ),
      );
      for (const w of report.warnings) console.log(`warning: ${w}`);
      for (const f of files) console.log(`wrote ${f}`);
      console.log(
        `report built in ${((built - started) / 1000).toFixed(2)} s, files written in ${((performance.now() - built) / 1000).toFixed(2)} s`,
      );
    });
}
