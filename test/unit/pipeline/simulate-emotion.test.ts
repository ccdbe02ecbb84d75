/**
 * Self-reported emotion in simulation, over real HTTP against the stand-in endpoint: with
 * `emotion` on, every party turn stores a whole-number score 0–100 and a reason (the database
 * rows), mediator turns none, the run's config says so and its prompt_version hashes the
 * party-emotion template; without it, nothing changes — no emotion stored, and every party
 * request is exactly the `party` template with its values. A run stored with one setting is not
 * silently skipped by a batch asking for the other.
 */
import { asc, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import type { Run } from "../../../app/domain/bundle.ts";
import { emotionScaleText } from "../../../app/domain/emotion/scale.ts";
import { emotionalRepair } from "../../../app/domain/emotion/measures.ts";
import { groupEmotionSeries } from "../../../app/domain/emotion/series.ts";
import { selfReportedTrajectory } from "../../../app/domain/emotion/trajectory.ts";
import { partyView } from "../../../app/domain/visibility.ts";
import { exportBundle, importBundleFiles } from "../../../app/server/bundle-store.server.ts";
import type { Db } from "../../../app/server/db.server.ts";
import { templateVersion } from "../../../app/server/pipeline/prompt-templates.server.ts";
import { planBatch, simulateBatch } from "../../../app/server/pipeline/simulate.server.ts";
import {
  partyMessages,
  SIMULATION_TEMPLATES,
  simulationTemplatesFor,
} from "../../../app/server/pipeline/simulation-prompts.server.ts";
import { turns as turnsTable } from "../../../db/schema.ts";
import type { Responder } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { chatRequests, demoSimulationSetup, MEDIATOR_MODEL, PARTY_MODEL } from "./helpers.ts";
import { SIMULATION_ROLES, standInResponder } from "../../../app/llm-roles/stand-in.ts";

const SCENARIO = "demo-transactional-1";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const setup = (respond?: Responder) => demoSimulationSetup(cleanups, respond);

const simulatedRuns = async (db: Db): Promise<Run[]> =>
  (await exportBundle(db)).runs.filter((r) => r.simulator_backbone === PARTY_MODEL);
const turnRows = async (db: Db, runId: string) =>
  await db.select().from(turnsTable).where(eq(turnsTable.runId, runId)).orderBy(asc(turnsTable.turnId));
const textOf = (body: { messages: { content: string }[] }) => body.messages.map((m) => m.content).join("\n");

describe("simulation with self-reported emotion", () => {
  it("stores a 0–100 score and a reason on every party turn and none on mediator turns, and round-trips through a bundle", async () => {
    const { db, mock, llm } = await setup();
    const summary = await simulateBatch({
      db,
      llm,
      scenarioId: SCENARIO,
      mediator: MEDIATOR_MODEL,
      runs: 4,
      budget: 12,
      seed: 7,
      emotion: true,
    });
    expect(summary.failed).toEqual([]);
    const runs = await simulatedRuns(db);
    expect(runs).toHaveLength(8);
    const emotionVersion = templateVersion(simulationTemplatesFor("generic", { emotion: true }));
    expect(emotionVersion).not.toBe(templateVersion(SIMULATION_TEMPLATES));
    expect(simulationTemplatesFor("generic")).toEqual(SIMULATION_TEMPLATES);
    expect(simulationTemplatesFor("social", { emotion: true })).toEqual([
      "party-emotion",
      "mediator-tracker",
      "mediator-when-social",
      "mediator-how-social",
      "mediator-rate",
      "mediator-voice",
      "mediator-close",
    ]);

    for (const run of runs) {
      expect(run.config).toMatchObject({ emotion: true, prompt_version: emotionVersion });
      const rows = await turnRows(db, run.id);
      expect(rows.length).toBe(run.turns.length);
      for (const row of rows) {
        if (row.role === "party") {
          expect(Number.isInteger(row.emotion), `${run.id} turn ${row.turnId}`).toBe(true);
          expect(row.emotion).toBeGreaterThanOrEqual(0);
          expect(row.emotion).toBeLessThanOrEqual(100);
          expect(row.emotionReason?.trim()).toBeTruthy();
        } else {
          expect([row.emotion, row.emotionReason]).toEqual([null, null]);
        }
      }
    }
    expect(runs.some((r) => r.turns.some((t) => t.role === "mediator"))).toBe(true);

    // Every party request asked for emotion on the shared scale; no mediator request mentions it.
    const requests = chatRequests(mock);
    for (const r of requests.filter((r) => r.body.model === PARTY_MODEL))
      expect(textOf(r.body)).toContain(emotionScaleText());
    for (const r of requests.filter((r) => r.body.model === MEDIATOR_MODEL))
      expect(textOf(r.body)).not.toMatch(/emotion|of 100|felt then/i);

    // The stand-in's rule gives emotional repair something real to find: positive on average.
    const lifts: number[] = [];
    for (const r of runs.filter((r) => r.mediated)) {
      const turns = await turnRows(db, r.id);
      const trajectory = selfReportedTrajectory(turns, r.party_order)!;
      const mediatorTurns = turns.filter((t) => t.role === "mediator").map((t) => t.turnId);
      lifts.push(
        ...emotionalRepair(groupEmotionSeries(trajectory, turns.length), mediatorTurns).perIntervention.map(
          (p) => p.er,
        ),
      );
    }
    expect(lifts.length).toBeGreaterThan(0);
    expect(lifts.reduce((a, b) => a + b, 0) / lifts.length).toBeGreaterThan(0);

    // Export and re-import elsewhere: the emotion fields come back unchanged.
    const exported = await exportBundle(db);
    const fresh = await tempDb();
    cleanups.push(fresh.cleanup);
    await importBundleFiles(fresh.db, [{ file: "export.json", text: JSON.stringify(exported) }]);
    expect((await simulatedRuns(fresh.db)).map((r) => r.turns)).toEqual(runs.map((r) => r.turns));
    expect(runs.flatMap((r) => r.turns).filter((t) => t.emotion !== undefined).length).toBeGreaterThan(0);
  });

  it("without emotion stores none and sends exactly the `party` template's requests", async () => {
    const { db, mock, llm } = await setup();
    const summary = await simulateBatch({
      db,
      llm,
      scenarioId: SCENARIO,
      mediator: MEDIATOR_MODEL,
      runs: 2,
      budget: 10,
      seed: 3,
    });
    expect(summary.failed).toEqual([]);
    const runs = await simulatedRuns(db);
    const partyBodies = new Set(
      chatRequests(mock)
        .filter((r) => r.body.model === PARTY_MODEL)
        // Role and content of each message, whatever the order of their keys on the wire.
        .map((r) => JSON.stringify(r.body.messages.map((m) => ({ role: m.role, content: m.content })))),
    );
    const played = (await planBatch({ db, llm, scenarioId: SCENARIO, mediator: MEDIATOR_MODEL, runs: 1 })).played;
    for (const run of runs) {
      expect(run.config).not.toHaveProperty("emotion");
      expect(run.config.prompt_version).toBe(templateVersion(SIMULATION_TEMPLATES));
      expect((await turnRows(db, run.id)).filter((t) => t.emotion !== null || t.emotionReason !== null)).toEqual([]);
      // Each party turn's request, rebuilt from the unchanged `party` builder, is one the endpoint received.
      run.turns.forEach((t, i) => {
        if (t.role !== "party") return;
        const messages = partyMessages(partyView(played, t.speaker, run.turns.slice(0, i)));
        expect(partyBodies.has(JSON.stringify(messages)), `${run.id} turn ${t.turn_id}`).toBe(true);
      });
    }
    for (const body of partyBodies) expect(body).not.toMatch(/emotion|felt then/i);
  });

  it("never skips a stored run simulated with the other emotion setting: emotion is part of the run's identity", async () => {
    const { db, llm } = await setup();
    const without = await simulateBatch({
      db,
      llm,
      scenarioId: SCENARIO,
      mediator: "none",
      runs: 1,
      budget: 6,
      seed: 9,
    });
    const withEmotion = await simulateBatch({
      db,
      llm,
      scenarioId: SCENARIO,
      mediator: "none",
      runs: 1,
      budget: 6,
      seed: 9,
      emotion: true,
    });
    expect(withEmotion.skipped).toEqual([]);
    expect(withEmotion.stored).toHaveLength(1);
    expect(withEmotion.stored[0]).not.toBe(without.stored[0]);
    const runs = new Map((await simulatedRuns(db)).map((r) => [r.id, r]));
    expect(
      runs.get(withEmotion.stored[0])!.turns.every((t) => t.role !== "party" || typeof t.emotion === "number"),
    ).toBe(true);
    expect(runs.get(without.stored[0])!.turns.every((t) => t.emotion === undefined)).toBe(true);
    // Each setting finds its own run again.
    expect(
      (await planBatch({ db, llm, scenarioId: SCENARIO, mediator: "none", runs: 1, budget: 6, seed: 9 })).runs[0],
    ).toMatchObject({ runId: without.stored[0], stored: true });
    expect(
      (await planBatch({ db, llm, scenarioId: SCENARIO, mediator: "none", runs: 1, budget: 6, seed: 9, emotion: true }))
        .runs[0],
    ).toMatchObject({ runId: withEmotion.stored[0], stored: true });
  });

  it("abandons a run whose party keeps reporting an emotion off the scale, after one repair retry, and stores nothing", async () => {
    // The stand-in party, but its emotion is 140: the reply fails the schema every time.
    const offScale: Responder = (request) => {
      const reply = standInResponder({ roles: SIMULATION_ROLES })(request) as Record<string, unknown>;
      return JSON.stringify("emotion" in reply ? { ...reply, emotion: 140 } : reply);
    };
    const { db, mock, llm } = await setup(offScale);
    const summary = await simulateBatch({
      db,
      llm,
      scenarioId: SCENARIO,
      mediator: "none",
      runs: 1,
      budget: 6,
      seed: 2,
      emotion: true,
    });
    expect(summary.stored).toEqual([]);
    expect(summary.failed).toHaveLength(1);
    expect(summary.failed[0].reason).toMatch(/turn 1 .*emotion/);
    expect(chatRequests(mock)).toHaveLength(2); // the call and its repair retry
    expect(await simulatedRuns(db)).toEqual([]);
  });
});
