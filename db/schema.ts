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
  ScenarioSource,
  ConditionProvenance,
  Topic,
  TurnOrder,
} from "../app/domain/bundle.ts";
import type { LabelStatus } from "../app/domain/label-status.ts";
import type { TaskTypeId } from "../app/task-types/registry.ts";

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
    source: text("source", { mode: "json" }).$type<ScenarioSource>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("scenarios_domain_idx").on(t.domain)],
);

export const conditions = sqliteTable(
  "conditions",
  {
    id: text("id").primaryKey(),
    scenarioId: text("scenario_id")
      .notNull()
      .references(() => scenarios.id),
    axis: text("axis").notNull(),
    variant: text("variant").notNull(),
    /** The expanded scenario; null for the general condition, which plays the base scenario. */
    expanded: text("expanded", { mode: "json" }).$type<ScenarioBody>(),
    /** How the condition was produced (app/domain/bundle.ts conditionProvenanceSchema); null for hand-written ones. */
    provenance: text("provenance", { mode: "json" }).$type<ConditionProvenance>(),
  },
  (t) => [uniqueIndex("conditions_scenario_axis_variant_uq").on(t.scenarioId, t.axis, t.variant)],
);

export const runs = sqliteTable(
  "runs",
  {
    id: text("id").primaryKey(),
    conditionId: text("condition_id")
      .notNull()
      .references(() => conditions.id),
    /** Denormalised from the condition: the run viewer and analytics filter by scenario. */
    scenarioId: text("scenario_id")
      .notNull()
      .references(() => scenarios.id),
    mediated: integer("mediated", { mode: "boolean" }).notNull(),
    mediatorBackbone: text("mediator_backbone"),
    simulatorBackbone: text("simulator_backbone").notNull(),
    outcome: text("outcome").notNull(),
    partyOrder: text("party_order", { mode: "json" }).$type<string[]>().notNull(),
    /** "cyclic" (parties in party_order) or "free" (any order; imported transcripts): app/domain/bundle.ts. */
    turnOrder: text("turn_order").$type<TurnOrder>().notNull().default("cyclic"),
    totalTurns: integer("total_turns").notNull(),
    partyTurns: integer("party_turns").notNull(),
    mediatorTurns: integer("mediator_turns").notNull(),
    mediatorDecisions: text("mediator_decisions", { mode: "json" }).$type<
      // The social mediator adds its record (motivation, candidates, tracker…: app/domain/bundle.ts).
      { after_turn: number; engage: boolean; thought?: string; seconds?: number; [field: string]: unknown }[]
    >(),
    config: text("config", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    seed: integer("seed"),
    /** As given in the bundle (null when it gave none), so exports reproduce imports. */
    recordedAt: text("recorded_at"),
    createdAt: createdAt(),
    /**
     * The run's identity (app/domain/simulation/run-identity.ts): the hash of the settings it
     * recorded, and of those settings without sampling. Planners find stored runs by these, never
     * by id. Null only between opening an older database and its backfill (db.server.ts).
     */
    settingsHash: text("settings_hash"),
    settingsKey: text("settings_key"),
  },
  (t) => [
    index("runs_condition_idx").on(t.conditionId),
    index("runs_scenario_idx").on(t.scenarioId),
    index("runs_mediator_idx").on(t.mediatorBackbone),
    index("runs_settings_hash_idx").on(t.settingsHash),
    index("runs_settings_key_idx").on(t.settingsKey),
  ],
);

export const turns = sqliteTable(
  "turns",
  {
    runId: text("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    turnId: integer("turn_id").notNull(),
    speaker: text("speaker").notNull(),
    role: text("role").notNull(),
    utterance: text("utterance").notNull(),
    thought: text("thought"),
    signal: text("signal"),
    /**
     * Party turns of a run simulated with emotion: the party's self-reported 0–100 score (higher = calmer, more open).
     * Private like the thought.
     */
    emotion: integer("emotion"),
    /** Why the party reported that score (private like the thought). */
    emotionReason: text("emotion_reason"),
  },
  (t) => [primaryKey({ columns: [t.runId, t.turnId] })],
);

export const matchedPairs = sqliteTable(
  "matched_pairs",
  {
    id: text("id").primaryKey(),
    conditionId: text("condition_id")
      .notNull()
      .references(() => conditions.id),
    mediatedRunId: text("mediated_run_id")
      .notNull()
      .references(() => runs.id),
    unmediatedRunId: text("unmediated_run_id")
      .notNull()
      .references(() => runs.id),
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
    runId: text("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    method: text("method").notNull(),
    backbone: text("backbone").notNull(),
    /** The judge's raw output as given (per topic for topic-localized; the per-turn record otherwise). */
    output: text("output", { mode: "json" }).$type<unknown>().notNull(),
    errors: text("errors", { mode: "json" }).$type<EvaluationError[]>(),
    /** The judge's prompt-template version; null = recorded before versions (matches any version). */
    promptVersion: text("prompt_version"),
    recordedAt: text("recorded_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("evaluations_run_idx").on(t.runId),
    index("evaluations_method_backbone_idx").on(t.method, t.backbone),
    index("evaluations_run_method_idx").on(t.runId, t.method),
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
    evaluationId: text("evaluation_id")
      .notNull()
      .references(() => evaluations.id, { onDelete: "cascade" }),
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
    runId: text("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    startTurn: integer("start_turn").notNull(),
    endTurn: integer("end_turn").notNull(),
    isLast: integer("is_last", { mode: "boolean" }).notNull(),
    isPartial: integer("is_partial", { mode: "boolean" }).notNull(),
  },
  (t) => [uniqueIndex("snippets_run_position_uq").on(t.runId, t.position)],
);

/**
 * A/B reactiveness pair: two conversations of one scenario in which only the target party's
 * reactiveness level differs (composed = 0, reactive = 1).
 */
export const abPairs = sqliteTable(
  "ab_pairs",
  {
    id: text("id").primaryKey(),
    scenarioId: text("scenario_id")
      .notNull()
      .references(() => scenarios.id),
    runAId: text("run_a_id")
      .notNull()
      .references(() => runs.id),
    runBId: text("run_b_id")
      .notNull()
      .references(() => runs.id),
    targetParty: text("target_party").notNull(),
    levelA: real("level_a").notNull(),
    levelB: real("level_b").notNull(),
    /** The opponent's fixed reference level, when the bundle gives it. */
    opponentLevel: real("opponent_level"),
  },
  (t) => [index("ab_pairs_scenario_idx").on(t.scenarioId)],
);

export const studies = sqliteTable("studies", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  /** Its task type's id (app/task-types): consensus-snippet | ab-reactiveness. */
  type: text("type").$type<TaskTypeId>().notNull(),
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
    studyId: integer("study_id")
      .notNull()
      .references(() => studies.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    /** The study's task type id (the same string as studies.type). */
    kind: text("kind").$type<TaskTypeId>().notNull(),
    snippetId: integer("snippet_id").references(() => snippets.id),
    /** A/B items: the bundle's pair record. */
    abPairId: text("ab_pair_id").references(() => abPairs.id),
    /** Consensus items: the trajectory the snippet belongs to, so an annotator gets its snippets in order. */
    runId: text("run_id").references(() => runs.id),
    isGold: integer("is_gold", { mode: "boolean" }).notNull().default(false),
    gold: text("gold", { mode: "json" }).$type<unknown>(),
  },
  (t) => [
    uniqueIndex("study_items_study_position_uq").on(t.studyId, t.position),
    index("study_items_snippet_idx").on(t.snippetId),
    index("study_items_ab_pair_idx").on(t.abPairId),
  ],
);

/**
 * An active-labelling study's population (issue 33, docs/active-labelling.md): one row per candidate run with its
 * stratum (the mediator), the judge's uncertainty, its size p_i and its sequential Poisson key U_i / p_i. `position`
 * is the order in which runs were drawn into the study (null: not drawn yet); a run's items exist only once drawn.
 */
export const studyDraws = sqliteTable(
  "study_draws",
  {
    studyId: integer("study_id")
      .notNull()
      .references(() => studies.id, { onDelete: "cascade" }),
    runId: text("run_id")
      .notNull()
      .references(() => runs.id),
    mediator: text("mediator").notNull(),
    uncertainty: real("uncertainty").notNull(),
    size: real("size").notNull(),
    key: real("key").notNull(),
    position: integer("position"),
    drawnAt: text("drawn_at"),
  },
  (t) => [
    primaryKey({ columns: [t.studyId, t.runId] }),
    uniqueIndex("study_draws_study_position_uq").on(t.studyId, t.position),
  ],
);

/**
 * Where allocation starts looking in a study (issue 35): every item before position `openFrom` has k verified live
 * places taken. Allocation moves it forward; the triggers of its migration move it back on any write that could
 * free a place (a release, a skip, a deleted row, a label back to pending, an identity change, a larger k, an item
 * inserted or moved before it). No row: start at the beginning.
 */
export const allocationCursors = sqliteTable("allocation_cursors", {
  studyId: integer("study_id")
    .primaryKey()
    .references(() => studies.id, { onDelete: "cascade" }),
  openFrom: integer("open_from").notNull(),
});

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
    /** Crowd workers: when they passed the qualification test (null until then). */
    qualifiedAt: text("qualified_at"),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    /** The annotator's own setting: a single-choice answer submits and advances at once (off by default). */
    autoAdvance: integer("auto_advance", { mode: "boolean" }).notNull().default(false),
    /** The annotator's own task-page keys: task type → command → keys, only those that differ from the defaults. */
    hotkeys: text("hotkeys", { mode: "json" })
      .$type<Record<string, Record<string, string[]>>>()
      .notNull()
      .default(sql`'{}'`),
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
    studyItemId: integer("study_item_id")
      .notNull()
      .references(() => studyItems.id, { onDelete: "cascade" }),
    annotatorId: integer("annotator_id")
      .notNull()
      .references(() => annotators.id),
    /**
     * leased | submitted | released | skipped (the annotator passed on it: never offered to them again, open to others)
     */
    status: text("status").notNull(),
    leasedAt: text("leased_at").notNull(),
    leaseExpiresAt: text("lease_expires_at").notNull(),
    submittedAt: text("submitted_at"),
    /** When the annotator skipped the item, and why (optional, their words). */
    skippedAt: text("skipped_at"),
    skipReason: text("skip_reason"),
    /**
     * When a page first served the item to this annotator (issue 28): a submit from a page that arrives before it is
     * refused.
     */
    shownAt: text("shown_at"),
  },
  (t) => [
    uniqueIndex("assignments_item_annotator_uq").on(t.studyItemId, t.annotatorId),
    // An annotator's rows by status, submitted ones newest first: the task page's undo reads one row, not all of them.
    index("assignments_annotator_status_submitted_idx").on(t.annotatorId, t.status, t.submittedAt, t.id),
    // Allocation counts an item's live slots from the index alone (no table row per assignment).
    index("assignments_item_status_annotator_idx").on(t.studyItemId, t.status, t.annotatorId),
    // Releasing lapsed leases reads only the leased rows, by expiry.
    index("assignments_leased_expiry_idx").on(t.leaseExpiresAt).where(sql`status = 'leased'`),
  ],
);

/** An annotator's flag on an item ("this snippet is broken", "unclear"), with their comment, for admins to review. */
export const itemFlags = sqliteTable(
  "item_flags",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    studyItemId: integer("study_item_id")
      .notNull()
      .references(() => studyItems.id, { onDelete: "cascade" }),
    annotatorId: integer("annotator_id")
      .notNull()
      .references(() => annotators.id),
    comment: text("comment").notNull(),
    createdAt: createdAt(),
    /** Set when an admin marks the flag as dealt with. */
    resolvedAt: text("resolved_at"),
  },
  (t) => [index("item_flags_item_idx").on(t.studyItemId)],
);

/** One annotator's label on one item; its content lives in append-only revisions. */
export const labels = sqliteTable(
  "labels",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    studyItemId: integer("study_item_id")
      .notNull()
      .references(() => studyItems.id, { onDelete: "cascade" }),
    annotatorId: integer("annotator_id")
      .notNull()
      .references(() => annotators.id),
    /**
     * counted | pending | surplus (app/domain/label-status.ts). Only counted labels (and surplus
     * ones when the study opts in) enter statistics; at most k labels per item are counted.
     */
    status: text("status").$type<LabelStatus>().notNull().default("counted"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("labels_item_annotator_uq").on(t.studyItemId, t.annotatorId),
    index("labels_annotator_idx").on(t.annotatorId),
    index("labels_item_status_idx").on(t.studyItemId, t.status),
  ],
);

export const labelRevisions = sqliteTable(
  "label_revisions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    labelId: integer("label_id")
      .notNull()
      .references(() => labels.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    payload: text("payload", { mode: "json" }).$type<unknown>().notNull(),
    /** A repeated submit with the same token is stored once. */
    clientToken: text("client_token"),
    secondsOnTask: real("seconds_on_task"),
    /** The annotator's optional comment on this answer (null when none); at most LABEL_COMMENT_MAX characters. */
    comment: text("comment"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("label_revisions_label_revision_uq").on(t.labelId, t.revision),
    uniqueIndex("label_revisions_client_token_uq").on(t.clientToken),
  ],
);

/** An annotator's unsubmitted work on an item, autosaved; never counted as a label. */
export const labelDrafts = sqliteTable(
  "label_drafts",
  {
    studyItemId: integer("study_item_id")
      .notNull()
      .references(() => studyItems.id, { onDelete: "cascade" }),
    annotatorId: integer("annotator_id")
      .notNull()
      .references(() => annotators.id),
    payload: text("payload", { mode: "json" }).$type<unknown>().notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.studyItemId, t.annotatorId] })],
);

