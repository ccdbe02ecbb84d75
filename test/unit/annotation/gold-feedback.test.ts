/**
 * Gold feedback on a real SQLite file: on a study that enables it, submitting a gold item sends the annotator on with
 * the item named, and the next page says whether the answer matched and what was expected; on a study without it
 * (the default) nothing about gold reaches the annotator — the redirect, the page data of a gold item and of a regular
 * one look alike, and naming a gold item in the address reveals nothing. The consensus wording is checked on its own.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nextTask } from "../../../app/server/annotation/assignment.server.ts";
import { withFeedbackFor } from "../../../app/server/annotation/gold-feedback.server.ts";
import { recordItemShown } from "../../../app/server/annotation/item-shown.server.ts";
import { createStudyFromForm } from "../../../app/server/annotation/study-admin.server.ts";
import { createAbStudy, getStudy } from "../../../app/server/annotation/studies.server.ts";
import { withWriteLock } from "../../../app/server/http/write-lock.server.ts";
import { parseStudyConfig } from "../../../app/domain/study-config.ts";
import { saveTaskWork, taskPage } from "../../../app/server/annotation/tasks.server.ts";
import type { SessionUser } from "../../../app/server/auth/session.server.ts";
import { consensusGold } from "../../../app/task-types/consensus-snippet/gold.ts";
import { addAnnotator, seedDemo, sessionUser } from "../../../harness/annotation.ts";
import { tempDb } from "../../../harness/temp-db.ts";

const expert = (id: number): SessionUser => sessionUser(id);

describe("gold feedback", () => {
  let t: Awaited<ReturnType<typeof tempDb>>;
  let user: SessionUser;
  const goldOf = (studyId: number) =>
    new Map(
      (
        t.db.$client
          .prepare(
            `SELECT i.id, i.is_gold AS isGold, p.level_a AS a, p.level_b AS b FROM study_items i
             JOIN ab_pairs p ON p.id = i.ab_pair_id WHERE i.study_id = ?`,
          )
          .all(studyId) as { id: number; isGold: number; a: number; b: number }[]
      ).map((r) => [r.id, { isGold: r.isGold === 1, expected: r.a > r.b ? "A" : "B" }]),
    );
  const url = (studyId: number, itemId: number, gold?: number) =>
    new URL(`http://studio.test/annotate/${studyId}/items/${itemId}${gold ? `?gold=${gold}` : ""}`);

  /**
   * Answers every item of the study in turn (gold ones right when `right`), calling `shown` with each item as first
   * shown, and returns what each submit said.
   */
  const answerAll = async (studyId: number, right: (itemId: number) => boolean, shown?: (itemId: number) => void) => {
    const gold = goldOf(studyId);
    const done: { itemId: number; goldFeedback: boolean }[] = [];
    for (let lease = await nextTask(t.db, studyId, user.id); lease; lease = await nextTask(t.db, studyId, user.id)) {
      const { itemId } = lease;
      await shown?.(itemId);
      await recordItemShown(t.db, itemId, user.id);
      const expected = gold.get(itemId)!.expected;
      const choice = (await right(itemId)) ? expected : expected === "A" ? "B" : "A";
      const result = await saveTaskWork(t.db, studyId, itemId, user, {
        intent: "submit",
        payload: { kind: "ab-reactiveness", choice },
        clientToken: `gold-feedback-token-${itemId}`,
        secondsOnTask: 5,
      });
      if (result.done !== "label") throw new Error(`item ${itemId}: ${result.done}`);
      done.push({ itemId, goldFeedback: result.goldFeedback });
    }
    return done;
  };

  beforeEach(async () => {
    t = await tempDb();
    await seedDemo(t.db);
    user = expert(await addAnnotator(t.db, "gia", "expert"));
  });
  afterEach(() => t.cleanup());

  it("on a study that enables it: gold submits name the item, and the page says matched or not and what was expected", async () => {
    const study = await createAbStudy(t.db, {
      name: "with feedback",
      pool: "expert",
      config: { seed: 4, goldRate: 0.5, goldFeedback: true },
    });
    const gold = goldOf(study);
    const goldIds = [...gold].filter(([, g]) => g.isGold).map(([id]) => id);
    expect(goldIds.length).toBeGreaterThan(1);
    const [rightOne] = goldIds;
    const done = await answerAll(study, (itemId) => itemId === rightOne);
    expect(
      done
        .filter((d) => d.goldFeedback)
        .map((d) => d.itemId)
        .sort(),
    ).toEqual([...goldIds].sort());

    const page = async (gold?: number) =>
      await taskPage(t.db, study, done[0].itemId, user, url(study, done[0].itemId, gold));
    expect((await page(rightOne)).goldFeedback).toEqual({
      itemId: rightOne,
      matched: true,
      lines: [
        expect.stringMatching(
          new RegExp(
            `^Expected: conversation ${gold.get(rightOne)!.expected}, where .+ is the more reactive negotiator\\.$`,
          ),
        ),
        `You chose conversation ${gold.get(rightOne)!.expected}.`,
      ],
    });
    const wrongOne = goldIds[1];
    expect((await page(wrongOne)).goldFeedback).toMatchObject({ itemId: wrongOne, matched: false });
    expect((await page(wrongOne)).goldFeedback!.lines[1]).toBe(
      `You chose conversation ${gold.get(wrongOne)!.expected === "A" ? "B" : "A"}.`,
    );
    // A regular item, or no item named: no feedback.
    const regular = [...gold].find(([, g]) => !g.isGold)![0];
    expect((await page(regular)).goldFeedback).toBeNull();
    expect((await page()).goldFeedback).toBeNull();
  });

  it("makes a gold answer final where feedback is shown; regular answers and studies without it stay revisable", async () => {
    const revise = (studyId: number, itemId: number) => async () =>
      await saveTaskWork(t.db, studyId, itemId, user, {
        intent: "submit",
        payload: { kind: "ab-reactiveness", choice: goldOf(studyId).get(itemId)!.expected },
        clientToken: `gold-feedback-revision-${studyId}-${itemId}`,
        secondsOnTask: 5,
      });
    const withFeedback = await createAbStudy(t.db, {
      name: "final gold",
      pool: "expert",
      config: { seed: 4, goldRate: 0.5, goldFeedback: true },
    });
    await answerAll(withFeedback, () => false);
    const gold = goldOf(withFeedback);
    const goldId = [...gold].find(([, g]) => g.isGold)![0];
    const regularId = [...gold].find(([, g]) => !g.isGold)![0];
    await expect(revise(withFeedback, goldId)()).rejects.toThrow(/answer is final/);
    expect(await revise(withFeedback, regularId)()).toMatchObject({ done: "label" });

    const without = await createAbStudy(t.db, {
      name: "revisable",
      pool: "expert",
      config: { seed: 4, goldRate: 0.5 },
    });
    await answerAll(without, () => false);
    const otherGold = [...goldOf(without)].find(([, g]) => g.isGold)![0];
    expect(await revise(without, otherGold)()).toMatchObject({ done: "label" });
  });

  it("gives nothing about a gold item the annotator has not answered", async () => {
    const study = await createAbStudy(t.db, {
      name: "unanswered",
      pool: "expert",
      config: { seed: 4, goldRate: 0.5, goldFeedback: true },
    });
    const goldId = [...goldOf(study)].find(([, g]) => g.isGold)![0];
    const { itemId } = (await nextTask(t.db, study, user.id))!;
    if (itemId !== goldId)
      expect((await taskPage(t.db, study, itemId, user, url(study, itemId, goldId))).goldFeedback).toBeNull();
    const other = expert(await addAnnotator(t.db, "oli", "expert"));
    const lease = (await nextTask(t.db, study, other.id))!;
    expect(
      (await taskPage(t.db, study, lease.itemId, other, url(study, lease.itemId, goldId))).goldFeedback,
    ).toBeNull();
  });

  it("without the setting, gold items are indistinguishable and nothing is revealed", async () => {
    const study = await createAbStudy(t.db, {
      name: "no feedback",
      pool: "expert",
      config: { seed: 4, goldRate: 0.5 },
    });
    const gold = goldOf(study);
    const pageOf = async (itemId: number, asked?: number) => {
      const { firstShowing: _f, ...page } = await taskPage(t.db, study, itemId, user, url(study, itemId, asked));
      return page;
    };
    // As each item is first shown (asking for feedback on the gold item answered last, if any).
    const pages = new Map<number, Awaited<ReturnType<typeof pageOf>>>();
    let lastGold: number | undefined;
    const done = await answerAll(
      study,
      () => false,
      async (itemId) => {
        pages.set(itemId, await pageOf(itemId, lastGold));
        if (gold.get(itemId)!.isGold) lastGold = itemId;
      },
    );
    expect(done).toHaveLength(gold.size);
    const goldId = [...gold].find(([, g]) => g.isGold)![0];
    const regularId = [...gold].find(([, g]) => !g.isGold)![0];
    const [goldPage, regularPage] = [pages.get(goldId)!, pages.get(regularId)!];
    expect(Object.keys(goldPage).sort()).toEqual(Object.keys(regularPage).sort());
    expect(Object.keys(goldPage.task).sort()).toEqual(Object.keys(regularPage.task).sort());
    for (const page of pages.values()) {
      expect(page.goldFeedback).toBeNull();
      expect(JSON.stringify({ ...page, goldFeedback: undefined, study: undefined })).not.toMatch(/gold/i);
    }
    // Every submit, gold or not and answered wrongly, sends the annotator on without naming an item.
    expect(done.every((d) => d.goldFeedback === false)).toBe(true);
    expect((await pageOf(regularId, goldId)).goldFeedback).toBeNull();
  });

  it("is set by the New-study form's checkbox, and off when it is not ticked", async () => {
    const create = (ticked: boolean) => {
      const form = new FormData();
      const fields = { type: "ab-reactiveness", name: `ticked ${ticked}`, pool: "crowd", goldRate: "0.5" };
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      if (ticked) form.append("goldFeedback", "on");
      return withWriteLock(t.db, (db) => createStudyFromForm(db, form));
    };
    const feedbackOf = async (studyId: number) => parseStudyConfig((await getStudy(t.db, studyId)).config).goldFeedback;
    expect(await feedbackOf(await create(true))).toBe(true);
    expect(await feedbackOf(await create(false))).toBe(false);
  });

  it("names the gold item only on the study's own task pages", () => {
    expect(withFeedbackFor("/annotate/3/items/40", 3, 12)).toBe("/annotate/3/items/40?gold=12");
    expect(withFeedbackFor("/annotate/3/items/40?from=mine", 3, 12)).toBe("/annotate/3/items/40?from=mine&gold=12");
    expect(withFeedbackFor("/annotate/3/next?done=1", 3, 12)).toBe("/annotate/3/next?done=1");
    expect(withFeedbackFor("/crowd/qualify?study=3", 3, 12)).toBe("/crowd/qualify?study=3");
  });
});

describe("consensus gold feedback in words", () => {
  const scenario = {
    topics: [
      { id: "PRICE", name: "Price", options: [] },
      { id: "TERM", name: "Contract term", options: [] },
    ],
    parties: [],
  };
  const label = (price: number, term?: number) => ({
    kind: "consensus-snippet" as const,
    topics: {
      PRICE: { score: price, carriedForward: false, positions: {} },
      ...(term ? { TERM: { score: term, carriedForward: false, positions: {} } } : {}),
    },
  });
  const item = { itemId: 7, reference: { PRICE: 4, TERM: 1 } };

  it("says per topic what was expected, what was given and whether it counts", () => {
    expect(consensusGold.explain(label(5, 3), item, 1, scenario, "")).toEqual([
      "Price: expected agreement 4 (3–5 counts as a match); you gave 5 — a match.",
      "Contract term: expected agreement 1 (1–2 counts as a match); you gave 3 — not a match.",
    ]);
    expect(consensusGold.explain(label(4), item, 0, scenario, "")).toEqual([
      "Price: expected agreement 4; you gave 4 — a match.",
      "Contract term: expected agreement 1; you gave no score — not a match.",
    ]);
  });
});
