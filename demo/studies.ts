/**
 * The demo's people and studies, so the dashboard shows real numbers on first start:
 * an admin and two expert accounts, a snippet consensus study partly labelled by both experts,
 * a crowd consensus study on the same snippets (the non-expert baseline, with a small imported
 * MTurk batch beside the link workers' labels) and a crowd A/B study.
 *
 * The demo labels are generated, not collected: each expert's score is the demo judge's
 * carried-forward score at the snippet's last turn plus seeded noise (±1 with probability 0.3
 * for experts, ±1 or ±2 for crowd workers), positions follow the judge's recorded stances, and
 * A/B choices name the more reactive side except on about one pair in five (one careless worker fails the gold pairs
 * and half the others). All of it goes through the same allocation and validation as a real submit.
 */
import {
  POSITION_NOT_STATED,
  type ConsensusLabel,
  CONSENSUS_SNIPPET,
} from "../app/task-types/consensus-snippet/label.ts";
import type { LabelPayload } from "../app/task-types/registry.ts";
import { AB_REACTIVENESS } from "../app/task-types/ab-reactiveness/label.ts";
import { createRng } from "../app/domain/stats/index.ts";
import type { Db } from "../app/server/db.server.ts";
import { createAccount } from "../app/server/annotation/accounts.server.ts";
import { findOrCreateCrowdWorker } from "../app/server/crowd/workers.server.ts";
import { nextTask } from "../app/server/annotation/assignment.server.ts";
import { submitLabel } from "../app/server/annotation/submit.server.ts";
import { createAbStudy, createConsensusStudy } from "../app/server/annotation/studies.server.ts";
import { playedScenarioOfRun, snippetContext } from "../app/server/annotation/task-view.server.ts";
import { loadGuidelines } from "../app/server/templates.server.ts";
import { recordCrowdAssignment } from "../app/server/crowd/record-assignment.server.ts";
import { abPairCount, findAbPair } from "../app/server/models/ab-pair.server.ts";
import { listAnnotatorRows, updateAnnotator } from "../app/server/models/annotator.server.ts";
import { evaluationsOfRun, topicScoresUpTo } from "../app/server/models/evaluation.server.ts";
import { findItem, itemsOfStudy, listStudyRows } from "../app/server/models/study.server.ts";

export const DEMO_ACCOUNTS = [
  { username: "admin", displayName: "Demo Admin", role: "admin" as const, password: "demo-admin-pass" },
  { username: "ada", displayName: "Ada (expert)", role: "expert" as const, password: "demo-ada-pass" },
  { username: "ben", displayName: "Ben (expert)", role: "expert" as const, password: "demo-ben-pass" },
];
const DEMO_JUDGE = "demo-judge";
const DEMO_CROWD = ["DEMOW1", "DEMOW2", "DEMOW3", "DEMOW4"];

type Rng = () => number;

function jitter(rng: Rng, spread: 1 | 2): number {
  const u = rng();
  if (spread === 1) return u < 0.15 ? -1 : u < 0.3 ? 1 : 0;
  return u < 0.15 ? -2 : u < 0.35 ? -1 : u < 0.55 ? 1 : u < 0.65 ? 2 : 0;
}

/** The demo judge's score and stances for a topic at turn tEnd (carried forward from s0 = 1). */
async function judgeAt(db: Db, runId: string, topicId: string, tEnd: number) {
  const evaluation = (await evaluationsOfRun(db, runId)).find(
    (e) => e.method === "topic-localized" && e.backbone === DEMO_JUDGE,
  );
  if (!evaluation) return { score: 1, stances: null as Record<string, string> | null, locatedIn: [] as number[] };
  const rows = await topicScoresUpTo(db, evaluation.id, topicId, tEnd);
  const located = rows.filter((r) => r.located);
  const last = located.at(-1);
  return { score: rows.at(-1)?.score ?? 1, stances: last?.stances ?? null, locatedIn: located.map((r) => r.turnId) };
}