export const qualificationAttempts = sqliteTable(
  "qualification_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    annotatorId: integer("annotator_id")
      .notNull()
      .references(() => annotators.id),
    /** The test's id and version, so a changed test is never confused with an old one. */
    testId: text("test_id").notNull(),
    answers: text("answers", { mode: "json" }).$type<Record<string, string>>().notNull(),
    correct: integer("correct").notNull(),
    total: integer("total").notNull(),
    passed: integer("passed", { mode: "boolean" }).notNull(),
    /**
     * The study the worker took the test from, and a keyed hash of their network address: attempts are capped per both.
     */
    studyId: integer("study_id").references(() => studies.id, { onDelete: "set null" }),
    network: text("network"),
    createdAt: createdAt(),
  },
  (t) => [
    index("qualification_attempts_annotator_idx").on(t.annotatorId),
    index("qualification_attempts_study_network_idx").on(t.studyId, t.network),
  ],
);

/**
 * Server-side login sessions: the cookie carries a random id; only its sha256 is stored, so a
 * copy of the database holds no live session. Deleting a row ends the session (logout, password change).
 */
export const sessions = sqliteTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    annotatorId: integer("annotator_id")
      .notNull()
      .references(() => annotators.id, { onDelete: "cascade" }),
    data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("sessions_annotator_idx").on(t.annotatorId), index("sessions_expires_idx").on(t.expiresAt)],
);

