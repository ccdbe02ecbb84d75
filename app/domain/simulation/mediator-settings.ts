/**
 * The socially intelligent mediator's settings (docs/benchmark.md "Mediator modes"): how readily it steps in
 * (`frequency`, which moves its motivation threshold) and how many recent events its memory keeps. Both change
 * what the run says, so both are part of a social run's identity (run-identity.ts).
 */

/** How readily the social mediator steps in. */
export const MEDIATOR_FREQUENCIES = ["less", "normal", "more"] as const;
export type MediatorFrequency = (typeof MEDIATOR_FREQUENCIES)[number];

export interface SocialSettings {
  frequency: MediatorFrequency;
  /** The last N events (turns and its own decisions) its prompts see. */
  memory: number;
}

export const DEFAULT_SOCIAL: SocialSettings = { frequency: "normal", memory: 8 };

/**
 * The motivation (1–5) at or above which the social mediator steps in: a less frequent mediator needs a stronger
 * reason, a more frequent one a weaker (ProMediate's own cut is 3.5).
 */
export const MOTIVATION_THRESHOLDS: Record<MediatorFrequency, number> = { less: 4, normal: 3.5, more: 2.5 };

/**
 * The most mediator calls one gap after a party turn makes, by mode: every gap's decision calls (the social
 * mediator's tracker and motivation), and an intervention's (its four drafts rated, drafting and voicing).
 */
export function mediatorCallShape(mode: string): { decision: number; intervention: number } {
  return mode === "social" ? { decision: 2, intervention: 6 } : { decision: 1, intervention: 1 };
}

/** A mode as run ids show it: `social`, or `social-more-m4` when a setting is not the default. */
export function mediatorModeKey(mode: string, social: SocialSettings | null): string {
  if (!social) return mode;
  const parts = [mode];
  if (social.frequency !== DEFAULT_SOCIAL.frequency) parts.push(social.frequency);
  if (social.memory !== DEFAULT_SOCIAL.memory) parts.push(`m${social.memory}`);
  return parts.join("-");
}

/** A recorded `mediator_social` value read back (anything else: null). */
export function socialSettingsFrom(value: unknown): SocialSettings | null {
  if (!value || typeof value !== "object") return null;
  const v = value as Record<string, unknown>;
  const frequency = MEDIATOR_FREQUENCIES.find((f) => f === v.frequency);
  if (!frequency || typeof v.memory !== "number" || !Number.isInteger(v.memory)) return null;
  return { frequency, memory: v.memory };
}
