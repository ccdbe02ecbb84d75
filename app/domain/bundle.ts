/**
 * The SoCRATES bundle: the JSON interchange format for scenarios, conditions, runs, matched pairs,
 * A/B reactiveness pairs and evaluations. These zod schemas are the source of truth; docs/formats.md describes them.
 *
 * Schemas here check each record on its own. Checks that need other records (a run's speakers
 * against its scenario's parties, a judge's turn ids against the run's length) live in
 * bundle-checks.ts, so they can also see records already in the database.
 */
import { z } from "zod";

export const BUNDLE_FORMAT = "socrates-bundle";
export const BUNDLE_VERSION = 1;

export const DOMAINS = [
  "transactional",
  "healthcare",
  "environmental",
  "business-to-business",
  "public-policy",
  "international",
  "legal",
  "intra-organizational",
] as const;
export type Domain = (typeof DOMAINS)[number];

/** The mediator's speaker id in a run. Party ids may not use it. */
export const MEDIATOR_ID = "MEDIATOR";

const id = z
  .string()
  .min(1, "must not be empty")
  .max(120)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, "use letters, digits, '.', '_', ':' or '-' (no spaces)");
const code = z
  .string()
  .regex(/^[A-Z][A-Z0-9_]{0,15}$/, "use an upper-case code such as ACC or WORK_2 (at most 16 characters)");
const text = z.string().trim().min(1, "must not be empty");

export const optionSchema = z
  .object({
    label: z.string().regex(/^[A-Z]$/, "an option label is one upper-case letter"),
    description: text,
  })
  .strict();

export const topicSchema = z
  .object({
    id: code,
    name: text,
    description: text,
    options: z.array(optionSchema).min(2, "a topic needs at least two options").max(8),
  })
  .strict()
  .superRefine((topic, ctx) => {
    topic.options.forEach((option, i) => {
      const expected = String.fromCharCode(65 + i);
      if (option.label !== expected) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["options", i, "label"],
          message: `options are lettered in order: expected "${expected}", got "${option.label}"`,
        });
      }
    });
  });

/** The cultural identities a party can be anchored to (spec: "Scenario conventions"). */
export const CULTURES = ["US", "CN", "KR"] as const;
export type Culture = (typeof CULTURES)[number];

export const partySchema = z
  .object({
    id: code.refine((v) => v !== MEDIATOR_ID, `"${MEDIATOR_ID}" is reserved for the mediator`),
    name: text,
    role: text,
    relation: text,
    preferences: z.record(z.string(), text),
    weights: z.record(z.string(), z.number().int("a weight is a whole number").positive("a weight is positive")),
    /** Persona instructions appended by a condition (reactiveness, culture); absent in the general condition. */
    persona: text.optional(),
    /** The reactiveness level a condition set (0 = composed, 1 = reactive); its statement is in `persona`. */
    reactiveness: z.number().min(0, "reactiveness is in [0, 1]").max(1, "reactiveness is in [0, 1]").optional(),
    /** The cultural identity a condition set (Hofstede profile); its statement is in `persona`. */
    culture: z.enum(CULTURES).optional(),
  })
  .strict();

/**
 * A negotiation may have more topics than a curated scenario (ProMediate's hmo case has five);
 * curation keeps its own tighter limit (curation/writer-checks.ts).
 */
export const MAX_SCENARIO_TOPICS = 8;
const topicsSchema = z
  .array(topicSchema)
  .min(1)
  .max(MAX_SCENARIO_TOPICS, `a scenario has at most ${MAX_SCENARIO_TOPICS} topics`);
const partiesSchema = z.array(partySchema).min(2, "a scenario needs at least two parties").max(6);

