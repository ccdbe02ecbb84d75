/**
 * The study dashboard's stopping rule (issue 33, Build 4; docs/active-labelling.md): per mediator,
 * the current 95% CI half-width of the human-scale score and the further labelled runs that would
 * bring it to the researcher's target. The estimate is the study's own design's: the active
 * (inverse-probability-weighted) one for an active study; for a stratified expert study PPI++ from
 * the calibrated-estimates service over the stored benchmark plan that holds the study's runs;
 * otherwise the human-only mean. An active study's draw log comes with it.
 */
import { activeStratumEstimate, stratumDesigns } from "../../domain/estimation/active-design.ts";
import { classicalMean, labelsToReport, type MeanEstimate } from "../../domain/estimation/mean-estimators.ts";
import { RUN_QUANTITIES, type RunQuantity, type RunValues } from "../../domain/estimation/run-quantities.ts";
import { parseStudyConfig, type StudyConfig } from "../../domain/study-config.ts";
import type { ItemRecord, LabelRecord } from "../annotation/dashboard-data.server.ts";
import { loadStoredPlan } from "../benchmark/plan-file.server.ts";
import type { Db } from "../db.server.ts";
import { benchmarkPlanList } from "../models/benchmark-plan.server.ts";
import { evaluatedTrajectories } from "../models/run.server.ts";
import { drawsOf } from "../models/study-draw.server.ts";
import { findStudy, type StudyRow } from "../models/study.server.ts";
import type { StoppingPanel, StoppingRow } from "../../domain/estimation/stopping-panel.ts";
import { studyRunValues } from "./active-study.server.ts";
import { CalibrationInputError, calibratedEstimates } from "./calibrated.server.ts";
import { judgeReadings, judgeRunValues } from "./judge-readings.server.ts";

const row = (mediator: string, quantity: RunQuantity, estimate: MeanEstimate | null, target: number): StoppingRow => ({
  mediator,
  quantity,
  estimate,
  further: estimate ? labelsToReport(estimate, target) : null,
});

/** The active study's panel: per mediator stratum and quantity, activeMean over its design. */
async function activePanel(
  db: Db,
  study: StudyRow,
  config: StudyConfig,
  human: Map<string, RunValues>,
  complete: Set<string>,
): Promise<StoppingPanel> {
  const draws = await drawsOf(db, study.id);
  const designs = stratumDesigns(draws, complete);
  const judges = config.judgeBackbones ?? [];
  const readings = await judgeReadings(
    db,
    draws.map((d) => d.runId),
    judges.slice(0, 1),
  );
  const judge = judgeRunValues(readings, judges[0] ?? "");
  const rows = RUN_QUANTITIES.flatMap((q) =>
    designs.map((design) => {
      const { estimate } = activeStratumEstimate(
        design,
        (runId) => judge.get(runId)?.[q] ?? null,
        (runId) => human.get(runId)?.[q] ?? null,
      );
      return row(design.mediator, q, estimate, config.targetHalfWidth);
    }),
  );
  const log = designs
    .flatMap((d) => d.units.filter((u) => u.position !== null))
    .map((u) => ({
      position: u.position as number,
      runId: u.runId,
      mediator: u.mediator,
      size: u.size,
      pi: u.pi,
      inPrefix: u.inPrefix,
    }))
    .sort((a, b) => a.position - b.position);
  const estimated = rows.some((r) => r.estimate !== null);
  return {
    target: config.targetHalfWidth,
    source: "active",
    planName: null,
    rows,
    empty: estimated
      ? null
      : "No estimate yet: each mediator needs at least two drawn runs whose snippets all have their k labels.",
    active: {
      judges,
      budget: config.trajectories ?? null,
      population: draws.length,
      drawn: log.length,
      leftOut: designs.reduce((s, d) => s + d.leftOut, 0),
      draws: log,
    },
  };
}

/** PPI++ per mediator over the stored plan that holds the most of the study's completely labelled runs, if any. */
async function ppiPanel(
  db: Db,
  study: StudyRow,
  config: StudyConfig,
  complete: Set<string>,
): Promise<StoppingPanel | null> {
  if (study.pool !== "expert" || complete.size === 0) return null;
  let best: { name: string; rows: StoppingRow[]; labelled: number } | null = null;
  for (const plan of await benchmarkPlanList(db)) {
    const loaded = await loadStoredPlan(db, plan.hash);
    if (!loaded) continue;
    let estimates: Awaited<ReturnType<typeof calibratedEstimates>>;
    try {
      estimates = await calibratedEstimates(db, {
        loaded,
        studyIds: [study.id],
        settings: { target: config.targetHalfWidth },
      });
    } catch (err) {
      // A plan the service cannot read against this study offers no PPI++; the next plan, or experts only, stands in.
      if (err instanceof CalibrationInputError) continue;
      throw err;
    }
    const overall = estimates.rows.filter((r) => r.domain === null);
    const labelled = overall.filter((r) => r.quantity === "outcome").reduce((s, r) => s + r.labelled, 0);
    if (labelled < 2 || (best && best.labelled >= labelled)) continue;
    best = {
      name: loaded.plan.name,
      labelled,
      rows: overall.map((r) => row(r.mediator ?? "none", r.quantity, r.ppi, config.targetHalfWidth)),
    };
  }
  if (!best?.rows.some((r) => r.estimate !== null)) return null;
  return {
    target: config.targetHalfWidth,
    source: "ppi",
    planName: best.name,
    rows: best.rows,
    empty: null,
    active: null,
  };
}

/** The human-only mean per mediator over the completely labelled runs. */
async function humanPanel(
  db: Db,
  config: StudyConfig,
  human: Map<string, RunValues>,
  complete: Set<string>,
): Promise<StoppingPanel> {
  const mediatorOf = new Map((await evaluatedTrajectories(db)).map((t) => [t.runId, t.mediator]));
  const mediators = [...new Set([...complete].map((r) => mediatorOf.get(r) ?? "none"))].sort();
  const rows = RUN_QUANTITIES.flatMap((q) =>
    mediators.map((m) => {
      const ys = [...complete]
        .filter((r) => (mediatorOf.get(r) ?? "none") === m)
        .map((r) => human.get(r)![q] as number);
      return row(m, q, classicalMean(ys), config.targetHalfWidth);
    }),
  );
  const estimated = rows.some((r) => r.estimate !== null);
  return {
    target: config.targetHalfWidth,
    source: estimated ? "human" : null,
    planName: null,
    rows: estimated ? rows : [],
    empty: estimated
      ? null
      : "Nothing to estimate yet. The stopping rule needs, per mediator, at least two runs whose snippets all have " +
        "their k labels; to calibrate with the judge it also needs a benchmark plan (socrates benchmark run) whose " +
        "main evaluator scored those runs, or an active study.",
    active: null,
  };
}

/** The stopping rule for a consensus study's dashboard, from its items and counted labels. */
export async function stoppingPanel(
  db: Db,
  studyId: number,
  items: readonly ItemRecord[],
  labels: readonly LabelRecord[],
): Promise<StoppingPanel> {
  const study = (await findStudy(db, studyId))!;
  const config = parseStudyConfig(study.config);
  const { human, complete } = await studyRunValues(db, study, items, labels);
  if (config.allocation === "active") return await activePanel(db, study, config, human, complete);
  return (await ppiPanel(db, study, config, complete)) ?? (await humanPanel(db, config, human, complete));
}