// ---------- crowd channels (Mechanical Turk, Prolific) ----------

/**
 * One unit of paid crowd work as the channel knows it: an MTurk assignment (batch import,
 * ExternalQuestion submit or sync) or a Prolific session. Keyed by (channel, external id), so
 * importing the same results file twice, or a resubmitted ExternalQuestion form, stores it once.
 */
export const crowdAssignments = sqliteTable(
  "crowd_assignments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** mturk | prolific */
    channel: text("channel").notNull(),
    /** MTurk AssignmentId, Prolific SESSION_ID. */
    externalId: text("external_id").notNull(),
    /** MTurk HITId, Prolific STUDY_ID. */
    externalGroupId: text("external_group_id"),
    studyId: integer("study_id")
      .notNull()
      .references(() => studies.id, { onDelete: "cascade" }),
    /** The item an MTurk assignment labelled; null for a Prolific session, which spans items. */
    studyItemId: integer("study_item_id").references(() => studyItems.id, { onDelete: "cascade" }),
    annotatorId: integer("annotator_id")
      .notNull()
      .references(() => annotators.id),
    /** The label this assignment produced (null when rejected on the channel, or a session). */
    labelId: integer("label_id").references(() => labels.id),
    /** sha256 of the stored label payload: a re-import with a different answer is refused. */
    payloadHash: text("payload_hash"),
    /** accepted | submitted | approved | rejected — as the channel last reported it. */
    status: text("status").notNull(),
    rewardUsd: real("reward_usd"),
    workSeconds: real("work_seconds"),
    acceptedAt: text("accepted_at"),
    submittedAt: text("submitted_at"),
    /** Our review decision (approve | reject) and the reason a worker is shown on rejection. */
    decision: text("decision"),
    decisionReason: text("decision_reason"),
    decidedAt: text("decided_at"),
    /** batch-import | external-question | sync | prolific */
    source: text("source").notNull(),
    /**
     * When the channel itself confirmed this work (MTurk listed the assignment for this worker and
     * HIT, a results file held it, or a Prolific export listed the session); null while pending.
     */
    confirmedAt: text("confirmed_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("crowd_assignments_channel_external_uq").on(t.channel, t.externalId),
    index("crowd_assignments_study_idx").on(t.studyId, t.channel),
    index("crowd_assignments_annotator_idx").on(t.annotatorId),
  ],
);