/** Checks that tie parties to topics: unique ids, a stance and a weight per topic, weights summing to 10. */
function checkScenarioBody(body: { topics: Topic[]; parties: Party[] }, ctx: z.RefinementCtx): void {
  const issue = (path: (string | number)[], message: string) =>
    ctx.addIssue({ code: z.ZodIssueCode.custom, path, message });
  const topicIds = body.topics.map((t) => t.id);
  body.topics.forEach((t, i) => {
    if (topicIds.indexOf(t.id) !== i) issue(["topics", i, "id"], `duplicate topic id "${t.id}"`);
  });
  const partyIds = body.parties.map((p) => p.id);
  body.parties.forEach((party, i) => {
    if (partyIds.indexOf(party.id) !== i) issue(["parties", i, "id"], `duplicate party id "${party.id}"`);
    for (const key of Object.keys(party.preferences)) {
      if (!topicIds.includes(key)) issue(["parties", i, "preferences", key], `unknown topic id "${key}"`);
    }
    for (const key of Object.keys(party.weights)) {
      if (!topicIds.includes(key)) issue(["parties", i, "weights", key], `unknown topic id "${key}"`);
    }
    for (const topicId of topicIds) {
      if (!(topicId in party.preferences))
        issue(["parties", i, "preferences"], `missing a stance on topic "${topicId}"`);
      if (!(topicId in party.weights)) issue(["parties", i, "weights"], `missing a weight for topic "${topicId}"`);
    }
    const weights = Object.values(party.weights);
    const sum = weights.reduce((a, b) => a + b, 0);
    if (sum !== 10) issue(["parties", i, "weights"], `weights sum to 10, got ${sum}`);
    if (weights.length > 1 && weights.every((w) => w === weights[0])) {
      issue(["parties", i, "weights"], "weights may not all be equal: they set a priority order");
    }
  });
}

export const scenarioBodySchema = z
  .object({ background: text, topics: topicsSchema, parties: partiesSchema })
  .strict()
  .superRefine(checkScenarioBody);

/** A scenario imported from a ProMediate case file: the file, its hash and which fields the importer derived. */
const promediateSourceSchema = z
  .object({
    kind: z.literal("promediate"),
    /** The case file's name (e.g. "williams.json"). */
    file: z.string().min(1),
    /** The sha256 of the case file's bytes, hex. */
    sha256: z.string().regex(/^[0-9a-f]{64}$/, "a sha256 is 64 lower-case hex digits"),
    /** Fields the case does not state, worked out by the importer's documented rules (docs/promediate.md). */
    derived: z.array(z.string().min(1)).min(1),
    note: text,
  })
  .strict();

export const scenarioSourceSchema = z.union([
  z
    .object({
      kind: z.enum(["demo", "curated", "manual"]),
      note: text.optional(),
      url: z.string().url().optional(),
    })
    .strict(),
  promediateSourceSchema,
]);
export type ScenarioSource = z.infer<typeof scenarioSourceSchema>;

export const scenarioSchema = z
  .object({
    id,
    domain: z.enum(DOMAINS),
    title: text,
    background: text,
    topics: topicsSchema,
    parties: partiesSchema,
    source: scenarioSourceSchema,
  })
  .strict()
  .superRefine(checkScenarioBody);

export const CONDITION_VARIANTS = {
  general: ["default"],
  strategy: ["competing", "avoiding", "accommodating"],
  parties: ["three-party"],
  history: ["extended"],
  emotion: ["CC", "CR", "RR"],
  culture: ["US-US", "CN-CN", "KR-KR", "US-CN", "US-KR", "CN-KR"],
} as const;
/** The axes of the 15 benchmark conditions (the paper's Table 5). */
export type ConditionAxis = keyof typeof CONDITION_VARIANTS;
export const CONDITION_AXES = Object.keys(CONDITION_VARIANTS) as ConditionAxis[];

/**
 * Persona-fidelity conditions (not among the 15): one party ("target") at one grid level, every
 * other party at a reference level. Variant "<TARGET>-<k>of3-ref<j>of3": levels k/3 and j/3.
 */
export const FIDELITY_AXIS = "fidelity" as const;
export const FIDELITY_VARIANT = /^([A-Z][A-Z0-9_]{0,15})-([0-3])of3-ref([0-3])of3$/;
export type StoredConditionAxis = ConditionAxis | typeof FIDELITY_AXIS;
const STORED_AXES: [StoredConditionAxis, ...StoredConditionAxis[]] = [
  "general",
  ...CONDITION_AXES.filter((a) => a !== "general"),
  FIDELITY_AXIS,
];

