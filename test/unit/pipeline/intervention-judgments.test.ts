/**
 * The intervention-judgment part of the evaluation repository: one judgment per (run, turn, backbone), the first kept.
 */
import { describe, expect, it } from "vitest";
import {
  insertJudgment,
  judgedTurnIds,
  judgmentsOfRun,
  type NewJudgment,
} from "../../../app/server/models/evaluation.server.ts";
import { seedDemo } from "../../../demo/seed.ts";
import { databasePerTest } from "./test-db.ts";
import { MEDIATED } from "./evaluation-helpers.ts";

const demoDb = databasePerTest(seedDemo);

const judgment = (turnId: number, backbone: string, score = 3): NewJudgment => ({
  runId: MEDIATED,
  turnId,
  backbone,
  perceptionAlignment: score,
  emotionalDynamics: score,
  cognitiveChallenges: score,
  communicationBreakdowns: -1,
  reason: `score ${score}`,
});

describe("intervention judgments", () => {
  it("stores a judgment once: a second one for the same run, turn and backbone is not stored and changes nothing", async () => {
    const db = await demoDb();
    expect(await insertJudgment(db, judgment(2, "judge-a", 3))).toBe(true);
    expect(await insertJudgment(db, judgment(2, "judge-a", 5))).toBe(false);
    expect(await judgmentsOfRun(db, MEDIATED)).toMatchObject([
      { turnId: 2, backbone: "judge-a", perceptionAlignment: 3, reason: "score 3" },
    ]);
  });

  it("reads a run's judgments by backbone and turn, and the turns one backbone judged", async () => {
    const db = await demoDb();
    for (const j of [judgment(4, "judge-b"), judgment(2, "judge-b"), judgment(4, "judge-a")])
      await insertJudgment(db, j);
    expect((await judgmentsOfRun(db, MEDIATED)).map((j) => [j.backbone, j.turnId])).toEqual([
      ["judge-a", 4],
      ["judge-b", 2],
      ["judge-b", 4],
    ]);
    expect(await judgedTurnIds(db, MEDIATED, "judge-b")).toEqual(new Set([2, 4]));
    expect(await judgedTurnIds(db, MEDIATED, "judge-c")).toEqual(new Set());
  });
});
