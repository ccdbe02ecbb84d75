/**
 * A synthetic benchmark bundle: scenarios × 15 conditions × 9 mediator settings (8 mediators +
 * none), runs of 30 turns, each with a topic-localized and a per-turn evaluation. Shared by the
 * database and annotation benchmarks.
 */
import {
  BASELINE_DIMENSIONS,
  CONDITION_VARIANTS,
  DOMAINS,
  type BundleInput,
  type ConditionAxis,
} from "../app/domain/bundle.ts";
import { templateBody } from "../app/domain/probing/expand.ts";
import { createRng, randomInt } from "../app/domain/stats/rng.ts";

const MEDIATORS = ["none", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8"];
const TURNS = 30;
const TOPICS = ["T1", "T2", "T3", "T4"];
const rng = createRng(2024);

/**
 * `scenarios` synthetic scenarios (ids `<idPrefix>-<n>`), each with every one of the 15 conditions (the benchmark
 * runner's test and bench play them).
 */
export function syntheticCatalog(
  scenarios: number,
  idPrefix = "bench",
): Required<Pick<BundleInput, "scenarios" | "conditions">> {
  const catalog: Required<Pick<BundleInput, "scenarios" | "conditions">> = { scenarios: [], conditions: [] };
  const conditionList = (Object.keys(CONDITION_VARIANTS) as ConditionAxis[]).flatMap((axis) =>
    CONDITION_VARIANTS[axis].map((variant) => ({ axis, variant })),
  );
  for (let s = 0; s < scenarios; s++) {
    const body = {
      background: `Synthetic background ${s}. `.repeat(20),
      topics: TOPICS.map((id) => ({
        id,
        name: `Topic ${id}`,
        description: "What is at stake.",
        options: ["A", "B", "C"].map((label) => ({ label, description: `Option ${label}` })),
      })),
      parties: ["P1", "P2"].map((id, i) => ({
        id,
        name: `Party ${id}`,
        role: "Objective.",
        relation: "Rival.",
        preferences: Object.fromEntries(TOPICS.map((t) => [t, "A stance."])),
        weights: i === 0 ? { T1: 4, T2: 3, T3: 2, T4: 1 } : { T1: 1, T2: 2, T3: 3, T4: 4 },
      })),
    };
    const scenarioId = `${idPrefix}-${s}`;
    catalog.scenarios.push({
      id: scenarioId,
      domain: DOMAINS[s % DOMAINS.length],
      title: `Bench scenario ${s}`,
      ...body,
      source: { kind: "manual" },
    });
    for (const { axis, variant } of conditionList) {
      // Persona axes must set each party's level or identity (the import checks it): the probe's own template does.
      const expanded =
        axis === "emotion" || axis === "culture" ? templateBody({ id: scenarioId, ...body }, axis, variant) : body;
      catalog.conditions.push({
        id: `${scenarioId}:${axis}:${variant}`,
        scenario_id: scenarioId,
        axis,
        variant,
        ...(axis === "general" ? {} : { expanded }),
      });
    }
  }
  return catalog;
}

/** `scenarios` scenarios, each with every condition and mediator setting; ids start with `idPrefix`. */
export function syntheticBundle(scenarios: number, idPrefix = "bench"): BundleInput {
  const catalog = syntheticCatalog(scenarios, idPrefix);
  const bundle: Required<Pick<BundleInput, "scenarios" | "conditions" | "runs" | "matched_pairs" | "evaluations">> &
    BundleInput = {
    format: "socrates-bundle",
    version: 1,
    ...catalog,
    runs: [],
    matched_pairs: [],
    evaluations: [],
  };
  for (const { id: conditionId } of catalog.conditions) {
    for (const mediator of MEDIATORS) {
      const runId = `${conditionId}:${mediator}`;
      const mediated = mediator !== "none";
      const turns = [];
      let partyTurn = 0;
      while (turns.length < TURNS) {
        const speaker = partyTurn % 2 === 0 ? "P1" : "P2";
        turns.push({
          turn_id: turns.length + 1,
          speaker,
          role: "party" as const,
          utterance: `Utterance ${turns.length + 1} from ${speaker}.`,
          thought: "A private thought.",
          signal: "continue" as const,
        });
        partyTurn++;
        if (mediated && turns.length < TURNS && rng() < 0.2)
          turns.push({
            turn_id: turns.length + 1,
            speaker: "MEDIATOR",
            role: "mediator" as const,
            utterance: "A mediator remark.",
          });
      }
      bundle.runs.push({
        id: runId,
        condition_id: conditionId,
        mediated,
        mediator_backbone: mediated ? mediator : null,
        simulator_backbone: "sim",
        outcome: "budget",
        party_order: ["P1", "P2"],
        turns,
        config: {},
        seed: 1,
      });
      if (mediated)
        bundle.matched_pairs.push({
          id: `${runId}:pair`,
          condition_id: conditionId,
          mediated_run_id: runId,
          unmediated_run_id: `${conditionId}:none`,
        });
      const located = (n: number) =>
        [...new Set(Array.from({ length: n }, () => 1 + randomInt(rng, TURNS)))].sort((a, b) => a - b);
      bundle.evaluations.push({
        id: `${runId}:topic`,
        run_id: runId,
        method: "topic-localized",
        backbone: "judge",
        output: Object.fromEntries(
          TOPICS.map((topic) => {
            const at = located(6);
            return [
              topic,
              {
                relevant_turns: at,
                agreement_score: at.map((turn_id) => ({
                  turn_id,
                  reason: "r",
                  score: 1 + randomInt(rng, 5),
                  party_stances: { P1: "(A)", P2: "(B)" },
                })),
              },
            ];
          }),
        ),
      });
      const dims = () =>
        Object.fromEntries(BASELINE_DIMENSIONS.map((d) => [d, Math.round(rng() * 100) / 100])) as Record<
          (typeof BASELINE_DIMENSIONS)[number],
          number
        >;
      bundle.evaluations.push({
        id: `${runId}:per-turn`,
        run_id: runId,
        method: "per-turn",
        backbone: "judge",
        output: {
          initial: TOPICS.map((topic) => ({ pair: ["P1", "P2"] as [string, string], topic, dimensions: dims() })),
          turns: turns.map((t) =>
            t.role === "mediator"
              ? { turn_id: t.turn_id, speaker: t.speaker, mentioned_topics: ["T1"] }
              : {
                  turn_id: t.turn_id,
                  speaker: t.speaker,
                  attitudes: Object.fromEntries(TOPICS.map((k) => [k, "No Mention"])),
                  agreement: TOPICS.map((topic) => ({
                    with: t.speaker === "P1" ? "P2" : "P1",
                    topic,
                    dimensions: dims(),
                  })),
                },
          ),
        },
      });
    }
  }
  return bundle;
}
