/**
 * What a benchmark grid will cost before it runs, and what one call is expected to cost before it
 * is made (the `--max-cost` guard). Token counts are estimates, documented in docs/benchmark.md:
 *
 * - prompt tokens ≈ characters / 4 (English text in BPE tokenizers), of the template with the
 *   scenario filled in, plus the dialogue so far: on average half the turn budget, at
 *   DIALOGUE_TOKENS_PER_TURN each;
 * - completion tokens: a fixed allowance per kind of call (COMPLETION_TOKENS), roughly the reply
 *   schemas' size with a sentence or two of text.
 *
 * An estimate is an upper-end guess for planning; the cap itself adds up the real usage each
 * call reports and only uses the estimate for the call it is about to start.
 */
import { estimateCalls, type CallEstimate } from "../simulation/schedule.ts";
import { mediatorCallShape } from "../simulation/mediator-settings.ts";

export const CHARS_PER_TOKEN = 4;
export const DIALOGUE_TOKENS_PER_TURN = 60;

export type CallKind = "party" | "mediator-when" | "mediator-how" | "judge";

export const COMPLETION_TOKENS: Record<CallKind, number> = {
  party: 150,
  "mediator-when": 60,
  "mediator-how": 120,
  judge: 350,
};

export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
}

/** Dollars for a call of `promptTokens` + `completionTokens` at a price (0 when the model has none). */
export function priceOf(price: ModelPrice | undefined, promptTokens: number, completionTokens: number): number {
  if (!price) return 0;
  return (promptTokens * price.inputPerMillion + completionTokens * price.outputPerMillion) / 1_000_000;
}

export function tokensOfText(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** Pending work of one kind of run: how many runs, and the models that play and judge them. */
export interface RunGroup {
  mediated: boolean;
  runs: number;
  simulatorModel: string;
  mediatorModel: string | null;
  /** The mediator's mode (default generic): the social mediator makes more calls per gap. */
  mediatorMode?: string;
  /** Topic-localized evaluations still to make, by judge model (each = one judge call per topic). */
  judges: Record<string, number>;
  /** Emotion-judge evaluations still to make, by judge model (each = one judge call per party). */
  emotionJudges?: Record<string, number>;
  /** Parties of the played scenario (the emotion judge's calls per evaluation). */
  parties?: number;
  /** Average characters of the played scenario (background, parties, topics) and of a template. */
  scenarioChars: number;
  topics: number;
  budget: number;
}

export interface GridCostEstimate {
  calls: CallEstimate & { judgeCalls: number; all: number };
  /** Dollars by role, and in all; 0 for models without a configured price. */
  usd: { party: number; mediator: number; evaluator: number; total: number };
  /** Models the estimate found no price for (their calls count as $0). */
  unpriced: string[];
}

export const TEMPLATE_CHARS = 2_500;

/** The estimated calls and dollars of the pending work. `prices` by model name. */
export function estimateGridCost(groups: readonly RunGroup[], prices: Record<string, ModelPrice>): GridCostEstimate {
  const calls = { runs: 0, partyCalls: 0, mediatorWhenCalls: 0, mediatorHowCalls: 0, total: 0, judgeCalls: 0, all: 0 };
  const usd = { party: 0, mediator: 0, evaluator: 0, total: 0 };
  const unpriced = new Set<string>();
  const priced = (model: string) => {
    if (!prices[model]) unpriced.add(model);
    return prices[model];
  };
  for (const g of groups) {
    const c = estimateCalls({
      mediatedRuns: g.mediated ? g.runs : 0,
      unmediatedRuns: g.mediated ? 0 : g.runs,
      budget: g.budget,
      mediatorCalls: mediatorCallShape(g.mediatorMode ?? "generic"),
    });
    calls.runs += c.runs;
    calls.partyCalls += c.partyCalls;
    calls.mediatorWhenCalls += c.mediatorWhenCalls;
    calls.mediatorHowCalls += c.mediatorHowCalls;
    calls.total += c.total;
    const prompt =
      tokensOfText(TEMPLATE_CHARS + g.scenarioChars) + Math.round((g.budget / 2) * DIALOGUE_TOKENS_PER_TURN);
    if (c.runs > 0) {
      usd.party += c.partyCalls * priceOf(priced(g.simulatorModel), prompt, COMPLETION_TOKENS.party);
      if (g.mediatorModel) {
        usd.mediator +=
          c.mediatorWhenCalls * priceOf(priced(g.mediatorModel), prompt, COMPLETION_TOKENS["mediator-when"]);
        usd.mediator +=
          c.mediatorHowCalls * priceOf(priced(g.mediatorModel), prompt, COMPLETION_TOKENS["mediator-how"]);
      }
    }
    // A judge reads the whole transcript: the full budget of turns.
    const judgePrompt = tokensOfText(TEMPLATE_CHARS + g.scenarioChars) + g.budget * DIALOGUE_TOKENS_PER_TURN;
    const judgeCalls: [string, number][] = [
      ...Object.entries(g.judges).map(([model, evaluations]): [string, number] => [model, evaluations * g.topics]),
      ...Object.entries(g.emotionJudges ?? {}).map(([model, evaluations]): [string, number] => [
        model,
        evaluations * (g.parties ?? 0),
      ]),
    ];
    for (const [model, n] of judgeCalls) {
      calls.judgeCalls += n;
      usd.evaluator += n * priceOf(priced(model), judgePrompt, COMPLETION_TOKENS.judge);
    }
  }
  calls.all = calls.total + calls.judgeCalls;
  usd.total = usd.party + usd.mediator + usd.evaluator;
  return { calls, usd, unpriced: [...unpriced].sort() };
}

/** The expected cost of one request about to be sent: its real prompt size, and the kind's completion allowance. */
export function expectedCallUsd(price: ModelPrice | undefined, promptChars: number, kind: CallKind): number {
  return priceOf(price, tokensOfText(promptChars), COMPLETION_TOKENS[kind]);
}
