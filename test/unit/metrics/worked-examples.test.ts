/**
 * The worked examples of docs/metrics.md ("Worked examples"), read from the page itself: each
 * `metric-example` block is parsed into the input its metric's registry descriptor reads, computed
 * with the default parameters (or the block's `params`), and its stated value checked. The page
 * and the code cannot drift apart, and every registered metric must have an example.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { MEDIATOR_ID } from "../../../app/domain/bundle.ts";
import { groupEmotionSeries } from "../../../app/domain/emotion/series.ts";
import type { EmotionTrajectory } from "../../../app/domain/emotion/trajectory.ts";
import type { MetricDescriptor, ParamSpecs, ParamValues } from "../../../app/domain/metrics/descriptor.ts";
import type {
  MetricInputs,
  RunData,
  StoredJudgment,
  TopicLocalizedInput,
} from "../../../app/domain/metrics/metric-inputs.ts";
import { paramsOf, parseMetricParams } from "../../../app/domain/metrics/metric-params.ts";
import { METRIC_IDS, metricById } from "../../../app/domain/metrics/registry.ts";

const DOC = resolve("docs/metrics.md");

interface Example {
  /** Line of the block's opening fence in docs/metrics.md, for failure messages. */
  line: number;
  fields: Map<string, string>;
}

/** Every ```metric-example block: one `key: value` per line. */
function readExamples(text: string): Example[] {
  const lines = text.split("\n");
  const examples: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== "```metric-example") continue;
    const fields = new Map<string, string>();
    const line = i + 1;
    for (i++; i < lines.length && lines[i].trim() !== "```"; i++) {
      const match = /^([^:]+):(.*)$/.exec(lines[i]);
      if (!match) throw new Error(`docs/metrics.md:${i + 1}: expected "key: value", got "${lines[i]}"`);
      const key = match[1].trim();
      if (fields.has(key)) throw new Error(`docs/metrics.md:${i + 1}: ${key} given twice`);
      fields.set(key, match[2].trim());
    }
    examples.push({ line, fields });
  }
  return examples;
}

const numbers = (text: string): number[] => (text === "" ? [] : text.split(/\s+/).map(Number));

/** "1/3", "-1/3", "0.25", "≈ 0.866" → the number and how close the computed value must be. */
function expectedValue(text: string): { value: number; digits: number } {
  const approx = text.startsWith("≈");
  const body = approx ? text.slice(1).trim() : text;
  const fraction = /^(-?\d+)\/(\d+)$/.exec(body);
  const value = fraction ? Number(fraction[1]) / Number(fraction[2]) : Number(body);
  if (!Number.isFinite(value)) throw new Error(`value "${text}" is not a number or fraction`);
  // "≈" states the value to the digits shown; an exact value is checked to 12 digits.
  const digits = approx ? (body.split(".")[1]?.length ?? 0) : 12;
  return { value, digits };
}

function runOf(turnsText: string, id: string): RunData {
  const speakers = turnsText.split(/\s+/).map((s) => (s === "M" ? MEDIATOR_ID : s));
  const partyIds = [...new Set(speakers.filter((s) => s !== MEDIATOR_ID))];
  return {
    runId: id,
    mediated: speakers.includes(MEDIATOR_ID),
    topicIds: [],
    partyIds,
    speakers,
    partyTurns: speakers.filter((s) => s !== MEDIATOR_ID).length,
    mediatorTurns: speakers.flatMap((s, i) => (s === MEDIATOR_ID ? [i + 1] : [])),
    decisionSeconds: [],
    evaluations: [],
    judgments: [],
    emotions: [],
  };
}

/** Fields named `<prefix>.<key>`, by key. */
function prefixed(fields: Map<string, string>, prefix: string): [string, string][] {
  return [...fields].flatMap(([k, v]) =>
    k.startsWith(`${prefix}.`) ? [[k.slice(prefix.length + 1), v] as [string, string]] : [],
  );
}

function seriesOf(fields: Map<string, string>, key: string, run: RunData): number[] {
  const text = fields.get(key);
  if (text === undefined) throw new Error(`no ${key}`);
  const series = numbers(text);
  expect(series, `${key} runs from t = 0 to T = ${run.speakers.length}`).toHaveLength(run.speakers.length + 1);
  return series;
}

function topicInput(fields: Map<string, string>, run: RunData, prefix = ""): TopicLocalizedInput {
  const evaluation = {
    id: `${run.runId}:topic-localized:doc`,
    method: "topic-localized",
    backbone: "doc",
    output: {},
    errors: [],
  };
  return { run, evaluation, consensus: seriesOf(fields, `${prefix}C`, run), incomplete: null };
}

