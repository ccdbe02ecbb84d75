/**
 * Data access for runs and their turns: single runs and their turns for the pipeline, the bundle
 * store and the run page; the scenario as played, turn ranges and trajectories to sample for
 * annotation; and the one writer of a run with its turns and snippets.
 */
import { and, asc, countDistinct, eq, exists, gte, inArray, isNotNull, lte, sql } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import type { Run, ScenarioBody } from "../../domain/bundle.ts";
import type { EmotionTurn } from "../../domain/emotion/trajectory.ts";
import { recordedIdentity } from "../../domain/simulation/run-identity.ts";
import { segmentSnippets } from "../../domain/snippets.ts";
import type { Db } from "../db.server.ts";
import { insertRows, jsonOrNull, preparedOnce, rawPlaceholder } from "./prepared.server.ts";
import { storedOrder } from "./portable-sql.server.ts";

const { runs, conditions, scenarios, turns, snippets, evaluations } = schema;

export type RunRow = typeof runs.$inferSelect;
export type TurnRow = typeof turns.$inferSelect;

// Read on every task page and submit, and once per run by the pipeline: prepared once per connection.
const p = sql.placeholder;

const byId = preparedOnce((db) =>
  db
    .select()
    .from(runs)
    .where(eq(runs.id, p("id")))
    .prepare(),
);

export async function findRun(db: Db, id: string): Promise<RunRow | undefined> {
  return (await byId(db).execute({ id }))[0];
}

/** Every run id, in id order. */
export async function runIds(db: Db): Promise<string[]> {
  return (await db.select({ id: runs.id }).from(runs).orderBy(asc(runs.id))).map((r) => r.id);
}

/** Which of these run ids are stored. */
export async function storedRunIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  const rows = await inChunks(ids, (chunk) => db.select({ id: runs.id }).from(runs).where(inArray(runs.id, chunk)));
  return new Set(rows.map((r) => r.id));
}

/** A query over distinct values, a few thousand at a time (SQLite bounds a statement's parameters). */
async function inChunks<T>(values: readonly string[], query: (chunk: string[]) => PromiseLike<T[]>): Promise<T[]> {
  const distinct = [...new Set(values)];
  const out: T[] = [];
  for (let i = 0; i < distinct.length; i += 5000) out.push(...(await query(distinct.slice(i, i + 5000))));
  return out;
}

/** Stored run ids by settings hash (runs.settings_hash), for the hashes given. */
export async function runIdsBySettingsHash(db: Db, hashes: readonly string[]): Promise<Map<string, string>> {
  const rows = await inChunks(hashes, (chunk) =>
    db
      .select({ id: runs.id, hash: runs.settingsHash })
      .from(runs)
      .where(inArray(runs.settingsHash, chunk))
      .orderBy(asc(runs.id)),
  );
  const out = new Map<string, string>();
  for (const r of rows) if (r.hash !== null && !out.has(r.hash)) out.set(r.hash, r.id);
  return out;
}

/**
 * Stored run ids by their settings without sampling (runs.settings_key), for readers that have
 * no LLM configuration (reports, the Benchmark page). Of runs that differ only in sampling, the
 * one stored last.
 */
export async function runIdsBySettingsKey(db: Db, keys: readonly string[]): Promise<Map<string, string>> {
  const rows = await inChunks(keys, (chunk) =>
    db
      .select({ id: runs.id, key: runs.settingsKey })
      .from(runs)
      .where(inArray(runs.settingsKey, chunk))
      .orderBy(asc(runs.createdAt), asc(storedOrder(db, runs.id))),
  );
  return new Map(rows.flatMap((r) => (r.key === null ? [] : [[r.key, r.id] as const])));
}

const turnRowsOf = preparedOnce((db) =>
  db
    .select()
    .from(turns)
    .where(eq(turns.runId, p("runId")))
    .orderBy(asc(turns.turnId))
    .prepare(),
);
/** A turn's public fields: what was said aloud, by whom. */
const publicTurnColumns = {
  turnId: turns.turnId,
  speaker: turns.speaker,
  role: turns.role,
  utterance: turns.utterance,
};
const publicTurnsOf = preparedOnce((db) =>
  db
    .select(publicTurnColumns)
    .from(turns)
    .where(eq(turns.runId, p("runId")))
    .orderBy(asc(turns.turnId))
    .prepare(),
);
const speakersOf = preparedOnce((db) =>
  db
    .select({ speaker: turns.speaker })
    .from(turns)
    .where(eq(turns.runId, p("runId")))
    .orderBy(asc(turns.turnId))
    .prepare(),
);

