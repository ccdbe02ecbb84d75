/**
 * The party's stand-in (templates party, party-emotion): the reply is a function of the request
 * alone (a hash of it), so replays and cache checks behave exactly as with a seeded real model.
 *
 * Each run gets a fate from its opening line — reach consensus, walk away, or talk
 * until the budget runs out — and a mediator's intervention turns a stalling run towards
 * consensus, so mediated and unmediated runs differ. A party's thought quotes its own private
 * stance (so the visibility tests can see whether thoughts leak); its utterance quotes nothing
 * private, only topic names and option letters. A party whose profile carries an "Emotional
 * reactiveness: <level>" line lets it show: its utterances open with a tone that grows more
 * heated with the level (and nothing changes for a profile without that line).
 *
 * Emotion (only with the party-emotion template): the party reports a whole number 0–100 and a
 * reason naming itself. With r its reactiveness level (1/3 without the line), it starts at 70 − 30·r; then, from the
 * score its transcript shows for its previous turn, it rises by 10 + 5·r when a mediator spoke since,
 * falls by 3 + 9·r for each other party's line since that sounds hostile or stalls (a heated
 * tone, "only if the other points move too", "going round in circles", "leaving the table"),
 * rises by 5 when another party just accepted a deal, and always moves up or down by a
 * hash-drawn jitter of between half and all of 2 + 10·r; the result is rounded and kept in
 * 0–100. So higher levels start lower and jump more (volatility grows with r, which the
 * fidelity proxy finds), stalling runs drift down, and a mediator's turn lifts the next scores
 * (emotional repair is positive on average in mediated runs).
 */
import { dialogueLines, hashOf, text, topicsOf, type ChatRequestBody } from "../simulation-text.ts";
import { type LlmRoleDefinition, templateOf } from "../stand-in-request.ts";

type PartyRequest = ChatRequestBody & { template?: string };

type Fate = "agree" | "walk" | "stall";

/** The party's own reactiveness level from its profile (0 calm … 1 heated), or null without the line. */
function reactivenessLevel(system: string): number | null {
  const m = /Emotional reactiveness: (\d+\/\d+|\d+(?:\.\d+)?) on a scale/.exec(system);
  if (!m) return null;
  const [num, den] = m[1].split("/").map(Number);
  return den ? num / den : num;
}

/** The opening of an utterance for the party's own reactiveness level (0 calm … 1 heated), or null without one. */
export function reactiveTone(system: string): string | null {
  const level = reactivenessLevel(system);
  if (level === null) return null;
  if (level < 1 / 6) return "Calmly, and with respect for everyone here:";
  if (level < 1 / 2) return "Frankly, my patience is wearing a little thin.";
  if (level < 5 / 6) return "I am frustrated, and I will not be pushed around!";
  return "This is outrageous! I am sick of these games and I will not stand for it!";
}

const HOSTILE =
  /patience|frustrated|outrageous|only if the other points move too|going round in circles|leaving the table/;

