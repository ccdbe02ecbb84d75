/**
 * What a metric is computed from. The runner loads a run's stored facts (RunData) and this module
 * turns them into inputs, each series built once and shared by every metric that reads it:
 * - run: the run itself (its turns and mediator decisions), evaluation id "";
 * - topic-localized / per-turn: one stored evaluation with its consensus series;
 * - mi-judgments: one judge backbone's intervention judgments, evaluation id `${runId}:mi:${backbone}`;
 * - matched-pair: both runs of a pair scored by the same topic-localized judge, subject the pair;
 * - emotion: one emotion trajectory (self-report or one emotion judge) with its group series Ē[t],
 *   evaluation id emotionSubjectId(run, source);
 * - emotion-consensus: one emotion trajectory beside one topic-localized C[t], evaluation id
 *   emotionConsensusSubjectId(run, source, topic evaluation).
 * An input built on an incomplete evaluation or a judged emotion trajectory with failed parties
 * carries `incomplete` (see incomplete-input.ts): its metrics store null with that detail instead
 * of being computed.
 */
import { perTurnTrajectory, type PerTurnTrajectory } from "../baseline.ts";
import type { PerTurnOutput, TopicJudgeOutput } from "../bundle.ts";
import { topicLocalizedTrajectory } from "../consensus.ts";
import { miEvaluationId } from "../evaluation-ids.ts";
import { groupEmotionSeries, type NullableSeries } from "../emotion/series.ts";
import { emotionConsensusSubjectId, emotionSubjectId, type EmotionTrajectory } from "../emotion/trajectory.ts";
import { emotionSourceDetail } from "./benchmark/emotion-detail.ts";
import {
  incompleteEmotionConsensus,
  incompleteEvaluation,
  incompletePair,
  incompleteTrajectory,
  type IncompleteDetail,
  type IncompleteRowDetail,
} from "./incomplete-input.ts";

export interface StoredEvaluation {
  id: string;
  method: string;
  backbone: string;
  output: unknown;
  errors: { topic_id?: string; message: string }[];
}

export interface StoredJudgment {
  backbone: string;
  turnId: number;
  perceptionAlignment: number;
  emotionalDynamics: number;
  cognitiveChallenges: number;
  communicationBreakdowns: number;
}

export interface RunData {
  runId: string;
  mediated: boolean;
  topicIds: string[];
  partyIds: string[];
  /** speakers[t - 1] spoke turn t. */
  speakers: string[];
  partyTurns: number;
  mediatorTurns: number[];
  decisionSeconds: number[];
  evaluations: StoredEvaluation[];
  judgments: StoredJudgment[];
  /** The run's emotion trajectories (self-report first, then each emotion judge): app/domain/emotion/trajectory.ts. */
  emotions: EmotionTrajectory[];
}

export interface PairData {
  id: string;
  mediated: RunData;
  unmediated: RunData;
}

export interface TopicLocalizedInput {
  run: RunData;
  evaluation: StoredEvaluation;
  /** C[t], t = 0..T. */
  consensus: number[];
  /** Null when every topic's judge pass succeeded; otherwise C is not used. */
  incomplete: IncompleteDetail | null;
}

export interface MetricInputs {
  run: { run: RunData };
  "topic-localized": TopicLocalizedInput;
  "per-turn": { run: RunData; evaluation: StoredEvaluation; trajectory: PerTurnTrajectory };
  "mi-judgments": { run: RunData; backbone: string; judgments: StoredJudgment[] };
  "matched-pair": { pair: PairData; backbone: string; mediated: TopicLocalizedInput; unmediated: TopicLocalizedInput };
  /** One emotion trajectory with its group series Ē[t]; rows under emotionSubjectId(run, source). */
  emotion: { run: RunData; trajectory: EmotionTrajectory; group: NullableSeries };
  /** One emotion trajectory beside one topic-localized evaluation's C[t]; rows under emotionConsensusSubjectId. */
  "emotion-consensus": {
    run: RunData;
    trajectory: EmotionTrajectory;
    group: NullableSeries;
    topic: TopicLocalizedInput;
  };
}
export type MetricInputKind = keyof MetricInputs;

/** Where a row is stored. */
export interface MetricSubject {
  subjectKind: "run" | "pair";
  subjectId: string;
  evaluationId: string;
}

/** `incomplete`: every metric of this input stores null with this detail (the input is not computed on). */
export type MetricInputItem = {
  [K in MetricInputKind]: {
    kind: K;
    subject: MetricSubject;
    input: MetricInputs[K];
    incomplete?: IncompleteRowDetail | null;
  };
}[MetricInputKind];

function topicInput(run: RunData, evaluation: StoredEvaluation, s0: number): TopicLocalizedInput {
  const trajectory = topicLocalizedTrajectory(
    evaluation.output as Record<string, TopicJudgeOutput>,
    run.topicIds,
    run.speakers.length,
    s0,
  );
  return {
    run,
    evaluation,
    consensus: trajectory.consensus,
    incomplete: incompleteEvaluation(run.runId, evaluation, run.topicIds),
  };
}