/** How a condition was produced, so a result can be traced to the prompt and model behind it. */
export const conditionProvenanceSchema = z
  .object({
    /** template: fixed text, no LLM call; writer: the scenario writer rewrote it. */
    method: z.enum(["template", "writer"]),
    /** A short hash of the template text or writer prompts used. */
    prompt_version: z.string().min(1),
    /** The writer's model (writer conditions). */
    writer_model: z.string().min(1).optional(),
    /** The seed report the writer read (writer conditions); null when it worked from the background. */
    seed_id: id.nullable().optional(),
    /** History conditions: expanded background length / original background length, in characters. */
    length_ratio: z.number().positive().optional(),
    /** True when the writer's first reply broke a rule and its repair was kept. */
    repaired: z.boolean().optional(),
    note: text.optional(),
  })
  .strict();
export type ConditionProvenance = z.infer<typeof conditionProvenanceSchema>;

export const conditionSchema = z
  .object({
    id,
    scenario_id: id,
    axis: z.enum(STORED_AXES),
    variant: z.string(),
    /** The scenario as this condition expanded it; omitted for the general condition (= the base scenario). */
    expanded: scenarioBodySchema.optional(),
    provenance: conditionProvenanceSchema.optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.axis === FIDELITY_AXIS) {
      const m = FIDELITY_VARIANT.exec(c.variant);
      if (!m || m[2] === m[3]) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["variant"],
          message: `a fidelity variant is "<TARGET>-<k>of3-ref<j>of3" with k ≠ j in 0–3 (e.g. "ANN-1of3-ref2of3"); got "${c.variant}"`,
        });
      }
    } else if (!(CONDITION_VARIANTS[c.axis] as readonly string[]).includes(c.variant)) {
      const variants: readonly string[] = CONDITION_VARIANTS[c.axis];
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["variant"],
        message: `axis "${c.axis}" has variants ${variants.map((v) => `"${v}"`).join(", ")}; got "${c.variant}"`,
      });
    }
    if (c.axis !== "general" && !c.expanded) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["expanded"],
        message: `a "${c.axis}" condition needs its expanded scenario`,
      });
    }
  });

export const SIGNALS = ["continue", "consensus", "walk-away"] as const;

/** An emotion score: a whole number from 0 (distressed, hostile) to 100 (calm, open). */
export const emotionScore = z
  .number()
  .int("an emotion score is a whole number")
  .min(0, "an emotion score is from 0 to 100")
  .max(100, "an emotion score is from 0 to 100");
export type Signal = (typeof SIGNALS)[number];

export const turnSchema = z
  .object({
    turn_id: z.number().int().positive(),
    speaker: z.string().min(1),
    role: z.enum(["party", "mediator"]),
    utterance: text,
    thought: text.optional(),
    signal: z.enum(SIGNALS).optional(),
    /**
     * A party's self-reported emotion after this turn, 0–100 (higher = calmer and more open; the
     * anchors are in app/domain/emotion/scale.ts). Private like the thought. Runs simulated
     * without emotion have none; a run that has it has it on every party turn.
     */
    emotion: emotionScore.optional(),
    emotion_reason: text.optional(),
  })
  .strict();

/** A rating from 1 to 5 (the social mediator's motivation and its candidates' ratings). */
const rating = z.number().min(1).max(5);

/** One intervention the social mediator drafted, its ratings on the four breakdown dimensions and their mean. */
const mediatorCandidateSchema = z
  .object({
    strategy: z.enum(["facilitative", "evaluative", "transformative", "problem-solving"]),
    text,
    ratings: z.object({ perception: rating, emotion: rating, cognition: rating, communication: rating }).strict(),
    overall: rating,
    reason: text.optional(),
  })
  .strict();

/** The social mediator's consensus tracker for one topic after the turn. */
const trackedTopicSchema = z
  .object({ topic_id: code, settled: z.boolean(), options: z.array(z.string().min(1)), note: text.optional() })
  .strict();