/** HITs created through the MTurk API (`socrates mturk publish`), one per study item. */
export const mturkHits = sqliteTable(
  "mturk_hits",
  {
    hitId: text("hit_id").primaryKey(),
    /** sandbox | production */
    environment: text("environment").notNull(),
    hitTypeId: text("hit_type_id").notNull(),
    studyId: integer("study_id")
      .notNull()
      .references(() => studies.id, { onDelete: "cascade" }),
    studyItemId: integer("study_item_id")
      .notNull()
      .references(() => studyItems.id, { onDelete: "cascade" }),
    maxAssignments: integer("max_assignments").notNull(),
    rewardUsd: real("reward_usd").notNull(),
    /** When MTurk stops offering the HIT; an item whose HIT expired short of labels can be published again. */
    expiresAt: text("expires_at"),
    createdAt: createdAt(),
  },
  (t) => [index("mturk_hits_study_idx").on(t.studyId, t.environment), index("mturk_hits_item_idx").on(t.studyItemId)],
);

/** Qualification types created on MTurk for a qualification test version, per environment. */
export const mturkQualificationTypes = sqliteTable(
  "mturk_qualification_types",
  {
    qualificationTypeId: text("qualification_type_id").primaryKey(),
    environment: text("environment").notNull(),
    /** The test's id and version, e.g. english-comprehension-v1. */
    testKey: text("test_key").notNull(),
    name: text("name").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("mturk_qualification_types_env_test_uq").on(t.environment, t.testKey)],
);

