/**
 * The strategy conditions' instructions (SoCRATES §3.3; Thomas–Kilmann conflict modes): one fixed
 * paragraph per mode, in our own words, appended to the shared background. Every party reads it,
 * so the whole negotiation is framed by one way of handling conflict.
 */
import { CONDITION_VARIANTS } from "../bundle.ts";

export type StrategyMode = (typeof CONDITION_VARIANTS.strategy)[number];

export const STRATEGY_INSTRUCTIONS: Record<StrategyMode, string> = {
  competing:
    "How the parties approach this meeting: each side has come to win. They press their own demands firmly, treat every concession as a loss, argue from strength and expect the others to give way first. Cooperation is welcome only when it plainly serves their own side.",
  avoiding:
    "How the parties approach this meeting: each side would rather not be having this conversation. They sidestep the hardest points, postpone decisions where they can, give short and guarded answers and leave difficult questions for another day, even when that leaves their own interests unserved.",
  accommodating:
    "How the parties approach this meeting: each side values the relationship above the outcome. They listen for what the others need, yield on points that matter more to the others than to themselves and are ready to set their own demands aside to keep the peace, sometimes further than their interests would advise.",
};

export function isStrategyMode(variant: string): variant is StrategyMode {
  return (CONDITION_VARIANTS.strategy as readonly string[]).includes(variant);
}
