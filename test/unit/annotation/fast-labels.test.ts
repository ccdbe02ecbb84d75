/**
 * Issue 28: labels faster than the study's minimum seconds on task. The pure selection, then the
 * dashboard over a real SQLite file: they are listed per annotator beside gold accuracy, and the
 * exclude switch takes them out of alpha (two experts who agree on every item give nominal α = 1
 * exactly once a third one's sub-second, always-contrary labels leave), through the page's cache
 * (its own key; a changed minimum moves the study's mark).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nextTask } from "../../../app/server/annotation/assignment.server.ts";
import { dashboardPage, freshPage } from "../../../app/server/annotation/dashboard-cache.server.ts";
import { setMinSecondsOnTask } from "../../../app/server/annotation/dashboard-settings.server.ts";
import { studyDashboard } from "../../../app/server/annotation/dashboard.server.ts";
import { createAbStudy, getStudy } from "../../../app/server/annotation/studies.server.ts";
import { submitLabel } from "../../../app/server/annotation/submit.server.ts";
import { parseStudyConfig } from "../../../app/domain/study-config.ts";
import { fastLabels, withoutFast } from "../../../app/domain/validation/fast-labels.ts";
import { addAnnotator, seedDemo } from "../../../harness/annotation.ts";
import { expectServiceError } from "../../helpers/expect-service-error.ts";
import { tempDb } from "../../../harness/temp-db.ts";

describe("fastLabels", () => {
  const labels = [
    { labelId: 1, itemId: 10, annotatorId: "7", secondsOnTask: 0 },
    { labelId: 2, itemId: 11, annotatorId: "7", secondsOnTask: 1.9 },
    { labelId: 3, itemId: 12, annotatorId: "7", secondsOnTask: 2 },
    { labelId: 4, itemId: 13, annotatorId: "7", secondsOnTask: null },
    { labelId: 5, itemId: 10, annotatorId: "8", secondsOnTask: 0.4 },
    { labelId: 6, itemId: 11, annotatorId: "9", secondsOnTask: 30 },
  ];

  it("takes labels strictly under the minimum, never untimed ones; quickest first; per annotator with their timed labels", () => {
    const fast = fastLabels(labels, 2);
    expect(fast.labels.map((l) => l.labelId)).toEqual([1, 5, 2]);
    expect(fast.annotators).toEqual([
      { annotatorId: "7", fast: 2, timed: 3, fastestSeconds: 0 },
      { annotatorId: "8", fast: 1, timed: 1, fastestSeconds: 0.4 },
    ]);
    expect(withoutFast(labels, fast).map((l) => l.labelId)).toEqual([3, 4, 6]);
  });

  it("a minimum of 0 calls nothing fast; a negative or missing minimum is refused", () => {
    expect(fastLabels(labels, 0)).toEqual({ minSeconds: 0, labels: [], annotators: [] });
    expect(() => fastLabels(labels, -1)).toThrow(/minSeconds must be a number ≥ 0, got -1/);
    expect(() => fastLabels(labels, Number.NaN)).toThrow(/minSeconds/);
  });

  it("the study setting defaults to 2 seconds", () => {
    expect(parseStudyConfig({}).minSecondsOnTask).toBe(2);
  });
});

describe("fast labels on the study dashboard", () => {
  let t: Awaited<ReturnType<typeof tempDb>>;
  let studyId: number;
  let quick = 0;
  let token = 0;

  /**
   * Every item of the study labelled by each annotator: the two careful ones alike, the quick one the other side, in
   * 0.5 s.
   */
  async function labelAll(careful: number[]) {
    const choices = new Map<number, "A" | "B">();
    for (const annotatorId of [...careful, quick]) {
      for (
        let lease = await nextTask(t.db, studyId, annotatorId);
        lease;
        lease = await nextTask(t.db, studyId, annotatorId)
      ) {
        if (!choices.has(lease.itemId)) choices.set(lease.itemId, choices.size % 2 === 0 ? "A" : "B");
        const agreed = choices.get(lease.itemId)!;
        const choice = annotatorId === quick ? (agreed === "A" ? "B" : "A") : agreed;
        const secondsOnTask = annotatorId === quick ? 0.5 : 12 + (token % 5);
        await submitLabel(t.db, {
          studyId,
          itemId: lease.itemId,
          annotatorId,
          payload: { kind: "ab-reactiveness", choice },
          clientToken: `fast-test-${String(++token).padStart(4, "0")}`,
          secondsOnTask,
        });
      }
    }
    return choices.size;
  }

  beforeEach(async () => {
    t = await tempDb();
    await seedDemo(t.db);
    studyId = await createAbStudy(t.db, {
      name: "fast",
      pool: "expert",
      labelsPerItem: 3,
      config: { seed: 9, bootstrapDraws: 200 },
    });
    quick = await addAnnotator(t.db, "quick", "expert");
  });
  afterEach(() => t.cleanup());

  it("lists the quick annotator's labels and, when asked, leaves them out of alpha", async () => {
    const careful = [await addAnnotator(t.db, "careful1", "expert"), await addAnnotator(t.db, "careful2", "expert")];
    const items = await labelAll(careful);
    expect(items).toBeGreaterThan(3);

    const all = await studyDashboard(t.db, studyId);
    expect(all.fast.minSeconds).toBe(2);
    expect(all.fast.annotators).toEqual([
      { annotatorId: String(quick), fast: items, timed: items, fastestSeconds: 0.5 },
    ]);
    expect(all.fast.labels.every((l) => l.annotatorId === String(quick) && l.secondsOnTask === 0.5)).toBe(true);
    expect(all.excludeFast).toBe(false);
    const abOf = (d: typeof all) => {
      if (d.kind !== "ab-reactiveness") throw new Error(`expected an A/B dashboard, got ${d.kind}`);
      return d.ab;
    };
    expect(abOf(all).overall).not.toBeNull();

    const without = await studyDashboard(t.db, studyId, { excludeFast: true });
    expect(without.excludeFast).toBe(true);
    // Listed still (the list is what the switch acts on); progress still counts every label.
    expect(without.fast).toEqual(all.fast);
    expect(without.progress).toEqual(all.progress);
    const nominal = (d: typeof all) => abOf(d).nominal.result;
    expect(nominal(all).alpha).toBeLessThan(0.5);
    // Two raters who agree on every item: nominal alpha is exactly 1.
    expect(nominal(without).alpha).toBe(1);
  });

  it("the cached page keeps the two settings apart, and a new minimum moves the study's mark", async () => {
    await labelAll([await addAnnotator(t.db, "careful1", "expert"), await addAnnotator(t.db, "careful2", "expert")]);
    const alphaOf = async (excludeFast: boolean) =>
      (await dashboardPage(t.db, studyId, { excludeFlagged: false, excludeFast })).view.agreement.levels[0].alpha;
    const [withFast, withoutFastAlpha] = [await alphaOf(false), await alphaOf(true)];
    expect(withoutFastAlpha).toBe(1);
    expect(withFast).toBeLessThan(0.5);
    expect(await alphaOf(true)).toBe(withoutFastAlpha); // served again from its own entry
    expect(
      (await freshPage(t.db, studyId, { excludeFlagged: false, excludeFast: true })).view.agreement.levels[0].alpha,
    ).toBe(1);

    expect(await setMinSecondsOnTask(t.db, studyId, "0.25")).toBe(0.25);
    expect(parseStudyConfig((await getStudy(t.db, studyId)).config).minSecondsOnTask).toBe(0.25);
    const page = await dashboardPage(t.db, studyId, { excludeFlagged: false, excludeFast: true });
    expect(page.view.fast.labels).toEqual([]);
    expect(page.view.agreement.levels[0].alpha).toBe(withFast);
  });

  it("refuses a minimum that is not a number of seconds from 0 to 3600, naming the field", async () => {
    for (const bad of ["", "two", "-1", "3601", null])
      await expectServiceError(
        async () => await setMinSecondsOnTask(t.db, studyId, bad),
        400,
        /minimum seconds on task is a number from 0 to 3600/,
        "minSecondsOnTask",
      );
  });
});