async function demoConsensusLabel(
  db: Db,
  itemId: number,
  previous: ConsensusLabel | null,
  rng: Rng,
  spread: 1 | 2,
): Promise<ConsensusLabel> {
  const item = (await findItem(db, itemId))!;
  const context = await snippetContext(db, item.snippetId!);
  const { body } = await playedScenarioOfRun(db, context.runId);
  const topics: ConsensusLabel["topics"] = {};
  for (const topic of body.topics) {
    const judge = await judgeAt(db, context.runId, topic.id, context.endTurn);
    const mentioned = judge.locatedIn.some((t) => t >= context.startTurn);
    const before = previous?.topics[topic.id];
    if (!mentioned && before) {
      topics[topic.id] = { ...before, carriedForward: true };
      continue;
    }
    const options = topic.options.map((o) => o.label);
    const positions = Object.fromEntries(
      body.parties.map((p) => {
        const stance = judge.stances?.[p.id];
        return [p.id, stance && options.includes(stance) ? stance : POSITION_NOT_STATED];
      }),
    );
    topics[topic.id] = {
      score: Math.min(5, Math.max(1, Math.round(judge.score) + jitter(rng, spread))),
      carriedForward: false,
      positions,
    };
  }
  return { kind: CONSENSUS_SNIPPET, topics };
}

/**
 * Labels `count` items of a study as one annotator, through allocation and validation like a real
 * session. `make` gets the annotator's previous label in the same conversation (for carry-forward).
 */
async function labelAs<P extends LabelPayload>(
  db: Db,
  studyId: number,
  annotatorId: number,
  count: number,
  rng: Rng,
  make: (itemId: number, previous: P | null) => Promise<P>,
): Promise<void> {
  let previous: P | null = null;
  let previousRun: string | null = null;
  for (let i = 0; i < count; i++) {
    const lease = await nextTask(db, studyId, annotatorId);
    if (!lease) return;
    const item = (await findItem(db, lease.itemId))!;
    if (item.runId !== previousRun) previous = null;
    const payload = await make(lease.itemId, previous);
    await submitLabel(db, {
      studyId,
      itemId: lease.itemId,
      annotatorId,
      payload,
      clientToken: `demo-${studyId}-${annotatorId}-${lease.itemId}`,
      secondsOnTask: Math.round(35 + rng() * 90),
    });
    previous = payload;
    previousRun = item.runId;
  }
}

const DEMO_MTURK = ["A1DEMOTURKER01", "A2DEMOTURKER02", "A3DEMOTURKER03"];

/**
 * An imported MTurk batch on the crowd consensus study, so the dashboard's per-channel figures
 * show on first start: three MTurk workers label the first snippets the link workers left
 * (each snippet by two of them, so every item still needs a label and can be exported), at
 * $0.50 an assignment. Most work is approved, a little is waiting for review, one assignment
 * was rejected on MTurk (recorded, its answer not used). Stored as a results import would store it.
 */
async function seedDemoMturkBatch(db: Db, studyId: number, untouched: number): Promise<void> {
  const open = (await itemsOfStudy(db, studyId)).slice(-untouched).slice(0, 8);
  const rng = createRng(500);
  const start = Date.parse("2026-11-20T15:00:00.000Z");
  let n = 0;
  for (const [i, item] of open.entries()) {
    for (const w of [i % 3, (i + 1) % 3]) {
      const accepted = start + n * 420_000;
      const workSeconds = Math.round(90 + rng() * 150);
      const status = n === 5 ? "rejected" : n >= 13 ? "submitted" : "approved";
      await recordCrowdAssignment(db, {
        channel: "mturk",
        externalId: `3DEMOASSIGNMENT${String(n + 1).padStart(15, "0")}`,
        externalGroupId: `3DEMOHIT${String(i + 1).padStart(22, "0")}`,
        studyId,
        itemId: item.id,
        workerId: DEMO_MTURK[w],
        status,
        payload: await demoConsensusLabel(db, item.id, null, createRng(5000 + 31 * w + item.id), 2),
        secondsOnTask: workSeconds,
        rewardUsd: 0.5,
        acceptedAt: new Date(accepted).toISOString(),
        submittedAt: new Date(accepted + workSeconds * 1000).toISOString(),
        source: "batch-import",
      });
      n++;
    }
  }
}

export interface DemoStudiesSummary {
  created: boolean;
  accounts: typeof DEMO_ACCOUNTS;
}

