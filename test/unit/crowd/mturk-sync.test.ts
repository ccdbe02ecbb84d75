/**
 * `mturk sync` against a mocked MTurk client (test/helpers/mturk-api-fake.ts) on a seeded demo
 * database. HITs are recorded as `mturk publish` stores them.
 */
import {
  ApproveAssignmentCommand,
  ListAssignmentsForHITCommand,
  type MTurkClient,
  RejectAssignmentCommand,
  RequestError,
} from "@aws-sdk/client-mturk";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { recordCrowdAssignment } from "../../../app/server/crowd/record-assignment.server.ts";
import { MTURK_ENDPOINTS, mturkClient } from "../../../app/crowd-channels/mturk/client.server.ts";
import { syncAction } from "../../../app/crowd-channels/mturk/command/sync.server.ts";
import { validConsensusLabel } from "../../../harness/annotation.ts";
import { demoStudiesTemplate } from "../../helpers/demo-studies-db.ts";
import { answerXml, assignment, fakeMturk, labelAnswer, mturkMock as mturk } from "../../helpers/mturk-api-fake.ts";
import { tableCounts, type tempDb } from "../../../harness/temp-db.ts";

const SANDBOX_HOST = new URL(MTURK_ENDPOINTS.sandbox).hostname;

interface Setup {
  db: Awaited<ReturnType<typeof tempDb>>["db"];
  abStudy: number;
  consensusStudy: number;
  goldItem: number;
  goldChoice: "A" | "B";
  regularItem: number;
  snippetItem: number;
}

