/** Data commands: migrate the database, import and export bundles, seed the demo study. */
import type { Command } from "commander";
import { readFileSync, statSync } from "node:fs";
import {
  BundleImportError,
  exportBundle,
  importBundleFiles,
  type ImportSummary,
} from "../../app/server/bundle-store.server.ts";
import { describeTarget, openDatabase } from "../../app/server/db.server.ts";
import { writeOutputFile } from "../../app/server/storage-full.server.ts";
import { seedDemoBenchmark } from "../../demo/benchmark/seed.ts";
import { readBundleDir, seedDemo } from "../../demo/seed.ts";
import { printJson, UserError } from "../cli-kit.ts";

/** How each record kind reads in a summary line. */
const KIND_LABELS: Record<keyof ImportSummary["inserted"], string> = {
  scenarios: "scenarios",
  conditions: "conditions",
  runs: "runs",
  matched_pairs: "matched pairs",
  ab_pairs: "A/B pairs",
  evaluations: "evaluations",
};

function describeSummary(summary: ImportSummary): string {
  const parts = (counts: ImportSummary["inserted"]) =>
    (Object.entries(counts) as [keyof typeof KIND_LABELS, number][])
      .filter(([, n]) => n > 0)
      .map(([kind, n]) => `${n} ${KIND_LABELS[kind]}`)
      .join(", ") || "nothing";
  const verb = summary.dryRun ? "would import" : "imported";
  return `${verb} ${parts(summary.inserted)}; already present and unchanged: ${parts(summary.unchanged)}`;
}

async function importOrExplain(run: () => Promise<ImportSummary>): Promise<ImportSummary> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof BundleImportError) {
      const shown = err.problems.slice(0, 50).map((p) => `  ${p.file}: ${p.path}: ${p.message}`);
      const more = err.problems.length > 50 ? [`  … and ${err.problems.length - 50} more`] : [];
      throw new UserError(
        `import refused, nothing was written (${err.problems.length} problem${err.problems.length === 1 ? "" : "s"}):\n${[...shown, ...more].join("\n")}`,
      );
    }
    throw err;
  }
}

export function registerDataCommands(program: Command): void {
  const db = program.command("db").description("database maintenance");
  db.command("migrate")
    .description("create the database if needed and apply pending migrations (SOCRATES_DB overrides data/socrates.db)")
    .action(async () => {
      await openDatabase();
      console.log(`database ready: ${describeTarget()}`);
    });

  db.command("copy")
    .description("copy a whole database into an empty one, SQLite file ↔ PostgreSQL, all or nothing (docs/deploy.md)")
    .requiredOption("--from <database>", "the source: sqlite:PATH (or a path) or postgres://user@host/name")
    .requiredOption("--to <database>", "the empty target, named the same ways (a PostgreSQL database must exist)")
    .action(async (opts: { from: string; to: string }) => {
      const { copyDatabaseBetween, CopyRefused } = await import("../../app/server/db-copy.server.ts");
      const summary = await copyDatabaseBetween(opts.from, opts.to, (name, rows) =>
        console.error(`  ${name}: ${rows} rows`),
      ).catch((err: unknown) => {
        throw err instanceof CopyRefused ? new UserError(`db copy: ${err.message}; nothing was written`) : err;
      });
      const total = summary.rows.reduce((n, [, rows]) => n + rows, 0);
      console.log(`copied ${total} rows in ${summary.rows.length} tables from ${opts.from} to ${opts.to}`);
    });

  program
    .command("import")
    .description(
      "import a bundle file, or every *.json bundle in a directory, all-or-nothing (format: docs/formats.md)",
    )
    .argument("<path>", "a bundle .json file or a directory of them")
    .option("--dry-run", "check everything and report what would be imported, writing nothing")
    .action(async (path: string, opts: { dryRun?: boolean }) => {
      let files: ReturnType<typeof readBundleDir>;
      try {
        files = statSync(path).isDirectory() ? readBundleDir(path) : [{ file: path, bytes: readFileSync(path) }];
      } catch (err) {
        throw new UserError(`${path}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
      }
      if (files.length === 0) throw new UserError(`${path}: no .json files in this directory`);
      const summary = await importOrExplain(async () =>
        importBundleFiles(await openDatabase(), files, { dryRun: opts.dryRun }),
      );
      console.log(describeSummary(summary));
    });

  program
    .command("export")
    .description("write every scenario, condition, run, matched pair, A/B pair and evaluation as one bundle")
    .argument("<file>", "output .json file ('-' for standard output)")
    .action(async (file: string) => {
      const bundle = await exportBundle(await openDatabase());
      if (file === "-") return printJson(bundle);
      writeOutputFile(file, JSON.stringify(bundle, null, 2) + "\n");
      console.error(
        `wrote ${file}: ${bundle.scenarios.length} scenarios, ${bundle.runs.length} runs, ${bundle.ab_pairs.length} A/B pairs, ${bundle.evaluations.length} evaluations`,
      );
    });

  program
    .command("seed-demo")
    .description(
      "import the demo study and the demo benchmark from demo/ (fictional data written for this project); safe to repeat",
    )
    .action(async () => {
      const db = await openDatabase();
      console.log(describeSummary(await importOrExplain(() => seedDemo(db))));
      const bench = await seedDemoBenchmark(db);
      console.log(
        `demo benchmark "${bench.plan.plan.name}" (stand-in output): ${describeSummary(bench.imported)}; ${bench.metricRows > 0 ? `${bench.metricRows} metric values computed` : "every run's metrics already stored: nothing recomputed"}`,
      );
    });
}
