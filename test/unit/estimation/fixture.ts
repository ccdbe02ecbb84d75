/**
 * A benchmark plan's grid in a real database (the report tests' fixture: two domains, three
 * mediators, judged by MAIN_JUDGE) and an expert snippet-consensus study over part of its runs,
 * scored by two experts through the real allocation and submit: each expert's score on a snippet
 * is the judge's score on its first topic at the snippet's last turn, moved by seeded noise, for
 * every topic. The last `unlabelledTail` items of the study get no label, so the trajectory they
 * end is incomplete. What was submitted is returned, for tests to recompute from.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { nextTask } from "../../../app/server/annotation/assignment.server.ts";
import { submitLabel } from "../../../app/server/annotation/submit.server.ts";
import { createConsensusStudy } from "../../../app/server/annotation/studies.server.ts";
import type { LoadedPlan } from "../../../app/server/benchmark/plan-file.server.ts";
import type { Db } from "../../../app/server/db.server.ts";
import { createRng } from "../../../app/domain/stats/rng.ts";
import { addAnnotator, validConsensusLabel } from "../../../harness/annotation.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { fixturePlan, MAIN_JUDGE, seedGrid } from "../benchmark/report/fixture.ts";

export { MAIN_JUDGE };

export interface SubmittedScore {
  itemId: number;
  runId: string;
  position: number;
  isLast: boolean;
  /** The one score the expert gave every topic of the snippet. */
  score: number;
}

export interface LabelledPlan {
  db: Db;
  path: string;
  dir: string;
  cleanup: () => void;
  loaded: LoadedPlan;
  /** The plan as a file (for `--plan`). */
  planFile: string;
  studyId: number;
  submitted: SubmittedScore[];
}

const raw = (db: Db) => db.$client;

function snippetOfItem(db: Db, itemId: number) {
  return raw(db)
    .prepare(
      "SELECT s.run_id AS runId, s.position, s.end_turn AS endTurn, s.is_last AS isLast FROM study_items i JOIN snippets s ON s.id = i.snippet_id WHERE i.id = ?",
    )
    .get(itemId) as { runId: string; position: number; endTurn: number; isLast: number };
}

/** The judge's stored s[k][t] of a run's topic at a turn (null without a row). */
export function judgeScore(db: Db, runId: string, topicId: string, turn: number, backbone = MAIN_JUDGE): number | null {
  const row = raw(db)
    .prepare(
      "SELECT sc.score FROM evaluation_scores sc JOIN evaluations e ON e.id = sc.evaluation_id WHERE e.run_id = ? AND e.backbone = ? AND e.method = 'topic-localized' AND sc.topic_id = ? AND sc.turn_id = ?",
    )
    .get(runId, backbone, topicId, turn) as { score: number } | undefined;
  return row?.score ?? null;
}

/**
 * Each expert takes the study's items in allocation order until none is left or the next is in
 * `skipped`, and scores every topic of a snippet with the judge's score on its first topic at the
 * snippet's last turn, moved by ±1 on three snippets in ten (seeded per expert). What was submitted.
 */
export async function labelLikeTheJudge(
  db: Db,
  studyId: number,
  experts: readonly number[],
  backbone: string,
  skipped: ReadonlySet<number> = new Set(),
): Promise<SubmittedScore[]> {
  const submitted: SubmittedScore[] = [];
  for (const [e, expert] of experts.entries()) {
    const rng = createRng(40 + e);
    for (let lease = await nextTask(db, studyId, expert); lease; lease = await nextTask(db, studyId, expert)) {
      if (skipped.has(lease.itemId)) break;
      const snippet = snippetOfItem(db, lease.itemId);
      const payload = await validConsensusLabel(db, lease.itemId);
      const firstTopic = Object.keys(payload.topics)[0];
      const judge = judgeScore(db, snippet.runId, firstTopic, snippet.endTurn, backbone) ?? 3;
      const noise = rng() < 0.3 ? (rng() < 0.5 ? -1 : 1) : 0;
      const score = Math.min(5, Math.max(1, Math.round(judge) + noise));
      for (const topic of Object.values(payload.topics)) topic.score = score;
      await submitLabel(db, {
        studyId,
        itemId: lease.itemId,
        annotatorId: expert,
        payload,
        clientToken: `calibrated-${studyId}-${expert}-${lease.itemId}`,
        secondsOnTask: 30,
      });
      submitted.push({
        itemId: lease.itemId,
        runId: snippet.runId,
        position: snippet.position,
        isLast: snippet.isLast === 1,
        score,
      });
    }
  }
  return submitted;
}

export async function labelledPlanDb(
  options: { trajectories?: number; unlabelledTail?: number } = {},
): Promise<LabelledPlan> {
  const t = await tempDb();
  const loaded = fixturePlan();
  await seedGrid(t.db, loaded);
  const planFile = join(t.dir, "plan.json");
  writeFileSync(planFile, JSON.stringify(loaded.plan));
  const studyId = await createConsensusStudy(t.db, {
    name: "Expert study on the plan",
    pool: "expert",
    trajectories: options.trajectories ?? 30,
    config: { seed: 5 },
  });
  const items = raw(t.db).prepare("SELECT id FROM study_items WHERE study_id = ? ORDER BY position").all(studyId) as {
    id: number;
  }[];
  const skipped = new Set(items.slice(items.length - (options.unlabelledTail ?? 2)).map((i) => i.id));
  const experts = await Promise.all(["erin", "fred"].map(async (name) => await addAnnotator(t.db, name, "expert")));
  const submitted = await labelLikeTheJudge(t.db, studyId, experts, MAIN_JUDGE, skipped);
  return { ...t, loaded, planFile, studyId, submitted };
}