// ---------- benchmark pipeline ----------

/**
 * Every completed LLM call, keyed by a hash of (base URL, model, messages, parameters), so an
 * interrupted job resumes without paying for a call twice. Failed calls are recorded too.
 */
export const llmCalls = sqliteTable(
  "llm_calls",
  {
    cacheKey: text("cache_key").primaryKey(),
    role: text("role").notNull(),
    baseUrl: text("base_url").notNull(),
    model: text("model").notNull(),
    request: text("request", { mode: "json" }).$type<unknown>().notNull(),
    /** The reply text as received (null when no reply arrived). */
    response: text("response"),
    /** The validated value, when validation passed. */
    parsed: text("parsed", { mode: "json" }).$type<unknown>(),
    /** ok | failed */
    status: text("status").notNull(),
    error: text("error"),
    promptTokens: integer("prompt_tokens").notNull().default(0),
    completionTokens: integer("completion_tokens").notNull().default(0),
    costUsd: real("cost_usd").notNull().default(0),
    attempts: integer("attempts").notNull().default(1),
    latencyMs: integer("latency_ms").notNull().default(0),
    /** What the call was for: a run id being simulated or evaluated, a scenario being curated. */
    subject: text("subject"),
    /**
     * How the JSON was found in the reply (app/domain/llm/reply-parsing.ts): json | fenced | prose | think |
     * structured.
     */
    replyForm: text("reply_form"),
    createdAt: createdAt(),
  },
  (t) => [index("llm_calls_role_idx").on(t.role), index("llm_calls_subject_idx").on(t.subject)],
);