/** Every column of a run's turns, in order (private thoughts included). */
export async function runTurnRows(db: Db, runId: string): Promise<TurnRow[]> {
  return await turnRowsOf(db).execute({ runId });
}

/** What was said aloud in a run, in order: no private thoughts or signals. */
export async function publicTurns(db: Db, runId: string) {
  return await publicTurnsOf(db).execute({ runId });
}

/** Who spoke each turn of a run, in order. */
export async function runSpeakers(db: Db, runId: string): Promise<string[]> {
  return (await speakersOf(db).execute({ runId })).map((t) => t.speaker);
}

const emotionTurnColumns = {
  turnId: turns.turnId,
  speaker: turns.speaker,
  role: turns.role,
  emotion: turns.emotion,
  emotionReason: turns.emotionReason,
};
const emotionTurnsOf = preparedOnce((db) =>
  db
    .select(emotionTurnColumns)
    .from(turns)
    .where(eq(turns.runId, p("runId")))
    .orderBy(asc(turns.turnId))
    .prepare(),
);

/** Which of these runs carry the parties' self-reported emotion (a run has it on every party turn or on none). */
export async function selfReportedRunIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ runId: turns.runId })
    .from(turns)
    .where(and(inArray(turns.runId, [...ids]), isNotNull(turns.emotion)));
  return new Set(rows.map((r) => r.runId));
}

/** Whether the run's parties reported their own emotion as they played (then no emotion judge is needed). */
export async function hasSelfReportedEmotion(db: Db, runId: string): Promise<boolean> {
  return (await selfReportedRunIds(db, [runId])).has(runId);
}

/** Each turn's speaker with the party's self-reported emotion (null when the run was simulated without it). */
export async function emotionTurns(db: Db, runId: string): Promise<EmotionTurn[]> {
  return await emotionTurnsOf(db).execute({ runId });
}

const played = preparedOnce((db) =>
  db
    .select({
      title: scenarios.title,
      background: scenarios.background,
      topics: scenarios.topics,
      parties: scenarios.parties,
      expanded: conditions.expanded,
    })
    .from(runs)
    .innerJoin(conditions, eq(conditions.id, runs.conditionId))
    .innerJoin(scenarios, eq(scenarios.id, runs.scenarioId))
    .where(eq(runs.id, p("runId")))
    .prepare(),
);

/** The scenario a run played (the condition's expanded one, else the base), with its title. */
export async function playedScenarioRow(
  db: Db,
  runId: string,
): Promise<{ title: string; body: ScenarioBody } | undefined> {
  const row = (await played(db).execute({ runId }))[0];
  return (
    row && {
      title: row.title,
      body: row.expanded ?? { background: row.background, topics: row.topics, parties: row.parties },
    }
  );
}

/** Public fields of a run's turns startTurn..endTurn, in order. */
const turnRange = preparedOnce((db) =>
  db
    .select(publicTurnColumns)
    .from(turns)
    .where(and(eq(turns.runId, p("runId")), gte(turns.turnId, p("startTurn")), lte(turns.turnId, p("endTurn"))))
    .orderBy(asc(turns.turnId))
    .prepare(),
);

export async function turnsInRange(db: Db, runId: string, startTurn: number, endTurn: number) {
  return await turnRange(db).execute({ runId, startTurn, endTurn });
}

const hasSnippets = (db: Db) => exists(db.select({ one: sql`1` }).from(snippets).where(eq(snippets.runId, runs.id)));
const isEvaluated = (db: Db) =>
  exists(db.select({ one: sql`1` }).from(evaluations).where(eq(evaluations.runId, runs.id)));

/** Runs eligible for consensus annotation (evaluated, with snippets), with their domain × mediator stratum. */
export async function evaluatedTrajectories(db: Db) {
  return await db
    .select({
      runId: runs.id,
      domain: scenarios.domain,
      mediator: sql<string>`coalesce(${runs.mediatorBackbone}, 'none')`,
    })
    .from(runs)
    .innerJoin(scenarios, eq(scenarios.id, runs.scenarioId))
    .where(and(hasSnippets(db), isEvaluated(db)))
    .orderBy(asc(runs.id));
}

