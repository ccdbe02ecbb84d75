/**
 * Deterministic stand-ins for the evaluation judges (topic judge, per-turn attitude and
 * agreement, MI judge, emotion judge). Every reply is derived from the request alone — the transcript, the
 * topic and turn it names — so repeated requests get the same answer and the cache behaves as
 * with a seeded real model.
 *
 * The shapes are valid by default, and the numbers have structure a test can check: topic
 * scores rise over the run and dip on the turn before each mediator turn (drop events the
 * mediator answers) — up to 5 in a run that ended in a deal, at most 3 in one that did not, so
 * mediated and unmediated runs of a pair differ in final consensus —, and agreement rises with
 * the turn number. `EvaluationSabotage` turns chosen
 * replies invalid, to test how the evaluators record bad output.
 *
 * A judge model whose name contains "noisy" (e.g. `standin-noisy`) is a deliberately worse topic
 * judge: on about three turns in five its score is a hash-drawn 1–5 instead of the structured one,
 * so validating it against expert labels (`socrates validate-evaluator`) has something to find.
 *
 * The emotion judge scores exactly the turns its prompt lists for the one party it asks about:
 * each party starts from a hash-drawn 50–70, drops when the party itself uses hostile words
 * ("unacceptable", "refuse", "never", …) and a little more when another party does, and rises
 * after each mediator turn; every score is clamped to 5–95 and the reason says what moved it.
 * A judge model whose name contains "broken" (e.g. `standin-broken`) answers invalid output for
 * the first party the prompt lists — its first entry names a turn of another party, and a score
 * is 140 — and valid output for the others, so tests see one recorded error beside stored scores.
 *
 * The judge is recognised from the system prompt of our templates in app/server/pipeline/prompts.
 */
import { hash32, type MockChatRequest, type Responder } from "../stand-in-request.ts";

export type EvaluationJudge = "topic-judge" | "baseline-attitude" | "baseline-agreement" | "mi-judge" | "emotion-judge";

const SIGNATURES: [EvaluationJudge, RegExp][] = [
  ["topic-judge", /^You review finished negotiation transcripts/],
  ["baseline-attitude", /^You follow a negotiation turn by turn/],
  ["baseline-agreement", /^You measure how much two parties/],
  ["mi-judge", /^You review single interventions by a mediator/],
  ["emotion-judge", /^You read a finished negotiation from the side of one party/],
];

export function evaluationJudge(request: Pick<MockChatRequest, "messages">): EvaluationJudge | null {
  const system = request.messages.find((m) => m.role === "system")?.content ?? "";
  return SIGNATURES.find(([, pattern]) => pattern.test(system))?.[0] ?? null;
}

export interface EvaluationSabotage {
  /** Topic judge: give this topic a score of 7, or a turn id past the end of the run. */
  topicJudge?: Record<string, "score" | "turn">;
  /** Per-turn attitude extraction: reply without the attitudes object at these turns. */
  attitudeTurns?: number[];
  /** MI judge: score 9 on perception alignment at these turns. */
  miTurns?: number[];
}

function hashOf(text: string): number {
  return hash32(text);
}

function user(request: Pick<MockChatRequest, "messages">): string {
  return request.messages.filter((m) => m.role === "user").map((m) => m.content).join("\n");
}

interface Line {
  turn: number;
  speaker: string;
}

function transcriptLines(text: string): Line[] {
  return [...text.matchAll(/^\[(\d+)\] ([A-Z][A-Z0-9_]*): /gm)].map((m) => ({ turn: Number(m[1]), speaker: m[2] }));
}

/** The stand-in parties close a deal with "We have a deal." (responders/simulation.ts); look at the last turn only. */
function endedInDeal(text: string): boolean {
  const turns = text.split("\n").filter((l) => /^\[\d+\] [A-Z][A-Z0-9_]*: /.test(l));
  return /We have a deal\./.test(turns.at(-1) ?? "");
}

