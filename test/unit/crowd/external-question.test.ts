/**
 * MTurk ExternalQuestion mode, server side, on a real SQLite file with the demo bundle: the
 * parameters MTurk appends, the allow-list for turkSubmitTo, the signed token, the study and item
 * checks, the lease on accept, and a submit that is stored once however often it arrives.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ServiceError } from "../../../app/server/http/errors.server.ts";
import { createAbStudy, createConsensusStudy, setStudyStatus } from "../../../app/server/annotation/studies.server.ts";
import { studyItemIds } from "../../../app/server/models/study.server.ts";
import {
  MTURK_SUBMIT_ORIGINS,
  PREVIEW_ASSIGNMENT_ID,
  allowedSubmitOrigins,
  frameAncestorsPolicy,
  parseExternalQuestionParams,
  type ExternalAssignment,
} from "../../../app/crowd-channels/mturk/external-question-params.server.ts";
import {
  signAssignment,
  verifyAssignmentToken,
} from "../../../app/crowd-channels/mturk/external-question-token.server.ts";
import {
  externalTaskPage,
  saveExternalDraft,
  submitExternalQuestion,
} from "../../../app/crowd-channels/mturk/external-question.server.ts";
import { seedDemo, validConsensusLabel } from "../../../harness/annotation.ts";
import { tableCounts, tempDb } from "../../../harness/temp-db.ts";

const SECRET = "unit-test-secret-for-external-question";
const STAND_IN = "http://127.0.0.1:8931";
const ALLOWED = allowedSubmitOrigins({ MTURK_SUBMIT_ORIGINS: STAND_IN });
const options = { secret: SECRET, allowed: ALLOWED };

async function rejection(fn: () => unknown): Promise<ServiceError> {
  try {
    await fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ServiceError);
    return err as ServiceError;
  }
  throw new Error("expected a rejection");
}

const query = (values: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(values).map(([k, v]) => [k, String(v)]));

describe("MTurk parameters", () => {
  const accepted = {
    study: 3,
    item: 17,
    assignmentId: "3ASSIGN0001",
    hitId: "3HIT0001",
    workerId: "A1WORKER",
    turkSubmitTo: "https://workersandbox.mturk.com",
  };

  it("recognises a preview by ASSIGNMENT_ID_NOT_AVAILABLE, which needs no worker", () => {
    expect(
      parseExternalQuestionParams(
        query({
          study: 3,
          item: 17,
          assignmentId: PREVIEW_ASSIGNMENT_ID,
          hitId: "3HIT0001",
          turkSubmitTo: "https://www.mturk.com",
        }),
        ALLOWED,
      ),
    ).toEqual({
      mode: "preview",
      studyId: 3,
      itemId: 17,
      hitId: "3HIT0001",
    });
  });

  it("reads an accepted assignment; turkSubmitTo is kept as its origin", () => {
    expect(
      parseExternalQuestionParams(query({ ...accepted, turkSubmitTo: "https://workersandbox.mturk.com/" }), ALLOWED),
    ).toEqual({
      mode: "work",
      studyId: 3,
      itemId: 17,
      assignmentId: "3ASSIGN0001",
      hitId: "3HIT0001",
      workerId: "A1WORKER",
      turkSubmitTo: "https://workersandbox.mturk.com",
    });
    expect(parseExternalQuestionParams(query({ ...accepted, turkSubmitTo: STAND_IN }), ALLOWED)).toMatchObject({
      mode: "work",
      turkSubmitTo: STAND_IN,
    });
  });

  it.each([
    ["an unknown site", "https://evil.example"],
    ["a look-alike host", "https://www.mturk.com.evil.example"],
    ["plain http to MTurk", "http://www.mturk.com"],
    ["a path", "https://www.mturk.com/mturk/externalSubmit"],
    ["credentials", "https://user:pw@www.mturk.com"],
    ["a script URL", "javascript:alert(1)"],
    ["a stand-in that is not configured", "http://127.0.0.1:9999"],
  ])("refuses turkSubmitTo with %s (400, names the parameter in words)", async (_, turkSubmitTo) => {
    for (const assignmentId of [accepted.assignmentId, PREVIEW_ASSIGNMENT_ID]) {
      const e = await rejection(() =>
        parseExternalQuestionParams(query({ ...accepted, assignmentId, turkSubmitTo }), ALLOWED),
      );
      expect(e.status).toBe(400);
      expect(e.problems.map((p) => p.path)).toEqual(["turkSubmitTo"]);
      // A worker reads the message: the parameter in words (issue 32), its path stays in the problems.
      expect(e.message).toMatch(
        /The address your answer goes back to on Mechanical Turk: .* is not an MTurk submit address/,
      );
      expect(e.message).not.toContain("turkSubmitTo");
    }
  });

  it("refuses an accepted assignment without workerId, hitId or turkSubmitTo, and malformed ids", async () => {
    const e = await rejection(() =>
      parseExternalQuestionParams(query({ study: 3, item: 17, assignmentId: "3ASSIGN0001" }), ALLOWED),
    );
    expect(e.status).toBe(400);
    expect(e.problems.map((p) => p.path).sort()).toEqual(["hitId", "turkSubmitTo", "workerId"]);
    expect(
      (
        await rejection(() => parseExternalQuestionParams(query({ ...accepted, workerId: "<script>" }), ALLOWED))
      ).problems.map((p) => p.path),
    ).toEqual(["workerId"]);
    expect(
      (await rejection(() => parseExternalQuestionParams(query({ ...accepted, item: "0" }), ALLOWED))).problems.map(
        (p) => p.path,
      ),
    ).toEqual(["item"]);
  });

  it("MTURK_SUBMIT_ORIGINS adds origins to MTurk's own; a value that is not an origin is a configuration error", () => {
    expect(allowedSubmitOrigins({})).toEqual([...MTURK_SUBMIT_ORIGINS]);
    expect(allowedSubmitOrigins({ MTURK_SUBMIT_ORIGINS: ` ${STAND_IN}/ , https://stand-in.example ` })).toEqual([
      ...MTURK_SUBMIT_ORIGINS,
      STAND_IN,
      "https://stand-in.example",
    ]);
    expect(() => allowedSubmitOrigins({ MTURK_SUBMIT_ORIGINS: "https://stand-in.example/submit" })).toThrow(
      /MTURK_SUBMIT_ORIGINS: "https:\/\/stand-in.example\/submit" is not an origin/,
    );
    expect(() => allowedSubmitOrigins({ MTURK_SUBMIT_ORIGINS: "ftp://x.example" })).toThrow(/not an origin/);
  });

  it("lets MTurk and the configured stand-ins frame the page", () => {
    expect(frameAncestorsPolicy({})).toBe("frame-ancestors https://*.mturk.com");
    expect(frameAncestorsPolicy({ MTURK_SUBMIT_ORIGINS: STAND_IN })).toBe(
      `frame-ancestors https://*.mturk.com ${STAND_IN}`,
    );
  });
});

describe("the signed token", () => {
  const a: ExternalAssignment = {
    studyId: 3,
    itemId: 17,
    assignmentId: "3ASSIGN0001",
    hitId: "3HIT0001",
    workerId: "A1WORKER",
    turkSubmitTo: "https://www.mturk.com",
  };

  it("round-trips the assignment with the time its page showed the item", () => {
    const shownAt = "2025-03-01T10:15:00.000Z";
    expect(verifyAssignmentToken(signAssignment({ ...a, shownAt }, SECRET), SECRET)).toEqual({ ...a, shownAt });
  });

  it("refuses an altered, re-signed-elsewhere, truncated or empty token with 403", async () => {
    const token = signAssignment(a, SECRET);
    const [body, sig] = token.split(".");
    const altered = Buffer.from(Buffer.from(body, "base64url").toString().replace("A1WORKER", "A2THIEF")).toString(
      "base64url",
    );
    for (const bad of [
      `${altered}.${sig}`,
      signAssignment(a, "another-secret-of-enough-length"),
      `${body}.${sig.slice(0, -2)}`,
      body,
      "",
      `${token}.x`,
    ]) {
      const e = await rejection(() => verifyAssignmentToken(bad, SECRET));
      expect(e.status).toBe(403);
      expect(e.message).toMatch(/token is not valid/);
    }
  });
});

describe("ExternalQuestion page and submit", () => {
  let t: Awaited<ReturnType<typeof tempDb>>;
  let abStudy: number;
  let abItems: number[];
  let consensusStudy: number;
  const NOW = new Date("2025-03-01T10:00:00.000Z");

  /** A HIT as `mturk publish` stores it. */
  const publishHit = (hitId: string, studyId: number, itemId: number, environment = "sandbox") =>
    t.db.$client
      .prepare(
        `INSERT INTO mturk_hits (hit_id, environment, hit_type_id, study_id, study_item_id, max_assignments, reward_usd) VALUES (?, ?, 'TYPE1', ?, ?, 3, 0.35)`,
      )
      .run(hitId, environment, studyId, itemId);

  beforeEach(async () => {
    t = await tempDb();
    await seedDemo(t.db);
    abStudy = await createAbStudy(t.db, { name: "crowd A/B", pool: "crowd", config: { seed: 3, leaseMinutes: 45 } });
    abItems = await studyItemIds(t.db, abStudy);
    consensusStudy = await createConsensusStudy(t.db, {
      name: "crowd consensus",
      pool: "crowd",
      trajectories: 1,
      config: { seed: 1 },
    });
    publishHit("3HIT0001", abStudy, abItems[0]);
    publishHit("3HIT0002", abStudy, abItems[0]);
    publishHit("3HITC001", consensusStudy, (await studyItemIds(t.db, consensusStudy))[0]);
  });
  afterEach(() => t.cleanup());

  const work = (over: Partial<ExternalAssignment> = {}) => ({
    mode: "work" as const,
    studyId: abStudy,
    itemId: abItems[0],
    assignmentId: "3ASSIGN0001",
    hitId: "3HIT0001",
    workerId: "A1WORKER",
    turkSubmitTo: STAND_IN,
    ...over,
  });
  const accept = (over: Partial<ExternalAssignment> = {}) => externalTaskPage(t.db, work(over), NOW, SECRET);
  const tokenOf = (page: Awaited<ReturnType<typeof accept>>) => (page.mode === "preview" ? "" : page.token);
  const submit = (token: string, payload: unknown, secondsOnTask: number | null = 42.5) =>
    submitExternalQuestion(t.db, { token, payload, secondsOnTask }, NOW, options);
  const count = (table: string) =>
    (t.db.$client.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

  it("a preview shows the blinded task and writes nothing", async () => {
    const before = await tableCounts(t.db);
    const page = await externalTaskPage(t.db, { mode: "preview", studyId: abStudy, itemId: abItems[0] }, NOW, SECRET);
    expect(page.mode).toBe("preview");
    expect(page.task.kind).toBe("ab-reactiveness");
    expect("token" in page).toBe(false);
    const json = JSON.stringify(page);
    for (const secret of ["level", "runAId", "condition", "persona"]) expect(json).not.toContain(secret);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it("the accepted page writes nothing (issue 29); its token carries the showing, and a draft leases the item for the study's lease time", async () => {
    const before = await tableCounts(t.db);
    const page = await accept();
    expect(page.mode).toBe("work");
    expect(verifyAssignmentToken(tokenOf(page), SECRET)).toMatchObject({
      studyId: abStudy,
      itemId: abItems[0],
      workerId: "A1WORKER",
      turkSubmitTo: STAND_IN,
      shownAt: NOW.toISOString(),
    });
    await accept(); // a reload
    expect(await tableCounts(t.db)).toEqual(before);
    await saveExternalDraft(t.db, tokenOf(page), { kind: "ab-reactiveness", choice: "A" }, options, NOW);
    const rows = t.db.$client
      .prepare(
        `SELECT a.study_item_id AS itemId, a.status, a.leased_at AS leasedAt, a.lease_expires_at AS expires, a.shown_at AS shownAt, n.channel, n.external_id AS workerId, n.role FROM assignments a JOIN annotators n ON n.id = a.annotator_id`,
      )
      .all();
    expect(rows).toEqual([
      {
        itemId: abItems[0],
        status: "leased",
        leasedAt: NOW.toISOString(),
        expires: "2025-03-01T10:45:00.000Z",
        shownAt: NOW.toISOString(),
        channel: "mturk",
        workerId: "A1WORKER",
        role: "crowd",
      },
    ]);
  });

  it("an item of another study is 404; an expert study is 403", async () => {
    const foreign = (await studyItemIds(t.db, consensusStudy))[0];
    const e = await rejection(() => accept({ itemId: foreign }));
    expect(e.status).toBe(404);
    expect(e.message).toBe(`Item ${foreign} of study ${abStudy} does not exist`);
    expect(
      (
        await rejection(() =>
          externalTaskPage(t.db, { mode: "preview", studyId: abStudy, itemId: foreign }, NOW, SECRET),
        )
      ).status,
    ).toBe(404);
    // A token signed for that combination fails the same way at submit.
    expect(
      (
        await rejection(() =>
          submit(signAssignment(work({ itemId: foreign }), SECRET), { kind: "ab-reactiveness", choice: "A" }),
        )
      ).status,
    ).toBe(404);

    const expert = await createAbStudy(t.db, { name: "expert A/B", pool: "expert", config: { seed: 3 } });
    const expertItem = (await studyItemIds(t.db, expert))[0];
    expect(await rejection(() => accept({ studyId: expert, itemId: expertItem }))).toMatchObject({
      status: 403,
      message: `Study ${expert} is not a crowd study`,
    });
    expect(count("label_revisions")).toBe(0);
  });

  it("a closed study is refused for preview, accept and submit, and nothing is stored", async () => {
    const token = tokenOf(await accept());
    await setStudyStatus(t.db, abStudy, "closed");
    for (const fn of [
      () => externalTaskPage(t.db, { mode: "preview", studyId: abStudy, itemId: abItems[0] }, NOW, SECRET),
      () => accept(),
      () => submit(token, { kind: "ab-reactiveness", choice: "A" }),
    ]) {
      const e = await rejection(fn);
      expect(e.status).toBe(409);
      expect(e.message).toMatch(new RegExp(`Study ${abStudy} is closed`));
    }
    expect(count("crowd_assignments") + count("label_revisions")).toBe(0);
  });

  it("a tampered token is refused at submit and nothing is stored", async () => {
    const token = tokenOf(await accept());
    const [body, sig] = token.split(".");
    const other = Buffer.from(
      Buffer.from(body, "base64url").toString().replace(`"itemId":${abItems[0]}`, `"itemId":${abItems[1]}`),
    ).toString("base64url");
    expect((await rejection(() => submit(`${other}.${sig}`, { kind: "ab-reactiveness", choice: "A" }))).status).toBe(
      403,
    );
    expect(
      (
        await rejection(() =>
          submitExternalQuestion(
            t.db,
            { token, payload: { kind: "ab-reactiveness", choice: "A" }, secondsOnTask: 1 },
            NOW,
            { ...options, secret: "a-different-secret-0000" },
          ),
        )
      ).status,
    ).toBe(403);
    expect(count("crowd_assignments") + count("label_revisions")).toBe(0);
  });

  it("a submit address dropped from the allow-list after accept is refused", async () => {
    const token = tokenOf(await accept());
    const e = await rejection(() =>
      submitExternalQuestion(
        t.db,
        { token, payload: { kind: "ab-reactiveness", choice: "A" }, secondsOnTask: 1 },
        NOW,
        { secret: SECRET, allowed: MTURK_SUBMIT_ORIGINS },
      ),
    );
    expect(e.status).toBe(400);
    expect(e.problems[0].path).toBe("turkSubmitTo");
  });

  it("stores the answer once: a double submit, a different answer and a reload all return the stored label", async () => {
    const token = tokenOf(await accept());
    const first = await submit(token, { kind: "ab-reactiveness", choice: "B" });
    expect(first.duplicate).toBe(false);
    expect(first.handoff).toEqual({
      action: `${STAND_IN}/mturk/externalSubmit`,
      assignmentId: "3ASSIGN0001",
      labelId: first.handoff.labelId,
      label: JSON.stringify({ kind: "ab-reactiveness", choice: "B" }),
    });
    const again = await submit(token, { kind: "ab-reactiveness", choice: "B" });
    const changed = await submit(token, { kind: "ab-reactiveness", choice: "A" });
    expect(again).toEqual({ ...first, duplicate: true });
    expect(changed).toEqual({ ...first, duplicate: true });
    expect(count("label_revisions")).toBe(1);
    expect(count("labels")).toBe(1);

    const stored = t.db.$client
      .prepare(
        `SELECT channel, external_id AS externalId, external_group_id AS hitId, status, source, reward_usd AS reward, work_seconds AS seconds, accepted_at AS acceptedAt, label_id AS labelId FROM crowd_assignments`,
      )
      .all();
    expect(stored).toEqual([
      {
        channel: "mturk",
        externalId: "3ASSIGN0001",
        hitId: "3HIT0001",
        status: "submitted",
        source: "external-question",
        reward: 0.35,
        seconds: 42.5,
        acceptedAt: NOW.toISOString(),
        labelId: first.handoff.labelId,
      },
    ]);
    expect(t.db.$client.prepare(`SELECT status FROM assignments`).all()).toEqual([{ status: "submitted" }]);

    const reload = await accept();
    expect(reload.mode).toBe("submitted");
    expect(reload.mode === "submitted" && reload.handoff).toEqual(first.handoff);
    expect(count("label_revisions")).toBe(1);
  });

  it("a submit without a work time stores none", async () => {
    await submit(tokenOf(await accept()), { kind: "ab-reactiveness", choice: "A" }, null);
    expect(
      t.db.$client.prepare(`SELECT reward_usd AS reward, work_seconds AS seconds FROM crowd_assignments`).get(),
    ).toEqual({ reward: 0.35, seconds: null });
  });

  it("a HIT published for another item is refused", async () => {
    publishHit("3HITOTHER", abStudy, abItems[1]);
    const e = await rejection(() => accept({ hitId: "3HITOTHER" }));
    expect(e.status).toBe(409);
    expect(e.message).toBe(
      `HIT 3HITOTHER is for item ${abItems[1]} of study ${abStudy}, not item ${abItems[0]} of study ${abStudy}`,
    );
  });

  it("a worker who answered the item in another assignment gets no second label", async () => {
    await submit(tokenOf(await accept()), { kind: "ab-reactiveness", choice: "A" });
    const e = await rejection(() => accept({ assignmentId: "3ASSIGN0002", hitId: "3HIT0002" }));
    expect(e).toMatchObject({
      status: 409,
      message: expect.stringMatching(/already answered this item in another assignment/),
    });
    expect(
      (
        await rejection(() =>
          submit(signAssignment(work({ assignmentId: "3ASSIGN0002", hitId: "3HIT0002" }), SECRET), {
            kind: "ab-reactiveness",
            choice: "B",
          }),
        )
      ).status,
    ).toBe(409);
    expect(count("label_revisions")).toBe(1);
  });

  it("refuses invalid answers with their field paths and stores nothing", async () => {
    const token = tokenOf(await accept());
    const bad = await rejection(() => submit(token, { kind: "ab-reactiveness", choice: "C" }));
    expect(bad.status).toBe(400);
    expect(bad.problems.map((p) => p.path)).toEqual(["choice"]);
    expect(
      (await rejection(() => submit(token, { kind: "consensus-snippet", topics: {} }))).problems.map((p) => p.path),
    ).toEqual(["kind"]);
    expect(
      (await rejection(() => submit(token, { kind: "ab-reactiveness", choice: "A" }, -1))).problems.map((p) => p.path),
    ).toEqual(["secondsOnTask"]);

    const item = (await studyItemIds(t.db, consensusStudy))[0];
    const consensusToken = tokenOf(
      await accept({ studyId: consensusStudy, itemId: item, assignmentId: "3ASSIGN0009", hitId: "3HITC001" }),
    );
    const label = await validConsensusLabel(t.db, item);
    const [topic] = Object.keys(label.topics);
    const outOfRange = await rejection(() =>
      submit(consensusToken, {
        ...label,
        topics: { ...label.topics, [topic]: { ...label.topics[topic], score: 6 } },
      }),
    );
    expect(outOfRange.problems).toContainEqual({
      path: `topics.${topic}.score`,
      message: expect.stringMatching(/score is 1 to 5/),
    });
    expect(count("crowd_assignments") + count("label_revisions")).toBe(0);
    expect((await submit(consensusToken, label)).duplicate).toBe(false);
  });

  it("autosaves a draft under the lease and shows it on reload; drafts stop once submitted", async () => {
    const token = tokenOf(await accept());
    await saveExternalDraft(t.db, token, { kind: "ab-reactiveness", choice: "B" }, options);
    expect((await accept()).initialChoice).toBe("B");
    await submit(token, { kind: "ab-reactiveness", choice: "B" });
    await saveExternalDraft(t.db, token, { kind: "ab-reactiveness", choice: "A" }, options);
    expect(count("label_drafts")).toBe(0);
  });
});
