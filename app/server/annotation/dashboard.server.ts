/**
 * The study dashboard: progress, agreement (with and without flagged annotators), gold accuracy,
 * and — for consensus studies — the alignment table and trend; for A/B studies, fidelity.
 * Every figure comes from the pure analytics in app/domain/validation on rows loaded here.
 */
import {
  abSummary,
  alignmentTable,
  baselineLookup,
  consensusAgreement,
  consensusTrend,
  flagAnnotators,
  goldAccuracy,
  goldFor,
  seriesLookup,
  studyProgress,
  type AlignmentItem,
  type ConsensusLabelRow,
  type AbLabelRow,
  type AbItem,
  type EvaluatorSource,
} from "../../domain/validation/index.ts";
import type { AbLabelPayload, ConsensusLabel } from "../../domain/labels.ts";
import type { Db } from "../db.server.ts";
import { assignedAnnotators } from "../models/assignment.server.ts";
import { crowdStudiesOnSameSnippets } from "../models/study.server.ts";
import { loadActiveLeases, loadItems, loadLatestLabels, loadSeries, topicsByRun, type ItemRecord, type LabelRecord } from "./dashboard-data.server.ts";
import { getStudy } from "./studies.server.ts";
import { parseStudyConfig } from "../../domain/study-config.ts";

function consensusItems(items: readonly ItemRecord[], topics: Map<string, string[]>): AlignmentItem[] {
  return items
    .filter((i) => i.kind === "consensus-snippet" && i.runId !== null)
    .map((i) => ({
      itemId: i.itemId,
      runId: i.runId as string,
      snippetPosition: i.snippetPosition as number,
      isLastSnippet: i.isLastSnippet,
      endTurn: i.endTurn as number,
      topicIds: topics.get(i.runId as string) ?? [],
      isGold: i.isGold,
    }));
}

const consensusRows = (labels: readonly LabelRecord[]): ConsensusLabelRow[] =>
  labels.map((l) => ({ itemId: l.itemId, annotatorId: l.annotatorId, pool: l.pool, payload: l.payload as ConsensusLabel, secondsOnTask: l.secondsOnTask }));

export interface DashboardOptions {
  /** Leave annotators flagged on gold items out of agreement and alignment. */
  excludeFlagged?: boolean;
}

export function studyDashboard(db: Db, studyId: number, options: DashboardOptions = {}) {
  const study = getStudy(db, studyId);
  const config = parseStudyConfig(study.config);
  const items = loadItems(db, [studyId]);
  const labels = loadLatestLabels(db, [studyId]);
  // Everyone who holds or held an item here, labelled or not, is shown by name.
  const names = Object.fromEntries(
    assignedAnnotators(db, studyId)
      .map((r) => [String(r.id), r.name])
      .concat(labels.map((l) => [l.annotatorId, l.annotatorName])),
  );

  const progress = studyProgress(
    items.map((i) => ({ itemId: i.itemId, isGold: i.isGold })),
    labels.map((l) => ({ itemId: l.itemId, annotatorId: l.annotatorId, secondsOnTask: l.secondsOnTask })),
    loadActiveLeases(db, studyId),
    study.labelsPerItem,
  );
  const gold = goldAccuracy(goldFor(items), labels);
  const flagged = flagAnnotators(gold, config.goldThreshold, config.goldMinAttempted);
  const exclude = options.excludeFlagged ? flagged : [];
  const boot = { draws: config.bootstrapDraws, seed: config.seed };
  const base = {
    study: { id: study.id, name: study.name, type: study.type, pool: study.pool, status: study.status, labelsPerItem: study.labelsPerItem, config },
    names,
    progress,
    gold,
    flagged,
    excludeFlagged: Boolean(options.excludeFlagged),
  };

  if (study.type === "ab-reactiveness") {
    const abItems: AbItem[] = items.map((i) => ({ itemId: i.itemId, pairId: i.pairId as string, backbone: i.backbone as string, levelA: i.levelA as number, levelB: i.levelB as number, isGold: i.isGold }));
    const abLabels: AbLabelRow[] = labels.map((l) => ({ itemId: l.itemId, annotatorId: l.annotatorId, payload: l.payload as AbLabelPayload }));
    return {
      ...base,
      kind: "ab-reactiveness" as const,
      ab: abSummary(abItems, abLabels, boot),
      abWithoutFlagged: flagged.length ? abSummary(abItems, abLabels, { ...boot, exclude: flagged }) : null,
    };
  }

  const runIds = [...new Set(items.map((i) => i.runId).filter((r): r is string => r !== null))];
  const topics = topicsByRun(db, runIds);
  const ownItems = consensusItems(items, topics);
  const ownLabels = consensusRows(labels);
  const pool = study.pool as "expert" | "crowd";
  const agreement = consensusAgreement(ownItems, ownLabels, { pool, ...boot });
  const agreementWithoutFlagged = flagged.length ? consensusAgreement(ownItems, ownLabels, { pool, exclude: flagged, ...boot }) : null;

  // Alignment is against the expert mean; a crowd study on the same snippets adds the non-expert row.
  const crowdStudies = pool === "expert" ? crowdStudiesOnSameSnippets(db, studyId) : [];
  const crowdItems = consensusItems(loadItems(db, crowdStudies), topics).filter((i) => topics.has(i.runId));
  const crowdItemIds = new Set(crowdItems.map((i) => i.itemId));
  const crowdLabels = consensusRows(loadLatestLabels(db, crowdStudies)).filter((l) => crowdItemIds.has(l.itemId));
  const evaluatorSeries = loadSeries(db, runIds, "topic-localized");
  const evaluators: EvaluatorSource[] = [...new Set(evaluatorSeries.map((s) => s.backbone))].sort().map((backbone) => ({
    backbone,
    valueAt: seriesLookup(evaluatorSeries.filter((s) => s.backbone === backbone)),
  }));
  const baselineSeries = loadSeries(db, runIds, "per-turn");
  const baselineBackbone = [...new Set(baselineSeries.map((s) => s.backbone))].sort()[0];
  // Stored per-turn rows hold the topic's mean over pairs, so one "pair" series gives 1 + 4·mean A.
  const baseline = baselineBackbone
    ? { backbone: baselineBackbone, valueAt: baselineLookup(baselineSeries.filter((s) => s.backbone === baselineBackbone).map((s) => ({ runId: s.runId, topicId: s.topicId, pairSeries: [s.values] }))) }
    : null;
  const expertLabels = pool === "expert" ? ownLabels.filter((l) => !exclude.includes(l.annotatorId)) : [];
  const table = pool === "expert" ? alignmentTable([...ownItems, ...crowdItems], [...expertLabels, ...crowdLabels], { evaluators, baseline }) : null;
  return {
    ...base,
    kind: "consensus-snippet" as const,
    agreement,
    agreementWithoutFlagged,
    alignment: table,
    trend: table ? consensusTrend(table) : null,
    crowdStudies,
  };
}

export type StudyDashboard = ReturnType<typeof studyDashboard>;
