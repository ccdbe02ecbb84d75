/**
 * A benchmark plan from its file or from the database: read, validated (app/domain/benchmark/plan.ts),
 * hashed, and expanded into its grid over the stored scenarios and conditions.
 */
import { readFileSync } from "node:fs";
import { decodeUtf8 } from "../../domain/bundle-input.ts";
import { expandGrid, type BenchmarkGrid, type GridIdentity } from "../../domain/benchmark/grid.ts";
import { matchedPairId } from "../../domain/simulation/schedule.ts";
import {
  BenchmarkPlanError,
  canonicalPlanJson,
  parseBenchmarkPlan,
  parseBenchmarkPlanText,
  type BenchmarkPlan,
} from "../../domain/benchmark/plan.ts";
import type { Db } from "../db.server.ts";
import { findBenchmarkPlan } from "../models/benchmark-plan.server.ts";
import { conditionCatalog } from "../models/condition.server.ts";
import { scenarioCatalog } from "../models/scenario.server.ts";
import { roleSampling, type LlmConfig } from "../llm/config.server.ts";
import { templateVersion, textVersion } from "../pipeline/prompt-templates.server.ts";
import { findRunsBySettings, identifyRuns } from "../pipeline/run-identity.server.ts";
import { simulationTemplatesFor } from "../pipeline/simulation-prompts.server.ts";

export interface LoadedPlan {
  plan: BenchmarkPlan;
  /** Short hash of the canonical plan: the same plan written differently has the same hash. */
  hash: string;
  /** Where it came from (a file path, or `database`). */
  source: string;
}

export function planHash(plan: BenchmarkPlan): string {
  return textVersion(canonicalPlanJson(plan));
}

export function loadPlanFile(path: string): LoadedPlan {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw new BenchmarkPlanError(
      `${path}: cannot read the benchmark plan (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    );
  }
  // Strictly: a mediator name in Latin-1 is an error naming the byte, not a U+FFFD in every report.
  const decoded = decodeUtf8(bytes);
  if ("failure" in decoded) throw new BenchmarkPlanError(`${path}: ${decoded.failure.message}`);
  const plan = parseBenchmarkPlanText(decoded.text, path);
  return { plan, hash: planHash(plan), source: path };
}

/** A plan `benchmark run` recorded, by hash, or undefined. */
export async function loadStoredPlan(db: Db, hash: string): Promise<LoadedPlan | undefined> {
  const row = await findBenchmarkPlan(db, hash);
  if (!row) return undefined;
  const plan = parseBenchmarkPlan(row.plan, `benchmark plan ${hash} in the database`);
  return { plan, hash: row.hash, source: row.source };
}

/** The sampling of the roles a grid's runs play, from the LLM configuration (part of their identity). */
export function gridSampling(config: LlmConfig): NonNullable<GridIdentity["sampling"]> {
  return { party: roleSampling(config, "party"), mediator: roleSampling(config, "mediator") };
}

/**
 * The plan's grid over what the database holds now, each run the stored one with its settings.
 * With the configuration's sampling (the runner, `--dry-run`) a run matches on every setting;
 * without it (reports, the Benchmark page, `status`) on every setting but sampling.
 */
export async function planGrid(
  db: Db,
  plan: BenchmarkPlan,
  sampling?: GridIdentity["sampling"],
): Promise<BenchmarkGrid> {
  const emotion = plan.emotion?.selfReport ?? false;
  const versions = new Map<string, string>(); // the templates are read once per mode, not per run
  const promptVersion: GridIdentity["promptVersion"] = (mode) => {
    if (!versions.has(mode)) versions.set(mode, templateVersion(simulationTemplatesFor(mode, { emotion })));
    return versions.get(mode)!;
  };
  const grid = expandGrid(
    plan,
    { scenarios: await scenarioCatalog(db), conditions: await conditionCatalog(db) },
    { promptVersion, sampling },
  );
  const refs = grid.units.flatMap((u) => [
    {
      settings: u.unmediatedSettings,
      set: (id: string) => {
        u.unmediatedRunId = id;
      },
    },
    ...u.mediated.map((m) => ({
      settings: m.settings,
      set: (id: string) => {
        m.runId = id;
        m.pairId = matchedPairId(id);
      },
    })),
  ]);
  const settings = refs.map((r) => r.settings);
  if (sampling) for (const [i, found] of (await identifyRuns(db, settings)).entries()) refs[i].set(found.runId);
  else {
    for (const [i, found] of (await findRunsBySettings(db, settings)).entries()) if (found !== null) refs[i].set(found);
  }
  return grid;
}
