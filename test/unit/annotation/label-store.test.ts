import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nextTask, releaseExpiredLeases } from "../../../app/server/annotation/assignment.server.ts";
import { labelHistory } from "../../../app/server/annotation/label-history.server.ts";
import { submitLabel } from "../../../app/server/annotation/submit.server.ts";
import { createConsensusStudy } from "../../../app/server/annotation/studies.server.ts";
import { taskPage } from "../../../app/server/annotation/tasks.server.ts";
import { addAnnotator, seedDemo, validConsensusLabel } from "../../../harness/annotation.ts";
import { expectServiceError } from "../../helpers/expect-service-error.ts";
import { tableCounts, tempDb } from "../../../harness/temp-db.ts";

const expectRejected = expectServiceError;

describe("label store", () => {
  let t: Awaited<ReturnType<typeof tempDb>>;
  let studyId: number;
  let ada: number;
  let ben: number;
  let itemId: number;

  beforeEach(async () => {
    t = await tempDb();
    await seedDemo(t.db);
    studyId = await createConsensusStudy(t.db, { name: "s", pool: "expert", trajectories: 1, config: { seed: 1 } });
    ada = await addAnnotator(t.db, "ada", "expert");
    ben = await addAnnotator(t.db, "ben", "expert");
    itemId = (await nextTask(t.db, studyId, ada))!.itemId;
  });
  afterEach(() => t.cleanup());

  const submit = async (payload: unknown, token = "token-0001", who = ada, item = itemId, study = studyId) =>
    await submitLabel(t.db, {
      studyId: study,
      itemId: item,
      annotatorId: who,
      payload,
      clientToken: token,
      secondsOnTask: 12,
    });

  it("stores a valid label as revision 1; a repeated client token is stored once", async () => {
    const label = await validConsensusLabel(t.db, itemId);
    expect(await submit(label)).toMatchObject({ revision: 1, duplicate: false });
    expect(await submit(label)).toMatchObject({ revision: 1, duplicate: true });
    expect((await tableCounts(t.db)).label_revisions).toBe(1);
  });

  it("revisions are appended, never overwritten; the latest counts", async () => {
    await submit(await validConsensusLabel(t.db, itemId, 2), "token-0001");
    const second = await submit(await validConsensusLabel(t.db, itemId, 4), "token-0002");
    expect(second.revision).toBe(2);
    const history = await labelHistory(t.db, second.labelId, { id: ada, role: "expert" });
    // The history lists revisions newest first, in words.
    expect(
      history.revisions.map((r) => (r.summary.kind === "consensus-snippet" ? r.summary.topics[0].score : 0)),
    ).toEqual([4, 2]);
    const page = await taskPage(t.db, studyId, itemId, {
      id: ada,
      role: "expert",
      username: "ada",
      displayName: "ada",
      channel: null,
      externalId: null,
      qualifiedAt: null,
      crowdStudies: [],
    });
    expect(page.submitted?.revision).toBe(2);
    expect(Object.values(page.initialLabel!.topics)[0].score).toBe(4);
  });

  it("another annotator's label history is forbidden; an admin may read it", async () => {
    const { labelId } = await submit(await validConsensusLabel(t.db, itemId));
    await expectRejected(
      async () => await labelHistory(t.db, labelId, { id: ben, role: "expert" }),
      403,
      /another annotator/,
    );
    expect((await labelHistory(t.db, labelId, { id: 999, role: "admin" })).revisions).toHaveLength(1);
  });

  describe("rejects bad labels with a clear message and stores nothing", () => {
    const bad: [string, (l: Awaited<ReturnType<typeof validConsensusLabel>>) => unknown, number, RegExp, string?][] = [
      [
        "a score of 6",
        (l) => ({
          ...l,
          topics: Object.fromEntries(
            Object.entries(l.topics).map(([k, v], i) => [k, i === 0 ? { ...v, score: 6 } : v]),
          ),
        }),
        400,
        /score is 1 to 5/,
      ],
      [
        "a score of 0",
        (l) => ({
          ...l,
          topics: Object.fromEntries(
            Object.entries(l.topics).map(([k, v], i) => [k, i === 0 ? { ...v, score: 0 } : v]),
          ),
        }),
        400,
        /score is 1 to 5/,
      ],
      [
        "an unknown option label",
        (l) => {
          const [k, v] = Object.entries(l.topics)[0];
          const party = Object.keys(v.positions)[0];
          return { ...l, topics: { ...l.topics, [k]: { ...v, positions: { ...v.positions, [party]: "Z" } } } };
        },
        400,
        /"Z" is not an option of topic/,
      ],
      [
        "a missing topic",
        (l) => {
          const [first, ...rest] = Object.entries(l.topics);
          void first;
          return { ...l, topics: Object.fromEntries(rest) };
        },
        400,
        /has no label/,
      ],
      [
        "an unknown topic",
        (l) => ({ ...l, topics: { ...l.topics, NOPE: Object.values(l.topics)[0] } }),
        400,
        /unknown topic "NOPE"/,
      ],
      [
        "the wrong kind",
        () => ({ kind: "ab-reactiveness", choice: "A" }),
        400,
        /takes a consensus-snippet label, not ab-reactiveness/,
      ],
      ["not an object", () => "hello", 400, /not valid/],
      [
        "carry-forward with nothing to carry",
        (l) => ({
          ...l,
          topics: Object.fromEntries(Object.entries(l.topics).map(([k, v]) => [k, { ...v, carriedForward: true }])),
        }),
        400,
        /nothing to carry forward/,
      ],
    ];
    for (const [name, mutate, status, message] of bad) {
      it(name, async () => {
        const before = await tableCounts(t.db);
        await expectRejected(
          async () => await submit(mutate(await validConsensusLabel(t.db, itemId))),
          status,
          message,
        );
        expect(await tableCounts(t.db)).toEqual(before);
      });
    }

    it("a forged item id, an item of another study, an unassigned item", async () => {
      const before = await tableCounts(t.db);
      const label = await validConsensusLabel(t.db, itemId);
      await expectRejected(async () => await submit(label, "token-0009", ada, 99_999), 404, /Item 99999 of study/);
      const other = await createConsensusStudy(t.db, {
        name: "other",
        pool: "expert",
        trajectories: 1,
        config: { seed: 2 },
      });
      await expectRejected(async () => await submit(label, "token-0010", ada, itemId, other), 404, /of study/);
      await expectRejected(async () => await submit(label, "token-0011", ada, itemId, 12345), 404, /does not exist/);
      await expectRejected(async () => await submit(label, "token-0012", ben), 403, /not assigned to you/);
      const after = await tableCounts(t.db);
      // Creating the other study adds its rows and its data-version mark (migration 0012), nothing else.
      expect({
        ...after,
        studies: before.studies,
        study_items: before.study_items,
        data_versions: before.data_versions,
      }).toEqual(before);
    });

    it("a missing client token", async () => {
      await expectRejected(async () => await submit(await validConsensusLabel(t.db, itemId), ""), 400, /client token/);
    });
  });

  it("carry-forward takes the annotator's own preceding score and no other", async () => {
    const first = await validConsensusLabel(t.db, itemId, 2);
    await submit(first);
    const second = (await nextTask(t.db, studyId, ada))!.itemId;
    const carried = await validConsensusLabel(t.db, second, 2);
    for (const topic of Object.values(carried.topics)) topic.carriedForward = true;
    expect((await submit(carried, "token-0002", ada, second)).revision).toBe(1);
    const wrong = await validConsensusLabel(t.db, second, 5);
    for (const topic of Object.values(wrong.topics)) topic.carriedForward = true;
    await expectRejected(
      async () => await submit(wrong, "token-0003", ada, second),
      400,
      /must equal your preceding score 2/,
    );
  });

  it("an abandoned lease returns to the pool; nobody gets an item twice", async () => {
    const later = new Date(Date.now() + 31 * 60_000);
    expect(await releaseExpiredLeases(t.db, studyId, later)).toBe(1);
    // Ben gets the item Ada abandoned; Ada, asking again, gets it back too (k = 2) but only once.
    expect((await nextTask(t.db, studyId, ben, later))!.itemId).toBe(itemId);
    const again = (await nextTask(t.db, studyId, ada, later))!;
    expect(again.itemId).toBe(itemId);
    expect((await nextTask(t.db, studyId, ada, later))!.resumed).toBe(true);
  });
});
