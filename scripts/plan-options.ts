/** The plan and study options `socrates report` and `socrates estimate` share: `--plan`/`--hash` and `--study`. */
import { BenchmarkPlanError } from "../app/domain/benchmark/plan.ts";
import { loadPlanFile, loadStoredPlan, type LoadedPlan } from "../app/server/benchmark/plan-file.server.ts";
import type { Db } from "../app/server/db.server.ts";
import { guardUserErrors, UserError } from "./cli-kit.ts";

const asUserError = guardUserErrors(BenchmarkPlanError);

/** `--study 3 4` or `--study 3,4`: study ids, each a whole number ≥ 1. */
export function parseStudyIds(raw: readonly string[] | undefined): number[] | undefined {
  if (raw === undefined) return undefined;
  const parts = raw
    .flatMap((r) => r.split(","))
    .map((p) => p.trim())
    .filter(Boolean);
  const bad = parts.find((p) => !/^\d+$/.test(p) || Number(p) < 1);
  if (bad !== undefined || parts.length === 0)
    throw new UserError(`--study: expected study ids (whole numbers ≥ 1), got "${raw.join(" ")}"`);
  return parts.map(Number);
}

/** The plan a plan file (`--plan`) or a recorded plan's hash (`--hash`) names; one of the two is required. */
export async function loadPlan(db: Db, opts: { plan?: string; hash?: string }): Promise<LoadedPlan> {
  if (opts.plan && opts.hash) throw new UserError("give --plan or --hash, not both");
  if (opts.plan) return asUserError(() => loadPlanFile(opts.plan!));
  if (!opts.hash) throw new UserError("--plan FILE (or --hash H of a plan `benchmark run` recorded) is required");
  const stored = await asUserError.async(() => loadStoredPlan(db, opts.hash!));
  if (!stored) throw new UserError(`--hash: no benchmark plan ${opts.hash} is recorded in the database`);
  return stored;
}
