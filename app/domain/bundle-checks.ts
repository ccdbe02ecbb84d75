/**
 * Checks that span records: references between scenarios, conditions, runs, pairs (matched
 * and A/B) and evaluations, and judge outputs against the run they score. Records may come
 * from the bundle being imported or from the database; the caller supplies both through
 * `RecordLookup`.
 */
import type {
  AbPairRecord,
  Bundle,
  Condition,
  Evaluation,
  MatchedPair,
  Party,
  Run,
  Scenario,
  ScenarioBody,
} from "./bundle.ts";
import { checkPerTurnOutput } from "./baseline.ts";
import { checkTopicJudgeOutput } from "./consensus.ts";
import { checkEmotionJudgeOutput } from "./emotion/judge-output.ts";
import { personaAssignment } from "./probing/conditions.ts";
import { cultureStatement, formatLevel, reactivenessStatement } from "./probing/personas.ts";

export interface BundleProblem {
  /** JSON path from the bundle's root. */
  path: (string | number)[];
  message: string;
}

export interface RunSummary {
  id: string;
  conditionId: string;
  mediated: boolean;
  simulatorBackbone: string;
  speakers: string[];
  /** What else an A/B pair compares between its two runs. */
  mediatorBackbone: string | null;
  partyOrder: string[];
  seed: number | null;
  config: Record<string, unknown>;
}

export interface RecordLookup {
  scenario(id: string): Pick<Scenario, "id" | "background" | "topics" | "parties"> | undefined;
  condition(id: string): { id: string; scenarioId: string; expanded: ScenarioBody | null } | undefined;
  run(id: string): RunSummary | undefined;
}

export function summariseRun(run: Run): RunSummary {
  return {
    id: run.id,
    conditionId: run.condition_id,
    mediated: run.mediated,
    simulatorBackbone: run.simulator_backbone,
    speakers: run.turns.map((t) => t.speaker),
    mediatorBackbone: run.mediator_backbone,
    partyOrder: run.party_order,
    seed: run.seed,
    config: run.config,
  };
}

/** Stable JSON for content comparison: object keys sorted, so key order never matters. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

/** The scenario a condition plays: its expansion, or the base scenario for the general condition. */
export function playedScenario(lookup: RecordLookup, conditionId: string): ScenarioBody | undefined {
  const condition = lookup.condition(conditionId);
  if (!condition) return undefined;
  return condition.expanded ?? lookup.scenario(condition.scenarioId);
}

function duplicateIds(records: { id: string }[], key: keyof Bundle, problems: BundleProblem[]): void {
  const seen = new Set<string>();
  records.forEach((record, i) => {
    if (seen.has(record.id))
      problems.push({ path: [key, i, "id"], message: `duplicate id "${record.id}" in this bundle` });
    seen.add(record.id);
  });
}

export function checkBundleReferences(bundle: Bundle, lookup: RecordLookup): BundleProblem[] {
  const problems: BundleProblem[] = [];
  duplicateIds(bundle.scenarios, "scenarios", problems);
  duplicateIds(bundle.conditions, "conditions", problems);
  duplicateIds(bundle.runs, "runs", problems);
  duplicateIds(bundle.matched_pairs, "matched_pairs", problems);
  duplicateIds(bundle.ab_pairs, "ab_pairs", problems);
  duplicateIds(bundle.evaluations, "evaluations", problems);

  bundle.conditions.forEach((condition, i) => {
    if (!lookup.scenario(condition.scenario_id)) {
      problems.push({ path: ["conditions", i, "scenario_id"], message: `unknown scenario "${condition.scenario_id}"` });
    }
    problems.push(...checkConditionPersonas(condition, i));
  });
  bundle.runs.forEach((run, i) => problems.push(...checkRunParties(run, i, lookup)));
  bundle.matched_pairs.forEach((pair, i) => problems.push(...checkMatchedPair(pair, i, lookup)));
  bundle.ab_pairs.forEach((pair, i) => problems.push(...checkAbPair(pair, i, lookup)));
  bundle.evaluations.forEach((evaluation, i) => problems.push(...checkEvaluation(evaluation, i, lookup)));
  return problems;
}

/** A run must play a known condition, and its party_order must list that scenario's parties once each. */
function checkRunParties(run: Run, i: number, lookup: RecordLookup): BundleProblem[] {
  const played = playedScenario(lookup, run.condition_id);
  if (!played) return [{ path: ["runs", i, "condition_id"], message: `unknown condition "${run.condition_id}"` }];
  const partyIds = played.parties.map((p) => p.id);
  const order = [...run.party_order].sort();
  if (order.join(",") !== [...partyIds].sort().join(",")) {
    return [
      {
        path: ["runs", i, "party_order"],
        message: `party_order must list the scenario's parties (${partyIds.join(", ")}) once each`,
      },
    ];
  }
  return [];
}

