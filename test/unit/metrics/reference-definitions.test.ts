/**
 * `definitions: "promediate-reference"` against ProMediate's own evaluation code: the fixtures in
 * test/fixtures/promediate-reference/ are runs with a stored per-turn evaluation and MI judgments;
 * compute_reference.py ran ProMediate's released scripts on the same runs (only the model client
 * stubbed, its answers read from the fixtures) and wrote expected.json. Here the same runs go
 * through the metrics runner's row builder with each definition.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkPerTurnOutput, perTurnTrajectory } from "../../../app/domain/baseline.ts";
import { MEDIATOR_ID, perTurnOutputSchema } from "../../../app/domain/bundle.ts";
import { consensusChange } from "../../../app/domain/metrics/consensus-change.ts";
import { mediatorEffectiveness } from "../../../app/domain/metrics/mediator-effectiveness.ts";
import { mediatorIntelligence } from "../../../app/domain/metrics/mediator-intelligence.ts";
import type { RunData } from "../../../app/domain/metrics/metric-inputs.ts";
import { parseMetricParams } from "../../../app/domain/metrics/metric-params.ts";
import { runMetricRows, type MetricRow } from "../../../app/domain/metrics/metric-rows.ts";
import { responseLatency } from "../../../app/domain/metrics/response-latency.ts";
import { topicLevelEfficiency, turnsMentioning } from "../../../app/domain/metrics/topic-level-efficiency.ts";

const FOLDER = new URL("../../fixtures/promediate-reference/", import.meta.url);
const read = (name: string) => JSON.parse(readFileSync(new URL(name, FOLDER), "utf8"));

interface Fixture {
  topics: Record<string, string>;
  parties: Record<string, string>;
  speakers: string[];
  perTurn: unknown;
  judgments: { turnId: number; scores: number[] }[];
}
interface Expected {
  CC: number | null;
  TLE: number | null;
  TLEPerTopic: number[];
  RL: number | null;
  ME: number | null;
  MEPerIntervention: (number | null)[];
  MI: number | null;
}
const expected = read("expected.json").fixtures as Record<string, Expected>;
const REFERENCE_METRICS = ["CC", "TLE", "RL", "ME", "MI"] as const;

function runOf(fixture: Fixture): RunData {
  const output = perTurnOutputSchema.parse(fixture.perTurn);
  const shape = {
    topicIds: Object.keys(fixture.topics),
    partyIds: Object.keys(fixture.parties),
    speakers: fixture.speakers,
  };
  expect(checkPerTurnOutput(output, shape)).toEqual([]);
  return {
    runId: "fixture-run",
    mediated: true,
    ...shape,
    partyTurns: fixture.speakers.filter((s) => s !== MEDIATOR_ID).length,
    mediatorTurns: fixture.speakers.flatMap((s, i) => (s === MEDIATOR_ID ? [i + 1] : [])),
    decisionSeconds: [],
    evaluations: [{ id: "fixture-run:per-turn:judge", method: "per-turn", backbone: "judge", output, errors: [] }],
    judgments: fixture.judgments.map((j) => ({
      backbone: "judge",
      turnId: j.turnId,
      perceptionAlignment: j.scores[0],
      emotionalDynamics: j.scores[1],
      cognitiveChallenges: j.scores[2],
      communicationBreakdowns: j.scores[3],
    })),
    emotions: [],
  };
}

function rowsBy(run: RunData, definitions: string): Map<string, MetricRow> {
  const rows = runMetricRows(run, parseMetricParams({ definitions }));
  return new Map(rows.filter((r) => r.metric !== "IF" && r.metric !== "FI").map((r) => [r.metric, r]));
}

const names = Object.keys(expected);

describe("ProMediate reference definitions reproduce ProMediate's own code (expected.json)", () => {
  it("covers every fixture of the folder, run by a stated Python", () => {
    expect(names).toEqual(["three-party-long", "two-party-short", "too-short", "four-party-falls"]);
    expect(read("expected.json").python).toMatch(/^3\.\d+/);
  });

  for (const name of names) {
    it(`${name}: CC, TLE, RL, ME and MI within 1e-9, rows recording the definitions`, () => {
      const run = runOf(read(`${name}.json`));
      const rows = rowsBy(run, "promediate-reference");
      const want = expected[name];
      for (const id of REFERENCE_METRICS) {
        const row = rows.get(id);
        expect(row, `${id} row`).toBeDefined();
        expect(row!.params.definitions).toBe("promediate-reference");
        if (want[id] === null) expect(row!.value, id).toBeNull();
        else expect(row!.value, id).toBeCloseTo(want[id]!, 9);
      }
      const perTopic = rows.get("TLE")!.detail.perTopic as { efficiency: number }[];
      perTopic.forEach((p, i) => expect(p.efficiency).toBeCloseTo(want.TLEPerTopic[i], 9));
      const perIntervention = rows.get("ME")!.detail.perIntervention as { me: number | null }[];
      expect(perIntervention).toHaveLength(want.MEPerIntervention.length);
      perIntervention.forEach((p, i) => {
        const v = want.MEPerIntervention[i];
        if (v === null) expect(p.me).toBeNull();
        else expect(p.me).toBeCloseTo(v, 9);
      });
    });
  }
});

describe("the spec definitions on the same runs", () => {
  for (const name of names) {
    it(`${name}: the default rows are the spec's own computations`, () => {
      const run = runOf(read(`${name}.json`));
      const rows = rowsBy(run, "spec");
      const t = perTurnTrajectory(run.evaluations[0].output as never, run);
      const targets = t.mediatorTargets.map((m) => ({ turn: m.turn, targetTopics: m.topics }));
      const mi = mediatorIntelligence(
        run.judgments.map((j) => [
          j.perceptionAlignment,
          j.emotionalDynamics,
          j.cognitiveChallenges,
          j.communicationBreakdowns,
        ]),
      );
      const spec = {
        CC: consensusChange(t.consensus).cc,
        TLE: topicLevelEfficiency(t.topicConsensus, turnsMentioning(t.mentions, t.mediatorTargets)).tle,
        RL: responseLatency(t.consensus, run.mediatorTurns).meanLatency,
        ME: mediatorEffectiveness(t.topicConsensus, targets, run.speakers.length).me,
        MI: mi.mi,
      };
      for (const id of REFERENCE_METRICS) {
        expect(rows.get(id)!.params.definitions).toBe("spec");
        expect(rows.get(id)!.value, id).toBe(spec[id]);
      }
      expect(runMetricRows(run, parseMetricParams({})).find((r) => r.metric === "CC")!.params.definitions).toBe("spec");
    });
  }

  it("differs from the reference on these runs for every metric (the two are not one reading)", () => {
    for (const id of REFERENCE_METRICS) {
      const differs = names.some((name) => {
        const run = runOf(read(`${name}.json`));
        return rowsBy(run, "spec").get(id)!.value !== rowsBy(run, "promediate-reference").get(id)!.value;
      });
      expect(differs, id).toBe(true);
    }
  });
});
