/** Shared set-up for the probing tests: a fictional scenario, a temp database, the stand-in over HTTP. */
import { BUNDLE_FORMAT, BUNDLE_VERSION, type ConditionAxis, type Scenario } from "../../../app/domain/bundle.ts";
import type { Llm } from "../../../app/domain/llm/types.ts";
import { importBundleFiles } from "../../../app/server/bundle-store.server.ts";
import type { Db } from "../../../app/server/db.server.ts";
import { createLlm } from "../../../app/server/llm/client.server.ts";
import { parseLlmConfig } from "../../../app/server/llm/config.server.ts";
import { planProbe, probe } from "../../../app/server/probing/probe.server.ts";
import { mockConfigJson } from "../../../app/server/llm/stand-in/config.server.ts";
import type { MockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";

export const WRITER_MODEL = "probe-writer-model";

export function fixtureScenario(id: string, title: string, partyIds: readonly string[] = ["ORCH", "MILL"]): Scenario {
  const weights = [
    { WATER: 7, ROAD: 3 },
    { WATER: 2, ROAD: 8 },
    { WATER: 6, ROAD: 4 },
  ];
  return {
    id,
    domain: "environmental",
    title,
    background:
      "Neighbours in a fictional valley share one stream and one gravel road. The summer has been dry, the stream runs low, and the road was damaged by last winter's floods. They have agreed to meet once to settle both questions before the harvest.",
    topics: [
      {
        id: "WATER",
        name: "Stream water sharing",
        description: "How the stream's summer flow is divided.",
        options: [
          { label: "A", description: "Equal shares." },
          { label: "B", description: "By acreage." },
          { label: "C", description: "A weekly rota." },
        ],
      },
      {
        id: "ROAD",
        name: "Road upkeep",
        description: "Who pays to grade the road.",
        options: [
          { label: "A", description: "The heaviest user pays." },
          { label: "B", description: "Split evenly." },
        ],
      },
    ],
    parties: partyIds.map((pid, i) => ({
      id: pid,
      name: `Party ${pid.toLowerCase()}`,
      role: `Runs the ${pid.toLowerCase()} business in the valley.`,
      relation: "Neighbour of the others.",
      preferences: {
        WATER: i === 0 ? "Option B: we farm the most land." : "Option A: everyone needs water equally.",
        ROAD: i === 0 ? "Option B: everyone uses it." : "Option A: the trucks do the damage.",
      },
      weights: weights[i],
    })),
    source: { kind: "manual", note: "probing test fixture" },
  };
}

export async function importScenario(db: Db, scenario: Scenario, withGeneral = true): Promise<void> {
  const conditions = withGeneral
    ? [{ id: `${scenario.id}:general`, scenario_id: scenario.id, axis: "general", variant: "default" }]
    : [];
  await importBundleFiles(db, [
    {
      file: "fixture.json",
      text: JSON.stringify({ format: BUNDLE_FORMAT, version: BUNDLE_VERSION, scenarios: [scenario], conditions }),
    },
  ]);
}

export function probeLlm(db: Db, mock: MockLlm): Llm {
  return createLlm({
    db,
    config: parseLlmConfig(mockConfigJson(mock.url, { model: WRITER_MODEL }), "test config"),
    sleep: async () => {},
  });
}

export async function runProbe(db: Db, llm: Llm | null, scenarioIds: string[], axes: ConditionAxis[]) {
  return probe({ db, llm, plan: await planProbe(db, scenarioIds, axes) });
}

/** Chat requests the stand-in received. */
export const chatCount = (mock: MockLlm) => mock.requests.filter((r) => r.path === "/v1/chat/completions").length;