/** A matched pair joins a mediated and an unmediated run of its own (known) condition. */
function checkMatchedPair(pair: MatchedPair, i: number, lookup: RecordLookup): BundleProblem[] {
  const problems: BundleProblem[] = [];
  const mediated = lookup.run(pair.mediated_run_id);
  const unmediated = lookup.run(pair.unmediated_run_id);
  if (!lookup.condition(pair.condition_id))
    problems.push({
      path: ["matched_pairs", i, "condition_id"],
      message: `unknown condition "${pair.condition_id}"`,
    });
  if (!mediated)
    problems.push({
      path: ["matched_pairs", i, "mediated_run_id"],
      message: `unknown run "${pair.mediated_run_id}"`,
    });
  else if (!mediated.mediated)
    problems.push({ path: ["matched_pairs", i, "mediated_run_id"], message: `run "${mediated.id}" has no mediator` });
  else if (mediated.conditionId !== pair.condition_id)
    problems.push({
      path: ["matched_pairs", i, "mediated_run_id"],
      message: `run "${mediated.id}" belongs to condition "${mediated.conditionId}"`,
    });
  if (!unmediated)
    problems.push({
      path: ["matched_pairs", i, "unmediated_run_id"],
      message: `unknown run "${pair.unmediated_run_id}"`,
    });
  else if (unmediated.mediated)
    problems.push({
      path: ["matched_pairs", i, "unmediated_run_id"],
      message: `run "${unmediated.id}" has a mediator`,
    });
  else if (unmediated.conditionId !== pair.condition_id)
    problems.push({
      path: ["matched_pairs", i, "unmediated_run_id"],
      message: `run "${unmediated.id}" belongs to condition "${unmediated.conditionId}"`,
    });
  return problems;
}

/**
 * An evaluation must score a known run; its errors must name that run's topics and parties, and
 * its output must pass its method's judge-output check (checkEvaluationOutput).
 */
function checkEvaluation(evaluation: Evaluation, i: number, lookup: RecordLookup): BundleProblem[] {
  const run = lookup.run(evaluation.run_id);
  if (!run) return [{ path: ["evaluations", i, "run_id"], message: `unknown run "${evaluation.run_id}"` }];
  const played = playedScenario(lookup, run.conditionId);
  if (!played) return []; // reported with the run
  const topicIds = played.topics.map((t) => t.id);
  const partyIds = played.parties.map((p) => p.id);
  const problems: BundleProblem[] = [];
  (evaluation.errors ?? []).forEach((error, j) => {
    if (error.topic_id && !topicIds.includes(error.topic_id)) {
      problems.push({
        path: ["evaluations", i, "errors", j, "topic_id"],
        message: `unknown topic id "${error.topic_id}"`,
      });
    }
    if (error.party_id && !partyIds.includes(error.party_id)) {
      problems.push({
        path: ["evaluations", i, "errors", j, "party_id"],
        message: `unknown party id "${error.party_id}"`,
      });
    }
  });
  problems.push(...checkEvaluationOutput(evaluation, i, run, topicIds, partyIds));
  return problems;
}

/**
 * An evaluation's output against the run it scores, by method; the per-topic and per-party
 * judges must also cover every topic or party that has no recorded error.
 */
function checkEvaluationOutput(
  evaluation: Evaluation,
  i: number,
  run: RunSummary,
  topicIds: string[],
  partyIds: string[],
): BundleProblem[] {
  const problems: BundleProblem[] = [];
  const outputPath = ["evaluations", i, "output"];
  if (evaluation.method === "topic-localized") {
    for (const p of checkTopicJudgeOutput(evaluation.output, {
      topicIds,
      partyIds,
      totalTurns: run.speakers.length,
    })) {
      problems.push({ path: [...outputPath, ...p.path], message: p.message });
    }
    const failedTopics = new Set((evaluation.errors ?? []).map((e) => e.topic_id));
    for (const topicId of topicIds) {
      if (!(topicId in evaluation.output) && !failedTopics.has(topicId)) {
        problems.push({
          path: outputPath,
          message: `no judge output for topic "${topicId}" (if the judge failed on it, record an error with that topic_id)`,
        });
      }
    }
  } else if (evaluation.method === "per-turn") {
    for (const p of checkPerTurnOutput(evaluation.output, { topicIds, partyIds, speakers: run.speakers })) {
      problems.push({ path: [...outputPath, ...p.path], message: p.message });
    }
  } else {
    for (const p of checkEmotionJudgeOutput(evaluation.output, { partyIds, speakers: run.speakers })) {
      problems.push({ path: [...outputPath, ...p.path], message: p.message });
    }
    const failedParties = new Set((evaluation.errors ?? []).map((e) => e.party_id));
    for (const partyId of partyIds) {
      if (!(partyId in evaluation.output) && !failedParties.has(partyId)) {
        problems.push({
          path: outputPath,
          message: `no emotion-judge output for party "${partyId}" (if the judge failed on it, record an error with that party_id)`,
        });
      }
    }
  }
  return problems;
}