/** Creates the demo accounts and studies on a database that has none (idempotent: does nothing otherwise). */
export async function seedDemoStudies(db: Db): Promise<DemoStudiesSummary> {
  if ((await listAnnotatorRows(db)).length > 0 || (await listStudyRows(db)).length > 0)
    return { created: false, accounts: DEMO_ACCOUNTS };
  const ids: Record<string, number> = {};
  for (const account of DEMO_ACCOUNTS) ids[account.username] = (await createAccount(db, account)).valueOf();

  const consensusGuidelines = loadGuidelines(CONSENSUS_SNIPPET);
  const expertStudy = await createConsensusStudy(db, {
    name: "Demo: expert snippet consensus",
    pool: "expert",
    trajectories: 4,
    guidelines: consensusGuidelines,
    config: { seed: 7 },
  });
  const items = await itemsOfStudy(db, expertStudy);
  const runsInOrder = [...new Set(items.map((i) => i.runId))];
  const itemsOfFirst = (n: number) => items.filter((i) => runsInOrder.indexOf(i.runId) < n).length;
  // Ada has finished three trajectories, Ben two and half of the third: the study is part-way.
  const third = items.filter((i) => i.runId === runsInOrder[2]).length;
  await labelAs<ConsensusLabel>(
    db,
    expertStudy,
    ids.ada,
    itemsOfFirst(3),
    createRng(101),
    async (itemId, prev) => await demoConsensusLabel(db, itemId, prev, createRng(1000 + itemId), 1),
  );
  await labelAs<ConsensusLabel>(
    db,
    expertStudy,
    ids.ben,
    itemsOfFirst(2) + Math.floor(third / 2),
    createRng(202),
    async (itemId, prev) => await demoConsensusLabel(db, itemId, prev, createRng(2000 + itemId), 1),
  );

  const crowdIds = await Promise.all(DEMO_CROWD.map(async (w) => await findOrCreateCrowdWorker(db, "link", w)));
  const now = new Date().toISOString();
  for (const id of crowdIds) await updateAnnotator(db, id, { qualifiedAt: now });

  // Same seed and size as the expert study, so it samples the same trajectories: the non-expert baseline.
  const crowdConsensus = await createConsensusStudy(db, {
    name: "Demo: crowd snippet consensus",
    pool: "crowd",
    trajectories: 4,
    guidelines: consensusGuidelines,
    config: { seed: 7 },
  });
  for (const [w, id] of crowdIds.slice(0, 3).entries()) {
    await labelAs<ConsensusLabel>(
      db,
      crowdConsensus,
      id,
      itemsOfFirst(2),
      createRng(300 + w),
      async (itemId, prev) => await demoConsensusLabel(db, itemId, prev, createRng(3000 + 97 * w + itemId), 2),
    );
  }

  await seedDemoMturkBatch(db, crowdConsensus, items.length - itemsOfFirst(2));

  if ((await abPairCount(db)) > 0) {
    const abStudy = await createAbStudy(db, {
      name: "Demo: crowd A/B reactiveness",
      pool: "crowd",
      guidelines: loadGuidelines(AB_REACTIVENESS),
      config: { seed: 11, goldRate: 0.5 },
    });
    const abItems = await itemsOfStudy(db, abStudy);
    for (const [w, id] of crowdIds.entries()) {
      const rng = createRng(400 + w);
      await labelAs(db, abStudy, id, w === 3 ? Math.ceil(abItems.length / 2) : abItems.length, rng, async (itemId) => {
        const item = (await findItem(db, itemId))!;
        const pair = (await findAbPair(db, item.abPairId!))!;
        const right = pair.levelA > pair.levelB ? "A" : "B";
        const wrong = right === "A" ? "B" : "A";
        // Careful workers slip on about one pair in five; the third worker is careless (fails gold
        // items and guesses elsewhere), so the dashboard has someone to flag.
        const careless = w === 2;
        const slips = careless ? item.isGold || itemId % 2 === 0 : (itemId + w) % 5 === 0;
        return { kind: AB_REACTIVENESS, choice: slips ? wrong : right };
      });
    }
  }
  return { created: true, accounts: DEMO_ACCOUNTS };
}