export const mediatorDecisionSchema = z
  .object({
    /** The party turn after which the mediator decided (it would speak as the next turn). */
    after_turn: z.number().int().positive(),
    engage: z.boolean(),
    thought: text.optional(),
    seconds: z.number().nonnegative().optional(),
    // The social mediator's record (docs/benchmark.md "Mediator modes"); other modes leave these out.
    motivation: rating.optional(),
    threshold: rating.optional(),
    candidates: z.array(mediatorCandidateSchema).optional(),
    /** Index into `candidates` of the one voiced. */
    chosen: z.number().int().nonnegative().optional(),
    tracker: z.array(trackedTopicSchema).optional(),
    /** Every topic was settled: the mediator summed up and asked the parties to confirm. */
    closing: z.boolean().optional(),
  })
  .strict();

export type MediatorDecision = z.infer<typeof mediatorDecisionSchema>;

export const OUTCOMES = ["resolved", "impasse", "budget"] as const;
export type Outcome = (typeof OUTCOMES)[number];

/**
 * How parties take turns. "cyclic" (the default, and what an absent field means): parties speak in
 * party_order, round after round, and the mediator speaks at most once between two party turns.
 * "free": any party may speak next and the mediator may speak several times in a row, as in
 * transcripts recorded elsewhere (docs/formats.md).
 */
export const TURN_ORDERS = ["cyclic", "free"] as const;
export type TurnOrder = (typeof TURN_ORDERS)[number];

export const runSchema = z
  .object({
    id,
    condition_id: id,
    mediated: z.boolean(),
    mediator_backbone: z.string().min(1).nullable(),
    simulator_backbone: z.string().min(1),
    outcome: z.enum(OUTCOMES),
    /** Party ids: their fixed speaking order in a cyclic run; in a free run, the parties that may speak. */
    party_order: z.array(code).min(2),
    /** Absent means "cyclic"; only "free" is ever stored back into a bundle (see TURN_ORDERS). */
    turn_order: z.enum(TURN_ORDERS).optional(),
    turns: z.array(turnSchema).min(1),
    mediator_decisions: z.array(mediatorDecisionSchema).optional(),
    config: z.record(z.string(), z.unknown()),
    seed: z.number().int().nullable(),
    created_at: z.string().datetime({ offset: true }).optional(),
  })
  .strict()
  .superRefine((run, ctx) => {
    const issue = (path: (string | number)[], message: string) =>
      ctx.addIssue({ code: z.ZodIssueCode.custom, path, message });
    if (run.mediated !== (run.mediator_backbone !== null)) {
      issue(
        ["mediator_backbone"],
        run.mediated ? "a mediated run names its mediator backbone" : "an unmediated run has mediator_backbone null",
      );
    }
    if (new Set(run.party_order).size !== run.party_order.length) issue(["party_order"], "party_order repeats a party");
    const free = run.turn_order === "free";
    let partyTurns = 0;
    let previousRole: "party" | "mediator" | null = null;
    run.turns.forEach((turn, i) => {
      if (turn.turn_id !== i + 1)
        issue(["turns", i, "turn_id"], `turns are numbered 1, 2, 3…: expected ${i + 1}, got ${turn.turn_id}`);
      if (turn.role === "mediator") {
        if (turn.speaker !== MEDIATOR_ID)
          issue(["turns", i, "speaker"], `a mediator turn's speaker is "${MEDIATOR_ID}"`);
        if (!run.mediated) issue(["turns", i, "role"], "an unmediated run has no mediator turns");
        if (previousRole === "mediator" && !free)
          issue(["turns", i, "role"], "the mediator speaks at most once between two party turns (a cyclic run)");
        if (turn.signal) issue(["turns", i, "signal"], "only parties signal");
        if (turn.emotion !== undefined) issue(["turns", i, "emotion"], "only parties report an emotion");
      } else if (free) {
        if (!run.party_order.includes(turn.speaker))
          issue(["turns", i, "speaker"], `"${turn.speaker}" is not in party_order (${run.party_order.join(", ")})`);
      } else {
        const expected = run.party_order[partyTurns % run.party_order.length];
        if (turn.speaker !== expected) {
          issue(["turns", i, "speaker"], `parties speak in party_order: expected "${expected}", got "${turn.speaker}"`);
        }
        partyTurns += 1;
      }
      if (turn.emotion_reason !== undefined && turn.emotion === undefined)
        issue(["turns", i, "emotion_reason"], "an emotion_reason goes with an emotion score");
      previousRole = turn.role;
    });
    // Self-reported emotion is all or nothing, so every metric on it reads a whole trajectory.
    const spoken = run.turns.filter((t) => t.role === "party");
    const reported = spoken.filter((t) => t.emotion !== undefined).length;
    if (reported > 0 && reported < spoken.length) {
      const first = run.turns.findIndex((t) => t.role === "party" && t.emotion === undefined);
      issue(
        ["turns", first, "emotion"],
        `a run with self-reported emotion has it on every party turn (${reported} of ${spoken.length} have it)`,
      );
    }
    // The outcome must be what the signals say (spec: "Trajectory").
    const signalled = (signal: Signal) => new Set(run.turns.filter((t) => t.signal === signal).map((t) => t.speaker));
    if (run.outcome === "impasse" && signalled("walk-away").size === 0) {
      issue(["outcome"], 'an "impasse" run has a party turn with signal "walk-away"');
    }
    if (run.outcome === "resolved") {
      const agreed = signalled("consensus");
      const missing = run.party_order.filter((p) => !agreed.has(p));
      if (missing.length > 0)
        issue(["outcome"], `a "resolved" run needs every party to signal "consensus"; ${missing.join(", ")} never did`);
    }
  })
  // An explicit "cyclic" is the default spelled out: dropped, so it stores and compares as an absent field.
  .transform((run) => (run.turn_order === "cyclic" ? { ...run, turn_order: undefined } : run));

