import { afterEach, describe, expect, it } from "vitest";
import { newEvaluationId } from "../../../app/server/pipeline/evaluation-identity.server.ts";
import { MEDIATOR_ID, NO_MENTION, type PerTurnOutput, type Run } from "../../../app/domain/bundle.ts";
import { checkPerTurnOutput } from "../../../app/domain/baseline.ts";
import { exportBundle } from "../../../app/server/bundle-store.server.ts";
import { evaluateRuns } from "../../../app/server/pipeline/evaluate-runs.server.ts";
import { chatRequests } from "./helpers.ts";
import { BASELINE_MODEL, evaluationSetup, MEDIATED, prompts, UNMEDIATED } from "./evaluation-helpers.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const TOPICS = ["PRICE", "DELIV", "WARR"];
const PARTIES = ["BAKERY", "VENDOR"];

async function stored(
  db: Parameters<typeof exportBundle>[0],
  runId: string,
): Promise<{ output: PerTurnOutput; errors: { message: string }[]; run: Run }> {
  const bundle = await exportBundle(db);
  const evaluation = bundle.evaluations.find((e) => e.id === newEvaluationId(runId, "per-turn", BASELINE_MODEL));
  if (evaluation?.method !== "per-turn") throw new Error(`no per-turn evaluation for ${runId}`);
  return { output: evaluation.output, errors: evaluation.errors ?? [], run: bundle.runs.find((r) => r.id === runId)! };
}

describe("per-turn baseline over HTTP", () => {
  it("scores the starting pair, every party turn and the mediator's topics of both demo runs", async () => {
    const { db, mock, llm } = await evaluationSetup(cleanups);
    const summary = await evaluateRuns(db, { llm, method: "per-turn", runIds: [UNMEDIATED, MEDIATED] });
    expect(summary.backbone).toBe(BASELINE_MODEL);
    expect(summary.runs.map((r) => r.status)).toEqual(["stored", "stored"]);

    let expectedCalls = 0;
    for (const runId of [UNMEDIATED, MEDIATED]) {
      const { output, errors, run } = await stored(db, runId);
      expect(errors).toEqual([]);
      const speakers = run.turns.map((t) => t.speaker);
      expect(checkPerTurnOutput(output, { topicIds: TOPICS, partyIds: PARTIES, speakers })).toEqual([]);
      // One pair: three starting scores; one entry per turn.
      expect(output.initial.map((e) => e.topic).sort()).toEqual([...TOPICS].sort());
      expect(output.turns.map((e) => e.turn_id)).toEqual(run.turns.map((t) => t.turn_id));
      for (const entry of output.turns) {
        if (entry.speaker === MEDIATOR_ID) {
          expect(entry.attitudes).toBeUndefined();
          expect(entry.mentioned_topics!.every((t) => TOPICS.includes(t))).toBe(true);
        } else {
          expect(Object.keys(entry.attitudes!).sort()).toEqual([...TOPICS].sort());
          expect(entry.agreement!.map((a) => `${a.with}/${a.topic}`).sort()).toEqual(
            TOPICS.map((t) => `${PARTIES.find((p) => p !== entry.speaker)}/${t}`).sort(),
          );
        }
      }
      const partyTurns = run.turns.filter((t) => t.role === "party").length;
      expectedCalls += 1 + run.turns.length + partyTurns;
      expect(summary.runs.find((r) => r.runId === runId)).toMatchObject({ calls: 1 + run.turns.length + partyTurns });
    }
    // Both runs play the same scenario, so their starting-score prompt is identical: the second
    // run gets it from the cache instead of the server.
    expect(prompts(mock).filter((p) => p.user.includes("## Positions after turn 0\n"))).toHaveLength(1);
    expect(chatRequests(mock)).toHaveLength(expectedCalls - 1);
  });

  it("carries each party's last stated attitude into later agreement prompts", async () => {
    const { db, mock, llm } = await evaluationSetup(cleanups);
    await evaluateRuns(db, { llm, method: "per-turn", runIds: [UNMEDIATED] });
    const { output, run } = await stored(db, UNMEDIATED);
    const scenario = (await exportBundle(db)).scenarios.find((s) => s.id === "demo-transactional-1")!;
    const agreementPrompts = prompts(mock).filter((p) => p.system.startsWith("You measure how much two parties"));

    // Recompute the attitude each party holds after each turn, independently of the evaluator.
    const held: Record<string, Record<string, string>> = Object.fromEntries(
      scenario.parties.map((p) => [p.id, { ...p.preferences }]),
    );
    for (const entry of output.turns) {
      for (const [topic, attitude] of Object.entries(entry.attitudes ?? {}))
        if (attitude !== NO_MENTION) held[entry.speaker][topic] = attitude;
      const other = PARTIES.find((p) => p !== entry.speaker)!;
      const prompt = agreementPrompts.find((p) => p.user.includes(`## Positions after turn ${entry.turn_id}\n`));
      expect(prompt, `agreement prompt for turn ${entry.turn_id}`).toBeDefined();
      for (const topic of TOPICS) {
        expect(prompt!.user).toContain(`- ${entry.speaker}: ${held[entry.speaker][topic]}`);
        expect(prompt!.user).toContain(`- ${other}: ${held[other][topic]}`);
      }
    }
    // Starting scores use the parties' own stances; attitude prompts never see private thoughts.
    expect(agreementPrompts.some((p) => p.user.includes("## Positions after turn 0\n"))).toBe(true);
    for (const p of prompts(mock))
      for (const turn of run.turns) if (turn.thought) expect(p.user).not.toContain(turn.thought);
  });

  it("records a failed attitude extraction as an error and lets that turn carry forward", async () => {
    const { db, llm } = await evaluationSetup(cleanups, { attitudeTurns: [3] });
    const summary = await evaluateRuns(db, { llm, method: "per-turn", runIds: [UNMEDIATED] });
    expect(summary.runs[0]).toMatchObject({ status: "stored", errors: 1 });
    const { output, errors } = await stored(db, UNMEDIATED);
    expect(errors[0].message).toMatch(/^turn 3: attitude extraction failed \(every pair carries forward\)/);
    expect(output.turns.map((e) => e.turn_id)).not.toContain(3);
    expect(output.turns.map((e) => e.turn_id)).toContain(4);
  });
});
