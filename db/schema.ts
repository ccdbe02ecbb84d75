/**
 * The one data model behind both halves of SoCRATES Studio.
 *
 * Bundle records (scenarios, conditions, runs, matched pairs, evaluations) keep their bundle ids
 * as primary keys so imports are idempotent and exports reproduce the input. Structured parts
 * that are always read whole (topics, parties, raw judge output) are JSON text; everything the
 * app or analytics filters, joins or aggregates on is a column with an index.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type {
  EvaluationError,
  Party,
  ScenarioBody,
  Topic,
} from "../app/domain/bundle.ts";

const createdAt = () => text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`);

export const scenarios = sqliteTable(
  "scenarios",
  {
    id: text("id").primaryKey(),
    domain: text("domain").notNull(),
    title: text("title").notNull(),
    background: text("background").notNull(),
    topics: text("topics", { mode: "json" }).$type<Topic[]>().notNull(),
    parties: text("parties", { mode: "json" }).$type<Party[]>().notNull(),
    source: text("source", { mode: "json" }).$type<{ kind: "demo" | "curated" | "manual"; note?: string; url?: string }>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("scenarios_domain_idx").on(t.domain)],
);

export const conditions = sqliteTable(
  "conditions",
  {
    id: text("id").primaryKey(),
    scenarioId: text("scenario_id").notNull().references(() => scenarios.id),
    axis: text("axis").notNull(),
    variant: text("variant").notNull(),
    /** The expanded scenario; null for the general condition, which plays the base scenario. */
    expanded: text("expanded", { mode: "json" }).$type<ScenarioBody>(),
  },
  (t) => [uniqueIndex("conditions_scenario_axis_variant_uq").on(t.scenarioId, t.axis, t.variant)],
);

