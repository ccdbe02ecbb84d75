/**
 * The socially intelligent mediator's gap after a party turn (docs/benchmark.md "Mediator modes"), after ProMediate's:
 * 1. tracker — an LLM call updates the per-topic consensus tracker from the latest turn (settled or not, options in
 *    play);
 * 2. closing — once every topic is settled (and it has not closed since), it sums up and asks for confirmation;
 * 3. when — otherwise it rates its motivation 1–5 and steps in when that reaches its frequency's threshold;
 * 4. how — it drafts one candidate per strategy, rates each on the four breakdown dimensions (one call each), and
 *    voices the one with the highest mean rating (ties: the earlier strategy in MEDIATION_STRATEGIES order).
 * Every prompt sees only its bounded memory (the last N events) and the tracker. Every request is a pure function of
 * the run so far (turns, decisions), so a replay sends the same requests and the LLM cache answers them.
 */
import { MEDIATOR_ID, type MediatorDecision, type Turn } from "../bundle.ts";
import type { ChatMessage, LlmRequest, LlmResult } from "../llm/types.ts";
import {
  MEDIATION_STRATEGIES,
  mediatorCandidatesReplySchema,
  mediatorHowReplySchema,
  mediatorMotivationReplySchema,
  mediatorRatingReplySchema,
  mediatorTrackerReplySchema,
} from "../../llm-roles/mediator/reply.ts";
import {
  cadenceOf,
  candidateValues,
  closeValues,
  draftValues,
  initialTracker,
  trackerValues,
  whenSocialValues,
  type SocialContext,
  type TrackedTopic,
} from "../prompts/social-mediator-values.ts";
import { mediatorView, type PlayedScenario, type VisibleTopic } from "../visibility.ts";
import type { SocialSettings } from "./mediator-settings.ts";
import { callSeed, type CallKind } from "./schedule.ts";

/** One successful LLM reply (with its recorded latency); a failed call abandons the run (simulate-run.ts). */
export type Ask = <T>(what: string, request: LlmRequest<T>) => Promise<Extract<LlmResult<T>, { ok: true }>>;

/** The template of each step (names unique across roles: app/llm-roles/mediator/). */
export const SOCIAL_TEMPLATES = {
  tracker: "mediator-tracker",
  when: "mediator-when-social",
  draft: "mediator-how-social",
  rate: "mediator-rate",
  voice: "mediator-voice",
  close: "mediator-close",
} as const;
export type SocialStep = keyof typeof SOCIAL_TEMPLATES;

/** Renders a step's values into chat messages (injected: the templates live on disk). */
export type SocialRender = (step: SocialStep, values: Record<string, string>) => ChatMessage[];

export interface SocialGapSetup {
  ask: Ask;
  render: SocialRender;
  scenario: PlayedScenario;
  model: string;
  /** The run seed. */
  seed: number;
  social: SocialSettings;
}

type Candidate = NonNullable<MediatorDecision["candidates"]>[number];

const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;

/**
 * The tracker after a reply: each topic's entry from the reply (matched by id), else as before. Options are kept
 * only when they are the topic's letters; a topic counts as settled only with exactly one option left.
 */
export function mergeTracker(
  topics: readonly VisibleTopic[],
  previous: readonly TrackedTopic[],
  reply: { topic_id: string; settled: boolean; options: string[]; note?: string }[],
): TrackedTopic[] {
  return topics.map((topic, i) => {
    const before = previous[i];
    const entry = reply.find((e) => e.topic_id.trim().toUpperCase() === topic.id.toUpperCase());
    if (!entry) return before;
    const labels = topic.options.map((o) => o.label);
    const options = [...new Set(entry.options.map((o) => o.trim().toUpperCase()))].filter((o) => labels.includes(o));
    const kept = options.length > 0 ? options : labels;
    const note = entry.note?.trim();
    return {
      topic_id: topic.id,
      settled: entry.settled && kept.length === 1,
      options: kept,
      ...(note ? { note } : {}),
    };
  });
}

/** The candidate voiced: the highest mean rating; of equals, the first (candidates are in strategy order). */
export function chooseCandidate(candidates: readonly Pick<Candidate, "overall">[]): number {
  let best = 0;
  candidates.forEach((c, i) => {
    if (c.overall > candidates[best].overall) best = i;
  });
  return best;
}

/** Whether the mediator has closed since the tracker last showed an open topic (it closes once per agreement). */
function closedSinceSettled(decisions: readonly MediatorDecision[]): boolean {
  for (let i = decisions.length - 1; i >= 0; i--) {
    const d = decisions[i];
    if (d.closing) return true;
    if (!d.tracker?.every((t) => t.settled)) return false;
  }
  return false;
}