export const judgeEntrySchema = z
  .object({
    turn_id: z.number().int(),
    reason: z.string(),
    score: z
      .number()
      .int("a score is a whole number")
      .min(1, "a score is from 1 to 5")
      .max(5, "a score is from 1 to 5"),
    party_stances: z.record(z.string(), z.string()),
  })
  .strict();

/** One topic-localized judge pass (the paper's output shape). */
export const topicJudgeOutputSchema = z
  .object({
    relevant_turns: z.array(z.number().int()),
    agreement_score: z.array(judgeEntrySchema),
  })
  .strict();
export type TopicJudgeOutput = z.infer<typeof topicJudgeOutputSchema>;

export const BASELINE_DIMENSIONS = [
  "shared_goals",
  "common_understanding",
  "agreement_on_terms",
  "tone_and_willingness",
  "shared_decision_making",
] as const;
const unit = z.number().min(0, "a dimension score is in [0, 1]").max(1, "a dimension score is in [0, 1]");
const dimensionsSchema = z
  .object(
    Object.fromEntries(BASELINE_DIMENSIONS.map((d) => [d, unit])) as Record<
      (typeof BASELINE_DIMENSIONS)[number],
      typeof unit
    >,
  )
  .strict();

export const NO_MENTION = "No Mention";
/**
 * The judge's own overall score for a pair and topic, when it gave one (ProMediate's judge does,
 * and its released code reads it instead of the mean of the five dimensions).
 */
const overall = unit.optional();

/** The per-turn baseline's raw output: pair scores on the starting attitudes, then one entry per turn. */
export const perTurnOutputSchema = z
  .object({
    initial: z.array(
      z.object({ pair: z.tuple([code, code]), topic: code, dimensions: dimensionsSchema, overall }).strict(),
    ),
    turns: z.array(
      z
        .object({
          turn_id: z.number().int(),
          speaker: z.string(),
          /** Party turns: the speaker's attitude per topic, or "No Mention". */
          attitudes: z.record(z.string(), z.string()).optional(),
          /** Party turns: the speaker's agreement with each other party, per topic. */
          agreement: z
            .array(z.object({ with: code, topic: code, dimensions: dimensionsSchema, overall }).strict())
            .optional(),
          /** Mediator turns: the topics the utterance addresses. */
          mentioned_topics: z.array(code).optional(),
        })
        .strict(),
    ),
  })
  .strict();
