/**
 * Rows for the study dashboard and the label exports: items, latest label revisions, active
 * leases and evaluator series, loaded with a handful of queries and shaped as the pure
 * validation analytics (app/domain/validation) expect.
 */
import type { LabelPayload } from "../../domain/labels.ts";
import type { Db } from "../db.server.ts";
import { playedScenarioOfRun } from "./task-view.server.ts";

export interface ItemRecord {
  itemId: number;
  studyId: number;
  kind: "consensus-snippet" | "ab-reactiveness";
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

export interface LabelRecord {
  labelId: number;
  itemId: number;
  studyId: number;
  annotatorId: string;
  annotatorName: string;
  pool: "expert" | "crowd";
  revision: number;
  payload: LabelPayload;
  /** Summed over the label's revisions. */
  secondsOnTask: number | null;
  submittedAt: string;
}

export function loadItems(db: Db, studyIds: readonly number[]): ItemRecord[] {
  if (studyIds.length === 0) return [];
  const rows = db.$client
    .prepare(
      `SELECT i.id AS itemId, i.study_id AS studyId, i.kind, i.position, i.is_gold AS isGold, i.gold, i.snippet_id AS snippetId,
              coalesce(s.run_id, i.run_id) AS runId, s.position AS snippetPosition, s.start_turn AS startTurn, s.end_turn AS endTurn, s.is_last AS isLast,
              p.id AS pairId, p.level_a AS levelA, p.level_b AS levelB, p.target_party AS targetParty, ra.simulator_backbone AS backbone
       FROM study_items i
       LEFT JOIN snippets s ON s.id = i.snippet_id
       LEFT JOIN ab_pairs p ON p.id = i.ab_pair_id
       LEFT JOIN runs ra ON ra.id = p.run_a_id
       WHERE i.study_id IN (${studyIds.map(() => "?").join(",")})
       ORDER BY i.study_id, i.position`,
    )
    .all(...studyIds) as (Omit<ItemRecord, "isGold" | "isLastSnippet" | "gold"> & { isGold: number; isLast: number | null; gold: string | null })[];
  return rows.map(({ isLast, ...r }) => ({ ...r, isGold: r.isGold === 1, isLastSnippet: isLast === 1, gold: r.gold === null ? null : JSON.parse(r.gold) }));
}

export function loadLatestLabels(db: Db, studyIds: readonly number[]): LabelRecord[] {
  if (studyIds.length === 0) return [];
  const rows = db.$client
    .prepare(
      `SELECT l.id AS labelId, l.study_item_id AS itemId, i.study_id AS studyId, l.annotator_id AS annotatorId, a.display_name AS annotatorName,
              a.role AS pool, r.revision, r.payload, r.created_at AS submittedAt,
              (SELECT sum(x.seconds_on_task) FROM label_revisions x WHERE x.label_id = l.id) AS secondsOnTask
       FROM labels l
       JOIN study_items i ON i.id = l.study_item_id
       JOIN annotators a ON a.id = l.annotator_id
       JOIN label_revisions r ON r.label_id = l.id AND r.revision = (SELECT max(revision) FROM label_revisions WHERE label_id = l.id)
       WHERE i.study_id IN (${studyIds.map(() => "?").join(",")})
       ORDER BY i.study_id, i.position, l.annotator_id`,
    )
    .all(...studyIds) as (Omit<LabelRecord, "payload" | "annotatorId"> & { payload: string; annotatorId: number })[];
  return rows.map((r) => ({ ...r, annotatorId: String(r.annotatorId), payload: JSON.parse(r.payload) as LabelPayload }));
}

export function loadActiveLeases(db: Db, studyId: number, now = new Date()) {
  return (
    db.$client
      .prepare(
        `SELECT a.study_item_id AS itemId, a.annotator_id AS annotatorId FROM assignments a JOIN study_items i ON i.id = a.study_item_id
         WHERE i.study_id = ? AND a.status = 'leased' AND a.lease_expires_at > ?`,
      )
      .all(studyId, now.toISOString()) as { itemId: number; annotatorId: number }[]
  ).map((l) => ({ itemId: l.itemId, annotatorId: String(l.annotatorId) }));
}

/** Other consensus studies of the crowd pool that show any of these snippets: the non-expert baseline. */
export function crowdStudiesOnSameSnippets(db: Db, studyId: number): number[] {
  return (
    db.$client
      .prepare(
        `SELECT DISTINCT o.study_id AS id FROM study_items o JOIN studies s ON s.id = o.study_id
         WHERE s.pool = 'crowd' AND s.type = 'consensus-snippet' AND o.study_id <> ?
           AND o.snippet_id IN (SELECT snippet_id FROM study_items WHERE study_id = ? AND snippet_id IS NOT NULL)`,
      )
      .all(studyId, studyId) as { id: number }[]
  ).map((r) => r.id);
}

/** Topic ids per run (as played), cached per call. */
export function topicsByRun(db: Db, runIds: Iterable<string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const runId of runIds) out.set(runId, playedScenarioOfRun(db, runId).body.topics.map((t) => t.id));
  return out;
}

export interface ScoreSeries {
  evaluationId: string;
  backbone: string;
  runId: string;
  topicId: string;
  /** values[t] for t = 0..T (carried forward; the per-turn baseline's topic mean in [0, 1]). */
  values: number[];
}

/** Stored per-topic series of every evaluation of `method` on the given runs. */
export function loadSeries(db: Db, runIds: readonly string[], method: "topic-localized" | "per-turn"): ScoreSeries[] {
  if (runIds.length === 0) return [];
  const rows = db.$client
    .prepare(
      `SELECT e.id AS evaluationId, e.backbone, e.run_id AS runId, s.topic_id AS topicId, s.turn_id AS turnId, s.score
       FROM evaluations e JOIN evaluation_scores s ON s.evaluation_id = e.id
       WHERE e.method = ? AND e.run_id IN (${runIds.map(() => "?").join(",")})
       ORDER BY e.id, s.topic_id, s.turn_id`,
    )
    .all(method, ...runIds) as { evaluationId: string; backbone: string; runId: string; topicId: string; turnId: number; score: number }[];
  const series = new Map<string, ScoreSeries>();
  for (const r of rows) {
    const key = `${r.evaluationId}\u0000${r.topicId}`;
    const s = series.get(key) ?? { evaluationId: r.evaluationId, backbone: r.backbone, runId: r.runId, topicId: r.topicId, values: [] };
    s.values[r.turnId] = r.score;
    series.set(key, s);
  }
  // Rows exist for every turn; a gap would mean a broken import, so carry forward defensively.
  for (const s of series.values()) for (let t = 1; t < s.values.length; t++) s.values[t] ??= s.values[t - 1];
  return [...series.values()];
}
