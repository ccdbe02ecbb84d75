/**
 * Prolific sessions on a real SQLite file with the demo studies: the researcher's settings, a
 * participant's entry (and reopening the link), bad links, the reading test, and completion
 * after the configured number of labels or when no work is left.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { submitLabel } from "../../../app/server/annotation/submit.server.ts";
import { recordQualificationAttempt } from "../../../app/server/crowd/qualification.server.ts";
import { getStudy, setStudyStatus } from "../../../app/server/annotation/studies.server.ts";
import { parseStudyConfig } from "../../../app/domain/study-config.ts";
import {
  enterProlificSession,
  NOT_SET_UP_MESSAGE,
  parseProlificParams,
  prolificCompletionUrl,
  prolificStep,
  prolificStepPath,
  prolificStudyUrl,
  updateProlificSettings,
} from "../../../app/crowd-channels/prolific/sessions.server.ts";
import { loadQualificationTest } from "../../../app/server/templates.server.ts";
import { validConsensusLabel } from "../../../harness/annotation.ts";
import { demoStudiesTemplate } from "../../helpers/demo-studies-db.ts";
import { expectServiceError } from "../../helpers/expect-service-error.ts";
import { tableCounts, type tempDb } from "../../../harness/temp-db.ts";

const CONSENSUS_CROWD = 2; // 40 snippets, half of them still open
const AB_CROWD = 3; // 8 pairs, every one with its three labels already

const link = (over: Record<string, string | null> = {}) => {
  const base: Record<string, string | null> = {
    study: "2",
    PROLIFIC_PID: "5f1a2b3c4d5e6f7a8b9c0d1e",
    STUDY_ID: "60aa11bb22cc33dd44ee55ff",
    SESSION_ID: "sess0001",
    ...over,
  };
  return new URLSearchParams(Object.entries(base).filter((e): e is [string, string] => e[1] !== null));
};

const expectError = expectServiceError;

describe("Prolific sessions", () => {
  let t: Awaited<ReturnType<typeof tempDb>>;
  const test = loadQualificationTest();
  const rightAnswers = Object.fromEntries(test.questions.map((q) => [q.id, q.answer]));
  const wrongAnswers = Object.fromEntries(
    test.questions.map((q) => [q.id, q.options.find((o) => o.id !== q.answer)!.id]),
  );

  // The demo studies are seeded once; each test gets its own copy of that file.
  let template: Awaited<ReturnType<typeof demoStudiesTemplate>>;
  beforeAll(async () => {
    template = await demoStudiesTemplate();
  });
  afterAll(() => template.cleanup());

  beforeEach(async () => {
    t = await template.copy();
  });
  afterEach(() => t.cleanup());

  const session = (id: number) =>
    t.db.$client
      .prepare(
        `SELECT channel, external_id AS externalId, external_group_id AS groupId, study_id AS studyId, study_item_id AS itemId, status, reward_usd AS reward,
                work_seconds AS workSeconds, accepted_at AS acceptedAt, submitted_at AS submittedAt, source FROM crowd_assignments WHERE id = ?`,
      )
      .get(id) as Record<string, unknown>;

  it("builds the study URL with Prolific's placeholders and the completion URL with the code", () => {
    expect(prolificStudyUrl("https://studio.example.org/", 2)).toBe(
      "https://studio.example.org/crowd/start?study=2&PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}",
    );
    expect(prolificCompletionUrl("C0DE42")).toBe("https://app.prolific.com/submissions/complete?cc=C0DE42");
  });

  it("saves the settings from the dashboard form, keeping the rest of the config, and refuses bad ones with the field", async () => {
    const before = parseStudyConfig((await getStudy(t.db, CONSENSUS_CROWD)).config);
    expect(
      await updateProlificSettings(t.db, CONSENSUS_CROWD, {
        completionCode: " C0DE42 ",
        itemsPerSession: "2",
        rewardUsd: "1.50",
      }),
    ).toEqual({
      completionCode: "C0DE42",
      itemsPerSession: 2,
      rewardUsd: 1.5,
    });
    const after = parseStudyConfig((await getStudy(t.db, CONSENSUS_CROWD)).config);
    expect(after).toEqual({ ...before, prolific: { completionCode: "C0DE42", itemsPerSession: 2, rewardUsd: 1.5 } });

    // An empty reward is no reward.
    await updateProlificSettings(t.db, CONSENSUS_CROWD, {
      completionCode: "C0DE42",
      itemsPerSession: "3",
      rewardUsd: "",
    });
    expect(parseStudyConfig((await getStudy(t.db, CONSENSUS_CROWD)).config).prolific).toEqual({
      completionCode: "C0DE42",
      itemsPerSession: 3,
    });

    const counts = await tableCounts(t.db);
    const stored = (await getStudy(t.db, CONSENSUS_CROWD)).config;
    const bad = async (input: Record<string, unknown>, path: string, message: RegExp) => {
      const e = await expectError(
        () => updateProlificSettings(t.db, CONSENSUS_CROWD, input),
        400,
        /The Prolific settings are not valid/,
      );
      expect(e.problems).toContainEqual({ path, message: expect.stringMatching(message) });
    };
    await bad({ completionCode: "c0de42", itemsPerSession: "2" }, "completionCode", /upper-case letters or digits/);
    await bad({ completionCode: "ABC", itemsPerSession: "2" }, "completionCode", /4–20/);
    await bad({ completionCode: null, itemsPerSession: "2" }, "completionCode", /completion code is required/);
    await bad({ completionCode: "C0DE42", itemsPerSession: "0" }, "itemsPerSession", /at least 1/);
    await bad({ completionCode: "C0DE42", itemsPerSession: "2.5" }, "itemsPerSession", /whole number/);
    await bad({ completionCode: "C0DE42", itemsPerSession: "lots" }, "itemsPerSession", /must be a number/);
    await bad({ completionCode: "C0DE42", itemsPerSession: "" }, "itemsPerSession", /items per session is required/);
    await bad({ completionCode: "C0DE42", itemsPerSession: "2", rewardUsd: "-1" }, "rewardUsd", /must not be negative/);
    await expectError(
      () => updateProlificSettings(t.db, 1, { completionCode: "C0DE42", itemsPerSession: "2" }),
      400,
      /for crowd studies/,
    );
    await expectError(
      () => updateProlificSettings(t.db, 999, { completionCode: "C0DE42", itemsPerSession: "2" }),
      404,
      /Study 999 does not exist/,
    );
    expect((await getStudy(t.db, CONSENSUS_CROWD)).config).toEqual(stored);
    expect(await tableCounts(t.db)).toEqual(counts);
  });

  it("refuses participants while the study has no Prolific settings, and writes nothing", async () => {
    const counts = await tableCounts(t.db);
    const e = await expectError(
      () => enterProlificSession(t.db, CONSENSUS_CROWD, link()),
      409,
      /not ready for Prolific participants/,
    );
    expect(e.message).toBe(NOT_SET_UP_MESSAGE);
    expect(await tableCounts(t.db)).toEqual(counts);
  });

  it("refuses a link with missing, unfilled or malformed ids, naming each parameter, and writes nothing", async () => {
    await updateProlificSettings(t.db, CONSENSUS_CROWD, { completionCode: "C0DE42", itemsPerSession: "2" });
    const counts = await tableCounts(t.db);
    const missing = await expectError(
      () => enterProlificSession(t.db, CONSENSUS_CROWD, link({ SESSION_ID: null, STUDY_ID: "" })),
      400,
      /^This Prolific link is not valid\. The Prolific study ID is empty\. The Prolific session ID is missing\./,
    );
    // The participant reads words; the problems keep the parameters' names.
    expect(missing.problems).toEqual([
      { path: "STUDY_ID", message: "STUDY_ID is empty" },
      { path: "SESSION_ID", message: "SESSION_ID is missing" },
    ]);
    await expectError(
      () => enterProlificSession(t.db, CONSENSUS_CROWD, link({ PROLIFIC_PID: "{{%PROLIFIC_PID%}}" })),
      400,
      /Your Prolific ID still holds Prolific's placeholder/,
    );
    await expectError(
      () => enterProlificSession(t.db, CONSENSUS_CROWD, link({ SESSION_ID: "x'; DROP TABLE" })),
      400,
      /The Prolific session ID must be 1–64 letters, digits/,
    );
    await expectError(
      () => parseProlificParams(link({ PROLIFIC_PID: "p".repeat(65) })),
      400,
      /Your Prolific ID must be 1–64/,
    );
    expect(await tableCounts(t.db)).toEqual(counts);
  });

  it("records the session once, however often the link is opened, and sends a new participant to the reading test", async () => {
    await updateProlificSettings(t.db, CONSENSUS_CROWD, {
      completionCode: "C0DE42",
      itemsPerSession: "2",
      rewardUsd: "1.5",
    });
    const at = new Date("2026-03-02T10:00:00.000Z");
    const first = await enterProlificSession(t.db, CONSENSUS_CROWD, link(), at);
    expect(first).toMatchObject({ revisit: false, next: `/crowd/qualify?study=${CONSENSUS_CROWD}` });
    expect(
      t.db.$client
        .prepare(`SELECT role, channel, external_id AS externalId, qualified_at AS q FROM annotators WHERE id = ?`)
        .get(first.annotatorId),
    ).toEqual({
      role: "crowd",
      channel: "prolific",
      externalId: "5f1a2b3c4d5e6f7a8b9c0d1e",
      q: null,
    });
    expect(session(first.sessionRowId)).toEqual({
      channel: "prolific",
      externalId: "sess0001",
      groupId: "60aa11bb22cc33dd44ee55ff",
      studyId: CONSENSUS_CROWD,
      itemId: null,
      status: "accepted",
      reward: 1.5,
      workSeconds: null,
      acceptedAt: at.toISOString(),
      submittedAt: null,
      source: "prolific",
    });

    const counts = await tableCounts(t.db);
    const again = await enterProlificSession(t.db, CONSENSUS_CROWD, link(), new Date("2026-03-02T10:05:00.000Z"));
    expect(again).toEqual({ ...first, revisit: true });
    expect(await tableCounts(t.db)).toEqual(counts);
    expect(session(first.sessionRowId).acceptedAt).toBe(at.toISOString());

    // The same SESSION_ID from someone else, or for another Prolific study, is refused.
    await expectError(
      () => enterProlificSession(t.db, CONSENSUS_CROWD, link({ PROLIFIC_PID: "otherperson" })),
      409,
      /belongs to another participant or study/,
    );
    await expectError(
      () => enterProlificSession(t.db, CONSENSUS_CROWD, link({ STUDY_ID: "anotherstudy" })),
      409,
      /belongs to another participant or study/,
    );
    expect((await tableCounts(t.db)).crowd_assignments).toBe(counts.crowd_assignments);
  });

  it("completes the session after itemsPerSession labels: the code, the Prolific URL, status submitted and the work time", async () => {
    await updateProlificSettings(t.db, CONSENSUS_CROWD, {
      completionCode: "C0DE42",
      itemsPerSession: "2",
      rewardUsd: "1.5",
    });
    const start = new Date(Date.now() - 20 * 60_000);
    const { annotatorId, sessionRowId } = await enterProlificSession(t.db, CONSENSUS_CROWD, link(), start);
    expect(await prolificStep(t.db, CONSENSUS_CROWD, annotatorId)).toEqual({
      kind: "qualify",
      path: `/crowd/qualify?study=${CONSENSUS_CROWD}`,
    });
    await recordQualificationAttempt(t.db, annotatorId, test, rightAnswers);
    expect((await enterProlificSession(t.db, CONSENSUS_CROWD, link())).next).toBe(`/annotate/${CONSENSUS_CROWD}/next`);

    const labelled: number[] = [];
    for (let i = 0; i < 2; i++) {
      const step = await prolificStep(t.db, CONSENSUS_CROWD, annotatorId, new Date(start.getTime() + (i + 1) * 60_000));
      if (step.kind !== "task") throw new Error(`expected a task, got ${step.kind}`);
      expect(prolificStepPath(CONSENSUS_CROWD, step)).toBe(`/annotate/${CONSENSUS_CROWD}/items/${step.itemId}`);
      await submitLabel(t.db, {
        studyId: CONSENSUS_CROWD,
        itemId: step.itemId,
        annotatorId,
        payload: await validConsensusLabel(t.db, step.itemId),
        clientToken: `prolific-test-${i}`,
        secondsOnTask: 40,
      });
      labelled.push(step.itemId);
      // Not complete before the second label.
      if (i === 0) expect(session(sessionRowId).status).toBe("accepted");
    }
    expect(new Set(labelled).size).toBe(2);

    const end = new Date(start.getTime() + 754_500);
    const done = await prolificStep(t.db, CONSENSUS_CROWD, annotatorId, end);
    expect(done).toEqual({
      kind: "complete",
      completion: {
        code: "C0DE42",
        url: "https://app.prolific.com/submissions/complete?cc=C0DE42",
        labels: 2,
        target: 2,
        workSeconds: 754.5,
      },
    });
    expect(prolificStepPath(CONSENSUS_CROWD, done)).toBe(`/crowd/done?study=${CONSENSUS_CROWD}`);
    expect(session(sessionRowId)).toMatchObject({
      status: "submitted",
      submittedAt: end.toISOString(),
      workSeconds: 754.5,
      reward: 1.5,
    });

    // Coming back later shows the code again and changes nothing; no further item is leased.
    const counts = await tableCounts(t.db);
    expect(await prolificStep(t.db, CONSENSUS_CROWD, annotatorId, new Date(end.getTime() + 60_000))).toEqual(done);
    expect(session(sessionRowId)).toMatchObject({ submittedAt: end.toISOString(), workSeconds: 754.5 });
    expect(await tableCounts(t.db)).toEqual(counts);
  });

  it("completes at once when no work is left for the participant (every A/B pair already has its labels)", async () => {
    await updateProlificSettings(t.db, AB_CROWD, { completionCode: "ABDONE", itemsPerSession: "3" });
    const start = new Date(Date.now() - 5 * 60_000);
    const { annotatorId, sessionRowId } = await enterProlificSession(t.db, AB_CROWD, link({ study: "3" }), start);
    await recordQualificationAttempt(t.db, annotatorId, test, rightAnswers);
    const step = await prolificStep(t.db, AB_CROWD, annotatorId, new Date(start.getTime() + 90_000));
    expect(step).toEqual({
      kind: "complete",
      completion: { code: "ABDONE", url: prolificCompletionUrl("ABDONE"), labels: 0, target: 3, workSeconds: 90 },
    });
    expect(session(sessionRowId)).toMatchObject({ status: "submitted", workSeconds: 90, reward: null });
  });

  it("a participant who fails the reading test three times gets no task and no code", async () => {
    await updateProlificSettings(t.db, CONSENSUS_CROWD, { completionCode: "C0DE42", itemsPerSession: "2" });
    const { annotatorId, sessionRowId } = await enterProlificSession(t.db, CONSENSUS_CROWD, link());
    for (let i = 0; i < 2; i++) await recordQualificationAttempt(t.db, annotatorId, test, wrongAnswers);
    expect((await prolificStep(t.db, CONSENSUS_CROWD, annotatorId)).kind).toBe("qualify");
    await recordQualificationAttempt(t.db, annotatorId, test, wrongAnswers);
    const counts = await tableCounts(t.db);
    expect(await prolificStep(t.db, CONSENSUS_CROWD, annotatorId)).toEqual({ kind: "not-qualified" });
    expect((await enterProlificSession(t.db, CONSENSUS_CROWD, link())).next).toBe(
      `/crowd/done?study=${CONSENSUS_CROWD}`,
    );
    expect(session(sessionRowId).status).toBe("accepted");
    expect(await tableCounts(t.db)).toEqual(counts);
  });

  it("refuses new sessions on a closed study but gives a participant part-way through the code", async () => {
    await updateProlificSettings(t.db, CONSENSUS_CROWD, { completionCode: "C0DE42", itemsPerSession: "5" });
    const { annotatorId, sessionRowId } = await enterProlificSession(t.db, CONSENSUS_CROWD, link());
    await recordQualificationAttempt(t.db, annotatorId, test, rightAnswers);
    const step = await prolificStep(t.db, CONSENSUS_CROWD, annotatorId);
    if (step.kind !== "task") throw new Error(`expected a task, got ${step.kind}`);
    await submitLabel(t.db, {
      studyId: CONSENSUS_CROWD,
      itemId: step.itemId,
      annotatorId,
      payload: await validConsensusLabel(t.db, step.itemId),
      clientToken: "prolific-closed-1",
      secondsOnTask: 30,
    });
    await setStudyStatus(t.db, CONSENSUS_CROWD, "closed");
    await expectError(
      () => enterProlificSession(t.db, CONSENSUS_CROWD, link({ PROLIFIC_PID: "latecomer", SESSION_ID: "sess0002" })),
      409,
      /closed/,
    );
    expect(await prolificStep(t.db, CONSENSUS_CROWD, annotatorId)).toMatchObject({
      kind: "complete",
      completion: { labels: 1, target: 5 },
    });
    expect(session(sessionRowId).status).toBe("submitted");
  });
});
