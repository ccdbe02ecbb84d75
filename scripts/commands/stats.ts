/** `socrates stats …`: agreement and correlation statistics on JSON files. */
import { type Command, Option } from "commander";
import { parseIntOption, printJson, UserError } from "../cli-kit.ts";
import { bootstrapAlpha } from "../../app/domain/stats/bootstrap.ts";
import { StatsInputError } from "../../app/domain/stats/errors.ts";
import { ALPHA_LEVELS, krippendorffAlpha, type AlphaLevel } from "../../app/domain/stats/krippendorff.ts";
import { KENDALL_EXACT_MAX_N, SPEARMAN_EXACT_MAX_N } from "../../app/domain/stats/rank-exact-p.ts";
import { readAlphaFile, readCorrFile } from "./stats-files.ts";

export function registerStatsCommands(program: Command): void {
  const stats = program
    .command("stats")
    .description("Agreement and correlation statistics (Krippendorff's alpha, Pearson, Spearman, Kendall tau-b)");

  stats
    .command("alpha")
    .description("Krippendorff's alpha for a rating matrix, optionally with a bootstrap 95% CI (resampling units)")
    .requiredOption(
      "--file <path>",
      'JSON file {"data": [[...], ...]}: one row per rater, one column per unit, null = missing',
    )
    .addOption(
      new Option("--level <level>", "level of measurement (strings are allowed for nominal only)")
        .choices(ALPHA_LEVELS)
        .makeOptionMandatory(),
    )
    .option("--bootstrap <draws>", "bootstrap draws for a percentile 95% CI and P(alpha < 0.667), P(alpha < 0.8)")
    .option("--seed <seed>", "bootstrap seed (default 1); needs --bootstrap")
    .addHelpText(
      "after",
      `
Example:
  echo '{"data": [[1, 2, 3, null], [1, 2, 4, 4]]}' > m.json
  socrates stats alpha --file m.json --level ordinal --bootstrap 1000 --seed 1

Prints {"alpha", "level", "units", "pairable_values"} plus "reason" when alpha is undefined
(null), and "ci", "p_below", "draws", "seed", "undefined_draws" with --bootstrap.`,
    )
    .action((opts: { file: string; level: AlphaLevel; bootstrap?: string; seed?: string }) => {
      const draws =
        opts.bootstrap === undefined ? undefined : parseIntOption("bootstrap", opts.bootstrap, 1, 1_000_000);
      if (opts.seed !== undefined && draws === undefined) throw new UserError("--seed only applies with --bootstrap");
      const seed = opts.seed === undefined ? undefined : parseIntOption("seed", opts.seed, 0, 2 ** 32 - 1);
      const data = readAlphaFile(opts.file);

      const result = withFileName(opts.file, () => krippendorffAlpha(data, opts.level));
      const out: Record<string, unknown> = {
        alpha: result.alpha,
        level: result.level,
        units: result.units,
        pairable_values: result.pairableValues,
      };
      if (result.reason !== undefined) out.reason = result.reason;
      if (draws !== undefined) {
        const boot = withFileName(opts.file, () => bootstrapAlpha(data, opts.level, { draws, seed }));
        out.ci = boot.ci;
        out.p_below = boot.pBelow;
        out.draws = boot.draws;
        out.seed = boot.seed;
        out.undefined_draws = boot.undefinedDraws;
      }
      printJson(out);
    });

  stats
    .command("corr")
    .description(
      "Pearson r (two-sided p, Fisher 95% CI), Spearman rho and Kendall tau-b (two-sided p, exact or asymptotic) for paired samples",
    )
    .requiredOption("--file <path>", 'JSON file {"x": [...], "y": [...]}: equally long arrays of finite numbers')
    .addHelpText(
      "after",
      `
Example:
  echo '{"x": [1, 2, 3, 4, 5], "y": [2, 1, 4, 3, 5]}' > p.json
  socrates stats corr --file p.json

Undefined coefficients (n < 3, a constant sample) are null with a "reason"; p-values match SciPy.
Spearman and Kendall print "method": "exact" (the two-sided p over all n! pairings of the ranks:
without ties, Spearman up to n = ${SPEARMAN_EXACT_MAX_N}, Kendall up to n = ${KENDALL_EXACT_MAX_N}, and both at any n
for rankings equal or reversed up to one adjacent swap) or "asymptotic" (Spearman: the t
approximation, Kendall: the normal one with the tie correction).`,
    )
    .action(async (opts: { file: string }) => {
      const { x, y } = readCorrFile(opts.file);
      if (x.length !== y.length)
        throw new UserError(`${opts.file}: $.x has ${x.length} values but $.y has ${y.length}`);
      // Loaded here: its p-values need jstat, which `stats alpha` has no use for.
      const { kendallTauB, pearson, spearman } = await import("../../app/domain/stats/correlation.ts");
      const pr = withFileName(opts.file, () => pearson(x, y));
      const sr = spearman(x, y);
      const kr = kendallTauB(x, y);
      printJson({
        n: pr.n,
        pearson: withReason({ r: pr.r, p: pr.p, ci: pr.ci }, pr.reason),
        spearman: withReason({ rho: sr.rho, p: sr.p, method: sr.method }, sr.reason),
        kendall: withReason({ tau: kr.tau, p: kr.p, method: kr.method }, kr.reason),
      });
    });
}

/** Data problems found by the statistics code itself (ragged rows, strings at a numeric level…). */
function withFileName<T>(path: string, run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof StatsInputError) throw new UserError(`${path}: ${err.message}`);
    throw err;
  }
}

function withReason<T extends object>(value: T, reason: string | undefined): T & { reason?: string } {
  return reason === undefined ? value : { ...value, reason };
}
