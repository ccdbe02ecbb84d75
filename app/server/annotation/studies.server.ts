/**
 * Studies and their items. A consensus study samples N trajectories (seeded, stratified over
 * domain × mediator) and takes all their snippets in order; an A/B study takes reactiveness pairs.
 * Gold items (known answers) are mixed in at the study's rate and never revealed as such.
 */
import { z } from "zod";
import { meanOf } from "../../domain/metrics/alignment-values.ts";
import { mixGold, stratifiedSample } from "../../domain/validation/index.ts";
import { loadItems, loadLatestLabels } from "./dashboard-data.server.ts";
import type { Db } from "../db.server.ts";
import { badInput, notFound } from "../http/errors.server.ts";
import { listAbPairs, type AbPairRow } from "../models/ab-pair.server.ts";
import { evaluatedTrajectories } from "../models/run.server.ts";
import { snippetsOfRun } from "../models/snippet.server.ts";
import { findStudy, insertStudyWithItems, itemCounts, listStudyRows, updateStudyStatus, type NewStudyItem, type StudyRow } from "../models/study.server.ts";
import { DEFAULT_LABELS_PER_ITEM, parseStudyConfig, POOLS, studyConfigSchema, type Pool, type StudyType } from "../../domain/study-config.ts";

const baseStudySchema = z.object({
  name: z.string().trim().min(1, "must not be empty").max(120),
  pool: z.enum(POOLS),
  labelsPerItem: z.number().int().min(1, "at least 1").max(20).optional(),
  guidelines: z.string().max(100_000).default(""),
  config: studyConfigSchema.partial().default({}),
});

export const consensusStudySchema = baseStudySchema.extend({
  trajectories: z.number().int().min(1, "at least one trajectory"),
  /** Gold snippets come from a finished study's expert labels (reference = rounded expert mean per topic). */
  goldFromStudyId: z.number().int().optional(),
});

export const abStudySchema = baseStudySchema.extend({
  /** The pairs to label; all stored pairs when omitted. */
  pairIds: z.array(z.string()).optional(),
});

function parseOrThrow<T>(schemaToUse: z.ZodType<T, z.ZodTypeDef, unknown>, input: unknown): T {
  const parsed = schemaToUse.safeParse(input);
  if (!parsed.success) {
    throw badInput("The study is not valid", parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })));
  }
  return parsed.data;
}

type NewItem = NewStudyItem & { kind: "consensus-snippet" | "ab-reactiveness"; isGold: boolean };

function insertStudy(db: Db, type: StudyType, base: z.infer<typeof baseStudySchema>, items: NewItem[], extraConfig: Record<string, unknown>): number {
  const config = parseStudyConfig({ ...base.config, ...extraConfig });
  const labelsPerItem = base.labelsPerItem ?? DEFAULT_LABELS_PER_ITEM[base.pool as Pool];
  return insertStudyWithItems(db, { name: base.name, type, pool: base.pool, labelsPerItem, guidelines: base.guidelines, status: "open", config }, items);
}

/** Gold candidates: snippets fully labelled in another consensus study; reference = rounded expert mean per topic. */
function goldSnippets(db: Db, fromStudyId: number, exclude: Set<number>): NewItem[] {
  const source = findStudy(db, fromStudyId);
  if (!source || source.type !== "consensus-snippet") throw badInput(`Gold source study ${fromStudyId} is not a consensus study`, [{ path: "goldFromStudyId", message: "not a consensus study" }]);
  // The source study's items and latest labels, as the dashboard reads them.
  const items = new Map(loadItems(db, [fromStudyId]).map((i) => [i.itemId, i]));
  const scoresByItem = new Map<number, Record<string, number[]>>();
  for (const label of loadLatestLabels(db, [fromStudyId])) {
    const item = items.get(label.itemId);
    if (!item || item.isGold || item.snippetId === null || label.payload.kind !== "consensus-snippet") continue;
    const scores = scoresByItem.get(label.itemId) ?? {};
    for (const [topicId, t] of Object.entries(label.payload.topics)) (scores[topicId] ??= []).push(t.score);
    scoresByItem.set(label.itemId, scores);
  }
  const gold: NewItem[] = [];
  for (const [itemId, scores] of scoresByItem) {
    const item = items.get(itemId)!;
    if (exclude.has(item.snippetId!) || !Object.values(scores).every((s) => s.length >= source.labelsPerItem)) continue;
    const topics = Object.fromEntries(Object.entries(scores).map(([k, s]) => [k, Math.round(meanOf(s) as number)]));
    gold.push({ kind: "consensus-snippet", snippetId: item.snippetId!, runId: item.runId!, isGold: true, gold: { topics } });
  }
  return gold;
}

