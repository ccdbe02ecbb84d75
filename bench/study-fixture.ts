/**
 * The annotation benches' study: a synthetic bundle, an expert consensus study of `trajectories`
 * trajectories, 30 experts and random labels (bench/annotation.ts times labelling it;
 * bench/dashboard.ts has it labelled k = 3 through allocation and submit, as on a server, plus an
 * admin account with a password for the HTTP part).
 */
import { eq } from "drizzle-orm";
import * as schema from "../db/schema.ts";
import type { ConsensusLabel } from "../app/task-types/consensus-snippet/label.ts";
import { createRng, randomInt } from "../app/domain/stats/rng.ts";
import { createAccount } from "../app/server/annotation/accounts.server.ts";
import { nextTask } from "../app/server/annotation/assignment.server.ts";
import { submitLabel } from "../app/server/annotation/submit.server.ts";
import { createConsensusStudy } from "../app/server/annotation/studies.server.ts";
import { playedScenarioOfRun, snippetContext } from "../app/server/annotation/task-view.server.ts";
import { importBundleFiles } from "../app/server/bundle-store.server.ts";
import type { Db } from "../app/server/db.server.ts";
import { syntheticBundle } from "./synthetic-bundle.ts";

export const EXPERTS = 30;
export const K = 3;
export const ADMIN = { username: "bench-admin", password: "bench-admin-Kx7q!pass" };

/** A label with the scenario's topics scored at random (the figures are about speed, not agreement). */
export async function labelMaker(db: Db, studyId: number): Promise<() => ConsensusLabel> {
  const first = (await db.select().from(schema.studyItems).where(eq(schema.studyItems.studyId, studyId)).limit(1))[0]!;
  const { body } = await playedScenarioOfRun(db, (await snippetContext(db, first.snippetId!)).runId);
  const rng = createRng(5);
  return () => ({
    kind: "consensus-snippet",
    topics: Object.fromEntries(
      body.topics.map((t) => [
        t.id,
        {
          score: 1 + randomInt(rng, 5),
          carriedForward: false,
          positions: Object.fromEntries(body.parties.map((p) => [p.id, "A"])),
        },
      ]),
    ),
  });
}

/** The synthetic runs for `trajectories` trajectories (one scenario gives 135 evaluated runs of 30 turns). */
export async function importSyntheticRuns(db: Db, trajectories: number): Promise<void> {
  await importBundleFiles(db, [
    { file: "synthetic", text: JSON.stringify(syntheticBundle(Math.ceil(trajectories / 135))) },
  ]);
}

/** The expert consensus study over `trajectories` trajectories with k = 3; returns its id. */
export async function createBenchStudy(db: Db, trajectories: number): Promise<number> {
  return await createConsensusStudy(db, {
    name: "bench",
    pool: "expert",
    trajectories,
    labelsPerItem: K,
    config: { seed: 1 },
  });
}

/** `count` expert accounts (no password: labelled in process); returns their ids. */
export async function addExperts(db: Db, count = EXPERTS): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const [row] = await db
      .insert(schema.annotators)
      .values({ username: `expert${i}`, displayName: `Expert ${i}`, role: "expert" })
      .returning({ id: schema.annotators.id });
    ids.push(row.id);
  }
  return ids;
}

/** The study, fully labelled by 30 experts taking turns, and an admin account; returns the study id. */
export async function prepareDashboardStudy(db: Db, trajectories: number): Promise<number> {
  await importSyntheticRuns(db, trajectories);
  const studyId = await createBenchStudy(db, trajectories);
  const experts = await addExperts(db);
  const label = await labelMaker(db, studyId);
  const active = new Set(experts);
  while (active.size > 0) {
    for (const annotatorId of [...active]) {
      const lease = await nextTask(db, studyId, annotatorId);
      if (!lease) active.delete(annotatorId);
      else
        await submitLabel(db, {
          studyId,
          itemId: lease.itemId,
          annotatorId,
          payload: await label(),
          clientToken: `bench-${annotatorId}-${lease.itemId}`,
          secondsOnTask: 30,
        });
    }
  }
  await createAccount(db, {
    username: ADMIN.username,
    displayName: "Bench admin",
    role: "admin",
    password: ADMIN.password,
  });
  return studyId;
}
