/**
 * The values of the socially intelligent mediator's templates (mediator-tracker, mediator-when-social,
 * mediator-how-social, mediator-rate, mediator-voice, mediator-close): its bounded memory of recent events, its
 * consensus tracker and its cadence, as text. Pure functions of the run so far, so a replay sends the same requests.
 */
import type { MediatorDecision, Turn } from "../bundle.ts";
import { MOTIVATION_THRESHOLDS, type MediatorFrequency } from "../simulation/mediator-settings.ts";
import type { MediatorView, VisibleTopic } from "../visibility.ts";
import { mediatorSharedValues } from "./simulation-values.ts";

export type TrackedTopic = NonNullable<MediatorDecision["tracker"]>[number];

/** The tracker before any turn: nothing settled, every option in play. */
export function initialTracker(topics: readonly VisibleTopic[]): TrackedTopic[] {
  return topics.map((t) => ({ topic_id: t.id, settled: false, options: t.options.map((o) => o.label) }));
}

export function formatTracker(topics: readonly VisibleTopic[], tracker: readonly TrackedTopic[]): string {
  return tracker
    .map((e) => {
      const name = topics.find((t) => t.id === e.topic_id)?.name ?? e.topic_id;
      const state = e.settled ? `settled on ${e.options.join(", ")}` : `open; in play: ${e.options.join(", ")}`;
      return `- ${e.topic_id} (${name}): ${state}${e.note ? ` — ${e.note}` : ""}`;
    })
    .join("\n");
}

/** One line per event: a turn as the dialogue shows it, or the mediator's own decision after a turn. */
function decisionEvent(d: MediatorDecision): string {
  if (d.closing) return `(after turn ${d.after_turn} you closed: every topic was settled)`;
  const chosen = d.chosen !== undefined ? d.candidates?.[d.chosen] : undefined;
  if (d.engage && chosen) return `(after turn ${d.after_turn} you stepped in, ${chosen.strategy}: ${chosen.text})`;
  return `(after turn ${d.after_turn} you held back, motivation ${d.motivation ?? "?"}: ${d.thought ?? ""})`;
}

/**
 * The mediator's memory: the last `size` events, turns and its own decisions in the order they happened (a
 * decision after turn t comes right after it, before the mediator's turn it led to).
 */
export function memoryText(view: MediatorView, decisions: readonly MediatorDecision[], size: number): string {
  const events: string[] = [];
  for (const line of view.dialogue) {
    events.push(`[${line.turnId}] ${line.speakerName}: ${line.utterance}`);
    for (const d of decisions) if (d.after_turn === line.turnId) events.push(decisionEvent(d));
  }
  const kept = events.slice(-size);
  const dropped = events.length - kept.length;
  return [...(dropped > 0 ? [`(${dropped} earlier events are no longer in your memory.)`] : []), ...kept].join("\n");
}

const CADENCE: Record<MediatorFrequency, string> = {
  less: "step in rarely — as a rule not more than once in every six to eight party turns, and only for a breakdown the parties are clearly not repairing themselves.",
  normal:
    "as a rule not more than once in every four to six party turns; never twice in a row, and not before each party has spoken since your last intervention.",
  more: "you may step in as often as every two or three party turns when it moves the parties forward, but not before at least two parties have spoken since your last intervention.",
};

/** The cadence guideline and the threshold the frequency sets. */
export function cadenceOf(frequency: MediatorFrequency): { cadence: string; threshold: number } {
  return { cadence: CADENCE[frequency], threshold: MOTIVATION_THRESHOLDS[frequency] };
}

/** Party turns since the mediator last spoke, as the when-prompt says it. */
function sinceLastText(turns: readonly Turn[]): string {
  const last = turns.map((t) => t.role).lastIndexOf("mediator");
  const since = turns.slice(last + 1).filter((t) => t.role === "party").length;
  return last < 0
    ? `You have not spoken yet (${since} party turns so far).`
    : `${since} party turn${since === 1 ? "" : "s"} since you last spoke.`;
}

export interface SocialContext {
  view: MediatorView;
  turns: readonly Turn[];
  decisions: readonly MediatorDecision[];
  tracker: readonly TrackedTopic[];
  memory: number;
}

/** What every step but the tracker sees: the shared facts, its memory and its tracker. */
function contextValues(c: SocialContext): Record<string, string> {
  return {
    ...mediatorSharedValues(c.view),
    memory: memoryText(c.view, c.decisions, c.memory),
    tracker: formatTracker(c.view.topics, c.tracker),
  };
}

/** mediator-tracker: the tracker before the latest turn, and that turn. */
export function trackerValues(view: MediatorView, previous: readonly TrackedTopic[], partyTurns: number) {
  const last = view.dialogue.at(-1);
  if (!last) throw new Error("the tracker is updated only after a party has spoken");
  return {
    ...mediatorSharedValues(view),
    tracker: formatTracker(view.topics, previous),
    latest: `[${last.turnId}] ${last.speakerName}: ${last.utterance}`,
    party_turns: String(partyTurns),
  };
}

export function whenSocialValues(c: SocialContext, frequency: MediatorFrequency): Record<string, string> {
  const last = c.view.dialogue.at(-1);
  if (!last) throw new Error("the mediator decides only after a party has spoken");
  return {
    ...contextValues(c),
    cadence: cadenceOf(frequency).cadence,
    since_last: sinceLastText(c.turns),
    last_speaker: last.speakerName,
  };
}

export function draftValues(c: SocialContext, reason: string): Record<string, string> {
  return { ...contextValues(c), reason };
}

export function candidateValues(c: SocialContext, candidate: { strategy: string; text: string }) {
  return { ...contextValues(c), strategy: candidate.strategy, candidate: candidate.text };
}

export function closeValues(c: SocialContext): Record<string, string> {
  return contextValues(c);
}