export type PerTurnOutput = z.infer<typeof perTurnOutputSchema>;

/** One emotion-judge pass over one party: a score and reason at each of that party's turns. */
export const emotionJudgeOutputSchema = z
  .object({
    scores: z.array(z.object({ turn_id: z.number().int(), score: emotionScore, reason: z.string() }).strict()),
  })
  .strict();
export type EmotionJudgeOutput = z.infer<typeof emotionJudgeOutputSchema>;

/** A judge failure: on one topic (topic-localized), on one party (emotion), or on the whole run. */
export const evaluationErrorSchema = z
  .object({ topic_id: code.optional(), party_id: code.optional(), message: text })
  .strict();

const evaluationBase = {
  id,
  run_id: id,
  backbone: z.string().min(1),
  /** The judge's prompt-template version; absent in bundles recorded before versions. */
  prompt_version: z.string().min(1).optional(),
  errors: z.array(evaluationErrorSchema).optional(),
  created_at: z.string().datetime({ offset: true }).optional(),
};

export const evaluationSchema = z.discriminatedUnion("method", [
  z
    .object({
      ...evaluationBase,
      method: z.literal("topic-localized"),
      /** One judge pass per topic, keyed by topic id. */
      output: z.record(z.string(), topicJudgeOutputSchema),
    })
    .strict(),
  z
    .object({
      ...evaluationBase,
      method: z.literal("per-turn"),
      output: perTurnOutputSchema,
    })
    .strict(),
  z
    .object({
      ...evaluationBase,
      method: z.literal("emotion"),
      /** The post-hoc emotion judge: one pass per party, keyed by party id. */
      output: z.record(z.string(), emotionJudgeOutputSchema),
    })
    .strict(),
]);

export const matchedPairSchema = z
  .object({ id, condition_id: id, mediated_run_id: id, unmediated_run_id: id })
  .strict();

const level = z.number().min(0, "a reactiveness level is in [0, 1]").max(1, "a reactiveness level is in [0, 1]");

/**
 * An A/B reactiveness pair: two runs of one scenario in which only the target party's
 * reactiveness differs (0 = composed, 1 = reactive); the opponent stays at a reference level.
 */
export const abPairSchema = z
  .object({
    id,
    scenario_id: id,
    run_a_id: id,
    run_b_id: id,
    target_party: code,
    level_a: level,
    level_b: level,
    opponent_level: level.optional(),
  })
  .strict();

export const bundleSchema = z
  .object({
    format: z.literal(BUNDLE_FORMAT),
    version: z.literal(BUNDLE_VERSION),
    description: z.string().optional(),
    scenarios: z.array(scenarioSchema).default([]),
    conditions: z.array(conditionSchema).default([]),
    runs: z.array(runSchema).default([]),
    matched_pairs: z.array(matchedPairSchema).default([]),
    ab_pairs: z.array(abPairSchema).default([]),
    evaluations: z.array(evaluationSchema).default([]),
  })
  .strict();

export type Scenario = z.infer<typeof scenarioSchema>;
export type ScenarioBody = z.infer<typeof scenarioBodySchema>;
export type Topic = z.infer<typeof topicSchema>;
export type Party = z.infer<typeof partySchema>;
export type Condition = z.infer<typeof conditionSchema>;
export type Turn = z.infer<typeof turnSchema>;
export type Run = z.infer<typeof runSchema>;
export type MatchedPair = z.infer<typeof matchedPairSchema>;
export type AbPairRecord = z.infer<typeof abPairSchema>;
export type Evaluation = z.infer<typeof evaluationSchema>;
export type EvaluationError = z.infer<typeof evaluationErrorSchema>;
export type Bundle = z.infer<typeof bundleSchema>;
export type BundleInput = z.input<typeof bundleSchema>;