/** The party's emotion now and why (the rule is in the header comment). */
function partyEmotion(body: PartyRequest, name: string): { emotion: number; emotion_reason: string } {
  const r = reactivenessLevel(text(body, "system")) ?? 1 / 3;
  const lines = text(body, "user").split("\n");
  const previous = [...text(body, "user").matchAll(/\(How you felt then, privately: (\d+) of 100/g)].at(-1);
  const lastOwn = lines.map((l) => /^\[\d+\] You: /.test(l)).lastIndexOf(true);
  const since = lines.slice(lastOwn + 1).filter((l) => /^\[\d+\] /.test(l) && !/^\[\d+\] You: /.test(l));
  const mediated = since.some((l) => /^\[\d+\] Mediator: /.test(l));
  const hostile = since.filter((l) => !/^\[\d+\] Mediator: /.test(l) && HOSTILE.test(l)).length;
  const deal = since.some((l) => /We have a deal\./.test(l));
  // Jitter of size between half and all of 2 + 10·r, up or down: reactive parties always jump more.
  const h = hashOf(body);
  const jitter = (h % 2 === 0 ? 1 : -1) * (0.5 + ((h >>> 1) % 501) / 1000) * (2 + 10 * r);
  let score = previous ? Number(previous[1]) : 70 - 30 * r;
  const why: string[] = [];
  if (!previous) why.push("this is how I come to the table");
  const moves: [boolean, number, string][] = [
    [mediated, 10 + 5 * r, "the mediator's suggestion gives me some hope"],
    [hostile > 0, -hostile * (3 + 9 * r), "the others keep stalling and it wears on me"],
    [deal, 5, "someone has accepted a deal"],
  ];
  for (const [, change, reason] of moves.filter(([happened]) => happened)) {
    score += change;
    why.push(reason);
  }
  if (why.length === 0) why.push("nothing much has changed since my last turn");
  return {
    emotion: Math.max(0, Math.min(100, Math.round(score + jitter))),
    emotion_reason: `${name} privately: ${why.join("; ")}.`,
  };
}

/** A party's turn; with the party-emotion template, also its emotion and why. */
export function partyReply(body: PartyRequest): object {
  const system = text(body, "system");
  const user = text(body, "user");
  const name = /^You are playing (.+) in a simulated negotiation/m.exec(system)?.[1] ?? "the party";
  const topics = topicsOf(system);
  const lines = dialogueLines(user);
  const partyLines = lines.filter((l) => !/^\[\d+\] Mediator: /.test(l));
  const h = hashOf(body);
  const topic = topics[h % Math.max(1, topics.length)] ?? { id: "TOPIC", name: "the open points", options: ["A", "B"] };
  const option = topic.options[(h >>> 8) % Math.max(1, topic.options.length)] ?? "A";

  // The run's fate and timing come from its opening line, shared by every later turn of the run.
  const opening = lines[0] ?? `seed:${body.seed ?? 0}`;
  const fates: Fate[] = ["agree", "walk", "stall"];
  const fate = fates[hashOf(opening) % 3];
  const when = 3 + (hashOf(`${opening}:when`) % 4); // party turns before the fate plays out
  const turn = partyLines.length; // party turns spoken before this one
  const firstMediation = lines.findIndex((l) => /^\[\d+\] Mediator: /.test(l));
  const partyTurnsSinceMediation =
    firstMediation < 0 ? -1 : lines.slice(firstMediation).filter((l) => !/^\[\d+\] Mediator: /.test(l)).length;

  let signal: "continue" | "consensus" | "walk-away" = "continue";
  if (fate === "agree" && turn >= when) signal = "consensus";
  if (fate === "walk" && turn >= when && firstMediation < 0) signal = "walk-away";
  if (partyTurnsSinceMediation >= 2) signal = "consensus"; // the mediator's proposal lands

  const tone = reactiveTone(system);
  const stance =
    /weight \d+ of 10: (.+)$/m.exec(system.slice(system.indexOf(`(${topic.id}), weight`) - 1))?.[1] ?? "my brief";
  const utterances = {
    continue: `On ${topic.name}, I can consider option ${option}, but only if the other points move too.`,
    consensus: `I accept the package as it stands, including option ${option} on ${topic.name}. We have a deal.`,
    "walk-away": `We are going round in circles on ${topic.name}. I am leaving the table.`,
  };
  return {
    ...(body.template === "party-emotion" ? partyEmotion(body, name) : {}),
    thought: `As ${name}, I keep my brief in mind (${stance}) while ${topic.name} is in play.`,
    utterance: tone ? `${tone} ${utterances[signal]}` : utterances[signal],
    signal,
  };
}

export const party = {
  id: "party",
  standIn: (request) => partyReply({ ...request, template: templateOf(request, ["party", "party-emotion"]) }),
} as const satisfies LlmRoleDefinition;