function listAfter(text: string, pattern: RegExp): string[] {
  const found = pattern.exec(text)?.[1];
  if (!found) throw new Error(`mock evaluation responder: the prompt has no ${pattern}`);
  return found
    .replace(/\.$/, "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

const round2 = (v: number) => Math.round(v * 100) / 100;

function topicJudgeReply(request: MockChatRequest, sabotage: EvaluationSabotage): object {
  const text = user(request);
  const topicId = /^Judge topic ([A-Z][A-Z0-9_]*) only\./m.exec(text)?.[1] ?? "TOPIC";
  const partyIds = listAfter(text, /Party ids: (.+)$/m);
  const lines = transcriptLines(text);
  const T = lines.length;
  // A run that ended without a deal (impasse, or the budget ran out) never gets past "partial
  // agreement": its final consensus is lower than a resolved run's, so CG is not always 0.
  const ceiling = endedInDeal(text) ? 5 : 3;
  const relevant = lines
    .filter((l) => l.turn === T || hashOf(`${topicId}:${l.turn}`) % 3 !== 0)
    .map((l) => l.turn);
  const entries = relevant.map((t) => {
    // Rising towards 5 at the end, one or two points lower just before the mediator steps in.
    const rising = Math.min(ceiling, 1 + Math.floor((4 * t) / T));
    const beforeMediator = lines[t]?.speaker === "MEDIATOR";
    const score = beforeMediator ? Math.max(1, rising - 2) : rising;
    const party_stances = Object.fromEntries(partyIds.map((p, i) => [p, score >= 4 ? "(B)" : `(${String.fromCharCode(65 + ((i + t) % 3))})`]));
    return { turn_id: t, reason: `mock: turn ${t} moves ${topicId}`, score, party_stances };
  });
  if (/noisy/i.test(request.model)) {
    for (const e of entries) {
      const h = hashOf(`${request.model}:${topicId}:${e.turn_id}`);
      if (h % 5 < 3) e.score = 1 + ((h >>> 8) % 5);
    }
  }
  const mode = sabotage.topicJudge?.[topicId];
  if (mode === "score" && entries.length > 0) entries[0].score = 7;
  if (mode === "turn" && entries.length > 0) entries[entries.length - 1].turn_id = T + 3;
  return { relevant_turns: entries.map((e) => e.turn_id), agreement_score: entries };
}

function attitudeReply(request: MockChatRequest, sabotage: EvaluationSabotage): object {
  const text = user(request);
  const newest = /^\[(\d+)\] ([A-Z][A-Z0-9_]*): /m.exec(text.slice(text.indexOf("## The newest turn")));
  const turn = Number(newest?.[1] ?? 0);
  if (sabotage.attitudeTurns?.includes(turn)) return { note: "mock: no attitudes here" };
  const topics = listAfter(text, /on each of these topics: (.+)$/m);
  return {
    attitudes: Object.fromEntries(
      topics.map((topic) => {
        const h = hashOf(`${topic}:${turn}:${newest?.[2]}`);
        return [topic, h % 2 === 0 ? `leans toward option ${String.fromCharCode(65 + (h >>> 4) % 3)}` : "No Mention"];
      }),
    ),
  };
}

function agreementReply(request: MockChatRequest): object {
  const text = user(request);
  const turn = Number(/^## Positions after turn (\d+)/m.exec(text)?.[1] ?? 0);
  const topics = listAfter(text, /on each of these topics: (.+)$/m);
  const pair = /Rate the agreement between (.+) on each/.exec(text)?.[1] ?? "";
  return {
    topics: Object.fromEntries(
      topics.map((topic) => {
        const base = Math.min(0.9, 0.1 + 0.03 * turn);
        const wobble = ((hashOf(`${pair}:${topic}:${turn}`) % 11) - 5) / 100;
        const dims = {
          shared_goals: round2(base + 0.08 + wobble),
          common_understanding: round2(base + 0.04),
          agreement_on_terms: round2(base - 0.05 + wobble),
          tone_and_willingness: round2(base + 0.06),
          shared_decision_making: round2(base),
        };
        for (const [k, v] of Object.entries(dims)) dims[k as keyof typeof dims] = Math.min(1, Math.max(0, v));
        return [topic, { reason: `mock: agreement after turn ${turn}`, ...dims }];
      }),
    ),
  };
}

function miReply(request: MockChatRequest, sabotage: EvaluationSabotage): object {
  const text = user(request);
  const turn = Number(/^\[(\d+)\] MEDIATOR: /m.exec(text.slice(text.indexOf("## The intervention")))?.[1] ?? 0);
  return {
    reason: `mock: intervention at turn ${turn}`,
    perception_alignment: sabotage.miTurns?.includes(turn) ? 9 : 1 + (turn % 5),
    emotional_dynamics: turn % 3 === 0 ? -1 : 2 + (turn % 4),
    cognitive_challenges: 3,
    communication_breakdowns: turn % 2 === 1 ? 4 : -1,
  };
}

const HOSTILE = /\b(unacceptable|ridiculous|absurd|refuse[sd]?|insult\w*|outrageous|never|walk away|nonsense|junk|threat\w*|lie|lying)\b/gi;

const hostility = (utterance: string) => utterance.match(HOSTILE)?.length ?? 0;

/** The spoken lines of the prompt's conversation section (not the private notes after it). */
function conversationLines(text: string): (Line & { utterance: string })[] {
  const start = text.indexOf("## The conversation");
  const end = text.indexOf("## Private notes", start);
  const section = text.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^\[(\d+)\] ([A-Z][A-Z0-9_]*): (.*)$/gm)].map((m) => ({ turn: Number(m[1]), speaker: m[2], utterance: m[3] }));
}

function emotionJudgeReply(request: MockChatRequest): object {
  const text = user(request);
  const asked = /^Score party ([A-Z][A-Z0-9_]*) at its turns: (.*)\.$/m.exec(text);
  if (!asked) throw new Error("mock emotion judge: the prompt names no party and turns");
  const party = asked[1];
  const turns = new Set(asked[2].split(",").map((t) => Number(t.trim())).filter((t) => t > 0));
  let level = 50 + (hashOf(party) % 21);
  const scores: { turn_id: number; score: number; reason: string }[] = [];
  for (const line of conversationLines(text)) {
    const hostile = hostility(line.utterance);
    if (line.speaker === "MEDIATOR") level += 6;
    else level -= (line.speaker === party ? 6 : 8) * hostile;
    level = Math.min(95, Math.max(5, level + (hashOf(`${party}:${line.turn}`) % 9) - 4));
    if (line.speaker !== party || !turns.has(line.turn)) continue;
    const reason = hostile > 0 ? `mock: ${party} sounds hostile at turn ${line.turn}` : `mock: ${party} keeps its temper at turn ${line.turn}`;
    scores.push({ turn_id: line.turn, score: level, reason });
  }
  const firstParty = /^## The parties\n+- ([A-Z][A-Z0-9_]*):/m.exec(text)?.[1];
  if (/broken/i.test(request.model) && party === firstParty && scores.length > 0) {
    const other = conversationLines(text).find((l) => l.speaker !== party && l.speaker !== "MEDIATOR");
    if (other) scores[0].turn_id = other.turn;
    scores[scores.length - 1].score = 140;
  }
  return { scores };
}

/** A responder for the five evaluation judges; `fallback` answers anything else (e.g. the simulation). */
export function evaluationResponder(sabotage: EvaluationSabotage = {}, fallback?: Responder): Responder {
  return (request) => {
    switch (evaluationJudge(request)) {
      case "topic-judge":
        return topicJudgeReply(request, sabotage);
      case "baseline-attitude":
        return attitudeReply(request, sabotage);
      case "baseline-agreement":
        return agreementReply(request);
      case "mi-judge":
        return miReply(request, sabotage);
      case "emotion-judge":
        return emotionJudgeReply(request);
      default:
        if (fallback) return fallback(request);
        throw new Error("mock evaluation responder: not an evaluation prompt");
    }
  };
}