/** Stored metric values for a run or matched pair, with the parameters they were computed with. */
export const metricValues = sqliteTable(
  "metric_values",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** run | pair */
    subjectKind: text("subject_kind").notNull(),
    subjectId: text("subject_id").notNull(),
    /** The evaluation the metric was computed from ("" for metrics of the run itself, e.g. IF). */
    evaluationId: text("evaluation_id").notNull().default(""),
    metric: text("metric").notNull(),
    /** null when the metric is undefined for this subject (e.g. IT with no drop events). */
    value: real("value"),
    detail: text("detail", { mode: "json" }).$type<unknown>(),
    params: text("params", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** The metric's definition version that computed the value; rows of another version are stale (registry.ts). */
    definitionVersion: integer("definition_version").notNull().default(1),
    /**
     * CC, TLE, RL, ME and MI: the definitions the row was computed by (params.definitions: spec or
     * promediate-reference); "spec" for the other metrics. Part of the row's identity, so both can be stored.
     */
    definitions: text("definitions").notNull().default("spec"),
    computedAt: text("computed_at").notNull(),
  },
  (t) => [
    uniqueIndex("metric_values_subject_uq").on(t.subjectKind, t.subjectId, t.evaluationId, t.metric, t.definitions),
    index("metric_values_metric_idx").on(t.metric),
  ],
);

/** Mediator-intelligence judge: one 1–5 score per dimension for one intervention (−1 = not applicable). */
export const interventionJudgments = sqliteTable(
  "intervention_judgments",
  {
    runId: text("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    turnId: integer("turn_id").notNull(),
    backbone: text("backbone").notNull(),
    perceptionAlignment: integer("perception_alignment").notNull(),
    emotionalDynamics: integer("emotional_dynamics").notNull(),
    cognitiveChallenges: integer("cognitive_challenges").notNull(),
    communicationBreakdowns: integer("communication_breakdowns").notNull(),
    reason: text("reason"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.turnId, t.backbone] })],
);

// ---------- scenario curation (searcher → writer → rejection by unmediated simulation) ----------

/**
 * A seed report: a real dispute the searcher found, with its sources and how it was found.
 * De-duplicated by a normalised key, so the same dispute is never recast twice.
 */
