/**
 * The mediator's stand-in, deterministic, never a model. Generic (mediator-when/-how): step in after two or more
 * party turns since the last intervention, one time in three by a hash of the request, with a package naming one
 * option per topic. Naive (mediator-when-naive/-how-naive): step in one time in four once a party has spoken since
 * the last intervention, with a general appeal. Social (docs/benchmark.md "Mediator modes"):
 * - mediator-tracker: topic i (0-based) is settled from party turn 3 + 2·i on, on a letter fixed by the topic's id;
 *   before that every option is in play;
 * - mediator-when-social: motivation 0.6 + 0.8 per party turn since the mediator last spoke (or since the start) +
 *   0.0–0.9 by a hash of the request, at most 5 (so "more" steps in after two turns, "less" after four or five);
 * - mediator-how-social: one draft per strategy, naming the open topics; mediator-rate: whole-number ratings 1–5 by
 *   a hash (so ties happen and the tie-break is exercised); mediator-voice: the chosen draft, spoken;
 *   mediator-close: the settled letters, with a request to confirm.
 */
import { MEDIATION_STRATEGIES } from "./reply.ts";
import { dialogueLines, hashOf, text, topicsOf, type ChatRequestBody } from "../simulation-text.ts";
import { type LlmRoleDefinition, hash32, type MockChatRequest, templateOf } from "../stand-in-request.ts";

const TEMPLATES = [
  "mediator-when",
  "mediator-how",
  "mediator-when-naive",
  "mediator-how-naive",
  "mediator-tracker",
  "mediator-when-social",
  "mediator-how-social",
  "mediator-rate",
  "mediator-voice",
  "mediator-close",
] as const;
type Template = (typeof TEMPLATES)[number];

/** Party turns since the mediator last spoke, from the dialogue's lines. */
function sinceMediator(user: string): { lines: number; since: number } {
  const lines = dialogueLines(user);
  return {
    lines: lines.length,
    since: lines.length - 1 - lines.map((l) => /^\[\d+\] Mediator: /.test(l)).lastIndexOf(true),
  };
}

function mediatorWhen(body: ChatRequestBody): object {
  const { lines, since } = sinceMediator(text(body, "user"));
  const engage = lines >= 2 && since >= 2 && hashOf(body) % 3 === 0;
  return {
    should_engage: engage,
    thought: engage
      ? "Positions are hardening; a concrete package could help."
      : "They are still exchanging proposals; I stay out.",
  };
}

function mediatorHow(body: ChatRequestBody): object {
  const topics = topicsOf(text(body, "system"));
  const h = hashOf(body);
  const proposal = topics
    .map((t, i) => `${t.name}: option ${t.options[(h >>> (i * 3)) % Math.max(1, t.options.length)] ?? "A"}`)
    .join("; ");
  return {
    utterance: `Let me suggest a package you can both test against your needs: ${proposal || "take each point in turn"}.`,
  };
}

function naiveWhen(body: ChatRequestBody): object {
  const { since } = sinceMediator(text(body, "user"));
  const engage = since >= 1 && hashOf(body) % 4 === 0;
  return { should_engage: engage, thought: engage ? "I want to help them find common ground." : "I let them talk." };
}

function naiveHow(body: ChatRequestBody): object {
  const topics = topicsOf(text(body, "system"));
  return {
    utterance: `Let us try to find common ground on ${topics.map((t) => t.name).join(", ") || "the issues"}. What could each of you accept?`,
  };
}

function tracker(body: ChatRequestBody): object {
  const turn = Number(/\(party turn (\d+)\)/.exec(text(body, "user"))?.[1] ?? 0);
  return {
    topics: topicsOf(text(body, "system")).map((t, i) => {
      const settled = turn >= 3 + 2 * i && t.options.length > 0;
      const letter = t.options[hash32(t.id) % Math.max(1, t.options.length)];
      return settled
        ? { topic_id: t.id, settled: true, options: [letter], note: `both sides accept option ${letter}` }
        : { topic_id: t.id, settled: false, options: t.options, note: "still being argued" };
    }),
  };
}

function whenSocial(body: ChatRequestBody): object {
  const user = text(body, "user");
  const since = Number(
    /^(\d+) party turns? since you last spoke/m.exec(user)?.[1] ?? /\((\d+) party turns so far\)/.exec(user)?.[1] ?? 0,
  );
  const h = hashOf(body);
  // Pressure builds with every party turn since it last spoke, plus a hash-drawn 0.0–0.9.
  const motivation = Math.min(5, Math.round((0.6 + 0.8 * since + (h % 10) / 10) * 10) / 10);
  return {
    motivation,
    thought:
      motivation >= 3
        ? "The parties keep restating their positions on the open topics; a breakdown in communication is setting in."
        : "Everyone is still being heard and the talk is moving; I wait.",
  };
}

/** The open topics the tracker in the prompt lists. */
const openTopics = (user: string) => [...user.matchAll(/^- (\S+) \((.+)\): open;/gm)].map((m) => m[2]);

function draft(body: ChatRequestBody): object {
  const open = openTopics(text(body, "user")).join(", ") || "the remaining points";
  const plans: Record<(typeof MEDIATION_STRATEGIES)[number], string> = {
    facilitative: `Ask each party what matters most to them on ${open}.`,
    evaluative: `Point out that holding out on ${open} risks leaving with no deal at all.`,
    transformative: `Invite each party to restate the other's concern on ${open} in their own words.`,
    "problem-solving": `Put a trade on ${open} on the table and ask who can live with it.`,
  };
  return { candidates: MEDIATION_STRATEGIES.map((strategy) => ({ strategy, text: plans[strategy] })) };
}

function rate(body: ChatRequestBody): object {
  const h = hashOf(body);
  const at = (k: number) => 1 + ((h >>> (k * 3)) % 5);
  return { perception: at(0), emotion: at(1), cognition: at(2), communication: at(3), reason: "How well it fits now." };
}

function voice(body: ChatRequestBody): object {
  const chosen = /## What you chose to do \((.+)\)\n\n(.+)/.exec(text(body, "user"));
  return { utterance: `Let me step in here (${chosen?.[1] ?? "mediation"}). ${chosen?.[2] ?? ""}`.trim() };
}

function close(body: ChatRequestBody): object {
  const settled = [...text(body, "user").matchAll(/^- (\S+) \((.+)\): settled on ([A-Z])/gm)];
  const summary = settled.map((m) => `${m[2]}: option ${m[3]}`).join("; ");
  return { utterance: `To sum up what you have agreed: ${summary}. Can each of you confirm this is the deal?` };
}

const RESPOND: Record<Template, (body: ChatRequestBody) => object> = {
  "mediator-when": mediatorWhen,
  "mediator-how": mediatorHow,
  "mediator-when-naive": naiveWhen,
  "mediator-how-naive": naiveHow,
  "mediator-tracker": tracker,
  "mediator-when-social": whenSocial,
  "mediator-how-social": draft,
  "mediator-rate": rate,
  "mediator-voice": voice,
  "mediator-close": close,
};

export const mediator = {
  id: "mediator",
  standIn: (request: MockChatRequest) => RESPOND[templateOf(request, TEMPLATES)](request),
} as const satisfies LlmRoleDefinition;