/**
 * An A/B pair must compare two different runs of its scenario, at two different levels of a
 * party of that scenario, simulated by one backbone (fidelity is reported per simulator backbone);
 * once that holds, its levels must be the ones the runs played (checkAbLevels).
 */
function checkAbPair(pair: AbPairRecord, i: number, lookup: RecordLookup): BundleProblem[] {
  const problems: BundleProblem[] = [];
  const at = (field: string, message: string) => problems.push({ path: ["ab_pairs", i, field], message });
  const scenario = lookup.scenario(pair.scenario_id);
  if (!scenario) at("scenario_id", `unknown scenario "${pair.scenario_id}"`);
  else if (!scenario.parties.some((p) => p.id === pair.target_party)) {
    at(
      "target_party",
      `"${pair.target_party}" is not a party of scenario "${pair.scenario_id}" (${scenario.parties.map((p) => p.id).join(", ")})`,
    );
  }
  if (pair.run_a_id === pair.run_b_id) at("run_b_id", `run_b_id must differ from run_a_id ("${pair.run_a_id}")`);
  if (pair.level_a === pair.level_b)
    at("level_b", `level_b must differ from level_a (both ${pair.level_a}): a pair compares two levels`);

  const runs: (RunSummary | undefined)[] = [];
  for (const field of ["run_a_id", "run_b_id"] as const) {
    const run = lookup.run(pair[field]);
    runs.push(run);
    if (!run) {
      at(field, `unknown run "${pair[field]}"`);
      continue;
    }
    const condition = lookup.condition(run.conditionId);
    if (condition && condition.scenarioId !== pair.scenario_id) {
      at(field, `run "${run.id}" plays scenario "${condition.scenarioId}", not "${pair.scenario_id}"`);
    }
  }
  const [a, b] = runs;
  if (a && b && a.id !== b.id && a.simulatorBackbone !== b.simulatorBackbone) {
    at(
      "run_b_id",
      `both runs need the same simulator backbone: run "${a.id}" uses "${a.simulatorBackbone}", run "${b.id}" uses "${b.simulatorBackbone}"`,
    );
  } else if (a && b && a.id !== b.id && problems.length === 0) {
    problems.push(...checkAbLevels(pair, i, lookup, [a, b]));
  }
  return problems;
}

/**
 * The levels an A/B pair declares must be the ones its runs played (the stored personas), and
 * the two runs must be the same conversation setting but for the target's level.
 */
function checkAbLevels(
  pair: AbPairRecord,
  i: number,
  lookup: RecordLookup,
  runs: [RunSummary, RunSummary],
): BundleProblem[] {
  const problems: BundleProblem[] = [];
  const at = (field: string, message: string) => problems.push({ path: ["ab_pairs", i, field], message });
  const bodies = runs.map((r) => playedScenario(lookup, r.conditionId));
  const [bodyA, bodyB] = bodies;
  if (!bodyA || !bodyB) return problems; // reported with the runs
  const levelOf = (p: Party | undefined) => (p?.reactiveness === undefined ? "none" : formatLevel(p.reactiveness));
  const same = (x: number | undefined, y: number) => x !== undefined && Math.abs(x - y) <= 1e-9;
  (["level_a", "level_b"] as const).forEach((field, k) => {
    const target = bodies[k]!.parties.find((p) => p.id === pair.target_party);
    if (!same(target?.reactiveness, pair[field])) {
      at(
        field,
        `run "${runs[k].id}" plays ${pair.target_party} at reactiveness ${levelOf(target)} (condition "${runs[k].conditionId}"), not the declared ${field} ${formatLevel(pair[field])}`,
      );
    }
  });
  if (pair.opponent_level !== undefined) {
    const off = bodies.flatMap((body, k) =>
      body!.parties
        .filter((p) => p.id !== pair.target_party && !same(p.reactiveness, pair.opponent_level!))
        .map((p) => ({ run: runs[k], p })),
    );
    if (off.length > 0) {
      at(
        "opponent_level",
        `run "${off[0].run.id}" plays ${off[0].p.id} at reactiveness ${levelOf(off[0].p)}, not the declared opponent_level ${formatLevel(pair.opponent_level)}`,
      );
    }
  }
  const difference = firstDifference(pair.target_party, runs, [bodyA, bodyB]);
  if (difference)
    at(
      "run_b_id",
      `runs "${runs[0].id}" and "${runs[1].id}" differ in more than ${pair.target_party}'s level: ${difference}`,
    );
  return problems;
}