/** How many runs with snippets have an evaluation. */
export async function evaluatedTrajectoryCount(db: Db): Promise<number> {
  const evaluated = exists(db.select({ one: sql`1` }).from(evaluations).where(eq(evaluations.runId, snippets.runId)));
  return (
    (
      await db
        .select({ n: countDistinct(snippets.runId) })
        .from(snippets)
        .where(evaluated)
        .limit(1)
    )[0]?.n ?? 0
  );
}

// ---------- writing: the bundle import's runs and the runs the pipeline simulates ----------

const raw = rawPlaceholder;
const insertRunRow = preparedOnce((db) =>
  db
    .insert(runs)
    .values({
      id: raw("id"),
      conditionId: raw("conditionId"),
      scenarioId: raw("scenarioId"),
      mediated: raw("mediated"),
      mediatorBackbone: raw("mediatorBackbone"),
      simulatorBackbone: raw("simulatorBackbone"),
      outcome: raw("outcome"),
      partyOrder: raw("partyOrder"),
      turnOrder: raw("turnOrder"),
      totalTurns: raw("totalTurns"),
      partyTurns: raw("partyTurns"),
      mediatorTurns: raw("mediatorTurns"),
      mediatorDecisions: raw("mediatorDecisions"),
      config: raw("config"),
      seed: raw("seed"),
      recordedAt: raw("recordedAt"),
      settingsHash: raw("settingsHash"),
      settingsKey: raw("settingsKey"),
    })
    .prepare(),
);
const insertTurn = preparedOnce((db) =>
  db
    .insert(turns)
    .values({
      runId: raw("runId"),
      turnId: raw("turnId"),
      speaker: raw("speaker"),
      role: raw("role"),
      utterance: raw("utterance"),
      thought: raw("thought"),
      signal: raw("signal"),
      emotion: raw("emotion"),
      emotionReason: raw("emotionReason"),
    })
    .prepare(),
);
const insertSnippet = preparedOnce((db) =>
  db
    .insert(snippets)
    .values({
      runId: raw("runId"),
      position: raw("position"),
      startTurn: raw("startTurn"),
      endTurn: raw("endTurn"),
      isLast: raw("isLast"),
      isPartial: raw("isPartial"),
    })
    .prepare(),
);

/**
 * Inserts a run (a checked bundle record, or one the pipeline just simulated) with its turns and
 * snippets; call inside the caller's transaction, so the run is stored whole or not at all.
 * Turns and snippets are only inserted here, with their run: the run row's trigger moves the
 * dashboard's data mark, so theirs fire none (migration 0014).
 */
export async function insertRunRecord(db: Db, run: Run, scenarioId: string): Promise<void> {
  const mediatorTurns = run.turns.filter((t) => t.role === "mediator").length;
  await insertRunRow(db).execute({
    id: run.id,
    conditionId: run.condition_id,
    scenarioId,
    mediated: run.mediated ? 1 : 0,
    mediatorBackbone: run.mediator_backbone,
    simulatorBackbone: run.simulator_backbone,
    outcome: run.outcome,
    partyOrder: JSON.stringify(run.party_order),
    turnOrder: run.turn_order ?? "cyclic",
    totalTurns: run.turns.length,
    partyTurns: run.turns.length - mediatorTurns,
    mediatorTurns,
    mediatorDecisions: jsonOrNull(run.mediator_decisions),
    config: JSON.stringify(run.config),
    seed: run.seed,
    recordedAt: run.created_at ?? null,
    // The run's identity, from what it records: planners find it by these (run-identity.ts).
    ...recordedIdentity(run),
  });
  await insertRows(
    db,
    turns,
    insertTurn,
    run.turns.map((t) => ({
      runId: run.id,
      turnId: t.turn_id,
      speaker: t.speaker,
      role: t.role,
      utterance: t.utterance,
      thought: t.thought ?? null,
      signal: t.signal ?? null,
      emotion: t.emotion ?? null,
      emotionReason: t.emotion_reason ?? null,
    })),
  );
  const spans = segmentSnippets(
    run.turns.map((t) => ({ turnId: t.turn_id, role: t.role, speaker: t.speaker })),
    run.party_order,
    run.turn_order ?? "cyclic",
  );
  await insertRows(
    db,
    snippets,
    insertSnippet,
    spans.map((s) => ({
      runId: run.id,
      position: s.position,
      startTurn: s.startTurn,
      endTurn: s.endTurn,
      isLast: s.isLast ? 1 : 0,
      isPartial: s.isPartial ? 1 : 0,
    })),
  );
}
