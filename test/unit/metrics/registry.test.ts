/** The metric registry: every descriptor is complete and consistent, and what is derived from it holds. */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  explainMetric,
  formatMetricValue,
  formatParams,
  formatParamsInline,
  metricLabel,
  unitsNote,
  unmediatedNote,
} from "../../../app/domain/metrics/metric-format.ts";
import {
  DEFAULT_METRIC_PARAMS,
  PARAM_SPECS,
  paramsOf,
  parseMetricParams,
  storedWithParams,
} from "../../../app/domain/metrics/metric-params.ts";
/** The benchmark's metrics as the spec lists them; a metric added later may sit anywhere among them. */
const SPEC_METRICS = ["IT", "IE", "IF", "FI", "CC", "TLE", "RL", "ME", "MI", "CG"];
const inSpec = (ids: readonly string[]) => ids.filter((id) => SPEC_METRICS.includes(id));

import {
  definitionVersion,
  isCurrentDefinition,
  MEDIATOR_METRIC_IDS,
  METRIC_IDS,
  metricById,
  metricOrder,
  METRICS,
  readsEmotion,
  readsEvaluation,
} from "../../../app/domain/metrics/registry.ts";

describe("metric registry", () => {
  it("lists each metric once, with an id, a label and a known input", () => {
    expect(new Set(METRIC_IDS).size).toBe(METRICS.length);
    for (const m of METRICS) {
      expect(m.id).toMatch(/^[A-Z]{2,4}$/);
      expect(m.label.length).toBeGreaterThan(0);
      expect([
        "run",
        "topic-localized",
        "per-turn",
        "mi-judgments",
        "matched-pair",
        "emotion",
        "emotion-consensus",
      ]).toContain(m.input);
      expect(["run", "pair", "intervention"]).toContain(m.level);
      expect(metricById(m.id)).toBe(m);
      expect(metricLabel(m.id)).toBe(m.label);
    }
    expect(metricById("nope")).toBeUndefined();
  });

  it("keeps the display order the CLI table and the run page show", () => {
    expect(inSpec(METRIC_IDS)).toEqual(SPEC_METRICS);
    // Issue 18's emotion metrics come after CG, in this order.
    expect(METRIC_IDS.slice(METRIC_IDS.indexOf("CG"))).toEqual(["CG", "ER", "EF", "EV", "EC"]);
    expect(metricOrder("IE")).toBeLessThan(metricOrder("CG"));
    expect(metricOrder("unknown")).toBe(METRICS.length);
  });

  it("pair metrics read matched pairs and only those", () => {
    for (const m of METRICS) expect(m.level === "pair").toBe(m.input === "matched-pair");
    expect(inSpec(METRICS.filter((m) => readsEvaluation(m.id)).map((m) => m.id))).toEqual([
      "IT",
      "IE",
      "CC",
      "TLE",
      "RL",
      "ME",
    ]);
    // Emotion rows are stored under their trajectory, not an evaluation of the topic judges.
    expect(METRICS.filter((m) => readsEmotion(m.id)).map((m) => m.id)).toEqual(["ER", "EF", "EV", "EC"]);
    expect(METRICS.filter((m) => readsEmotion(m.id) && readsEvaluation(m.id))).toEqual([]);
  });

  it("derives one parameter schema; every default parses and each metric records its own keys in order", () => {
    expect([...PARAM_SPECS.keys()].slice(0, 9)).toEqual([
      "s0",
      "delta",
      "W",
      "h",
      "wMax",
      "definitions",
      "tau",
      "rlWindow",
      "meSpan",
    ]);
    expect(DEFAULT_METRIC_PARAMS).toMatchObject({
      s0: 1,
      delta: 0.05,
      W: 10,
      h: 5,
      wMax: 10,
      tau: 0.1,
      rlWindow: 10,
      meSpan: 5,
      definitions: "spec",
    });
    expect(parseMetricParams({ h: 3 }).h).toBe(3);
    expect(parseMetricParams({ definitions: "promediate-reference" }).definitions).toBe("promediate-reference");
    expect(() => parseMetricParams({ definitions: "paper" })).toThrow(/definitions/);
    for (const m of METRICS) {
      for (const [key, spec] of Object.entries(m.params)) {
        expect(PARAM_SPECS.get(key)).toBe(spec);
        expect(spec.symbol.length).toBeGreaterThan(0);
        expect(() => (spec.schema as z.ZodTypeAny).parse(undefined)).not.toThrow();
      }
    }
    expect(Object.keys(paramsOf(metricById("IT")!, DEFAULT_METRIC_PARAMS))).toEqual(["s0", "delta", "W"]);
    expect(paramsOf(metricById("CG")!, DEFAULT_METRIC_PARAMS)).toEqual({ s0: 1 });
    // ER has its own horizon h_E (not IE's h); EC records the s0 its C[t] was built with.
    expect(paramsOf(metricById("ER")!, DEFAULT_METRIC_PARAMS)).toEqual({ hE: 5 });
    expect(paramsOf(metricById("EC")!, DEFAULT_METRIC_PARAMS)).toEqual({ s0: 1 });
    expect(paramsOf(metricById("EF")!, DEFAULT_METRIC_PARAMS)).toEqual({});
  });

  it("formats values by unit, parameters by symbol, and units in one sentence", () => {
    expect(formatMetricValue("IT", 0.1234)).toBe("12.3");
    expect(formatMetricValue("CC", 0.1234)).toBe("0.123");
    expect(formatMetricValue("RL", 2)).toBe("2.00");
    expect(formatMetricValue("MI", 3.25)).toBe("3.25");
    expect(formatMetricValue("IE", null)).toBe("—");
    expect(formatMetricValue("unregistered", 0.5)).toBe("0.500");
    expect(
      formatParams([
        { s0: 1, delta: 0.05 },
        { s0: 1, wMax: 10 },
      ]),
    ).toBe("s0 = 1 · δ = 0.05 · w max = 10");
    expect(formatParamsInline(DEFAULT_METRIC_PARAMS)).toMatch(
      /^s0=1 δ=0.05 W=10 h=5 wMax=10 definitions=spec τ=0.1 rlWindow=10 meSpan=5\b/,
    );
    // One clause per unit, in registry order, naming every metric once.
    const clauses = unitsNote().replace(/\.$/, "").split("; ");
    expect(clauses[0]).toMatch(/^IT, IE, IF, FI\b.*\bCG\b.* are shown ×100$/);
    expect(clauses).toContain("MI is on the judge's 1–5 scale");
    expect(clauses).toContain("EC is on the correlation scale (−1 to 1)");
    expect(formatMetricValue("EC", -0.456)).toBe("-0.46");
    expect(
      clauses
        .join(" ")
        .match(/\b[A-Z]{2,4}\b/g)!
        .sort(),
    ).toEqual([...METRIC_IDS].sort());
  });

  it("explains a value with its reason, the metric's counts and the judge's errors", () => {
    expect(
      explainMetric({
        metric: "IT",
        value: null,
        detail: { reason: "no drop events", counted: 0, events: 0, censored: 0, evaluationErrors: 2 },
      }),
    ).toBe("no drop events; 0 of 0 drop events counted, 0 censored; the judge recorded 2 errors");
    expect(explainMetric({ metric: "MI", value: null, detail: { reason: "not judged yet" } })).toBe("not judged yet");
    expect(
      explainMetric({
        metric: "IT",
        value: null,
        detail: {
          incomplete: true,
          reason: "incomplete judge output (1 recorded error; failed topics: k2)",
          evaluationErrors: 1,
        },
      }),
    ).toBe("incomplete judge output (1 recorded error; failed topics: k2)");
  });

  it("declares the mediator metrics, which unmediated runs do not have", () => {
    expect(MEDIATOR_METRIC_IDS).toEqual(["IT", "IE", "IF", "FI", "RL", "ME", "MI", "ER"]);
    expect(METRICS.filter((m) => !("mediatedOnly" in m)).map((m) => m.id)).toEqual([
      "CC",
      "TLE",
      "CG",
      "EF",
      "EV",
      "EC",
    ]);
    expect(unmediatedNote()).toBe("IT, IE, IF, FI, RL, ME, MI and ER are mediator metrics: unmediated runs have none.");
  });

  it("knows each metric's definition version and whether a stored row is of it", () => {
    // RL and TLE changed in issue 28 (docs/metrics.md); the others are at their first definition.
    expect(Object.fromEntries(METRIC_IDS.map((id) => [id, definitionVersion(id)]))).toMatchObject({
      RL: 2,
      TLE: 2,
      IT: 1,
      CC: 1,
      ME: 1,
      MI: 1,
    });
    expect(isCurrentDefinition({ metric: "RL", definitionVersion: 1 })).toBe(false);
    expect(isCurrentDefinition({ metric: "RL", definitionVersion: 2 })).toBe(true);
    expect(isCurrentDefinition({ metric: "gone", definitionVersion: 7 })).toBe(true);
  });

  it("tells a row computed with the given parameters from one computed with others", () => {
    const itRow = (params: Record<string, unknown>) => ({ metric: "IT", params });
    expect(storedWithParams(itRow({ s0: 1, delta: 0.05, W: 10 }), DEFAULT_METRIC_PARAMS)).toBe(true);
    expect(storedWithParams(itRow({ s0: 1, delta: 0.1, W: 10 }), DEFAULT_METRIC_PARAMS)).toBe(false);
    expect(storedWithParams(itRow({ s0: 1, delta: 0.05 }), DEFAULT_METRIC_PARAMS)).toBe(false);
    expect(storedWithParams(itRow({ s0: 1, delta: 0.1, W: 10 }), parseMetricParams({ delta: 0.1 }))).toBe(true);
    expect(storedWithParams({ metric: "gone", params: { x: 1 } }, DEFAULT_METRIC_PARAMS)).toBe(true);
  });
});