function perTurnInput(fields: Map<string, string>, run: RunData): MetricInputs["per-turn"] {
  const topics = prefixed(fields, "G");
  const topicConsensus = Object.fromEntries(
    topics.length > 0 ? topics.map(([k]) => [k, seriesOf(fields, `G.${k}`, run)]) : [["k", seriesOf(fields, "G", run)]],
  );
  const ids = Object.keys(topicConsensus);
  const consensus = topicConsensus[ids[0]].map(
    (_, t) => ids.reduce((sum, k) => sum + topicConsensus[k][t], 0) / ids.length,
  );
  const mentions = Object.fromEntries(ids.map((k) => [k, numbers(fields.get(`mentions.${k}`) ?? "")]));
  const named = new Map(
    prefixed(fields, "names").map(([m, topics]) => [Number(m), topics.split(/\s+/).filter(Boolean)]),
  );
  const mediatorTargets = run.mediatorTurns.map((turn) => ({ turn, topics: named.get(turn) ?? [] }));
  const evaluation = { id: `${run.runId}:per-turn:doc`, method: "per-turn", backbone: "doc", output: {}, errors: [] };
  return {
    run: { ...run, topicIds: ids },
    evaluation,
    trajectory: { pairs: [], pairScores: {}, topicConsensus, consensus, mentions, mediatorTargets },
  };
}

function emotionOf(
  fields: Map<string, string>,
  run: RunData,
): { trajectory: EmotionTrajectory; group: (number | null)[] } {
  const parties = Object.fromEntries(
    prefixed(fields, "emotion").map(([party, text]) => [
      party,
      text
        .split(/\s+/)
        .map((pair) => ({ turnId: Number(pair.split(":")[0]), score: Number(pair.split(":")[1]), reason: null })),
    ]),
  );
  const trajectory: EmotionTrajectory = { source: { kind: "self" }, parties, failedParties: [] };
  return { trajectory, group: groupEmotionSeries(trajectory, run.speakers.length) };
}

function judgmentsOf(fields: Map<string, string>): StoredJudgment[] {
  return prefixed(fields, "judge").map(([turn, text]) => {
    const [perceptionAlignment, emotionalDynamics, cognitiveChallenges, communicationBreakdowns] = numbers(text);
    return {
      backbone: "doc",
      turnId: Number(turn),
      perceptionAlignment,
      emotionalDynamics,
      cognitiveChallenges,
      communicationBreakdowns,
    };
  });
}

/** The input the metric's descriptor reads, built from the block. */
function inputOf(metric: MetricDescriptor, fields: Map<string, string>): unknown {
  const run = runOf(fields.get("turns") ?? "", "doc-run");
  switch (metric.input) {
    case "run":
      return { run };
    case "topic-localized":
      return topicInput(fields, run);
    case "per-turn":
      return perTurnInput(fields, run);
    case "mi-judgments":
      return { run, backbone: "doc", judgments: judgmentsOf(fields) };
    case "matched-pair": {
      const twin = runOf(fields.get("twin turns") ?? "", "doc-twin");
      return {
        pair: { id: "doc-pair", mediated: run, unmediated: twin },
        backbone: "doc",
        mediated: topicInput(fields, run),
        unmediated: topicInput(fields, twin, "twin "),
      };
    }
    case "emotion":
      return { run, ...emotionOf(fields, run) };
    case "emotion-consensus":
      return { run, ...emotionOf(fields, run), topic: topicInput(fields, run) };
  }
}

const examples = readExamples(readFileSync(DOC, "utf8"));

describe("worked examples in docs/metrics.md", () => {
  it("has one for every registered metric, and names only registered metrics", () => {
    const named = examples.map((e) => e.fields.get("metric"));
    for (const id of METRIC_IDS) expect(named, `an example of ${id}`).toContain(id);
    for (const id of named) expect(METRIC_IDS, `docs/metrics.md names ${id}`).toContain(id);
  });

  it("includes the example of issue 28: a fall at turn 6 answered at turn 8 is an RL of 2", () => {
    const rl = examples.find(
      (e) =>
        e.fields.get("metric") === "RL" &&
        e.fields.get("value") === "2" &&
        e.fields.get("turns")?.split(/\s+/).indexOf("M") === 7,
    );
    expect(rl).toBeDefined();
  });

  for (const example of examples) {
    const id = example.fields.get("metric") ?? "?";
    it(`${id} (docs/metrics.md:${example.line}) is ${example.fields.get("value")}`, () => {
      const metric = metricById(id);
      if (!metric) throw new Error(`docs/metrics.md:${example.line}: unknown metric ${id}`);
      const params = parseMetricParams(
        JSON.parse(example.fields.get("params") ?? "{}"),
        `docs/metrics.md:${example.line} params`,
      );
      const result = metric.compute(
        inputOf(metric, example.fields) as never,
        paramsOf(metric, params) as ParamValues<ParamSpecs>,
      );
      if (!result) throw new Error(`${id} gives no row for this example`);
      const { value, digits } = expectedValue(example.fields.get("value") ?? "");
      expect(result.value).not.toBeNull();
      expect(result.value).toBeCloseTo(value, digits);
      for (const [key, text] of prefixed(example.fields, "detail"))
        expect(result.detail[key], `detail.${key}`).toEqual(JSON.parse(text));
    });
  }
});
