/**
 * CC, TLE, RL and ME through their registry descriptors against values computed independently
 * from the spec's text with numpy (test/fixtures/metrics/make_promediate_reference.py: 40 seeded
 * random runs with mediator turns, mentions and topic targets; see the script for how each value
 * is computed another way).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MEDIATOR_ID } from "../../../app/domain/bundle.ts";
import type { MetricDescriptor, ParamSpecs, ParamValues } from "../../../app/domain/metrics/descriptor.ts";
import type { MetricInputs } from "../../../app/domain/metrics/metric-inputs.ts";
import { DEFAULT_METRIC_PARAMS, paramsOf } from "../../../app/domain/metrics/metric-params.ts";
import { metricById } from "../../../app/domain/metrics/registry.ts";
import { runData } from "./benchmark/fixtures.ts";

interface Case {
  speakers: string[];
  topics: Record<string, number[]>;
  mentions: Record<string, number[]>;
  mediatorNames: Record<string, string[]>;
  expected: {
    CC: number | null;
    TLE: number | null;
    ME: number | null;
    RL: {
      value: number | null;
      unrespondedShare: number | null;
      events: { t: number; u: number; starts: number[]; latency: number | null }[];
    };
  };
}

const reference = JSON.parse(
  readFileSync(new URL("../../fixtures/metrics/promediate-reference.json", import.meta.url), "utf8"),
) as { cases: Case[] };

function inputOf(c: Case): MetricInputs["per-turn"] {
  const mediatorTurns = c.speakers.flatMap((s, i) => (s === MEDIATOR_ID ? [i + 1] : []));
  const topicIds = Object.keys(c.topics);
  const run = runData({
    speakers: c.speakers,
    topicIds,
    mediatorTurns,
    partyTurns: c.speakers.length - mediatorTurns.length,
  });
  const consensus = c.topics[topicIds[0]].map(
    (_, t) => topicIds.reduce((sum, k) => sum + c.topics[k][t], 0) / topicIds.length,
  );
  const mediatorTargets = mediatorTurns.map((turn) => ({ turn, topics: c.mediatorNames[String(turn)] ?? [] }));
  const evaluation = { id: "r1:per-turn:ref", method: "per-turn", backbone: "ref", output: {}, errors: [] };
  return {
    run,
    evaluation,
    trajectory: {
      pairs: [],
      pairScores: {},
      topicConsensus: c.topics,
      consensus,
      mentions: c.mentions,
      mediatorTargets,
    },
  };
}

function compute(id: string, c: Case) {
  const metric = metricById(id) as MetricDescriptor<string, "per-turn", ParamSpecs>;
  return metric.compute(inputOf(c), paramsOf(metric, DEFAULT_METRIC_PARAMS) as ParamValues<ParamSpecs>)!;
}

function expectSame(actual: number | null, expected: number | null, what: string): void {
  if (expected === null) expect(actual, what).toBeNull();
  else expect(actual, what).toBeCloseTo(expected, 9);
}

describe("CC, TLE, RL and ME against numpy (fixtures/metrics/promediate-reference.json)", () => {
  it("covers runs with answered, unanswered and merged drop events, and with targeted interventions", () => {
    const events = reference.cases.flatMap((c) => c.expected.RL.events);
    expect(reference.cases).toHaveLength(40);
    expect(events.some((e) => e.latency === null) && events.some((e) => e.latency !== null)).toBe(true);
    expect(events.some((e) => e.starts.length > 1)).toBe(true);
    expect(reference.cases.filter((c) => c.expected.ME !== null).length).toBeGreaterThan(20);
    expect(reference.cases.some((c) => Object.values(c.mediatorNames).some((names) => names.length > 0))).toBe(true);
  });

  reference.cases.forEach((c, i) => {
    it(`case ${i}: T = ${c.speakers.length}`, () => {
      expectSame(compute("CC", c).value, c.expected.CC, "CC");
      expectSame(compute("TLE", c).value, c.expected.TLE, "TLE");
      expectSame(compute("ME", c).value, c.expected.ME, "ME");
      const rl = compute("RL", c);
      expectSame(rl.value, c.expected.RL.value, "RL");
      expectSame(rl.detail.unrespondedShare as number | null, c.expected.RL.unrespondedShare, "RL unanswered share");
      const perEvent = rl.detail.perEvent as { t: number; u: number; starts: number[]; latency: number | null }[];
      expect(perEvent.map(({ t, u, starts, latency }) => ({ t, u, starts, latency }))).toEqual(c.expected.RL.events);
    });
  });
});
