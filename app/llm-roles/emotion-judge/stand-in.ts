/**
 * The emotion judge's stand-in (template emotion-judge): it scores exactly the turns its prompt
 * lists for the one party it asks about. Each party starts from a hash-drawn 50–70, drops when the
 * party itself uses hostile words ("unacceptable", "refuse", "never", …) and a little more when
 * another party does, and rises after each mediator turn; every score is clamped to 5–95 and the
 * reason says what moved it. A judge model whose name contains "broken" (e.g. `standin-broken`)
 * answers invalid output for the first party the prompt lists — its first entry names a turn of
 * another party, and a score is 140 — and valid output for the others, so tests see one recorded
 * error beside stored scores.
 */
import { type Line, user } from "../judge-text.ts";
import { hash32 as hashOf, type LlmRoleDefinition, type MockChatRequest, templateOf } from "../stand-in-request.ts";

const HOSTILE =
  /\b(unacceptable|ridiculous|absurd|refuse[sd]?|insult\w*|outrageous|never|walk away|nonsense|junk|threat\w*|lie|lying)\b/gi;

const hostility = (utterance: string) => utterance.match(HOSTILE)?.length ?? 0;

/** The spoken lines of the prompt's conversation section (not the private notes after it). */
function conversationLines(text: string): (Line & { utterance: string })[] {
  const start = text.indexOf("## The conversation");
  const end = text.indexOf("## Private notes", start);
  const section = text.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^\[(\d+)\] ([A-Z][A-Z0-9_]*): (.*)$/gm)].map((m) => ({
    turn: Number(m[1]),
    speaker: m[2],
    utterance: m[3],
  }));
}

function emotionJudgeReply(request: MockChatRequest): object {
  const text = user(request);
  const asked = /^Score party ([A-Z][A-Z0-9_]*) at its turns: (.*)\.$/m.exec(text);
  if (!asked) throw new Error("mock emotion judge: the prompt names no party and turns");
  const party = asked[1];
  const turns = new Set(
    asked[2]
      .split(",")
      .map((t) => Number(t.trim()))
      .filter((t) => t > 0),
  );
  let level = 50 + (hashOf(party) % 21);
  const scores: { turn_id: number; score: number; reason: string }[] = [];
  for (const line of conversationLines(text)) {
    const hostile = hostility(line.utterance);
    if (line.speaker === "MEDIATOR") level += 6;
    else level -= (line.speaker === party ? 6 : 8) * hostile;
    level = Math.min(95, Math.max(5, level + (hashOf(`${party}:${line.turn}`) % 9) - 4));
    if (line.speaker !== party || !turns.has(line.turn)) continue;
    const reason =
      hostile > 0
        ? `mock: ${party} sounds hostile at turn ${line.turn}`
        : `mock: ${party} keeps its temper at turn ${line.turn}`;
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

export const emotionJudge = {
  id: "emotion-judge",
  standIn: (request) => {
    templateOf(request, ["emotion-judge"]);
    return emotionJudgeReply(request);
  },
} as const satisfies LlmRoleDefinition;
