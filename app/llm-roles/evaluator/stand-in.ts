/**
 * The evaluator's stand-in, the topic judge (template topic-judge): every reply is derived from the
 * request alone — the transcript, the topic and turn it names — so repeated requests get the same
 * answer and the cache behaves as with a seeded real model. Topic scores rise over the run and dip
 * on the turn before each mediator turn (drop events the mediator answers) — up to 5 in a run that
 * ended in a deal, at most 3 in one that did not, so mediated and unmediated runs of a pair differ in
 * final consensus. A judge model whose name contains "noisy" (e.g. `standin-noisy`) is a
 * deliberately worse judge: on about three turns in five its score is a hash-drawn 1–5, so
 * validating it against expert labels (`socrates validate-evaluator`) has something to find.
 * `sabotage.topicJudge` turns chosen replies invalid.
 */
import { listAfter, transcriptLines, user } from "../judge-text.ts";
import {
  type EvaluationSabotage,
  hash32 as hashOf,
  type LlmRoleDefinition,
  type MockChatRequest,
  templateOf,
} from "../stand-in-request.ts";

/** The stand-in parties close a deal with "We have a deal." (responders/simulation.ts); look at the last turn only. */
export function endedInDeal(text: string): boolean {
  const turns = text.split("\n").filter((l) => /^\[\d+\] [A-Z][A-Z0-9_]*: /.test(l));
  return /We have a deal\./.test(turns.at(-1) ?? "");
}

function topicJudgeReply(request: MockChatRequest, sabotage: EvaluationSabotage): object {
  const text = user(request);
  const topicId = /^Judge topic ([A-Z][A-Z0-9_]*) only\./m.exec(text)?.[1] ?? "TOPIC";
  const partyIds = listAfter(text, /Party ids: (.+)$/m);
  const lines = transcriptLines(text);
  const T = lines.length;
  // A run that ended without a deal (impasse, or the budget ran out) never gets past "partial
  // agreement": its final consensus is lower than a resolved run's, so CG is not always 0.
  const ceiling = endedInDeal(text) ? 5 : 3;
  const relevant = lines.filter((l) => l.turn === T || hashOf(`${topicId}:${l.turn}`) % 3 !== 0).map((l) => l.turn);
  const entries = relevant.map((t) => {
    // Rising towards 5 at the end, one or two points lower just before the mediator steps in.
    const rising = Math.min(ceiling, 1 + Math.floor((4 * t) / T));
    const beforeMediator = lines[t]?.speaker === "MEDIATOR";
    const score = beforeMediator ? Math.max(1, rising - 2) : rising;
    const party_stances = Object.fromEntries(
      partyIds.map((p, i) => [p, score >= 4 ? "(B)" : `(${String.fromCharCode(65 + ((i + t) % 3))})`]),
    );
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

export const evaluator = {
  id: "evaluator",
  standIn: (request, options) => {
    templateOf(request, ["topic-judge"]);
    return topicJudgeReply(request, options.sabotage ?? {});
  },
} as const satisfies LlmRoleDefinition;