/** The target party as compared: its level and that level's statement taken out. */
function withoutLevel(party: Party): Party {
  const { reactiveness, ...rest } = party;
  if (reactiveness === undefined || !rest.persona) return rest;
  return { ...rest, persona: rest.persona.replace(reactivenessStatement(reactiveness), "") };
}

/** What first differs between an A/B pair's two runs besides the target's level, or null. */
function firstDifference(
  target: string,
  runs: [RunSummary, RunSummary],
  bodies: [ScenarioBody, ScenarioBody],
): string | null {
  const [a, b] = runs;
  const differs = (x: unknown, y: unknown) => canonicalJson(x) !== canonicalJson(y);
  if (bodies[0].background !== bodies[1].background) return "the background";
  if (differs(bodies[0].topics, bodies[1].topics)) return "the topics";
  const ids = bodies.map((body) => body.parties.map((p) => p.id).join(","));
  if (ids[0] !== ids[1]) return `the parties (${ids[0]} vs ${ids[1]})`;
  for (const [j, party] of bodies[0].parties.entries()) {
    const other = bodies[1].parties[j];
    const [x, y] = party.id === target ? [withoutLevel(party), withoutLevel(other)] : [party, other];
    const field = (Object.keys({ ...x, ...y }) as (keyof Party)[]).sort().find((key) => differs(x[key], y[key]));
    if (field) return `party ${party.id}'s ${field}`;
  }
  if (differs(a.partyOrder, b.partyOrder)) return "party_order";
  if (a.mediatorBackbone !== b.mediatorBackbone) return "the mediator";
  if (a.seed !== b.seed) return `the seed (${a.seed} vs ${b.seed})`;
  if (differs(a.config, b.config)) return "the config";
  return null;
}

/**
 * A persona-setting condition (emotion, culture, fidelity) must give each party the level or
 * identity its variant names, as a structured field and as the matching statement in its persona.
 */
export function checkConditionPersonas(condition: Condition, i: number): BundleProblem[] {
  const parties = condition.expanded?.parties;
  if (!parties) return [];
  const assignment = personaAssignment(
    condition.axis,
    condition.variant,
    parties.map((p) => p.id),
  );
  if (condition.axis === "fidelity" && !assignment) {
    return [
      {
        path: ["conditions", i, "variant"],
        message: `the target of "${condition.variant}" is not a party of the condition (${parties.map((p) => p.id).join(", ")})`,
      },
    ];
  }
  if (!assignment) return [];
  const problems: BundleProblem[] = [];
  parties.forEach((party, j) => {
    const at = (field: string, message: string) =>
      problems.push({ path: ["conditions", i, "expanded", "parties", j, field], message });
    const want = assignment.get(party.id) ?? {};
    if (want.reactiveness !== undefined) {
      if (party.reactiveness === undefined || Math.abs(party.reactiveness - want.reactiveness) > 1e-9) {
        at(
          "reactiveness",
          `"${condition.variant}" sets ${party.id}'s reactiveness to ${want.reactiveness}, got ${party.reactiveness ?? "none"}`,
        );
      } else if (!party.persona?.includes(reactivenessStatement(want.reactiveness))) {
        at("persona", `${party.id}'s persona lacks the reactiveness statement for level ${want.reactiveness}`);
      }
    }
    if (want.culture !== undefined) {
      if (party.culture !== want.culture)
        at(
          "culture",
          `"${condition.variant}" sets ${party.id}'s culture to ${want.culture}, got ${party.culture ?? "none"}`,
        );
      else if (!party.persona?.includes(cultureStatement(want.culture)))
        at("persona", `${party.id}'s persona lacks the ${want.culture} culture statement`);
    }
  });
  return problems;
}
