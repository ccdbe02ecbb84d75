/**
 * The dashboard's per-channel figures on the demo crowd A/B study with Mechanical Turk
 * assignments and a Prolific session added, recomputed here with plain SQL — a second path
 * independent of the loaders and of the pure function.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoStudies } from "../../../demo/studies.ts";
import { studyDashboard } from "../../../app/server/annotation/dashboard.server.ts";
import { submitLabel } from "../../../app/server/annotation/submit.server.ts";
import { recordQualificationAttempt } from "../../../app/server/crowd/qualification.server.ts";
import { studyChannelStats } from "../../../app/server/crowd/channel-stats.server.ts";
import {
  recordCrowdAssignment,
  type CrowdAssignmentInput,
} from "../../../app/server/crowd/record-assignment.server.ts";
import {
  enterProlificSession,
  prolificStep,
  updateProlificSettings,
} from "../../../app/crowd-channels/prolific/sessions.server.ts";
import { loadQualificationTest } from "../../../app/server/templates.server.ts";
import { seedDemo } from "../../../harness/annotation.ts";
import { tempDb } from "../../../harness/temp-db.ts";

const AB_STUDY = 3;

interface Item {
  id: number;
  isGold: number;
  right: "A" | "B";
}

describe("per-channel figures against plain SQL", async () => {
  const t = await tempDb();
  let items: Item[] = [];

  beforeAll(async () => {
    await seedDemo(t.db);
    await seedDemoStudies(t.db);
    items = t.db.$client
      .prepare(
        `SELECT i.id, i.is_gold AS isGold, CASE WHEN p.level_a > p.level_b THEN 'A' ELSE 'B' END AS "right"
         FROM study_items i JOIN ab_pairs p ON p.id = i.ab_pair_id WHERE i.study_id = ? ORDER BY i.position`,
      )
      .all(AB_STUDY) as Item[];
    const gold = items.filter((i) => i.isGold === 1);
    const plain = items.filter((i) => i.isGold === 0);
    const wrong = (i: Item) => (i.right === "A" ? "B" : "A");

    const mturk = (
      over: Partial<CrowdAssignmentInput> & Pick<CrowdAssignmentInput, "externalId" | "itemId" | "workerId" | "status">,
    ): CrowdAssignmentInput => ({
      channel: "mturk",
      externalGroupId: `HIT${over.itemId}`,
      studyId: AB_STUDY,
      payload: { kind: "ab-reactiveness", choice: "A" },
      secondsOnTask: 60,
      rewardUsd: 0.4,
      acceptedAt: "2026-02-01T09:00:00.000Z",
      submittedAt: "2026-02-01T09:02:00.000Z",
      source: "batch-import",
      ...over,
    });
    await recordCrowdAssignment(
      t.db,
      mturk({
        externalId: "ASG1",
        itemId: gold[0].id,
        workerId: "MW1",
        status: "approved",
        payload: { kind: "ab-reactiveness", choice: gold[0].right },
        secondsOnTask: 75,
      }),
    );
    await recordCrowdAssignment(
      t.db,
      mturk({ externalId: "ASG2", itemId: plain[0].id, workerId: "MW1", status: "approved", secondsOnTask: 45 }),
    );
    await recordCrowdAssignment(
      t.db,
      mturk({ externalId: "ASG3", itemId: plain[1].id, workerId: "MW2", status: "rejected", secondsOnTask: 20 }),
    );
    await recordCrowdAssignment(
      t.db,
      mturk({
        externalId: "ASG4",
        itemId: gold[1].id,
        workerId: "MW2",
        status: "submitted",
        payload: { kind: "ab-reactiveness", choice: wrong(gold[1]) },
        secondsOnTask: 100,
        rewardUsd: null,
      }),
    );
    await recordCrowdAssignment(
      t.db,
      mturk({
        externalId: "ASG5",
        itemId: plain[2].id,
        workerId: "MW3",
        status: "submitted",
        secondsOnTask: 130,
        rewardUsd: 0.5,
      }),
    );

    // Every pair already has its three labels: the study now asks for six, so a Prolific participant finds work.
    t.db.$client.prepare(`UPDATE studies SET labels_per_item = 6 WHERE id = ?`).run(AB_STUDY);
    await updateProlificSettings(t.db, AB_STUDY, { completionCode: "ABC123", itemsPerSession: "3", rewardUsd: "1.20" });
    const start = new Date(Date.now() - 10 * 60_000);
    const params = new URLSearchParams({
      study: String(AB_STUDY),
      PROLIFIC_PID: "PP1",
      STUDY_ID: "PSTUDY",
      SESSION_ID: "PSESS1",
    });
    const { annotatorId } = await enterProlificSession(t.db, AB_STUDY, params, start);
    const test = loadQualificationTest();
    await recordQualificationAttempt(
      t.db,
      annotatorId,
      test,
      Object.fromEntries(test.questions.map((q) => [q.id, q.answer])),
    );
    for (let n = 0; ; n++) {
      const step = await prolificStep(t.db, AB_STUDY, annotatorId, new Date(start.getTime() + (n + 1) * 100_000));
      if (step.kind !== "task") break;
      const item = items.find((i) => i.id === step.itemId)!;
      await submitLabel(t.db, {
        studyId: AB_STUDY,
        itemId: item.id,
        annotatorId,
        payload: { kind: "ab-reactiveness", choice: n === 0 ? wrong(item) : item.right },
        clientToken: `prolific-loader-${n}`,
        secondsOnTask: 50 + 10 * n,
      });
    }
    // A second participant who has only just started.
    await enterProlificSession(
      t.db,
      AB_STUDY,
      new URLSearchParams({ PROLIFIC_PID: "PP2", STUDY_ID: "PSTUDY", SESSION_ID: "PSESS2" }),
    );
  });
  afterAll(() => t.cleanup());

  /** Channel of every annotator active in the study, as SQL sees it. */
  const CHANNEL = `coalesce(a.channel, 'web')`;

  function bySql() {
    const q = <T>(sql: string) => t.db.$client.prepare(sql).all({ study: AB_STUDY }) as T[];
    const workers = q<{ channel: string; n: number }>(
      `SELECT ${CHANNEL} AS channel, count(DISTINCT w.id) AS n FROM (
         SELECT l.annotator_id AS id FROM labels l JOIN study_items i ON i.id = l.study_item_id WHERE i.study_id = @study
         UNION SELECT annotator_id FROM crowd_assignments WHERE study_id = @study) w JOIN annotators a ON a.id = w.id GROUP BY channel`,
    );
    const labelTimes = q<{ channel: string; seconds: number | null }>(
      `SELECT ${CHANNEL} AS channel, (SELECT sum(r.seconds_on_task) FROM label_revisions r WHERE r.label_id = l.id) AS seconds
       FROM labels l JOIN study_items i ON i.id = l.study_item_id JOIN annotators a ON a.id = l.annotator_id WHERE i.study_id = @study`,
    );
    const outcomes = q<{
      channel: string;
      n: number;
      approved: number;
      rejected: number;
      pending: number;
      pay: number | null;
    }>(
      `SELECT channel, count(*) AS n, sum(status = 'approved') AS approved, sum(status = 'rejected') AS rejected, sum(status = 'submitted') AS pending,
              sum(CASE WHEN status <> 'rejected' AND reward_usd IS NOT NULL AND work_seconds > 0 THEN reward_usd END)
                / (sum(CASE WHEN status <> 'rejected' AND reward_usd IS NOT NULL AND work_seconds > 0 THEN work_seconds END) / 3600.0) AS pay
       FROM crowd_assignments WHERE study_id = @study GROUP BY channel`,
    );
    const gold = q<{ channel: string; attempted: number; passed: number }>(
      `SELECT ${CHANNEL} AS channel, count(*) AS attempted,
              sum(json_extract(r.payload, '$.choice') = CASE WHEN p.level_a > p.level_b THEN 'A' ELSE 'B' END) AS passed
       FROM labels l JOIN study_items i ON i.id = l.study_item_id JOIN ab_pairs p ON p.id = i.ab_pair_id JOIN annotators a ON a.id = l.annotator_id
       JOIN label_revisions r ON r.label_id = l.id AND r.revision = (SELECT max(revision) FROM label_revisions WHERE label_id = l.id)
       WHERE i.study_id = @study AND i.is_gold = 1 GROUP BY channel`,
    );
    const medianOf = (xs: number[]) => {
      const s = [...xs].sort((x, y) => x - y);
      return s.length === 0 ? null : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    };
    return ["web", "link", "mturk", "prolific"]
      .filter((c) => workers.some((w) => w.channel === c))
      .map((channel) => {
        const o = outcomes.find((x) => x.channel === channel);
        const g = gold.find((x) => x.channel === channel);
        const times = labelTimes.filter((x) => x.channel === channel);
        return {
          channel,
          workers: workers.find((w) => w.channel === channel)!.n,
          labels: times.length,
          assignments: o?.n ?? 0,
          approved: o?.approved ?? 0,
          rejected: o?.rejected ?? 0,
          pending: o?.pending ?? 0,
          medianSecondsPerLabel: medianOf(times.map((x) => x.seconds).filter((s): s is number => s !== null)),
          effectiveHourlyUsd: o?.pay ?? null,
          goldAttempted: g?.attempted ?? 0,
          goldPassed: g?.passed ?? 0,
          goldAccuracy: g ? g.passed / g.attempted : null,
        };
      });
  }

  it("equals the plain-SQL figures for every channel", async () => {
    const loaded = await studyChannelStats(t.db, AB_STUDY);
    const expected = bySql();
    expect(loaded.map((s) => s.channel)).toEqual(["link", "mturk", "prolific"]);
    expect(loaded.map((s) => s.channel)).toEqual(expected.map((s) => s.channel));
    for (const [i, want] of expected.entries()) {
      const got = loaded[i];
      const { effectiveHourlyUsd, goldAccuracy, medianSecondsPerLabel, ...counts } = want;
      expect(got).toMatchObject(counts);
      expect(got.medianSecondsPerLabel).toBe(medianSecondsPerLabel);
      if (effectiveHourlyUsd === null) expect(got.effectiveHourlyUsd).toBeNull();
      else expect(got.effectiveHourlyUsd).toBeCloseTo(effectiveHourlyUsd, 9);
      if (goldAccuracy === null) expect(got.goldAccuracy).toBeNull();
      else expect(got.goldAccuracy).toBeCloseTo(goldAccuracy, 12);
    }
  });

  it("gives the hand-checked Mechanical Turk and Prolific figures", async () => {
    const stats = await studyChannelStats(t.db, AB_STUDY);
    const mturk = stats.find((s) => s.channel === "mturk")!;
    // ASG4 has no reward and ASG3 was rejected: (0.4 + 0.4 + 0.5) / ((75 + 45 + 130) / 3600 h).
    expect(mturk).toMatchObject({
      workers: 3,
      labels: 4,
      assignments: 5,
      approved: 2,
      rejected: 1,
      pending: 2,
      goldAttempted: 2,
      goldPassed: 1,
    });
    expect(mturk.effectiveHourlyUsd).toBeCloseTo(1.3 / (250 / 3600), 9);
    const prolific = stats.find((s) => s.channel === "prolific")!;
    // Three labels, then the session ended; the second participant is still in the reading test.
    expect(prolific).toMatchObject({ workers: 2, labels: 3, assignments: 2, approved: 0, rejected: 0, pending: 1 });
    const session = t.db.$client
      .prepare(`SELECT work_seconds AS s FROM crowd_assignments WHERE external_id = 'PSESS1'`)
      .get() as { s: number };
    expect(session.s).toBe(400);
    expect(prolific.effectiveHourlyUsd).toBeCloseTo(1.2 / (400 / 3600), 9);
  });

  it("takes the dashboard's own gold accuracy and gives the same figures", async () => {
    const d = await studyDashboard(t.db, AB_STUDY);
    expect(await studyChannelStats(t.db, AB_STUDY, d.gold)).toEqual(await studyChannelStats(t.db, AB_STUDY));
  });
});
