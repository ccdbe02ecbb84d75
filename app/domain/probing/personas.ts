/**
 * Persona statements appended to a party's private profile by the emotion, culture and
 * fidelity conditions (SoCRATES §3.3, Appendix D; spec: "Scenario conventions"). Each is a fixed
 * text: the same party and level always get the same bytes, so expansions need no LLM call and
 * re-running them changes nothing. The level or identity is also stored as a structured field
 * on the party (`reactiveness`, `culture`), so checks and analyses never parse this prose.
 */
import type { Culture, Party } from "../bundle.ts";

/** The reactiveness grid of the persona-fidelity protocol: k/3 for k = 0…3. */
export const REACTIVENESS_GRID = [0, 1 / 3, 2 / 3, 1] as const;
export const COMPOSED = 0;
export const REACTIVE = 1;

export const HOFSTEDE_DIMENSIONS = ["PDI", "IDV", "MAS", "UAI", "LTO", "IVR"] as const;
export type HofstedeDimension = (typeof HOFSTEDE_DIMENSIONS)[number];

/** Hofstede scores (0–100) per identity, as the spec fixes them. */
export const HOFSTEDE: Record<Culture, Record<HofstedeDimension, number>> = {
  US: { PDI: 40, IDV: 91, MAS: 62, UAI: 46, LTO: 26, IVR: 68 },
  CN: { PDI: 80, IDV: 20, MAS: 66, UAI: 30, LTO: 87, IVR: 24 },
  KR: { PDI: 60, IDV: 18, MAS: 39, UAI: 85, LTO: 100, IVR: 29 },
};

const CULTURE_NAMES: Record<Culture, string> = { US: "American", CN: "Chinese", KR: "Korean" };

/** What a low and a high score mean on each dimension, in our words. */
const DIMENSION_TEXT: Record<HofstedeDimension, { name: string; low: string; high: string }> = {
  PDI: {
    name: "Power distance",
    low: "flat structures and decisions reached as equals",
    high: "accepted hierarchy and deference to authority",
  },
  IDV: {
    name: "Individualism",
    low: "loyalty to one's group and a shared identity",
    high: "personal independence and self-reliance",
  },
  MAS: {
    name: "Masculinity",
    low: "cooperation, care and relationships",
    high: "competition, achievement and winning",
  },
  UAI: {
    name: "Uncertainty avoidance",
    low: "ease with ambiguity and open-ended situations",
    high: "clear rules, firm plans and predictability",
  },
  LTO: {
    name: "Long-term orientation",
    low: "tradition and results that come soon",
    high: "pragmatic planning for the distant future",
  },
  IVR: {
    name: "Indulgence",
    low: "restraint and keeping one's wishes in check",
    high: "openly pursuing enjoyment and one's own wishes",
  },
};

/** How a score reads: the pole it leans to, and how strongly. */
function leaning(score: number, text: { low: string; high: string }): string {
  if (score >= 70) return `strongly towards ${text.high}`;
  if (score >= 55) return `towards ${text.high}`;
  if (score > 45) return `balanced between ${text.low} and ${text.high}`;
  if (score > 30) return `towards ${text.low}`;
  return `strongly towards ${text.low}`;
}

/** The deterministic culture statement for one identity: its six scores and what they imply. */
export function cultureStatement(culture: Culture): string {
  const scores = HOFSTEDE[culture];
  const lines = HOFSTEDE_DIMENSIONS.map(
    (d) => `- ${DIMENSION_TEXT[d].name} ${scores[d]}/100: ${leaning(scores[d], DIMENSION_TEXT[d])}.`,
  );
  return [
    `Cultural background: you negotiate with the outlook of ${CULTURE_NAMES[culture]} culture, described by Hofstede's six dimensions (0 = lowest, 100 = highest):`,
    ...lines,
    "Let these values shape what you expect of the others, how directly you speak and what you are willing to trade. Speak English throughout.",
  ].join("\n");
}

/** A level as people say it: 0, 1/3, 2/3 or 1 for the grid, else two decimals. */
export function formatLevel(level: number): string {
  const k = REACTIVENESS_GRID.findIndex((g) => Math.abs(g - level) < 1e-9);
  if (k === 0 || k === 3) return String(k / 3);
  if (k > 0) return `${k}/3`;
  return level.toFixed(2);
}

/**
 * The reactiveness statement for a level r in [0, 1]: one fixed template with r written in, and
 * a description that moves from calm at 0 to volatile at 1.
 */
export function reactivenessStatement(level: number): string {
  if (!(level >= 0 && level <= 1)) throw new RangeError(`a reactiveness level is in [0, 1], got ${level}`);
  const manner =
    level < 1 / 6
      ? "You stay calm and even-tempered whatever is said. Setbacks and provocations do not rattle you; you answer them with measured, polite words and keep your feelings out of the bargaining."
      : level < 1 / 2
        ? "You are mostly steady, but pressure shows now and then: a sharp remark or an unfair offer draws a brief note of irritation before you collect yourself."
        : level < 5 / 6
          ? "You are quick to feel slighted. Frustration often comes through in your words: you interrupt, raise objections with heat and take firm positions when you feel pushed."
          : "You are volatile and escalate easily. Perceived slights make you angry and you say so bluntly; you accuse, threaten to leave and let your emotions drive what you say.";
  return `Emotional reactiveness: ${formatLevel(level)} on a scale from 0 (fully composed) to 1 (highly reactive). ${manner} Show this in how you speak, not by naming the scale.`;
}

/** A party with persona fields set: structured values stored, their statements appended to its persona. */
export function withPersona(party: Party, set: { reactiveness?: number; culture?: Culture }): Party {
  const statements: string[] = [];
  const next: Party = { ...party };
  if (set.culture !== undefined) {
    next.culture = set.culture;
    statements.push(cultureStatement(set.culture));
  }
  if (set.reactiveness !== undefined) {
    next.reactiveness = set.reactiveness;
    statements.push(reactivenessStatement(set.reactiveness));
  }
  if (statements.length > 0) next.persona = [party.persona, ...statements].filter(Boolean).join("\n\n");
  return next;
}
