/**
 * The persona-fidelity draw (SoCRATES §4, Appendix F.1): per pair, a scenario from the pool, a
 * target party, two distinct reactiveness levels for the target and a reference level for every
 * other party from the two grid levels left. Which side (A or B) gets the higher level is
 * balanced in blocks of two pairs, so any prefix of the draw has |#A-higher − #B-higher| ≤ 1.
 *
 * Pure and seeded: pair i depends only on (seed, i, pool), so asking for more pairs later keeps
 * the pairs already drawn (a larger --pairs resumes rather than redraws).
 */
import { fnv1a } from "../simulation/schedule.ts";
import { createRng, randomInt } from "../stats/rng.ts";
import { REACTIVENESS_GRID } from "./personas.ts";

export interface FidelityPoolScenario {
  id: string;
  /** Party ids in the scenario's order. */
  partyIds: readonly string[];
}

/** One drawn pair; levels are indices into REACTIVENESS_GRID (k for k/3). */
export interface FidelityDraw {
  index: number;
  scenarioId: string;
  target: string;
  levelA: number;
  levelB: number;
  reference: number;
}

const GRID_INDICES = REACTIVENESS_GRID.map((_, k) => k);

/** Does side A get the higher level in pair i? One of each two consecutive pairs, in seeded order. */
function aIsHigher(seed: number, index: number): boolean {
  const block = Math.floor(index / 2);
  const firstIsA = createRng(fnv1a(`fidelity-side:${seed}:${block}`))() < 0.5;
  return index % 2 === 0 ? firstIsA : !firstIsA;
}

export function drawFidelityPair(pool: readonly FidelityPoolScenario[], seed: number, index: number): FidelityDraw {
  const scenarios = [...pool].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (scenarios.length === 0) throw new Error("the fidelity draw needs at least one scenario");
  const rng = createRng(fnv1a(`fidelity:${seed}:${index}`));
  const scenario = scenarios[randomInt(rng, scenarios.length)];
  if (scenario.partyIds.length < 2) throw new Error(`scenario "${scenario.id}" has fewer than two parties`);
  const target = scenario.partyIds[randomInt(rng, scenario.partyIds.length)];
  const left = [...GRID_INDICES];
  const take = () => left.splice(randomInt(rng, left.length), 1)[0];
  const [first, second, reference] = [take(), take(), take()];
  const [low, high] = first < second ? [first, second] : [second, first];
  const aHigh = aIsHigher(seed, index);
  return { index, scenarioId: scenario.id, target, levelA: aHigh ? high : low, levelB: aHigh ? low : high, reference };
}

/** Pairs 0…count−1 of the seeded draw. */
export function drawFidelityPairs(pool: readonly FidelityPoolScenario[], count: number, seed: number): FidelityDraw[] {
  return Array.from({ length: count }, (_, i) => drawFidelityPair(pool, seed, i));
}
