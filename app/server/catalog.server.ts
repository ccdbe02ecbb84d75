/** Read-side queries for the scenario and run pages (the shapes they return are in app/domain/catalog-views.ts). */
import { and, asc, count, desc, eq, inArray, isNotNull, ne, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import * as schema from "../../db/schema.ts";
import type { Party, Topic } from "../domain/bundle.ts";
import type { EmotionChartView, EvaluationView, MetricView, RunListItem, RunMetrics } from "../domain/catalog-views.ts";
import { emotionChartSpec } from "../domain/emotion/chart.ts";
import { readsEvaluation } from "../domain/metrics/registry.ts";
import { EMOTION_METHOD, emotionSourceLabel } from "../domain/emotion/trajectory.ts";
import { conditionListing } from "../domain/probing/condition-listing.ts";
import { consensusSeries, topicSeries, type EvaluationMethod } from "../domain/series.ts";
import { NO_MEDIATOR, pageCount } from "../domain/run-list.ts";
import type { SortState } from "../domain/table-sort.ts";
import { renderChart } from "./charts/render.server.ts";
import type { RenderedChart } from "../domain/charts/chart-data.ts";
import { consensusChartSpec, runConsensusSeries } from "../domain/charts/views.ts";
import type { Db } from "./db.server.ts";
import { storedEmotionTrajectories } from "./emotion-trajectories.server.ts";
import {
  curationSummary,
  replayViews,
  seedReportView,
  sourceLinks,
  type CurationDomainSummary,
  type CurationRecordView,
} from "../domain/curation/record-view.ts";
import { conditionsOfScenario, findCondition } from "./models/condition.server.ts";
import { candidateOutcomes, curationOfScenario } from "./models/curation-record.server.ts";
import { metricValuesNotingStale, type MetricValueRow } from "./models/metric-value.server.ts";
import { findRun, runTurnRows } from "./models/run.server.ts";
import { findScenario } from "./models/scenario.server.ts";
import { containsText } from "./models/portable-sql.server.ts";

export async function overview(db: Db) {
  const [scenarioCount] = await db.select({ n: count() }).from(schema.scenarios);
  const [runCount] = await db.select({ n: count() }).from(schema.runs);
  const [evaluationCount] = await db.select({ n: count() }).from(schema.evaluations);
  const domains = await db
    .selectDistinct({ domain: schema.scenarios.domain })
    .from(schema.scenarios)
    .orderBy(asc(schema.scenarios.domain));
  return {
    scenarios: scenarioCount.n,
    runs: runCount.n,
    evaluations: evaluationCount.n,
    domains: domains.map((d) => d.domain),
  };
}

export async function listScenarios(db: Db) {
  return (
    await db
      .select({
        id: schema.scenarios.id,
        domain: schema.scenarios.domain,
        title: schema.scenarios.title,
        source: schema.scenarios.source,
        parties: schema.scenarios.parties,
        topics: schema.scenarios.topics,
        // A join, not a correlated subquery: drizzle leaves a single-table query's columns unqualified.
        runs: count(schema.runs.id),
      })
      .from(schema.scenarios)
      .leftJoin(schema.runs, eq(schema.runs.scenarioId, schema.scenarios.id))
      .groupBy(schema.scenarios.id)
      .orderBy(asc(schema.scenarios.domain), asc(schema.scenarios.title))
  ).map((s) => ({
    id: s.id,
    domain: s.domain,
    title: s.title,
    demo: s.source.kind === "demo",
    curated: s.source.kind === "curated",
    parties: s.parties.length,
    topics: s.topics.length,
    runs: s.runs,
  }));
}

const runListColumns = {
  id: schema.runs.id,
  scenarioId: schema.runs.scenarioId,
  scenarioTitle: schema.scenarios.title,
  domain: schema.scenarios.domain,
  axis: schema.conditions.axis,
  variant: schema.conditions.variant,
  mediated: schema.runs.mediated,
  mediatorBackbone: schema.runs.mediatorBackbone,
  simulatorBackbone: schema.runs.simulatorBackbone,
  outcome: schema.runs.outcome,
  totalTurns: schema.runs.totalTurns,
  mediatorTurns: schema.runs.mediatorTurns,
  evaluations: sql<number>`(SELECT count(*) FROM ${schema.evaluations} WHERE ${schema.evaluations.runId} = ${schema.runs.id})`,
};

export const RUN_SORT_KEYS = [
  "id",
  "scenario",
  "condition",
  "mediator",
  "outcome",
  "turns",
  "mediatorTurns",
  "evaluations",
] as const;
export type RunSortKey = (typeof RUN_SORT_KEYS)[number];

/** What each sort key orders by (the run id breaks ties, so the order is total). */
const RUN_SORT_COLUMNS: Record<RunSortKey, SQL | AnyColumn> = {
  id: schema.runs.id,
  scenario: schema.scenarios.title,
  condition: sql`${schema.conditions.axis} || ' ' || ${schema.conditions.variant}`,
  mediator: schema.runs.mediatorBackbone,
  outcome: schema.runs.outcome,
  turns: schema.runs.totalTurns,
  mediatorTurns: schema.runs.mediatorTurns,
  evaluations: runListColumns.evaluations,
};

export interface RunListFilter {
  /** Only these runs (a benchmark cell's). */
  ids?: readonly string[];
  scenarioId?: string;
  conditionId?: string;
  /** Words that must each appear in the run id, scenario title, condition or a backbone. */
  text?: string;
  outcome?: string;
  mediated?: boolean;
  /** One condition across scenarios (its axis and variant). */
  condition?: { axis: string; variant: string };
  /** A mediator backbone, or NO_MEDIATOR for the unmediated runs. */
  mediator?: string;
  /** The simulator backbone (the model playing the parties). */
  backbone?: string;
  sort?: SortState<RunSortKey>;
  limit?: number;
  offset?: number;
}

function mediatorIs(mediator: string | undefined): SQL | undefined {
  if (!mediator) return undefined;
  return mediator === NO_MEDIATOR ? eq(schema.runs.mediated, false) : eq(schema.runs.mediatorBackbone, mediator);
}

function runConditions(db: Db, filter: RunListFilter): SQL | undefined {
  const words = (filter.text ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  const searched = sql`lower(${schema.runs.id} || ' ' || ${schema.scenarios.title} || ' ' || ${schema.conditions.axis} || ' ' || ${schema.conditions.variant} || ' ' || coalesce(${schema.runs.mediatorBackbone}, '') || ' ' || ${schema.runs.simulatorBackbone})`;
  return and(
    filter.ids ? inArray(schema.runs.id, [...filter.ids]) : undefined,
    filter.scenarioId ? eq(schema.runs.scenarioId, filter.scenarioId) : undefined,
    filter.conditionId ? eq(schema.runs.conditionId, filter.conditionId) : undefined,
    filter.outcome ? eq(schema.runs.outcome, filter.outcome) : undefined,
    filter.mediated === undefined ? undefined : eq(schema.runs.mediated, filter.mediated),
    filter.condition
      ? and(eq(schema.conditions.axis, filter.condition.axis), eq(schema.conditions.variant, filter.condition.variant))
      : undefined,
    mediatorIs(filter.mediator),
    filter.backbone ? eq(schema.runs.simulatorBackbone, filter.backbone) : undefined,
    // instr, not LIKE: the words are data, never patterns.
    ...words.map((w) => containsText(db, searched, w)),
  );
}

/** The runs, filtered and sorted (by default: scenario, condition, mediated first), `limit` from `offset`. */
export async function listRuns(db: Db, filter: RunListFilter = {}): Promise<RunListItem[]> {
  const sort = filter.sort;
  const order = sort
    ? [(sort.dir === "desc" ? desc : asc)(RUN_SORT_COLUMNS[sort.key]), asc(schema.runs.id)]
    : [
        asc(schema.scenarios.title),
        asc(schema.conditions.axis),
        asc(schema.conditions.variant),
        desc(schema.runs.mediated),
        asc(schema.runs.id),
      ];
  // Two steps: order only the ids (narrow rows in the sorter), then read the page's rows, so the evaluation
  // count and the wide columns are computed for the rows shown, not for every run that matches.
  const ids = (
    await db
      .select({ id: schema.runs.id })
      .from(schema.runs)
      .innerJoin(schema.scenarios, eq(schema.scenarios.id, schema.runs.scenarioId))
      .innerJoin(schema.conditions, eq(schema.conditions.id, schema.runs.conditionId))
      .where(runConditions(db, filter))
      .orderBy(...order)
      .limit(filter.limit ?? 500)
      .offset(filter.offset ?? 0)
  ).map((r) => r.id);
  if (ids.length === 0) return [];
  const rows = new Map(
    (
      await db
        .select(runListColumns)
        .from(schema.runs)
        .innerJoin(schema.scenarios, eq(schema.scenarios.id, schema.runs.scenarioId))
        .innerJoin(schema.conditions, eq(schema.conditions.id, schema.runs.conditionId))
        .where(inArray(schema.runs.id, ids))
    ).map((r) => [r.id, r]),
  );
  return ids.map((id) => rows.get(id)!);
}

/** How many runs the filter matches (the joins only when a condition needs them). */
export async function countRuns(db: Db, filter: RunListFilter = {}): Promise<number> {
  return (
    await db
      .select({ n: count() })
      .from(schema.runs)
      .innerJoin(schema.scenarios, eq(schema.scenarios.id, schema.runs.scenarioId))
      .innerJoin(schema.conditions, eq(schema.conditions.id, schema.runs.conditionId))
      .where(runConditions(db, filter))
      .limit(1)
  )[0]!.n;
}

/**
 * One page of the filtered runs, paged in the database, with the total they come to; a page past the last
 * shows the last.
 */
export async function runsPage(db: Db, filter: RunListFilter, page: number, size: number) {
  const total = await countRuns(db, filter);
  const pages = pageCount(total, size);
  const current = Math.min(page, pages);
  const runs = await listRuns(db, { ...filter, limit: size, offset: (current - 1) * size });
  return { runs, total, page: current, pages, size };
}

/** The choices of the runs page's filters: only values some stored run has. */
export async function runFacets(db: Db) {
  const distinct = async (
    column: typeof schema.runs.mediatorBackbone | typeof schema.runs.simulatorBackbone | typeof schema.runs.outcome,
  ) =>
    (await db.selectDistinct({ value: column }).from(schema.runs).where(isNotNull(column)).orderBy(asc(column))).map(
      (r) => String(r.value),
    );
  const scenarios = await db
    .select({ id: schema.scenarios.id, title: schema.scenarios.title })
    .from(schema.scenarios)
    .where(inArray(schema.scenarios.id, db.select({ id: schema.runs.scenarioId }).from(schema.runs)))
    .orderBy(asc(schema.scenarios.title), asc(schema.scenarios.id));
  const conditions = await db
    .selectDistinct({ axis: schema.conditions.axis, variant: schema.conditions.variant })
    .from(schema.conditions)
    .where(inArray(schema.conditions.id, db.select({ id: schema.runs.conditionId }).from(schema.runs)))
    .orderBy(asc(schema.conditions.axis), asc(schema.conditions.variant));
  return {
    scenarios,
    conditions,
    mediators: await distinct(schema.runs.mediatorBackbone),
    backbones: await distinct(schema.runs.simulatorBackbone),
    outcomes: await distinct(schema.runs.outcome),
  };
}

export async function getScenario(db: Db, id: string) {
  const scenario = await findScenario(db, id);
  if (!scenario) return null;
  const conditions = await conditionsOfScenario(db, id);
  const runCounts = new Map(
    (
      await db
        .select({ conditionId: schema.runs.conditionId, n: count() })
        .from(schema.runs)
        .where(eq(schema.runs.scenarioId, id))
        .groupBy(schema.runs.conditionId)
    ).map((r) => [r.conditionId, r.n]),
  );
  const stored = conditions.map((c) => ({
    id: c.id,
    axis: c.axis,
    variant: c.variant,
    expanded: c.expanded,
    provenance: c.provenance,
    runs: runCounts.get(c.id) ?? 0,
  }));
  return {
    scenario,
    conditionCount: conditions.length,
    conditions: conditionListing(id, scenario, stored),
    runs: await listRuns(db, { scenarioId: id }),
    curation: scenario.source.kind === "curated" ? await curationRecord(db, id) : null,
  };
}

/** A curated scenario's seed report, sources and acceptance record (null when this database has no record of it). */
export async function curationRecord(db: Db, scenarioId: string): Promise<CurationRecordView | null> {
  const found = await curationOfScenario(db, scenarioId);
  if (!found) return null;
  const { candidate, seed } = found;
  return {
    seed: {
      id: seed.id,
      title: seed.title,
      sourceKind: seed.sourceKind,
      report: seedReportView(seed.report, seed.title),
      sources: sourceLinks(seed.sources),
    },
    status: candidate.status,
    replays: replayViews(candidate.replays),
  };
}

/** Accepted and rejected candidates per domain, for the scenarios page. */
export async function curationOverview(db: Db): Promise<CurationDomainSummary[]> {
  return curationSummary(await candidateOutcomes(db));
}

export async function getRunView(db: Db, id: string) {
  const run = await findRun(db, id);
  if (!run) return null;
  const condition = (await findCondition(db, run.conditionId))!;
  const scenario = (await findScenario(db, run.scenarioId))!;
  const played: { background: string; topics: Topic[]; parties: Party[] } = condition.expanded ?? scenario;
  const turns = await runTurnRows(db, id);
  const topicIds = played.topics.map((t) => t.id);
  const evaluations: EvaluationView[] = await Promise.all(
    (
      await db
        .select()
        .from(schema.evaluations)
        // Emotion-judge evaluations are no consensus series: the run page reads them through getRunEmotion.
        .where(and(eq(schema.evaluations.runId, id), ne(schema.evaluations.method, EMOTION_METHOD)))
        // "topic-localized" sorts after "per-turn"; show the evaluator under validation first.
        .orderBy(desc(schema.evaluations.method), asc(schema.evaluations.backbone))
    ).map(async (evaluation) => {
      const rows = await db
        .select()
        .from(schema.evaluationScores)
        .where(eq(schema.evaluationScores.evaluationId, evaluation.id));
      const method = evaluation.method as EvaluationMethod;
      const topics = topicSeries(rows, topicIds, run.totalTurns);
      const reasons: EvaluationView["reasons"] = {};
      if (method === "topic-localized") {
        for (const [topicId, judged] of Object.entries(
          evaluation.output as Record<string, { agreement_score: { turn_id: number; reason: string }[] }>,
        )) {
          reasons[topicId] = Object.fromEntries(judged.agreement_score.map((e) => [e.turn_id, e.reason]));
        }
      }
      return {
        id: evaluation.id,
        method,
        backbone: evaluation.backbone,
        errors: evaluation.errors ?? [],
        consensus: consensusSeries(method, topics, run.totalTurns),
        topics,
        reasons,
      };
    }),
  );
  const snippetSpans = await db
    .select({
      position: schema.snippets.position,
      startTurn: schema.snippets.startTurn,
      endTurn: schema.snippets.endTurn,
      isPartial: schema.snippets.isPartial,
    })
    .from(schema.snippets)
    .where(eq(schema.snippets.runId, id))
    .orderBy(asc(schema.snippets.position));
  const pair = (
    await db
      .select()
      .from(schema.matchedPairs)
      .where(run.mediated ? eq(schema.matchedPairs.mediatedRunId, id) : eq(schema.matchedPairs.unmediatedRunId, id))
      .limit(1)
  )[0];
  const counterpartId = pair ? (run.mediated ? pair.unmediatedRunId : pair.mediatedRunId) : null;
  return {
    run: {
      id: run.id,
      mediated: run.mediated,
      mediatorBackbone: run.mediatorBackbone,
      simulatorBackbone: run.simulatorBackbone,
      outcome: run.outcome,
      partyOrder: run.partyOrder,
      turnOrder: run.turnOrder,
      totalTurns: run.totalTurns,
      partyTurns: run.partyTurns,
      mediatorTurns: run.mediatorTurns,
      seed: run.seed,
      config: run.config,
      mediatorDecisions: run.mediatorDecisions ?? [],
    },
    condition: { id: condition.id, axis: condition.axis, variant: condition.variant },
    scenario: {
      id: scenario.id,
      title: scenario.title,
      domain: scenario.domain,
      demo: scenario.source.kind === "demo",
    },
    played,
    turns: turns.map((t) => ({
      turnId: t.turnId,
      speaker: t.speaker,
      role: t.role as "party" | "mediator",
      utterance: t.utterance,
      thought: t.thought,
      signal: t.signal,
    })),
    evaluations,
    snippets: snippetSpans,
    counterpartId,
  };
}

export type RunView = NonNullable<Awaited<ReturnType<typeof getRunView>>>;

/** The run's consensus by turn, one line per evaluation, drawn for the run page (null without an evaluation). */
export async function getRunConsensusChart(view: RunView): Promise<RenderedChart | null> {
  if (view.evaluations.length === 0) return null;
  return renderChart(
    consensusChartSpec({
      title: `Consensus by turn for run ${view.run.id}`,
      series: runConsensusSeries(view.evaluations),
      totalTurns: view.run.totalTurns,
      mediatorTurns: view.turns.filter((t) => t.role === "mediator").map((t) => t.turnId),
    }),
  );
}

/** Each emotion trajectory of the run (self-report first, then each judge), drawn on the server for the run page. */
export async function getRunEmotion(db: Db, view: RunView): Promise<EmotionChartView[]> {
  const parties = view.played.parties.map((p) => ({ id: p.id, name: p.name }));
  const nameOf = new Map(parties.map((p) => [p.id, p.name]));
  const mediatorTurns = view.turns.filter((t) => t.role === "mediator").map((t) => t.turnId);
  const trajectories = await storedEmotionTrajectories(
    db,
    view.run.id,
    parties.map((p) => p.id),
  );
  return Promise.all(
    trajectories.map(async (trajectory) => ({
      key: trajectory.source.kind === "self" ? "self" : trajectory.source.evaluationId,
      label: emotionSourceLabel(trajectory.source),
      chart: await renderChart(
        emotionChartSpec({ trajectory, totalTurns: view.run.totalTurns, mediatorTurns, parties }),
      ),
      failedParties: trajectory.failedParties.map((id) => nameOf.get(id) ?? id),
    })),
  );
}

/** The stored metric values of one run and its matched pair (written by `socrates metrics`). */
export async function getRunMetrics(db: Db, runId: string): Promise<RunMetrics> {
  const toView = (r: MetricValueRow): MetricView => ({
    metric: r.metric,
    value: r.value,
    detail: (r.detail ?? {}) as Record<string, unknown>,
    params: r.params,
    computedAt: r.computedAt,
  });
  const rows = await metricValuesNotingStale(db, "run", runId);
  const result: RunMetrics = { run: [], evaluations: {}, pair: null, computedAt: null };
  for (const row of rows) {
    if (readsEvaluation(row.metric)) (result.evaluations[row.evaluationId] ??= []).push(toView(row));
    else result.run.push(toView(row));
  }
  const pair = (
    await db
      .select({ id: schema.matchedPairs.id })
      .from(schema.matchedPairs)
      .where(or(eq(schema.matchedPairs.mediatedRunId, runId), eq(schema.matchedPairs.unmediatedRunId, runId)))
      .limit(1)
  )[0];
  if (pair) {
    const pairRows = await metricValuesNotingStale(db, "pair", pair.id);
    result.pair = { id: pair.id, rows: pairRows.map(toView) };
    rows.push(...pairRows);
  }
  result.computedAt = rows.reduce<string | null>(
    (latest, r) => (latest === null || r.computedAt > latest ? r.computedAt : latest),
    null,
  );
  return result;
}