async function call<T>(
  g: SocialGapSetup,
  what: string,
  step: SocialStep,
  kind: CallKind,
  partyTurns: number,
  values: Record<string, string>,
  schema: LlmRequest<T>["schema"],
) {
  return g.ask(what, {
    role: "mediator",
    model: g.model,
    messages: g.render(step, values),
    template: SOCIAL_TEMPLATES[step],
    schema,
    seed: callSeed(g.seed, kind, partyTurns + 1),
  });
}

/** Drafts the four candidates and rates each; returns them in strategy order with the index of the one to voice. */
async function draftAndRate(g: SocialGapSetup, c: SocialContext, reason: string, afterTurn: number, n: number) {
  const drafted = await call(
    g,
    `mediator drafts after turn ${afterTurn}`,
    "draft",
    "mediator-how",
    n,
    draftValues(c, reason),
    mediatorCandidatesReplySchema,
  );
  const ordered = MEDIATION_STRATEGIES.map((s) => drafted.value.candidates.find((d) => d.strategy === s)!);
  const candidates: Candidate[] = [];
  for (const draft of ordered) {
    const what = `mediator rates its ${draft.strategy} draft after turn ${afterTurn}`;
    const { value: r } = await call(
      g,
      what,
      "rate",
      "mediator-rate",
      n,
      candidateValues(c, draft),
      mediatorRatingReplySchema,
    );
    const ratings = {
      perception: round(r.perception, 1),
      emotion: round(r.emotion, 1),
      cognition: round(r.cognition, 1),
      communication: round(r.communication, 1),
    };
    const overall = round((ratings.perception + ratings.emotion + ratings.cognition + ratings.communication) / 4, 3);
    candidates.push({ strategy: draft.strategy, text: draft.text, ratings, overall, reason: r.reason });
  }
  return { candidates, chosen: chooseCandidate(candidates) };
}

/**
 * The social mediator's gap after a party turn: update the tracker, then close, hold back or step in (recorded in
 * `decisions`; a mediator turn appended to `turns`).
 */
export async function socialMediatorGap(
  g: SocialGapSetup,
  turns: Turn[],
  decisions: MediatorDecision[],
  partyTurns: number,
): Promise<void> {
  const afterTurn = turns.length;
  const view = mediatorView(g.scenario, turns);
  const previous = decisions.at(-1)?.tracker ?? initialTracker(view.topics);
  const updated = await call(
    g,
    `mediator tracker after turn ${afterTurn}`,
    "tracker",
    "mediator-tracker",
    partyTurns,
    trackerValues(view, previous, partyTurns + 1),
    mediatorTrackerReplySchema,
  );
  const tracker = mergeTracker(view.topics, previous, updated.value.topics);
  const c: SocialContext = { view, turns, decisions, tracker, memory: g.social.memory };
  const speak = (utterance: string) =>
    turns.push({ turn_id: turns.length + 1, speaker: MEDIATOR_ID, role: "mediator", utterance });

  if (tracker.every((t) => t.settled) && !closedSinceSettled(decisions)) {
    const { value } = await call(
      g,
      `mediator closing turn ${afterTurn + 1}`,
      "close",
      "mediator-close",
      partyTurns,
      closeValues(c),
      mediatorHowReplySchema,
    );
    const thought = "Every topic is settled: I sum up the agreement and ask the parties to confirm it.";
    decisions.push({
      after_turn: afterTurn,
      engage: true,
      thought,
      seconds: updated.latencyMs / 1000,
      tracker,
      closing: true,
    });
    speak(value.utterance);
    return;
  }

  const { threshold } = cadenceOf(g.social.frequency);
  const when = await call(
    g,
    `mediator decision after turn ${afterTurn}`,
    "when",
    "mediator-when",
    partyTurns,
    whenSocialValues(c, g.social.frequency),
    mediatorMotivationReplySchema,
  );
  const motivation = round(when.value.motivation, 1);
  // RL's decision seconds: the when-call's recorded latency, also when the cache answers (a resumed run).
  const decision: MediatorDecision = {
    after_turn: afterTurn,
    engage: motivation >= threshold,
    thought: when.value.thought,
    seconds: when.latencyMs / 1000,
    motivation,
    threshold,
  };
  if (!decision.engage) {
    decisions.push({ ...decision, tracker });
    return;
  }
  const { candidates, chosen } = await draftAndRate(g, c, when.value.thought, afterTurn, partyTurns);
  const voiced = await call(
    g,
    `mediator turn ${afterTurn + 1}`,
    "voice",
    "mediator-voice",
    partyTurns,
    candidateValues(c, candidates[chosen]),
    mediatorHowReplySchema,
  );
  // Keys in the schema's order, so the stored JSON is what the bundle importer stores (own-records.test.ts).
  decisions.push({ ...decision, candidates, chosen, tracker });
  speak(voiced.value.utterance);
}
