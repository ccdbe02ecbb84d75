/**
 * A consensus study's dashboard figures: alpha (interval and ordinal) with and without the
 * flagged annotators, and — for an expert study — alignment of the evaluators, the per-turn
 * baseline and any crowd study on the same snippets with the expert mean, and its trend.
 */
import { type ConsensusLabel, CONSENSUS_SNIPPET } from "./label.ts";
import {
  alignmentTable,
  baselineLookup,
  consensusAgreement,
  consensusTrend,
  seriesLookup,
  type AlignmentItem,
  type AlignmentTable,
  type ConsensusLabelRow,
  type ConsensusTrend,
  type EvaluatorSource,
} from "../../domain/validation/index.ts";
import { trendChartSpec } from "../../domain/validation/trend-chart.ts";
import { withoutUnscoredBackbones } from "../../domain/validation/scored-backbones.ts";
import { renderChart } from "../../server/charts/render.server.ts";
import type { DashboardCharts } from "../../domain/charts/chart-data.ts";
import { alignmentPoints, alignmentScatterSpec } from "../../domain/charts/views.ts";
import type { Db } from "../../server/db.server.ts";
import { withoutFailedTopics } from "../../server/estimation/judge-readings.server.ts";
import { stoppingPanel } from "../../server/estimation/stopping-rule.server.ts";
import { crowdStudiesOnSameSnippets } from "../../server/models/study.server.ts";
import { currentMetricParams } from "../../server/pipeline/metric-settings.server.ts";
import {
  alignmentItemOf,
  loadItems,
  loadLatestLabels,
  loadSeries,
  topicsByRun,
  withoutFastLabels,
  type ItemRecord,
  type LabelRecord,
} from "../../server/annotation/dashboard-data.server.ts";
import type { DashboardContext } from "../handler.server.ts";

function consensusItems(items: readonly ItemRecord[], topics: Map<string, string[]>): AlignmentItem[] {
  return items.filter((i) => i.kind === CONSENSUS_SNIPPET && i.runId !== null).map((i) => alignmentItemOf(i, topics));
}

const consensusRows = (labels: readonly LabelRecord[]): ConsensusLabelRow[] =>
  labels.map((l) => ({
    itemId: l.itemId,
    annotatorId: l.annotatorId,
    pool: l.pool,
    payload: l.payload as ConsensusLabel,
    secondsOnTask: l.secondsOnTask,
  }));

/**
 * Every evaluator's series (read with the s0 `socrates metrics` last used), and the per-turn baseline's, on the study's
 * runs.
 */
async function evaluatorSources(db: Db, runIds: string[], topics: Map<string, string[]>) {
  const { s0 } = await currentMetricParams(db);
  const evaluatorSeries = await withoutFailedTopics(db, await loadSeries(db, runIds, "topic-localized"), topics);
  const evaluators: EvaluatorSource[] = [...new Set(evaluatorSeries.map((s) => s.backbone))].sort().map((backbone) => ({
    backbone,
    valueAt: seriesLookup(
      evaluatorSeries.filter((s) => s.backbone === backbone),
      s0,
    ),
  }));
  const baselineSeries = await loadSeries(db, runIds, "per-turn");
  const baselineBackbone = [...new Set(baselineSeries.map((s) => s.backbone))].sort()[0];
  // Stored per-turn rows hold the topic's mean over pairs, so one "pair" series gives 1 + 4·mean A.
  const baseline = baselineBackbone
    ? {
        backbone: baselineBackbone,
        valueAt: baselineLookup(
          baselineSeries
            .filter((s) => s.backbone === baselineBackbone)
            .map((s) => ({ runId: s.runId, topicId: s.topicId, pairSeries: [s.values] })),
        ),
      }
    : null;
  return { evaluators, baseline, s0 };
}

export async function consensusDashboard({
  db,
  study,
  items,
  labels,
  flagged,
  exclude,
  excludeFast,
  boot,
}: DashboardContext) {
  const runIds = [...new Set(items.map((i) => i.runId).filter((r): r is string => r !== null))];
  const topics = await topicsByRun(db, runIds);
  const ownItems = consensusItems(items, topics);
  const ownLabels = consensusRows(labels);
  const pool = study.pool as "expert" | "crowd";
  const agreement = consensusAgreement(ownItems, ownLabels, { pool, ...boot });
  const agreementWithoutFlagged = flagged.length
    ? consensusAgreement(ownItems, ownLabels, { pool, exclude: flagged, ...boot })
    : null;

  // Alignment is against the expert mean; a crowd study on the same snippets adds the non-expert row.
  const crowdStudies = pool === "expert" ? await crowdStudiesOnSameSnippets(db, study.id) : [];
  const crowdItems = consensusItems(await loadItems(db, crowdStudies), topics).filter((i) => topics.has(i.runId));
  const crowdItemIds = new Set(crowdItems.map((i) => i.itemId));
  const crowdCounted = await loadLatestLabels(db, crowdStudies, "statistics");
  const crowdLabels = consensusRows(excludeFast ? await withoutFastLabels(db, crowdCounted) : crowdCounted).filter(
    (l) => crowdItemIds.has(l.itemId),
  );
  const expertLabels = pool === "expert" ? ownLabels.filter((l) => !exclude.includes(l.annotatorId)) : [];
  const table =
    pool === "expert"
      ? withoutUnscoredBackbones(
          alignmentTable(
            [...ownItems, ...crowdItems],
            [...expertLabels, ...crowdLabels],
            await evaluatorSources(db, runIds, topics),
          ),
        )
      : null;
  return {
    kind: CONSENSUS_SNIPPET,
    agreement,
    agreementWithoutFlagged,
    alignment: table,
    trend: table ? consensusTrend(table) : null,
    crowdStudies,
    /** The study's bootstrap settings, for the backbone comparison the view runs. */
    boot,
    /** Per mediator the CI half-width and the labels to the target (issue 33), with an active study's draw log. */
    stopping: await stoppingPanel(db, study.id, items, labels),
  };
}

/**
 * The charts the page inlines: Figure 5 (the trend) and the alignment scatter at outcome level, each left out while it
 * has no data (no expert score yet, no method with a value on a final snippet).
 */
export async function consensusCharts(
  trend: ConsensusTrend | null,
  alignment: AlignmentTable | null,
): Promise<DashboardCharts> {
  const charts: DashboardCharts = {};
  if (trend && trend.positions.length > 0) charts.trend = await renderChart(trendChartSpec(trend));
  const points = alignment ? alignmentPoints(alignment) : [];
  if (points.length > 0) {
    charts.alignment = await renderChart(alignmentScatterSpec(points, "Each method against the expert mean"));
  }
  return charts;
}
