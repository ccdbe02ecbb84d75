/**
 * Private information must never reach an agent that may not see it. Every private field of
 * every party carries a unique canary string; the parties' thoughts quote their private stances
 * (the mock responder does that on purpose), so a leaked thought carries canaries too. The check
 * runs on the requests the mock endpoint actually received over a whole simulated batch. With
 * self-reported emotion on, a party's scores and reasons reach only that party's own later
 * prompts: never another party's, the mediator's, or any judge's.
 */
import { afterEach, describe, expect, it } from "vitest";
import { BUNDLE_FORMAT, BUNDLE_VERSION, type Party, type Scenario, type Turn } from "../../../app/domain/bundle.ts";
import { cultureStatement, reactivenessStatement } from "../../../app/domain/probing/personas.ts";
import { mediatorView, partyView } from "../../../app/domain/visibility.ts";
import { exportBundle, importBundleFiles } from "../../../app/server/bundle-store.server.ts";
import { createLlm } from "../../../app/server/llm/client.server.ts";
import { parseLlmConfig } from "../../../app/server/llm/config.server.ts";
import { evaluateRuns } from "../../../app/server/pipeline/evaluate-runs.server.ts";
import { simulateBatch } from "../../../app/server/pipeline/simulate.server.ts";
import { SIMULATION_ROLES, standInResponder } from "../../../app/llm-roles/stand-in.ts";
import { evaluationConfigJson } from "./evaluation-helpers.ts";
import { planProbe, probe } from "../../../app/server/probing/probe.server.ts";
import { startMockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { chatRequests, MEDIATOR_MODEL, PARTY_MODEL, simulationConfigJson, testLlm } from "./helpers.ts";

const PARTY_IDS = ["ORCH", "MILL", "TOWN"] as const;
const WEIGHTS: Record<string, Record<string, number>> = {
  ORCH: { WATER: 7, ROAD: 3 },
  MILL: { WATER: 2, ROAD: 8 },
  TOWN: { WATER: 6, ROAD: 4 },
};

/** Every private string of a party: role, relation, each stance, persona. */
function canaries(id: string): string[] {
  return [
    `canary-role-${id}-q1`,
    `canary-relation-${id}-q2`,
    `canary-stance-WATER-${id}-q3`,
    `canary-stance-ROAD-${id}-q4`,
    `canary-persona-${id}-q5`,
  ];
}

function makeParty(id: string, name: string): Party {
  const [role, relation, water, road, persona] = canaries(id);
  return {
    id,
    name,
    role: `Objective: keep the business going (${role}).`,
    relation: `Neighbour of the others (${relation}).`,
    preferences: { WATER: `Prefers A (${water}).`, ROAD: `Prefers C (${road}).` },
    weights: WEIGHTS[id],
    persona: `Speaks briskly (${persona}).`,
  };
}

const scenario: Scenario = {
  id: "canary-valley",
  domain: "environmental",
  title: "A fictional valley dispute over water and a road",
  background: "Three neighbours in a fictional valley share one stream and one gravel road, and the summer is dry.",
  topics: [
    {
      id: "WATER",
      name: "Stream water sharing",
      description: "How the stream's summer flow is divided.",
      options: [
        { label: "A", description: "Equal thirds." },
        { label: "B", description: "By acreage." },
        { label: "C", description: "A rota by week." },
      ],
    },
    {
      id: "ROAD",
      name: "Road upkeep",
      description: "Who pays to grade the road.",
      options: [
        { label: "A", description: "The heaviest user pays." },
        { label: "B", description: "Split evenly." },
        { label: "C", description: "The town pays." },
      ],
    },
  ],
  parties: [
    makeParty("ORCH", "Orchard cooperative"),
    makeParty("MILL", "Old mill bakery"),
    makeParty("TOWN", "Valley town council"),
  ],
  source: { kind: "manual", note: "test fixture for visibility" },
};

const allCanaries = PARTY_IDS.flatMap(canaries);
const otherCanaries = (id: string) => PARTY_IDS.filter((p) => p !== id).flatMap(canaries);
const found = (haystack: string, needles: string[]) => needles.filter((n) => haystack.includes(n));

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe("visibility views", () => {
  const turns: Turn[] = [
    {
      turn_id: 1,
      speaker: "ORCH",
      role: "party",
      utterance: "We need water.",
      thought: "secret-thought-ORCH",
      signal: "continue",
    },
    {
      turn_id: 2,
      speaker: "MILL",
      role: "party",
      utterance: "And a road.",
      thought: "secret-thought-MILL",
      signal: "consensus",
    },
    { turn_id: 3, speaker: "MEDIATOR", role: "mediator", utterance: "Let us list the options." },
  ];

  it("gives the mediator only the shared input", () => {
    const text = JSON.stringify(mediatorView(scenario, turns));
    expect(found(text, allCanaries)).toEqual([]);
    expect(text).not.toContain("secret-thought");
    expect(text).not.toContain("consensus");
    expect(text).toContain("We need water.");
    expect(text).toContain("Let us list the options.");
  });

  it("gives a party its own profile and thoughts, and nothing of the others'", () => {
    const view = partyView(scenario, "MILL", turns);
    const text = JSON.stringify(view);
    expect(found(text, canaries("MILL"))).toEqual(canaries("MILL"));
    expect(found(text, otherCanaries("MILL"))).toEqual([]);
    expect(view.ownThoughts).toEqual([{ turnId: 2, thought: "secret-thought-MILL" }]);
    expect(text).not.toContain("secret-thought-ORCH");
    expect(view.self.weights).toEqual(WEIGHTS.MILL);
    expect(() => partyView(scenario, "NOBODY", turns)).toThrow(/unknown party "NOBODY"/);
  });

  it("gives a party its own self-reported emotion only, and the mediator none", () => {
    const felt: Turn[] = [
      { ...turns[0], emotion: 31, emotion_reason: "secret-reason-ORCH" },
      { ...turns[1], emotion: 77, emotion_reason: "secret-reason-MILL" },
      turns[2],
    ];
    expect(partyView(scenario, "MILL", felt).ownEmotions).toEqual([
      { turnId: 2, emotion: 77, reason: "secret-reason-MILL" },
    ]);
    expect(JSON.stringify(partyView(scenario, "MILL", felt))).not.toContain("secret-reason-ORCH");
    expect(partyView(scenario, "TOWN", felt).ownEmotions).toEqual([]);
    const mediator = JSON.stringify(mediatorView(scenario, felt));
    expect(mediator).not.toMatch(/secret-reason|31|77|emotion/);
  });
});

describe("visibility over a simulated batch, at the endpoint", () => {
  it("never sends a party's private profile or thoughts to the mediator or to another party", async () => {
    const t = await tempDb();
    cleanups.push(t.cleanup);
    await importBundleFiles(t.db, [
      {
        file: "canary.json",
        text: JSON.stringify({
          format: BUNDLE_FORMAT,
          version: BUNDLE_VERSION,
          scenarios: [scenario],
          conditions: [{ id: "canary-valley:general", scenario_id: scenario.id, axis: "general", variant: "default" }],
        }),
      },
    ]);
    const mock = await startMockLlm({ respond: standInResponder({ roles: SIMULATION_ROLES }) });
    cleanups.push(() => mock.close());
    const summary = await simulateBatch({
      db: t.db,
      llm: testLlm(t.db, mock),
      scenarioId: scenario.id,
      mediator: MEDIATOR_MODEL,
      runs: 4,
      budget: 12,
      seed: 11,
    });
    expect(summary.failed).toEqual([]);

    const runs = (await exportBundle(t.db)).runs;
    expect(runs).toHaveLength(8);
    const thoughts = runs.flatMap((r) =>
      r.turns.filter((turn) => turn.thought).map((turn) => ({ speaker: turn.speaker, thought: turn.thought! })),
    );
    // Positive control: thoughts do carry canaries, so a leaked thought would be caught below.
    expect(thoughts.some((th) => found(th.thought, canaries(th.speaker)).length > 0)).toBe(true);

    const requests = chatRequests(mock);
    const mediatorRequests = requests.filter((r) => r.body.model === MEDIATOR_MODEL);
    const partyRequests = requests.filter((r) => r.body.model === PARTY_MODEL);
    expect(mediatorRequests.some((r) => r.body.messages.some((m) => m.content.includes("Do you step in now?")))).toBe(
      true,
    );
    expect(
      mediatorRequests.some((r) => r.body.messages.some((m) => m.content.includes("You decided to step in because"))),
    ).toBe(true);

    for (const request of mediatorRequests) {
      const text = request.body.messages.map((m) => m.content).join("\n");
      expect(found(text, allCanaries)).toEqual([]);
      expect(thoughts.filter((th) => text.includes(th.thought))).toEqual([]);
      expect(text).not.toMatch(/weight/i);
      expect(text).not.toMatch(/"?signal"?/);
    }

    const names = new Map(scenario.parties.map((p) => [p.name, p.id]));
    const seen = new Set<string>();
    for (const request of partyRequests) {
      const text = request.body.messages.map((m) => m.content).join("\n");
      const self = names.get(/^You are playing (.+) in a simulated negotiation/m.exec(text)?.[1] ?? "");
      expect(self).toBeDefined();
      seen.add(self!);
      expect(found(text, otherCanaries(self!))).toEqual([]);
      expect(found(text, canaries(self!))).toEqual(canaries(self!)); // its own brief is there
      expect(thoughts.filter((th) => th.speaker !== self && text.includes(th.thought))).toEqual([]);
      expect([...text.matchAll(/weight (\d+) of 10/g)].map((m) => Number(m[1]))).toEqual([
        WEIGHTS[self!].WATER,
        WEIGHTS[self!].ROAD,
      ]);
    }
    expect([...seen].sort()).toEqual([...PARTY_IDS].sort());
  });
});

describe("persona statements in emotion and culture runs, at the endpoint", () => {
  // Two parties, so each party's statement differs from the other's (with three, two would share one).
  const pair: Scenario = { ...scenario, id: "canary-pair", parties: scenario.parties.slice(0, 2) };
  const cases = [
    {
      condition: "canary-pair:emotion:CR",
      statements: { ORCH: reactivenessStatement(0), MILL: reactivenessStatement(1) },
    },
    {
      condition: "canary-pair:culture:US-CN",
      statements: { ORCH: cultureStatement("US"), MILL: cultureStatement("CN") },
    },
  ];

  it("gives every party its own statement and not the other's, and the mediator none", async () => {
    const t = await tempDb();
    cleanups.push(t.cleanup);
    await importBundleFiles(t.db, [
      {
        file: "pair.json",
        text: JSON.stringify({ format: BUNDLE_FORMAT, version: BUNDLE_VERSION, scenarios: [pair] }),
      },
    ]);
    await probe({ db: t.db, llm: null, plan: await planProbe(t.db, [pair.id], ["emotion", "culture"]) });
    const mock = await startMockLlm({ respond: standInResponder({ roles: SIMULATION_ROLES }) });
    cleanups.push(() => mock.close());
    const names = new Map(pair.parties.map((p) => [p.name, p.id]));

    for (const { condition, statements } of cases) {
      const before = chatRequests(mock).length;
      const summary = await simulateBatch({
        db: t.db,
        llm: testLlm(t.db, mock),
        scenarioId: pair.id,
        conditionId: condition,
        mediator: MEDIATOR_MODEL,
        runs: 1,
        budget: 10,
        seed: 5,
      });
      expect(summary.failed).toEqual([]);
      const requests = chatRequests(mock).slice(before);
      const all = Object.values(statements);
      const mediatorRequests = requests.filter((r) => r.body.model === MEDIATOR_MODEL);
      expect(mediatorRequests.length).toBeGreaterThan(0);
      for (const request of mediatorRequests) {
        const text = request.body.messages.map((m) => m.content).join("\n");
        expect(found(text, all)).toEqual([]);
        expect(text).not.toMatch(/Emotional reactiveness|Cultural background|Hofstede/);
      }
      const seen = new Set<string>();
      for (const request of requests.filter((r) => r.body.model === PARTY_MODEL)) {
        const text = request.body.messages.map((m) => m.content).join("\n");
        const self = names.get(
          /^You are playing (.+) in a simulated negotiation/m.exec(text)?.[1] ?? "",
        ) as keyof typeof statements;
        expect(self).toBeDefined();
        seen.add(self);
        expect(text).toContain(statements[self]);
        const other = self === "ORCH" ? "MILL" : "ORCH";
        expect(text).not.toContain(statements[other]);
      }
      expect([...seen].sort(), condition).toEqual(["MILL", "ORCH"]);
    }
  });
});

describe("self-reported emotion over a simulated batch and its judges, at the endpoint", () => {
  /** Every "how you felt" line of a party prompt, with the reason it carries. */
  const feltLines = (text: string) =>
    [...text.matchAll(/\(How you felt then, privately: (\d+) of 100 — (.+)\)$/gm)].map((m) => ({
      score: Number(m[1]),
      reason: m[2],
    }));

  it("shows a party its own earlier scores and reasons, and nobody else's; the mediator and the judges see none", async () => {
    const t = await tempDb();
    cleanups.push(t.cleanup);
    await importBundleFiles(t.db, [
      {
        file: "canary.json",
        text: JSON.stringify({
          format: BUNDLE_FORMAT,
          version: BUNDLE_VERSION,
          scenarios: [scenario],
          conditions: [{ id: "canary-valley:general", scenario_id: scenario.id, axis: "general", variant: "default" }],
        }),
      },
    ]);
    const mock = await startMockLlm({ respond: standInResponder() });
    cleanups.push(() => mock.close());
    const simulation = simulationConfigJson(mock.url) as { endpoints: object; roles: object };
    const judges = evaluationConfigJson(mock.url) as { roles: object };
    const llm = createLlm({
      db: t.db,
      config: parseLlmConfig(
        { endpoints: simulation.endpoints, roles: { ...simulation.roles, ...judges.roles } },
        "test config",
      ),
      sleep: async () => {},
    });
    const summary = await simulateBatch({
      db: t.db,
      llm,
      scenarioId: scenario.id,
      mediator: MEDIATOR_MODEL,
      runs: 4,
      budget: 12,
      seed: 11,
      emotion: true,
    });
    expect(summary.failed).toEqual([]);

    const runs = (await exportBundle(t.db)).runs;
    const reported = runs.flatMap((r) =>
      r.turns
        .filter((turn) => turn.emotion !== undefined)
        .map((turn) => ({ speaker: turn.speaker, score: turn.emotion!, reason: turn.emotion_reason! })),
    );
    expect(reported.length).toBe(runs.flatMap((r) => r.turns).filter((turn) => turn.role === "party").length);
    // The stand-in's reasons name their party, so one party's reason is distinct from every other's.
    for (const { speaker, reason } of reported)
      expect(reason.startsWith(`${scenario.parties.find((p) => p.id === speaker)!.name} privately:`)).toBe(true);

    const requests = chatRequests(mock);
    const names = new Map(scenario.parties.map((p) => [p.name, p.id]));
    let ownSeen = 0;
    for (const request of requests.filter((r) => r.body.model === PARTY_MODEL)) {
      const text = request.body.messages.map((m) => m.content).join("\n");
      const selfName = /^You are playing (.+) in a simulated negotiation/m.exec(text)![1];
      const self = names.get(selfName)!;
      expect(reported.filter((e) => e.speaker !== self && text.includes(e.reason))).toEqual([]);
      // Every earlier feeling shown is the party's own, as it reported it.
      for (const line of feltLines(text)) {
        expect(line.reason.startsWith(`${selfName} privately:`)).toBe(true);
        expect(reported.some((e) => e.speaker === self && e.score === line.score && e.reason === line.reason)).toBe(
          true,
        );
        ownSeen += 1;
      }
    }
    expect(ownSeen).toBeGreaterThan(0); // positive control: a party does see its own earlier emotion

    const noEmotion = (texts: string[]) => {
      for (const text of texts) {
        expect(reported.filter((e) => text.includes(e.reason))).toEqual([]);
        expect(text).not.toMatch(/privately:|felt then|of 100/);
      }
    };
    const mediatorTexts = requests
      .filter((r) => r.body.model === MEDIATOR_MODEL)
      .map((r) => r.body.messages.map((m) => m.content).join("\n"));
    expect(mediatorTexts.length).toBeGreaterThan(0);
    noEmotion(mediatorTexts);

    // The topic judge, the per-turn baseline and the MI judge read the transcripts without any emotion.
    const simulated = requests.length;
    const runIds = runs.map((r) => r.id);
    for (const method of ["topic", "per-turn", "mi"] as const) {
      const judged = await evaluateRuns(t.db, { llm, method, runIds });
      expect(judged.runs.filter((r) => r.status === "stored").length, method).toBe(
        method === "mi" ? runs.filter((r) => r.turns.some((turn) => turn.role === "mediator")).length : runs.length,
      );
    }
    const judgeTexts = chatRequests(mock)
      .slice(simulated)
      .map((r) => r.body.messages.map((m) => m.content).join("\n"));
    expect(judgeTexts.length).toBeGreaterThan(runIds.length * 3);
    noEmotion(judgeTexts);
  });
});