export function createConsensusStudy(db: Db, input: z.input<typeof consensusStudySchema>): number {
  const data = parseOrThrow(consensusStudySchema, input);
  const config = parseStudyConfig(data.config);
  const pool = evaluatedTrajectories(db);
  if (data.trajectories > pool.length) {
    throw badInput(`Only ${pool.length} evaluated trajectories are available; asked for ${data.trajectories}`, [{ path: "trajectories", message: `at most ${pool.length}` }]);
  }
  const runIds = stratifiedSample(pool, data.trajectories, config.seed);
  const regular: NewItem[] = runIds.flatMap((runId) => snippetsOfRun(db, runId).map((s) => ({ kind: "consensus-snippet" as const, snippetId: s.id, runId, isGold: false })));
  let items = regular;
  if (data.goldFromStudyId !== undefined && config.goldRate > 0) {
    const gold = goldSnippets(db, data.goldFromStudyId, new Set(regular.map((r) => r.snippetId as number)));
    items = mixGold(regular, gold, config.goldRate, config.seed).map(({ item }) => item);
  }
  return insertStudy(db, "consensus-snippet", data, items, { trajectories: data.trajectories });
}

export function createAbStudy(db: Db, input: z.input<typeof abStudySchema>): number {
  const data = parseOrThrow(abStudySchema, input);
  const config = parseStudyConfig(data.config);
  const all = listAbPairs(db);
  let pairs = all;
  if (data.pairIds) {
    const known = new Set(all.map((p) => p.id));
    const unknown = data.pairIds.filter((id) => !known.has(id));
    if (unknown.length) throw badInput(`Unknown A/B pair ids: ${unknown.join(", ")}`, [{ path: "pairIds", message: "unknown pair" }]);
    const wanted = new Set(data.pairIds);
    pairs = all.filter((p) => wanted.has(p.id));
  }
  if (pairs.length === 0) throw badInput("There are no A/B pairs to label: import a bundle with ab_pairs first", [{ path: "pairIds", message: "no pairs" }]);
  const asItem = (p: AbPairRow, isGold: boolean): NewItem => ({
    kind: "ab-reactiveness",
    abPairId: p.id,
    isGold,
    gold: isGold ? { choice: p.levelA > p.levelB ? "A" : "B" } : undefined,
  });
  // Pairs at the grid's extremes (0 against 1) have an unmistakable answer: the gold candidates.
  const isExtreme = (p: AbPairRow) => Math.min(p.levelA, p.levelB) === 0 && Math.max(p.levelA, p.levelB) === 1;
  const candidates = pairs.filter(isExtreme);
  const regular = pairs.filter((p) => !isExtreme(p));
  const mixed = mixGold(regular, candidates, config.goldRate, config.seed);
  const chosenGold = new Set(mixed.filter((m) => m.isGold).map((m) => m.item.id));
  const items = mixed.map(({ item, isGold }) => asItem(item, isGold));
  // Extreme pairs not drawn as gold are still real data.
  for (const p of candidates) if (!chosenGold.has(p.id)) items.push(asItem(p, false));
  return insertStudy(db, "ab-reactiveness", data, items, {});
}

export type { StudyRow };

export function getStudy(db: Db, studyId: number): StudyRow {
  const study = findStudy(db, studyId);
  if (!study) throw notFound(`Study ${studyId}`);
  return study;
}

export function listStudies(db: Db, filter: { pool?: Pool } = {}) {
  const counts = itemCounts(db);
  return listStudyRows(db, filter).map((s) => ({ ...s, items: counts.get(s.id) ?? 0 }));
}

export function setStudyStatus(db: Db, studyId: number, status: "open" | "closed"): void {
  getStudy(db, studyId);
  updateStudyStatus(db, studyId, status);
}