function evaluationInput(run: RunData, evaluation: StoredEvaluation, s0: number): MetricInputItem | null {
  const subject: MetricSubject = { subjectKind: "run", subjectId: run.runId, evaluationId: evaluation.id };
  if (evaluation.method === "topic-localized") {
    const input = topicInput(run, evaluation, s0);
    return { kind: "topic-localized", subject, input, incomplete: input.incomplete };
  }
  if (evaluation.method === "per-turn") {
    const trajectory = perTurnTrajectory(evaluation.output as PerTurnOutput, {
      topicIds: run.topicIds,
      partyIds: run.partyIds,
      speakers: run.speakers,
    });
    return {
      kind: "per-turn",
      subject,
      input: { run, evaluation, trajectory },
      incomplete: incompleteEvaluation(run.runId, evaluation),
    };
  }
  return null;
}

function judgeInputs(run: RunData): MetricInputItem[] {
  const byBackbone = new Map<string, StoredJudgment[]>();
  for (const j of run.judgments) {
    const list = byBackbone.get(j.backbone);
    if (list) list.push(j);
    else byBackbone.set(j.backbone, [j]);
  }
  return [...byBackbone].map(([backbone, judgments]) => ({
    kind: "mi-judgments",
    subject: { subjectKind: "run", subjectId: run.runId, evaluationId: miEvaluationId(run.runId, backbone) },
    input: { run, backbone, judgments },
  }));
}

/**
 * Per emotion trajectory: its own input, then one beside each topic-localized evaluation. An
 * incomplete row still names its source (and EC its topic judge): the run page groups by them.
 */
function emotionInputs(run: RunData, topics: readonly TopicLocalizedInput[]): MetricInputItem[] {
  const T = run.speakers.length;
  return run.emotions.flatMap((trajectory): MetricInputItem[] => {
    const group = groupEmotionSeries(trajectory, T);
    const identity = emotionSourceDetail(trajectory.source);
    const failed = incompleteTrajectory(trajectory.failedParties);
    const subject = (evaluationId: string): MetricSubject => ({
      subjectKind: "run",
      subjectId: run.runId,
      evaluationId,
    });
    const consensus = topics.map((topic): MetricInputItem => {
      const incomplete = incompleteEmotionConsensus(failed, topic.incomplete);
      return {
        kind: "emotion-consensus",
        subject: subject(emotionConsensusSubjectId(run.runId, trajectory.source, topic.evaluation.id)),
        input: { run, trajectory, group, topic },
        incomplete: incomplete && { ...identity, topicBackbone: topic.evaluation.backbone, ...incomplete },
      };
    });
    const own: MetricInputItem = {
      kind: "emotion",
      subject: subject(emotionSubjectId(run.runId, trajectory.source)),
      input: { run, trajectory, group },
      incomplete: failed && { ...identity, ...failed },
    };
    return [own, ...consensus];
  });
}

/** A run's inputs in row order: the run itself, its evaluations (by id), its MI judges, its emotion trajectories. */
export function runInputs(run: RunData, s0: number): MetricInputItem[] {
  const own: MetricInputItem = {
    kind: "run",
    subject: { subjectKind: "run", subjectId: run.runId, evaluationId: "" },
    input: { run },
  };
  const evaluations = run.evaluations.flatMap((e) => evaluationInput(run, e, s0) ?? []);
  const topics = evaluations.flatMap((item) => (item.kind === "topic-localized" ? [item.input] : []));
  return [own, ...evaluations, ...judgeInputs(run), ...emotionInputs(run, topics)];
}

/** One input per topic-localized judge that scored both runs of the pair, under the mediated run's evaluation id. */
export function pairInputs(pair: PairData, s0: number): MetricInputItem[] {
  const topicOnly = (data: RunData) => data.evaluations.filter((e) => e.method === "topic-localized");
  return topicOnly(pair.mediated).flatMap((mediatedEval): MetricInputItem[] => {
    const unmediatedEval = topicOnly(pair.unmediated).find((e) => e.backbone === mediatedEval.backbone);
    if (!unmediatedEval) return [];
    const mediated = topicInput(pair.mediated, mediatedEval, s0);
    const unmediated = topicInput(pair.unmediated, unmediatedEval, s0);
    const incomplete = incompletePair(mediated.incomplete, unmediated.incomplete);
    // An incomplete pair's row still names its runs and evaluations (the run page files CG by backbone).
    const identity = {
      backbone: mediatedEval.backbone,
      mediatedRunId: pair.mediated.runId,
      unmediatedRunId: pair.unmediated.runId,
      mediatedEvaluationId: mediatedEval.id,
      unmediatedEvaluationId: unmediatedEval.id,
    };
    return [
      {
        kind: "matched-pair",
        subject: { subjectKind: "pair", subjectId: pair.id, evaluationId: mediatedEval.id },
        input: { pair, backbone: mediatedEval.backbone, mediated, unmediated },
        incomplete: incomplete && { ...identity, ...incomplete },
      },
    ];
  });
}
