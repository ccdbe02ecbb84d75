/** My labels and a label's history over a real SQLite file: words, order, filters, access. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nextTask } from "../../../app/server/annotation/assignment.server.ts";
import { labelHistory } from "../../../app/server/annotation/label-history.server.ts";
import { myLabels } from "../../../app/server/annotation/my-labels.server.ts";
import { createAbStudy, createConsensusStudy } from "../../../app/server/annotation/studies.server.ts";
import { submitLabel } from "../../../app/server/annotation/submit.server.ts";
import type { SessionUser } from "../../../app/server/auth/session.server.ts";
import { addAnnotator, seedDemo, sessionUser, validConsensusLabel } from "../../../harness/annotation.ts";
import { expectServiceError } from "../../helpers/expect-service-error.ts";
import { tempDb } from "../../../harness/temp-db.ts";

const any = { scenario: null, revised: null };

describe("My labels and label history", () => {
  let t: Awaited<ReturnType<typeof tempDb>>;
  let studyId: number;
  let ada: SessionUser;
  let ben: SessionUser;
  const user = (id: number, username: string, role: "expert" | "crowd", crowdStudies: number[] = []): SessionUser => ({
    ...sessionUser(id, role, username),
    qualifiedAt: new Date().toISOString(),
    crowdStudies,
  });
  let token = 0;
  const submit = async (who: SessionUser, itemId: number, payload: unknown, study = studyId) =>
    await submitLabel(t.db, {
      studyId: study,
      itemId,
      annotatorId: who.id,
      payload,
      clientToken: `token-${String(++token).padStart(4, "0")}`,
      secondsOnTask: 10,
    });

  beforeEach(async () => {
    t = await tempDb();
    await seedDemo(t.db);
    studyId = await createConsensusStudy(t.db, { name: "s", pool: "expert", trajectories: 1, config: { seed: 1 } });
    ada = user(await addAnnotator(t.db, "ada", "expert"), "ada", "expert");
    ben = user(await addAnnotator(t.db, "ben", "expert"), "ben", "expert");
  });
  afterEach(() => t.cleanup());

  /** Ada labels two snippets, then revises the first. Returns the item ids in labelling order. */
  async function labelTwoAndReviseFirst(): Promise<[number, number]> {
    const first = (await nextTask(t.db, studyId, ada.id))!.itemId;
    await submit(ada, first, await validConsensusLabel(t.db, first, 2));
    const second = (await nextTask(t.db, studyId, ada.id))!.itemId;
    await submit(ada, second, await validConsensusLabel(t.db, second, 3));
    await submit(ada, first, await validConsensusLabel(t.db, first, 5));
    return [first, second];
  }

  it("lists the annotator's labels newest first, with scenario, place and the answer in words", async () => {
    const [first, second] = await labelTwoAndReviseFirst();
    const list = await myLabels(t.db, studyId, ada, any);
    expect(list.rows.map((r) => r.itemId)).toEqual([first, second]);
    expect(list.rows.map((r) => r.place)).toEqual([
      expect.stringMatching(/^Trajectory 1 · snippet 1 of \d+$/),
      expect.stringMatching(/^Trajectory 1 · snippet 2 of \d+$/),
    ]);
    expect(list.rows[0].scenario).toBe(list.scenarios[0]);
    const summary = list.rows[0].summary;
    expect(
      summary.kind === "consensus-snippet" && summary.topics.every((topic) => topic.score === 5 && topic.name !== ""),
    ).toBe(true);
    // Blinding: no run, condition or backbone names (the demo's ids look like
    // "<scenario>:general:…:demo-sim-alpha:r0").
    expect(JSON.stringify(list)).not.toMatch(/demo-sim|demo-judge|:general|:r\d/);
    expect((await myLabels(t.db, studyId, ben, any)).rows).toEqual([]);
  });

  it("filters by revised and by scenario, as the query says", async () => {
    const [first, second] = await labelTwoAndReviseFirst();
    expect((await myLabels(t.db, studyId, ada, { scenario: null, revised: "yes" })).rows.map((r) => r.itemId)).toEqual([
      first,
    ]);
    expect((await myLabels(t.db, studyId, ada, { scenario: null, revised: "no" })).rows.map((r) => r.itemId)).toEqual([
      second,
    ]);
    const title = (await myLabels(t.db, studyId, ada, any)).scenarios[0];
    expect((await myLabels(t.db, studyId, ada, { scenario: title, revised: null })).rows).toHaveLength(2);
    const none = await myLabels(t.db, studyId, ada, { scenario: "No such scenario", revised: null });
    expect([none.rows.length, none.total]).toEqual([0, 2]);
  });

  it("a history reads newest first with who, when and what changed; only the author and admins may read it", async () => {
    const [first] = await labelTwoAndReviseFirst();
    const labelId = (await myLabels(t.db, studyId, ada, any)).rows.find((r) => r.itemId === first)!.labelId;
    const own = await labelHistory(t.db, labelId, ada);
    expect(own.revisions.map((r) => [r.revision, r.latest])).toEqual([
      [2, true],
      [1, false],
    ]);
    expect(own.revisions[0].who).toBe("You, on the task page");
    expect(own.revisions[0].changes.map((c) => c.text)).toEqual(
      expect.arrayContaining([expect.stringMatching(/: score 2 → 5$/)]),
    );
    expect(own.place).toMatch(/^Trajectory 1 · snippet 1 of/);
    await expectServiceError(async () => await labelHistory(t.db, labelId, ben), 403, /another annotator/);
    const asAdmin = await labelHistory(t.db, labelId, { id: await addAnnotator(t.db, "root", "admin"), role: "admin" });
    expect([asAdmin.own, asAdmin.author, asAdmin.revisions[0].who]).toEqual([false, "ada", "ada, on the task page"]);
  });

  it("an A/B label is listed as a numbered pair about its target party, with the choice in words", async () => {
    const abStudy = await createAbStudy(t.db, { name: "ab", pool: "crowd", config: { seed: 4 } });
    const carl = user(await addAnnotator(t.db, "carl", "crowd"), "carl", "crowd", [abStudy]);
    const item = (await nextTask(t.db, abStudy, carl.id))!.itemId;
    await submit(carl, item, { kind: "ab-reactiveness", choice: "B" }, abStudy);
    const [row] = (await myLabels(t.db, abStudy, carl, any)).rows;
    expect(row.place).toMatch(/^Pair \d+ of 16 · about \S/);
    expect(row.summary).toMatchObject({
      kind: "ab-reactiveness",
      choice: "B",
      text: expect.stringMatching(/^Conversation B: .+ is the more reactive negotiator$/),
    });
    expect(JSON.stringify(row)).not.toMatch(/level|backbone|demo-sim|fidelity:|:r\d/i);
  });
});
