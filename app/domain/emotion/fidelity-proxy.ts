/**
 * The automatic persona-fidelity proxy (docs/metrics-emotion.md, "Persona fidelity, measured"):
 * for generated A/B reactiveness pairs, does the target party's measured volatility follow its
 * assigned reactiveness level? Per simulator backbone: Pearson r between level and volatility
 * over the distinct (run, target party) observations, and — the counterpart of the crowd's
 * Table 1 — the share of pairs whose more reactive side is the more volatile one. Free: it needs
 * emotion trajectories, not annotators.
 */
import { pearson } from "../stats/correlation.ts";

export interface ProxyPair {
  pairId: string;
  /** Simulator backbone of both runs. */
  backbone: string;
  runA: string;
  runB: string;
  targetParty: string;
  levelA: number;
  levelB: number;
}

export interface BackboneProxy {
  backbone: string;
  pairs: number;
  /** Pairs with a volatility on both sides. */
  measuredPairs: number;
  /** Of those, pairs whose higher level has the strictly higher volatility. */
  ordered: number;
  /** Of those, pairs with equal volatility on both sides (counted as not ordered, like a crowd tie). */
  ties: number;
  /** ordered / measuredPairs; null without measured pairs. */
  agreement: number | null;
  /** Distinct (run, target party) observations behind r. */
  observations: number;
  r: number | null;
  p: number | null;
  reason?: string;
}

/**
 * `volatilityOf(runId, partyId)`: the party's volatility in that run (app/domain/emotion/measures.ts
 * partyVolatility on the run's preferred trajectory), or null when the run has no usable emotion.
 */
export function fidelityProxy(
  pairs: readonly ProxyPair[],
  volatilityOf: (runId: string, partyId: string) => number | null,
): BackboneProxy[] {
  const byBackbone = new Map<string, ProxyPair[]>();
  for (const pair of pairs) byBackbone.set(pair.backbone, [...(byBackbone.get(pair.backbone) ?? []), pair]);
  return [...byBackbone.keys()].sort().map((backbone) => {
    const list = byBackbone.get(backbone)!;
    let measuredPairs = 0;
    let ordered = 0;
    let ties = 0;
    const observations = new Map<string, { level: number; volatility: number }>();
    for (const pair of list) {
      const a = volatilityOf(pair.runA, pair.targetParty);
      const b = volatilityOf(pair.runB, pair.targetParty);
      if (a !== null) observations.set(`${pair.runA}\u0000${pair.targetParty}`, { level: pair.levelA, volatility: a });
      if (b !== null) observations.set(`${pair.runB}\u0000${pair.targetParty}`, { level: pair.levelB, volatility: b });
      if (a === null || b === null) continue;
      measuredPairs += 1;
      if (a === b) ties += 1;
      else if (a > b === pair.levelA > pair.levelB) ordered += 1;
    }
    const points = [...observations.values()];
    const r = pearson(
      points.map((o) => o.level),
      points.map((o) => o.volatility),
    );
    return {
      backbone,
      pairs: list.length,
      measuredPairs,
      ordered,
      ties,
      agreement: measuredPairs > 0 ? ordered / measuredPairs : null,
      observations: points.length,
      r: r.r,
      p: r.p,
      ...(r.r === null && r.reason ? { reason: r.reason } : {}),
    };
  });
}
