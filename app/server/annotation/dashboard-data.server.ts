/**
 * Rows for the study dashboard and the label exports: items, latest label revisions, active
 * leases and evaluator series, loaded with a handful of queries and shaped as the pure
 * validation analytics (app/domain/validation) expect.
 */
import { statusesInStatistics, type LabelStatus } from "../../domain/label-status.ts";
import type { LabelPayload, TaskTypeId } from "../../task-types/registry.ts";
import { parseStudyConfig } from "../../domain/study-config.ts";
import { isFastLabel } from "../../domain/validation/fast-labels.ts";
import type { Db } from "../db.server.ts";
import { activeLeases } from "../models/assignment.server.ts";
import { scoreRows } from "../models/evaluation.server.ts";
import { usableEvaluationIds } from "../pipeline/evaluation-identity.server.ts";
import { latestLabelRows } from "../models/label.server.ts";
import type { AlignmentItem } from "../../domain/validation/alignment-table.ts";
import { findStudy, itemsWithContext } from "../models/study.server.ts";
import { playedScenarioOfRun } from "./task-view.server.ts";

export interface ItemRecord {
  itemId: number;
  studyId: number;
  kind: TaskTypeId;
  position: number;
  isGold: boolean;
  gold: unknown;
  snippetId: number | null;
  runId: string | null;
  snippetPosition: number | null;
  startTurn: number | null;
  endTurn: number | null;
  isLastSnippet: boolean;
  pairId: string | null;
  levelA: number | null;
  levelB: number | null;
  targetParty: string | null;
  backbone: string | null;
}

/** A consensus item (one with a run and a snippet) as the alignment and estimation code read it, with its topics. */
export function alignmentItemOf(i: ItemRecord, topics: ReadonlyMap<string, string[]>): AlignmentItem {
  return {
    itemId: i.itemId,
    runId: i.runId as string,
    snippetPosition: i.snippetPosition as number,
    isLastSnippet: i.isLastSnippet,
    endTurn: i.endTurn as number,
    topicIds: topics.get(i.runId as string) ?? [],
    isGold: i.isGold,
  };
}

export interface LabelRecord {
  labelId: number;
  itemId: number;
  studyId: number;
  annotatorId: string;
  /** Only counted labels (and surplus ones when the study opts in) enter statistics. */
  status: LabelStatus;
  annotatorName: string;
  pool: "expert" | "crowd";
  revision: number;
  payload: LabelPayload;
  /** Summed over the label's revisions. */
  secondsOnTask: number | null;
  submittedAt: string;
  /** The latest revision's comment from the annotator, or null. */
  comment: string | null;
}

export async function loadItems(db: Db, studyIds: readonly number[]): Promise<ItemRecord[]> {
  return (await itemsWithContext(db, studyIds)).map(({ isLast, ...r }) => ({
    ...r,
    isLastSnippet: isLast === true,
    gold: r.gold ?? null,
  }));
}

/**
 * The latest revision of the studies' labels. `statistics`: only those the statistics may use
 * (counted, plus surplus where the study opts in); pending and surplus work never reaches alpha,
 * alignment or fidelity otherwise. `stored`: every label, for exports, review and counts by status.
 */
export async function loadLatestLabels(
  db: Db,
  studyIds: readonly number[],
  which: "statistics" | "stored",
): Promise<LabelRecord[]> {
  const rows = (await latestLabelRows(db, studyIds)).map((r) => ({
    ...r,
    annotatorId: String(r.annotatorId),
    pool: r.pool as LabelRecord["pool"],
    payload: r.payload as LabelPayload,
  }));
  return which === "stored" ? rows : await forStatistics(db, rows);
}

/** The labels among `rows` that statistics may use, by each one's study setting. */
export async function forStatistics(db: Db, rows: readonly LabelRecord[]): Promise<LabelRecord[]> {
  const allowed = new Map<number, Set<LabelStatus>>();
  for (const studyId of new Set(rows.map((r) => r.studyId)))
    allowed.set(
      studyId,
      new Set(statusesInStatistics(parseStudyConfig((await findStudy(db, studyId))?.config).countSurplus)),
    );
  return rows.filter((r) => allowed.get(r.studyId)?.has(r.status));
}

/**
 * The labels among `rows` not faster than each one's study minimum seconds on task (for a type that reads other
 * studies' labels).
 */
export async function withoutFastLabels(db: Db, rows: readonly LabelRecord[]): Promise<LabelRecord[]> {
  const minimum = new Map<number, number>();
  for (const studyId of new Set(rows.map((r) => r.studyId)))
    minimum.set(studyId, parseStudyConfig((await findStudy(db, studyId))?.config).minSecondsOnTask);
  return rows.filter((r) => !isFastLabel(r, minimum.get(r.studyId) as number));
}

export async function loadActiveLeases(db: Db, studyId: number, now = new Date()) {
  return (await activeLeases(db, studyId, now.toISOString())).map((l) => ({
    itemId: l.itemId,
    annotatorId: String(l.annotatorId),
    leaseExpiresAt: l.leaseExpiresAt,
  }));
}

/** Topic ids per run (as played), cached per call. */
export async function topicsByRun(db: Db, runIds: Iterable<string>): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const runId of runIds)
    out.set(
      runId,
      (await playedScenarioOfRun(db, runId)).body.topics.map((t) => t.id),
    );
  return out;
}

export interface ScoreSeries {
  evaluationId: string;
  backbone: string;
  runId: string;
  topicId: string;
  /** values[t] for t = 0..T (carried forward; the per-turn baseline's topic mean in [0, 1]). */
  values: number[];
  /** located[t]: the judge scored (topic-localized) or mentioned (per-turn) the topic at turn t. */
  located: boolean[];
}

/** Stored per-topic series of every evaluation of `method` on the given runs. */
export async function loadSeries(
  db: Db,
  runIds: readonly string[],
  method: "topic-localized" | "per-turn",
): Promise<ScoreSeries[]> {
  const rows = await scoreRows(db, runIds, method);
  // Evaluations of a superseded judge prompt are left out (the identity rule of evaluation-identity.server.ts).
  const usable = usableEvaluationIds([
    ...new Map(rows.map((r) => [r.evaluationId, { ...r, id: r.evaluationId }])).values(),
  ]);
  const series = new Map<string, ScoreSeries>();
  for (const r of rows) {
    if (!usable.has(r.evaluationId)) continue;
    const key = `${r.evaluationId}\u0000${r.topicId}`;
    const s = series.get(key) ?? {
      evaluationId: r.evaluationId,
      backbone: r.backbone,
      runId: r.runId,
      topicId: r.topicId,
      values: [],
      located: [],
    };
    s.values[r.turnId] = r.score;
    s.located[r.turnId] = r.located;
    series.set(key, s);
  }
  // Rows exist for every turn; a gap would mean a broken import, so carry forward defensively.
  for (const s of series.values()) {
    for (let t = 1; t < s.values.length; t++) s.values[t] ??= s.values[t - 1];
    for (let t = 0; t < s.values.length; t++) s.located[t] ??= false;
  }
  return [...series.values()];
}
