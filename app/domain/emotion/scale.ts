/**
 * The emotion scale every part of the project shares: the simulated parties report on it, the
 * post-hoc judge scores on it, the metrics read it. 0–100, higher = calmer and more open. The
 * anchors are written here once and filled into both prompts (`{{emotion_scale}}`).
 */

export const EMOTION_MIN = 0;
export const EMOTION_MAX = 100;

/** Bands of the scale, in our own words; the prompts list them and docs/metrics-emotion.md quotes them. */
export const EMOTION_ANCHORS: readonly { from: number; to: number; meaning: string }[] = [
  { from: 0, to: 19, meaning: "furious or distraught; close to leaving the table" },
  { from: 20, to: 39, meaning: "upset and defensive; suspicious of the others' motives" },
  { from: 40, to: 59, meaning: "guarded; uneasy, but still engaged" },
  { from: 60, to: 79, meaning: "fairly calm; willing to listen and to trade" },
  { from: 80, to: 100, meaning: "at ease and open; feels heard and sees a way forward" },
];

/** The scale as the prompts show it: one line per band. */
export function emotionScaleText(): string {
  return [
    `A whole number from ${EMOTION_MIN} to ${EMOTION_MAX}; higher means calmer and more open.`,
    ...EMOTION_ANCHORS.map((a) => `- ${a.from}–${a.to}: ${a.meaning}`),
  ].join("\n");
}

/** A score on the metrics' unit scale [0, 1]. */
export const unitEmotion = (score: number): number => score / EMOTION_MAX;