export const runs = sqliteTable(
  "runs",
  {
    id: text("id").primaryKey(),
    conditionId: text("condition_id").notNull().references(() => conditions.id),
    /** Denormalised from the condition: the run viewer and analytics filter by scenario. */
    scenarioId: text("scenario_id").notNull().references(() => scenarios.id),
    mediated: integer("mediated", { mode: "boolean" }).notNull(),
    mediatorBackbone: text("mediator_backbone"),
    simulatorBackbone: text("simulator_backbone").notNull(),
    outcome: text("outcome").notNull(),
    partyOrder: text("party_order", { mode: "json" }).$type<string[]>().notNull(),
    totalTurns: integer("total_turns").notNull(),
    partyTurns: integer("party_turns").notNull(),
    mediatorTurns: integer("mediator_turns").notNull(),
    mediatorDecisions: text("mediator_decisions", { mode: "json" }).$type<
      { after_turn: number; engage: boolean; thought?: string; seconds?: number }[]
    >(),
    config: text("config", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    seed: integer("seed"),
    /** As given in the bundle (null when it gave none), so exports reproduce imports. */
    recordedAt: text("recorded_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("runs_condition_idx").on(t.conditionId),
    index("runs_scenario_idx").on(t.scenarioId),
    index("runs_mediator_idx").on(t.mediatorBackbone),
  ],
);

export const turns = sqliteTable(
  "turns",
  {
    runId: text("run_id").notNull().references(() => runs.id, { onDelete: "cascade" }),
    turnId: integer("turn_id").notNull(),
    speaker: text("speaker").notNull(),
    role: text("role").notNull(),
    utterance: text("utterance").notNull(),
    thought: text("thought"),
    signal: text("signal"),
  },
  (t) => [primaryKey({ columns: [t.runId, t.turnId] })],
);

export const matchedPairs = sqliteTable(
  "matched_pairs",
  {
    id: text("id").primaryKey(),
    conditionId: text("condition_id").notNull().references(() => conditions.id),
    mediatedRunId: text("mediated_run_id").notNull().references(() => runs.id),
    unmediatedRunId: text("unmediated_run_id").notNull().references(() => runs.id),
  },
  (t) => [
    uniqueIndex("matched_pairs_mediated_uq").on(t.mediatedRunId),
    index("matched_pairs_condition_idx").on(t.conditionId),
  ],
);

export const evaluations = sqliteTable(
  "evaluations",
  {
    id: text("id").primaryKey(),
    runId: text("run_id").notNull().references(() => runs.id, { onDelete: "cascade" }),
    method: text("method").notNull(),
    backbone: text("backbone").notNull(),
    /** The judge's raw output as given (per topic for topic-localized; the per-turn record otherwise). */
    output: text("output", { mode: "json" }).$type<unknown>().notNull(),
    errors: text("errors", { mode: "json" }).$type<EvaluationError[]>(),
    recordedAt: text("recorded_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("evaluations_run_idx").on(t.runId),
    index("evaluations_method_backbone_idx").on(t.method, t.backbone),
  ],
);

/**
 * Derived per-topic, per-turn values of an evaluation (turn 0 = the starting state).
 * Topic-localized: `score` is the carried-forward 1–5 score s[k][t], `located` marks judged turns.
 * Per-turn: `score` is the topic's mean pairwise agreement in [0, 1], `located` marks mentions.
 */
export const evaluationScores = sqliteTable(
  "evaluation_scores",
  {
    evaluationId: text("evaluation_id").notNull().references(() => evaluations.id, { onDelete: "cascade" }),
    topicId: text("topic_id").notNull(),
    turnId: integer("turn_id").notNull(),
    score: real("score").notNull(),
    located: integer("located", { mode: "boolean" }).notNull(),
    stances: text("stances", { mode: "json" }).$type<Record<string, string>>(),
  },
  (t) => [primaryKey({ columns: [t.evaluationId, t.topicId, t.turnId] })],
);

/** One back-and-forth exchange of a run (see app/domain/snippets.ts). */
export const snippets = sqliteTable(
  "snippets",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    runId: text("run_id").notNull().references(() => runs.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    startTurn: integer("start_turn").notNull(),
    endTurn: integer("end_turn").notNull(),
    isLast: integer("is_last", { mode: "boolean" }).notNull(),
    isPartial: integer("is_partial", { mode: "boolean" }).notNull(),
  },
  (t) => [uniqueIndex("snippets_run_position_uq").on(t.runId, t.position)],
);

export const studies = sqliteTable("studies", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  /** consensus-snippet | ab-reactiveness */
  type: text("type").notNull(),
  /** expert | crowd */
  pool: text("pool").notNull(),
  labelsPerItem: integer("labels_per_item").notNull(),
  guidelines: text("guidelines").notNull().default(""),
  status: text("status").notNull().default("open"),
  config: text("config", { mode: "json" }).$type<Record<string, unknown>>().notNull().default({}),
  createdAt: createdAt(),
});

export const studyItems = sqliteTable(
  "study_items",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    studyId: integer("study_id").notNull().references(() => studies.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    /** snippet | ab-pair */
    kind: text("kind").notNull(),
    snippetId: integer("snippet_id").references(() => snippets.id),
    /** A/B pairs: the two runs, the target party and its reactiveness level in each. */
    runAId: text("run_a_id").references(() => runs.id),
    runBId: text("run_b_id").references(() => runs.id),
    targetParty: text("target_party"),
    levelA: real("level_a"),
    levelB: real("level_b"),
    isGold: integer("is_gold", { mode: "boolean" }).notNull().default(false),
    gold: text("gold", { mode: "json" }).$type<unknown>(),
  },
  (t) => [
    uniqueIndex("study_items_study_position_uq").on(t.studyId, t.position),
    index("study_items_snippet_idx").on(t.snippetId),
  ],
);

export const annotators = sqliteTable(
  "annotators",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    username: text("username").notNull(),
    displayName: text("display_name").notNull(),
    /** admin | expert | crowd */
    role: text("role").notNull(),
    passwordHash: text("password_hash"),
    /** Crowd identity on its channel (an MTurk WorkerId, a Prolific PID). */
    channel: text("channel"),
    externalId: text("external_id"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("annotators_username_uq").on(t.username),
    uniqueIndex("annotators_channel_external_uq").on(t.channel, t.externalId),
  ],
);

export const assignments = sqliteTable(
  "assignments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    studyItemId: integer("study_item_id").notNull().references(() => studyItems.id, { onDelete: "cascade" }),
    annotatorId: integer("annotator_id").notNull().references(() => annotators.id),
    /** leased | submitted | released */
    status: text("status").notNull(),
    leasedAt: text("leased_at").notNull(),
    leaseExpiresAt: text("lease_expires_at").notNull(),
    submittedAt: text("submitted_at"),
  },
  (t) => [
    uniqueIndex("assignments_item_annotator_uq").on(t.studyItemId, t.annotatorId),
    index("assignments_annotator_status_idx").on(t.annotatorId, t.status),
  ],
);

/** One annotator's label on one item; its content lives in append-only revisions. */
export const labels = sqliteTable(
  "labels",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    studyItemId: integer("study_item_id").notNull().references(() => studyItems.id, { onDelete: "cascade" }),
    annotatorId: integer("annotator_id").notNull().references(() => annotators.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("labels_item_annotator_uq").on(t.studyItemId, t.annotatorId),
    index("labels_annotator_idx").on(t.annotatorId),
  ],
);

export const labelRevisions = sqliteTable(
  "label_revisions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    labelId: integer("label_id").notNull().references(() => labels.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    payload: text("payload", { mode: "json" }).$type<unknown>().notNull(),
    /** A repeated submit with the same token is stored once. */
    clientToken: text("client_token"),
    secondsOnTask: real("seconds_on_task"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("label_revisions_label_revision_uq").on(t.labelId, t.revision),
    uniqueIndex("label_revisions_client_token_uq").on(t.clientToken),
  ],
);