describe("mturk sync (mocked MTurk client)", () => {
  let t: Awaited<ReturnType<typeof tempDb>>;
  let s: Setup;
  const lines: string[] = [];
  const run = (opts: { study: number; dryRun?: boolean; production?: boolean }) =>
    syncAction(
      { study: String(opts.study), dryRun: opts.dryRun, production: opts.production },
      { openDb: () => t.db, print: (l) => lines.push(l) },
    );
  const row = (assignmentId: string) =>
    t.db.$client
      .prepare(
        `SELECT status, source, decision, decision_reason AS reason, label_id AS labelId, work_seconds AS seconds, reward_usd AS reward FROM crowd_assignments WHERE channel = 'mturk' AND external_id = ?`,
      )
      .get(assignmentId) as
      | {
          status: string;
          source: string;
          decision: string | null;
          reason: string | null;
          labelId: number | null;
          seconds: number | null;
          reward: number;
        }
      | undefined;
  const storeHit = (hitId: string, study: number, item: number, environment = "sandbox") =>
    t.db.$client
      .prepare(
        `INSERT INTO mturk_hits (hit_id, environment, hit_type_id, study_id, study_item_id, max_assignments, reward_usd) VALUES (?, ?, 'HITTYPE', ?, ?, 3, 0.8)`,
      )
      .run(hitId, environment, study, item);

  // The demo studies are seeded once; each test gets its own copy of that file.
  let template: Awaited<ReturnType<typeof demoStudiesTemplate>>;
  beforeAll(async () => {
    template = await demoStudiesTemplate();
  });
  afterAll(() => template.cleanup());

  beforeEach(async () => {
    t = await template.copy();
    const studies = t.db.$client.prepare(`SELECT id, type, pool FROM studies ORDER BY id`).all() as {
      id: number;
      type: string;
      pool: string;
    }[];
    const abStudy = studies.find((x) => x.type === "ab-reactiveness")!.id;
    const consensusStudy = studies.find((x) => x.type === "consensus-snippet" && x.pool === "crowd")!.id;
    const gold = t.db.$client
      .prepare(`SELECT id, gold FROM study_items WHERE study_id = ? AND is_gold = 1 ORDER BY position LIMIT 1`)
      .get(abStudy) as { id: number; gold: string };
    const regular = t.db.$client
      .prepare(`SELECT id FROM study_items WHERE study_id = ? AND is_gold = 0 ORDER BY position LIMIT 1`)
      .get(abStudy) as { id: number };
    const snippet = t.db.$client
      .prepare(`SELECT id FROM study_items WHERE study_id = ? ORDER BY position DESC LIMIT 1`)
      .get(consensusStudy) as { id: number };
    s = {
      db: t.db,
      abStudy,
      consensusStudy,
      goldItem: gold.id,
      goldChoice: JSON.parse(gold.gold).choice,
      regularItem: regular.id,
      snippetItem: snippet.id,
    };
    storeHit("HITGOLD", abStudy, s.goldItem);
    storeHit("HITREG", abStudy, s.regularItem);
    storeHit("HITPROD", abStudy, s.regularItem, "production");
    mturk.reset();
    lines.length = 0;
  });
  afterEach(() => t.cleanup());

  /**
   * Worker GOOD answered the gold pair right (our page stored it) and a regular pair (never
   * reached us); worker CARELESS answered the gold pair wrong (never reached us); one answer is
   * unreadable; one assignment MTurk already approved itself.
   */
  async function abScenario(): Promise<void> {
    const wrong = s.goldChoice === "A" ? "B" : "A";
    await recordCrowdAssignment(t.db, {
      channel: "mturk",
      externalId: "ASG-GOOD-GOLD",
      externalGroupId: "HITGOLD",
      studyId: s.abStudy,
      itemId: s.goldItem,
      workerId: "AGOODWORKER1",
      status: "submitted",
      payload: { kind: "ab-reactiveness", choice: s.goldChoice },
      secondsOnTask: 200,
      rewardUsd: 0.8,
      acceptedAt: null,
      submittedAt: null,
      source: "external-question",
    });
    await recordCrowdAssignment(t.db, {
      channel: "mturk",
      externalId: "ASG-AUTO",
      externalGroupId: "HITGOLD",
      studyId: s.abStudy,
      itemId: s.goldItem,
      workerId: "AAUTOWORKER3",
      status: "submitted",
      payload: { kind: "ab-reactiveness", choice: s.goldChoice },
      secondsOnTask: 100,
      rewardUsd: 0.8,
      acceptedAt: null,
      submittedAt: null,
      source: "external-question",
    });
    fakeMturk([
      assignment(
        "ASG-GOOD-GOLD",
        "HITGOLD",
        "AGOODWORKER1",
        "Submitted",
        labelAnswer({ kind: "ab-reactiveness", choice: s.goldChoice }),
      ),
      assignment(
        "ASG-CARELESS-GOLD",
        "HITGOLD",
        "ACARELESS2",
        "Submitted",
        labelAnswer({ kind: "ab-reactiveness", choice: wrong }),
      ),
      assignment(
        "ASG-AUTO",
        "HITGOLD",
        "AAUTOWORKER3",
        "Approved",
        labelAnswer({ kind: "ab-reactiveness", choice: s.goldChoice }),
      ),
      assignment(
        "ASG-GOOD-REG",
        "HITREG",
        "AGOODWORKER1",
        "Submitted",
        labelAnswer({ kind: "ab-reactiveness", choice: "B" }),
      ),
      assignment("ASG-GARBLED", "HITREG", "AGARBLED4", "Submitted", answerXml({ label: "{not json" })),
    ]);
  }

  it("imports what the app never saw, approves good work and rejects a failed gold item with the reason, all on the sandbox", async () => {
    await abScenario();
    const summary = await run({ study: s.abStudy });

    // Both pages of the gold HIT were read; the production HIT was not touched.
    const listed = mturk.commandCalls(ListAssignmentsForHITCommand).map((c) => c.args[0].input);
    expect(listed.map((i) => [i.HITId, i.NextToken ?? null])).toEqual([
      ["HITGOLD", null],
      ["HITGOLD", "2"],
      ["HITREG", null],
    ]);
    expect(
      listed.every(
        (i) => JSON.stringify(i.AssignmentStatuses) === JSON.stringify(["Submitted", "Approved", "Rejected"]),
      ),
    ).toBe(true);

    expect(
      mturk
        .commandCalls(ApproveAssignmentCommand)
        .map((c) => c.args[0].input.AssignmentId)
        .sort(),
    ).toEqual(["ASG-GOOD-GOLD", "ASG-GOOD-REG"]);
    const rejects = mturk.commandCalls(RejectAssignmentCommand).map((c) => c.args[0].input);
    expect(rejects.map((r) => r.AssignmentId)).toEqual(["ASG-CARELESS-GOLD"]);
    expect(rejects[0].RequesterFeedback).toMatch(/check question with a known answer/);

    const careless = row("ASG-CARELESS-GOLD")!;
    expect(careless).toMatchObject({
      status: "rejected",
      source: "sync",
      decision: "reject",
      reason: rejects[0].RequesterFeedback,
      seconds: 240,
      reward: 0.8,
    });
    expect(careless.labelId).not.toBeNull();
    const imported = row("ASG-GOOD-REG")!;
    expect(imported).toMatchObject({ status: "approved", source: "sync", decision: "approve", reason: null });
    const payload = t.db.$client
      .prepare(`SELECT payload FROM label_revisions WHERE label_id = ? ORDER BY revision DESC LIMIT 1`)
      .get(imported.labelId) as { payload: string };
    expect(JSON.parse(payload.payload)).toEqual({ kind: "ab-reactiveness", choice: "B" });
    expect(row("ASG-GOOD-GOLD")).toMatchObject({
      status: "approved",
      source: "external-question",
      decision: "approve",
    });
    // MTurk approved this one itself: the status follows, and no call is made for it.
    expect(row("ASG-AUTO")).toMatchObject({ status: "approved", decision: null });
    expect(row("ASG-GARBLED")).toBeUndefined();

    // The two answers our page stored were pending; MTurk lists both for the same worker and HIT, which confirms them.
    expect(summary).toMatchObject({
      hits: 2,
      assignmentsSeen: 5,
      imported: 2,
      confirmed: 2,
      statusesUpdated: 1,
      approved: 2,
      rejected: 1,
      failed: 0,
    });
    expect(
      t.db.$client
        .prepare(
          `SELECT count(*) AS n FROM crowd_assignments WHERE channel = 'mturk' AND external_id LIKE 'ASG-%' AND confirmed_at IS NULL`,
        )
        .get(),
    ).toEqual({ n: 0 });
    expect(summary.problems).toEqual([
      expect.objectContaining({
        assignmentId: "ASG-GARBLED",
        hitId: "HITREG",
        itemId: s.regularItem,
        workerId: "AGARBLED4",
        message: expect.stringMatching(/"label" field is not valid JSON/),
      }),
    ]);

    const hosts = await Promise.all(
      mturk.calls().map(async (c) => (await (c.thisValue as MTurkClient).config.endpoint!()).hostname),
    );
    expect(new Set(hosts)).toEqual(new Set([SANDBOX_HOST]));
    const out = lines.join("\n");
    expect(out).toMatch(/^SANDBOX: study/);
    expect(out).toContain("approved 2, rejected 1");
    expect(out).toContain("not taken in: assignment ASG-GARBLED");

    // A second sync finds everything settled on MTurk: nothing is imported, approved or rejected again.
    mturk.resetHistory();
    const again = await run({ study: s.abStudy });
    expect(mturk.commandCalls(ApproveAssignmentCommand)).toHaveLength(0);
    expect(mturk.commandCalls(RejectAssignmentCommand)).toHaveLength(0);
    expect(again).toMatchObject({ imported: 0, statusesUpdated: 0, decisions: [] });
    expect(again.problems.map((p) => p.assignmentId)).toEqual(["ASG-GARBLED"]);
  });

  it("dry run: reads MTurk, reports the decisions, and changes nothing anywhere", async () => {
    await abScenario();
    const before = await tableCounts(t.db);
    const summary = await run({ study: s.abStudy, dryRun: true });
    expect(mturk.commandCalls(ApproveAssignmentCommand)).toHaveLength(0);
    expect(mturk.commandCalls(RejectAssignmentCommand)).toHaveLength(0);
    expect(mturk.commandCalls(ListAssignmentsForHITCommand).length).toBeGreaterThan(0);
    expect(await tableCounts(t.db)).toEqual(before);
    expect(row("ASG-GOOD-GOLD")).toMatchObject({ status: "submitted", decision: null });
    expect(row("ASG-AUTO")).toMatchObject({ status: "submitted" });
    expect(summary.decisions.map((d) => [d.externalId, d.decision, d.sent]).sort()).toEqual([
      ["ASG-CARELESS-GOLD", "reject", false],
      ["ASG-GOOD-GOLD", "approve", false],
      ["ASG-GOOD-REG", "approve", false],
    ]);
    expect(summary.imported).toBe(2);
    expect(lines.join("\n")).toContain("would approve 2 and reject 1");
  });

  it("imports a consensus label from the Answer XML, and reports one that fails validation instead of storing it", async () => {
    storeHit("HITSNIP", s.consensusStudy, s.snippetItem);
    const good = await validConsensusLabel(t.db, s.snippetItem, 4);
    const topic = Object.keys(good.topics)[0];
    const six = { ...good, topics: { ...good.topics, [topic]: { ...good.topics[topic], score: 6 } } };
    fakeMturk([
      assignment("ASG-SNIP-OK", "HITSNIP", "ACONSENSUS1", "Submitted", labelAnswer(good)),
      assignment("ASG-SNIP-SIX", "HITSNIP", "ACONSENSUS2", "Submitted", labelAnswer(six)),
      assignment("ASG-SNIP-NOLABEL", "HITSNIP", "ACONSENSUS3", "Submitted", answerXml({ comment: "done" })),
    ]);
    const summary = await run({ study: s.consensusStudy });
    expect(summary.imported).toBe(1);
    expect(row("ASG-SNIP-OK")).toMatchObject({ status: "approved", source: "sync" });
    const stored = t.db.$client
      .prepare(
        `SELECT r.payload FROM crowd_assignments c JOIN label_revisions r ON r.label_id = c.label_id WHERE c.external_id = 'ASG-SNIP-OK'`,
      )
      .get() as { payload: string };
    expect(JSON.parse(stored.payload)).toEqual(good);
    expect(summary.problems.map((p) => [p.assignmentId, p.message])).toEqual([
      ["ASG-SNIP-SIX", expect.stringMatching(new RegExp(`the answer was not stored: .*topics\\.${topic}\\.score`))],
      ["ASG-SNIP-NOLABEL", expect.stringMatching(/no "label" field \(fields: comment\)/)],
    ]);
    expect(row("ASG-SNIP-SIX")).toBeUndefined();
    expect(mturk.commandCalls(ApproveAssignmentCommand).map((c) => c.args[0].input.AssignmentId)).toEqual([
      "ASG-SNIP-OK",
    ]);
  });

  it("keeps going when MTurk refuses one decision, and records only what was sent", async () => {
    await abScenario();
    mturk
      .on(ApproveAssignmentCommand, { AssignmentId: "ASG-GOOD-REG" })
      .rejects(new RequestError({ message: "Assignment is not in a reviewable state", $metadata: {} }));
    const summary = await run({ study: s.abStudy });
    expect(summary).toMatchObject({ approved: 1, rejected: 1, failed: 1 });
    expect(summary.decisions.find((d) => d.externalId === "ASG-GOOD-REG")).toMatchObject({
      sent: false,
      error: expect.stringMatching(/not in a reviewable state/),
    });
    expect(row("ASG-GOOD-REG")).toMatchObject({ status: "submitted", decision: null });
    expect(lines.join("\n")).toContain("MTurk refused to approve");
  });

  it("syncs only the production HITs with --production, on the production endpoint", async () => {
    fakeMturk([
      assignment(
        "ASG-PROD",
        "HITPROD",
        "APRODWORKER",
        "Submitted",
        labelAnswer({ kind: "ab-reactiveness", choice: "A" }),
      ),
    ]);
    const summary = await run({ study: s.abStudy, production: true });
    expect(mturk.commandCalls(ListAssignmentsForHITCommand).map((c) => c.args[0].input.HITId)).toEqual(["HITPROD"]);
    expect(summary).toMatchObject({ environment: "production", hits: 1, imported: 1, approved: 1 });
    const hosts = await Promise.all(
      mturk.calls().map(async (c) => (await (c.thisValue as MTurkClient).config.endpoint!()).hostname),
    );
    expect(new Set(hosts)).toEqual(new Set([new URL(MTURK_ENDPOINTS.production).hostname]));
  });

  it("refuses a production client without --production before reading anything", async () => {
    fakeMturk([]);
    await expect(
      syncAction(
        { study: String(s.abStudy) },
        { openDb: () => t.db, makeClient: () => mturkClient({ production: true }), print: () => {} },
      ),
    ).rejects.toThrow(/not the sandbox endpoint/);
    expect(mturk.calls()).toHaveLength(0);
  });

  it("says so when the study has no HITs in the environment, and refuses a bad study id", async () => {
    const summary = await run({ study: s.consensusStudy });
    expect(summary.hits).toBe(0);
    expect(mturk.calls()).toHaveLength(0);
    expect(lines.join("\n")).toContain("no sandbox HITs are stored for this study");
    await expect(run({ study: 999 })).rejects.toThrow(/Study 999 does not exist/);
    await expect(syncAction({ study: "x" }, { openDb: () => t.db, print: () => {} })).rejects.toThrow(
      /--study must be a whole number/,
    );
  });
});
