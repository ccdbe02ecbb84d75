/** `socrates promediate import`: ProMediate's negotiation cases as scenarios (docs/promediate.md). */
import type { Command } from "commander";
import { openDatabase } from "../../app/server/db.server.ts";
import {
  importPromediateCases,
  PromediateImportError,
  type CaseSummary,
  type PromediateImportResult,
} from "../../app/server/promediate/import-cases.server.ts";
import { UserError } from "../cli-kit.ts";

function describeCase(c: CaseSummary): string {
  const options = c.options.reduce((a, b) => a + b, 0);
  const warnings = c.warnings.length === 1 ? "1 warning" : `${c.warnings.length} warnings`;
  return (
    `${c.file} -> ${c.scenarioId}: ${c.topics} topics, ${options} options (${c.options.join("/")}), ` +
    `${c.parties.length} parties (${c.parties.join(", ")}), ${warnings}`
  );
}

function describeStored(result: PromediateImportResult): string {
  const { stored } = result;
  const verb = stored.dryRun ? "would store" : "stored";
  const n = (k: "scenarios" | "conditions", of: typeof stored.inserted) => `${of[k]} ${k}`;
  return (
    `${verb} ${n("scenarios", stored.inserted)} and ${n("conditions", stored.inserted)}; ` +
    `already present and unchanged: ${n("scenarios", stored.unchanged)} and ${n("conditions", stored.unchanged)}`
  );
}

export function addImportCommand(group: Command): void {
  group
    .command("import")
    .description(
      "turn ProMediate case files into scenarios with their general conditions, all-or-nothing; " +
        "a repeat changes nothing (mapping and rules: docs/promediate.md)",
    )
    .argument("<case>", "a case .json file, or a directory whose every .json but topics.json is a case")
    .option("--topics <file>", "the topic lists by case (default: topics.json beside each case, when it has none)")
    .option("--dry-run", "check and convert everything and say what would be stored, writing nothing")
    .action(async (path: string, opts: { topics?: string; dryRun?: boolean }) => {
      let result: PromediateImportResult;
      try {
        result = await importPromediateCases(await openDatabase(), path, {
          topicsPath: opts.topics,
          dryRun: opts.dryRun,
        });
      } catch (err) {
        if (!(err instanceof PromediateImportError)) throw err;
        for (const w of err.warnings) console.error(`warning: ${w.file}: ${w.path}: ${w.message}`);
        const lines = err.problems.map((p) => `  ${p.file}: ${p.path}: ${p.message}`);
        const count = `${err.problems.length} problem${err.problems.length === 1 ? "" : "s"}`;
        throw new UserError(`import refused, nothing was written (${count}):\n${lines.join("\n")}`);
      }
      for (const c of result.cases) {
        for (const w of c.warnings) console.error(`warning: ${w.file}: ${w.path}: ${w.message}`);
        console.log(describeCase(c));
      }
      console.log(describeStored(result));
    });
}
