/**
 * The comment stored with a label: checked (trimmed, empty is none, at most 1000 characters), kept per revision, read
 * back on the task page, exported in the labels CSV and JSONL and listed on the study dashboard.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nextTask } from "../../../app/server/annotation/assignment.server.ts";
import { studyLabelComments } from "../../../app/server/annotation/label-comments.server.ts";
import { labelsCsv, labelsJsonl } from "../../../app/server/annotation/label-export.server.ts";
import { createConsensusStudy } from "../../../app/server/annotation/studies.server.ts";
import { submitLabel } from "../../../app/server/annotation/submit.server.ts";
import { taskPage } from "../../../app/server/annotation/tasks.server.ts";
import { LABEL_COMMENT_MAX } from "../../../app/domain/label-comment.ts";
import { parseCsv } from "../../../app/domain/csv.ts";
import { addAnnotator, seedDemo, validConsensusLabel } from "../../../harness/annotation.ts";
import { tableCounts, tempDb } from "../../../harness/temp-db.ts";
import { expectServiceError } from "../../helpers/expect-service-error.ts";

describe("comment stored with a label", () => {
  let t: Awaited<ReturnType<typeof tempDb>>;
  let studyId: number;
  let ada: number;
  let itemId: number;

  beforeEach(async () => {
    t = await tempDb();
    await seedDemo(t.db);
    studyId = await createConsensusStudy(t.db, { name: "s", pool: "expert", trajectories: 1, config: { seed: 1 } });
    ada = await addAnnotator(t.db, "ada", "expert");
    itemId = (await nextTask(t.db, studyId, ada))!.itemId;
  });
  afterEach(() => t.cleanup());

  const submit = async (comment: unknown, token: string, score = 3) =>
    await submitLabel(t.db, {
      studyId,
      itemId,
      annotatorId: ada,
      payload: await validConsensusLabel(t.db, itemId, score),
      clientToken: token,
      secondsOnTask: 12,
      comment,
    });
  const user = {
    id: 0,
    role: "expert" as const,
    username: "ada",
    displayName: "ada",
    channel: null,
    externalId: null,
    qualifiedAt: null,
    crowdStudies: [],
  };

  it("stores the trimmed comment with its revision; the task page starts from it; the exports and dashboard show it", async () => {
    await submit("  Turn 3 reads as sarcasm to me.  ", "token-0001");
    expect((await taskPage(t.db, studyId, itemId, { ...user, id: ada })).comment).toBe(
      "Turn 3 reads as sarcasm to me.",
    );

    const csv = parseCsv(await labelsCsv(t.db, studyId));
    const at = csv.header.indexOf("comment");
    expect(at).toBe(csv.header.indexOf("submitted_at") + 1);
    expect(csv.records.length).toBeGreaterThan(0);
    expect(new Set(csv.records.map((r) => r.fields[at]))).toEqual(new Set(["Turn 3 reads as sarcasm to me."]));

    await submit("", "token-0002", 4);
    const record = JSON.parse((await labelsJsonl(t.db, studyId)).trim());
    expect(record.comment).toBeNull();
    expect(record.revisions.map((r: { comment: string | null }) => r.comment)).toEqual([
      "Turn 3 reads as sarcasm to me.",
      null,
    ]);
    // The dashboard lists the latest revision's comment only: none now.
    expect(await studyLabelComments(t.db, studyId)).toEqual({ rows: [], more: false });

    await submit("Changed my mind on the score.", "token-0003", 5);
    const panel = await studyLabelComments(t.db, studyId);
    expect(panel.rows.map((r) => ({ revision: r.revision, comment: r.comment, annotator: r.annotatorName }))).toEqual([
      { revision: 3, comment: "Changed my mind on the score.", annotator: "ada" },
    ]);
  });

  it("refuses a comment over the limit or not text, naming the field, and stores nothing", async () => {
    await expectServiceError(
      async () => await submit("x".repeat(LABEL_COMMENT_MAX + 1), "token-0001"),
      400,
      /at most 1000/,
      "comment",
    );
    await expectServiceError(async () => await submit(42, "token-0002"), 400, /comment/, "comment");
    expect((await tableCounts(t.db)).label_revisions).toBe(0);
    // Exactly at the limit is fine; a missing comment is none.
    expect((await submit("y".repeat(LABEL_COMMENT_MAX), "token-0003")).revision).toBe(1);
    expect((await submit(undefined, "token-0004")).revision).toBe(2);
  });
});
