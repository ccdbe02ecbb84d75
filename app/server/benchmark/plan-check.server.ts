/**
 * Checks made before a benchmark calls anything: the plan against the LLM configuration (every
 * endpoint it names exists, the roles it plays are configured — the emotion judge's too when the
 * plan has one —, its metric parameters are valid)
 * and its grid against the database (no missing condition, no unknown scenario). Each problem is
 * a BenchmarkPlanError naming the plan file and the JSON path.
 */
import type { BenchmarkGrid } from "../../domain/benchmark/grid.ts";
import { BenchmarkPlanError, type BenchmarkPlan } from "../../domain/benchmark/plan.ts";
import { formatJsonPath } from "../../domain/judge-problems.ts";
import { parseMetricParams } from "../../domain/metrics/metric-params.ts";
import type { LlmConfig } from "../llm/config.server.ts";

/** The roles a benchmark calls. */
export const BENCHMARK_ROLES = ["party", "mediator", "evaluator"] as const;

function backbonePaths(plan: BenchmarkPlan): { path: (string | number)[]; endpoint?: string }[] {
  return [
    ...plan.mediators.map((m, i) => ({ path: ["mediators", i, "endpoint"], endpoint: m.endpoint })),
    { path: ["simulator", "endpoint"], endpoint: plan.simulator.endpoint },
    { path: ["evaluator", "endpoint"], endpoint: plan.evaluator.endpoint },
    ...plan.ablations.evaluators.map((e, i) => ({
      path: ["ablations", "evaluators", i, "endpoint"],
      endpoint: e.endpoint,
    })),
    ...plan.ablations.simulators.map((s, i) => ({
      path: ["ablations", "simulators", i, "endpoint"],
      endpoint: s.endpoint,
    })),
    ...(plan.emotion?.judge ? [{ path: ["emotion", "judge", "endpoint"], endpoint: plan.emotion.judge.endpoint }] : []),
  ];
}

export function checkPlanAgainstConfig(plan: BenchmarkPlan, source: string, config: LlmConfig): void {
  const problems: string[] = [];
  const known =
    Object.keys(config.endpoints)
      .map((n) => `"${n}"`)
      .join(", ") || "none";
  for (const { path, endpoint } of backbonePaths(plan)) {
    if (endpoint !== undefined && !(endpoint in config.endpoints)) {
      problems.push(
        `${source}: ${formatJsonPath(path)}: unknown endpoint "${endpoint}" (${config.source} defines ${known})`,
      );
    }
  }
  for (const role of [...BENCHMARK_ROLES, ...(plan.emotion?.judge ? (["emotion-judge"] as const) : [])]) {
    if (!config.roles[role])
      problems.push(
        `${source}: the benchmark needs role "${role}", which ${config.source} does not configure (${formatJsonPath(["roles", role])})`,
      );
  }
  try {
    parseMetricParams(plan.params);
  } catch (err) {
    problems.push(`${source}: ${formatJsonPath(["params"])}: ${(err as Error).message}`);
  }
  if (problems.length > 0) throw new BenchmarkPlanError(problems.join("\n"));
}

/** Refuses a grid the database cannot play yet. */
export function checkGridComplete(grid: BenchmarkGrid, source: string): void {
  const problems: string[] = [];
  if (grid.unknownScenarios.length > 0) {
    problems.push(
      `${source}: ${formatJsonPath(["scenarios", "ids"])}: the database holds no scenario ${grid.unknownScenarios.map((s) => `"${s}"`).join(", ")}`,
    );
  }
  if (grid.missing.length > 0) {
    const shown = grid.missing.slice(0, 20).map((m) => `${m.scenarioId} ${m.conditionKey}`);
    const more = grid.missing.length > shown.length ? ` and ${grid.missing.length - shown.length} more` : "";
    problems.push(
      `${source}: ${formatJsonPath(["conditions"])}: ${grid.missing.length} scenario-condition(s) the plan selects are not in the database: ${shown.join(", ")}${more}. ` +
        "`npx socrates probe` makes conditions.",
    );
  }
  if (problems.length > 0) throw new BenchmarkPlanError(problems.join("\n"));
}