export const seeds = sqliteTable(
  "seeds",
  {
    id: text("id").primaryKey(),
    domain: text("domain").notNull(),
    title: text("title").notNull(),
    /** The report (app/domain/curation/seed.ts): parties, contested issues, timeline, tensions, status, summary. */
    report: text("report", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** The sources it cites: [{ url, title? }]. */
    sources: text("sources", { mode: "json" }).$type<{ url: string; title?: string }[]>().notNull(),
    /** web-research | search-tools | files */
    sourceKind: text("source_kind").notNull(),
    /** How it was found: the query, the model, the search backend or the file path. */
    provenance: text("provenance", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    dedupeKey: text("dedupe_key").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("seeds_dedupe_key_uq").on(t.dedupeKey), index("seeds_domain_idx").on(t.domain)],
);

/** One scenario written from a seed, and what became of it: accepted (a scenario) or rejected with its reason. */
export const curationCandidates = sqliteTable(
  "curation_candidates",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    seedId: text("seed_id")
      .notNull()
      .references(() => seeds.id),
    domain: text("domain").notNull(),
    /** accepted | rejected */
    status: text("status").notNull(),
    /**
     * Rejected: invalid (the writer's scenario failed the checks after one repair) | resolved (an unmediated replay
     * resolved).
     */
    rejection: text("rejection"),
    /** In words, naming the rule or the replay. */
    reason: text("reason"),
    /** The scenario as written (null when the writer produced nothing usable). */
    candidate: text("candidate", { mode: "json" }).$type<Record<string, unknown>>(),
    /** The unmediated replays: [{ replay, outcome, runId? }] (accepted candidates keep theirs as runs). */
    replays: text("replays", { mode: "json" })
      .$type<{ replay: number; outcome: string; runId?: string }[]>()
      .notNull()
      .default([]),
    /** The scenario an accepted candidate became. */
    scenarioId: text("scenario_id").references(() => scenarios.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("curation_candidates_seed_uq").on(t.seedId),
    index("curation_candidates_domain_idx").on(t.domain, t.status),
  ],
);

/**
 * A benchmark plan as `benchmark run` last saw it (app/domain/benchmark/plan.ts), keyed by the
 * hash of its canonical JSON: the Benchmark page and `report` rebuild the grid from it.
 */
export const benchmarkPlans = sqliteTable("benchmark_plans", {
  hash: text("hash").primaryKey(),
  name: text("name").notNull(),
  /** The validated plan, defaults filled. */
  plan: text("plan", { mode: "json" }).$type<unknown>().notNull(),
  /** The file it was read from, as given on the command line. */
  source: text("source").notNull(),
  createdAt: createdAt(),
  /** When `benchmark run` last worked on it (any shard). */
  lastRunAt: text("last_run_at"),
});

/**
 * Project-wide settings that outlive one command, one row per key; e.g. `metric-params`: the
 * metric parameters `socrates metrics --params` (or a plan's `params`) last computed with, which
 * every page and report that recomputes a consensus series must use and print.
 */
export const settings = sqliteTable("settings", {
  key: text("key").primaryKey(),
  value: text("value", { mode: "json" }).$type<unknown>().notNull(),
  updatedAt: text("updated_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`),
});

/**
 * High-water marks of the data the study dashboard reads, one row per scope (`study:<id>`, or
 * `global` for runs, evaluations, annotators and the other shared tables), each bumped by SQLite
 * triggers (migration 0012) on every insert, update or delete, so a write by any process
 * changes the mark the dashboard cache is keyed by (app/server/annotation/dashboard-cache.server.ts).
 */
export const dataVersions = sqliteTable("data_versions", {
  scope: text("scope").primaryKey(),
  version: integer("version").notNull(),
});

/**
 * Leases on benchmark work shared by several `benchmark run` processes on one database
 * (app/server/models/work-lease.server.ts): `unit:<run id>` for a grid unit, `call:<cache key>`
 * for an LLM request in flight. A lease whose holder stops renewing it lapses at `expires_at`
 * (epoch milliseconds) and may be taken over.
 */
export const workLeases = sqliteTable("work_leases", {
  workKey: text("work_key").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: integer("expires_at").notNull(),
});
