/** Data access for runs as annotation reads them: the scenario as played, turn ranges, trajectories to sample. */
import { and, asc, countDistinct, eq, exists, gte, lte, sql } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import type { ScenarioBody } from "../../domain/bundle.ts";
import type { Db } from "../db.server.ts";
import { preparedOnce } from "./prepared.server.ts";

const { runs, conditions, scenarios, turns, snippets, evaluations } = schema;

// Read on every task page and submit: prepared once per connection.
const p = sql.placeholder;

const played = preparedOnce((db) =>
  db
    .select({ title: scenarios.title, background: scenarios.background, topics: scenarios.topics, parties: scenarios.parties, expanded: conditions.expanded })
    .from(runs)
    .innerJoin(conditions, eq(conditions.id, runs.conditionId))
    .innerJoin(scenarios, eq(scenarios.id, runs.scenarioId))
    .where(eq(runs.id, p("runId")))
    .prepare(),
);

/** The scenario a run played (the condition's expanded one, else the base), with its title. */
export function playedScenarioRow(db: Db, runId: string): { title: string; body: ScenarioBody } | undefined {
  const row = played(db).get({ runId });
  return row && { title: row.title, body: row.expanded ?? { background: row.background, topics: row.topics, parties: row.parties } };
}

/** Public fields of a run's turns startTurn..endTurn, in order. */
const turnRange = preparedOnce((db) =>
  db
    .select({ turnId: turns.turnId, speaker: turns.speaker, role: turns.role, utterance: turns.utterance })
    .from(turns)
    .where(and(eq(turns.runId, p("runId")), gte(turns.turnId, p("startTurn")), lte(turns.turnId, p("endTurn"))))
    .orderBy(asc(turns.turnId))
    .prepare(),
);

export function turnsInRange(db: Db, runId: string, startTurn: number, endTurn: number) {
  return turnRange(db).all({ runId, startTurn, endTurn });
}

const hasSnippets = (db: Db) => exists(db.select({ one: sql`1` }).from(snippets).where(eq(snippets.runId, runs.id)));
const isEvaluated = (db: Db) => exists(db.select({ one: sql`1` }).from(evaluations).where(eq(evaluations.runId, runs.id)));

/** Runs eligible for consensus annotation (evaluated, with snippets), with their domain × mediator stratum. */
export function evaluatedTrajectories(db: Db) {
  return db
    .select({ runId: runs.id, domain: scenarios.domain, mediator: sql<string>`coalesce(${runs.mediatorBackbone}, 'none')` })
    .from(runs)
    .innerJoin(scenarios, eq(scenarios.id, runs.scenarioId))
    .where(and(hasSnippets(db), isEvaluated(db)))
    .orderBy(asc(runs.id))
    .all();
}

/** How many runs with snippets have an evaluation. */
export function evaluatedTrajectoryCount(db: Db): number {
  const evaluated = exists(db.select({ one: sql`1` }).from(evaluations).where(eq(evaluations.runId, snippets.runId)));
  return db.select({ n: countDistinct(snippets.runId) }).from(snippets).where(evaluated).get()?.n ?? 0;
}
