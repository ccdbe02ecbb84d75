/**
 * The cached dashboard page equals a fresh computation to 1e-12 (consensus and A/B studies, with
 * and without the flagged annotators), and every write the figures depend on — a new label, a
 * revised label, an exclusion, a gold change, a write by another connection — makes the next
 * request recompute and serve the new figures. Real SQLite files; no timings.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import { nextTask } from "../../../app/server/annotation/assignment.server.ts";
import {
  dashboardCacheStats,
  dashboardPage,
  freshPage,
  type DashboardPage,
} from "../../../app/server/annotation/dashboard-cache.server.ts";
import { setCountSurplus } from "../../../app/server/annotation/dashboard-settings.server.ts";
import { submitLabel } from "../../../app/server/annotation/submit.server.ts";
import { openDatabase } from "../../../app/server/db.server.ts";
import { dashboardMark, leaseMark } from "../../../app/server/models/data-version.server.ts";
import { addAnnotator, validConsensusLabel } from "../../../harness/annotation.ts";
import { differences } from "../../helpers/close-to.ts";
import { demoStudiesDb } from "../../helpers/demo-studies-db.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { importBundleFiles } from "../../../app/server/bundle-store.server.ts";
import { fixtureBundle } from "../../fixtures/bundle-fixture.ts";

const EXACT = 1e-12;

describe("dashboard cache", () => {
  let t: Awaited<ReturnType<typeof demoStudiesDb>>;
  let expert = 0;
  let crowd = 0;
  let ab = 0;

  beforeAll(async () => {
    t = await demoStudiesDb();
    const studies = await t.db.select().from(schema.studies);
    expert = studies.find((s) => s.type === "consensus-snippet" && s.pool === "expert")!.id;
    crowd = studies.find((s) => s.type === "consensus-snippet" && s.pool === "crowd")!.id;
    ab = studies.find((s) => s.type === "ab-reactiveness")!.id;
  });
  afterAll(() => t.cleanup());

  const data = (page: DashboardPage) => ({ view: page.view, channels: page.channels, comments: page.labelComments });
  const options = (excludeFlagged: boolean, reference: string | null = null) => ({ excludeFlagged, reference });

  /** The page served now (from the cache when the mark stands) and whether it was a hit. */
  async function served(studyId: number, excludeFlagged = false) {
    const before = dashboardCacheStats(t.db);
    const page = await dashboardPage(t.db, studyId, options(excludeFlagged));
    const after = dashboardCacheStats(t.db);
    return { page, recomputed: after.misses > before.misses };
  }

  async function expectFresh(studyId: number, excludeFlagged = false) {
    const cached = (await served(studyId, excludeFlagged)).page;
    expect(differences(data(cached), data(await freshPage(t.db, studyId, options(excludeFlagged))), EXACT)).toEqual([]);
    return cached;
  }

  it("serves every study, both ways of treating flagged annotators, equal to a fresh computation, and from the cache the second time", async () => {
    for (const studyId of [expert, crowd, ab]) {
      for (const excludeFlagged of [false, true]) {
        const first = await served(studyId, excludeFlagged);
        const second = await served(studyId, excludeFlagged);
        expect(second.recomputed).toBe(false);
        expect(differences(data(second.page), data(first.page), 0)).toEqual([]);
        expect(
          differences(data(second.page), data(await freshPage(t.db, studyId, options(excludeFlagged))), EXACT),
        ).toEqual([]);
      }
    }
    const cachedCharts = await (await served(expert)).page.charts;
    expect(cachedCharts).toEqual(await (await freshPage(t.db, expert, options(false))).charts);
    expect(cachedCharts.trend?.svg).toMatch(/^<svg/);
  });

  it("computes an entry once when two requests miss it at once: the second shares the first's computation", async () => {
    const both = { excludeFlagged: false, excludeFast: true };
    const before = dashboardCacheStats(t.db);
    const [first, second] = await Promise.all([dashboardPage(t.db, crowd, both), dashboardPage(t.db, crowd, both)]);
    const after = dashboardCacheStats(t.db);
    expect(after.misses - before.misses, "the figures and their view, once each").toBe(2);
    expect(after.hits - before.hits, "the second request found the figures being computed").toBe(1);
    expect(after.leaseReads - before.leaseReads).toBe(1);
    expect(second.view).toBe(first.view);
    expect(differences(data(first), data(await freshPage(t.db, crowd, both)), EXACT)).toEqual([]);
  });

  it("keeps the flagged-annotators switch as its own entry", async () => {
    await served(ab, false);
    await served(ab, true);
    expect((await served(ab, false)).recomputed).toBe(false);
    expect((await served(ab, true)).recomputed).toBe(false);
    const all = (await served(ab, false)).page.view;
    const without = (await served(ab, true)).page.view;
    expect(all.flagged.length).toBeGreaterThan(0);
    expect(without.excludeFlagged).toBe(true);
    expect(differences(all.fidelity, without.fidelity, EXACT)).not.toEqual([]);
  });

  it("a backbone comparison reference is a view entry of its own over the same figures", async () => {
    const backbones =
      ((await served(expert)).page.view.alignment as { rows: { backbone: string }[] } | null)?.rows.map(
        (r) => r.backbone,
      ) ?? [];
    for (const reference of backbones.slice(0, 2)) {
      const page = await dashboardPage(t.db, expert, options(false, reference));
      expect(differences(data(page), data(await freshPage(t.db, expert, options(false, reference))), EXACT)).toEqual(
        [],
      );
    }
  });

  describe("invalidation", () => {
    let ada = 0;
    let item = 0;
    const submit = async (score: number, token: string, comment?: string) =>
      submitLabel(t.db, {
        studyId: expert,
        itemId: item,
        annotatorId: ada,
        payload: await validConsensusLabel(t.db, item, score),
        clientToken: token,
        secondsOnTask: 12,
        comment,
      });

    beforeAll(async () => {
      ada = await addAnnotator(t.db, "cache-expert", "expert");
      item = (await nextTask(t.db, expert, ada))!.itemId;
    });

    /**
     * After `write`, the next request recomputes, `figure` of the served view changed, and it equals a fresh
     * computation.
     */
    async function expectChange(
      studyId: number,
      write: () => Promise<unknown>,
      figure: (view: DashboardPage["view"]) => unknown,
    ) {
      const before = (await served(studyId)).page;
      await write();
      const after = await served(studyId);
      expect(after.recomputed).toBe(true);
      expect(differences(await figure(after.page.view), await figure(before.view), EXACT)).not.toEqual([]);
      await expectFresh(studyId);
    }

    it("a new label changes the served agreement", async () => {
      await expectChange(
        expert,
        () => submit(1, "cache-token-0001"),
        (v) => v.agreement,
      );
    });

    it("a revised label changes it again", async () => {
      await expectChange(
        expert,
        () => submit(5, "cache-token-0002"),
        (v) => v.agreement,
      );
    });

    it("a comment with a revision shows in the served label comments", async () => {
      const before = (await served(expert)).page.labelComments;
      await submit(4, "cache-token-comment-1", "a comment the cached page must show");
      const after = await served(expert);
      expect(after.recomputed).toBe(true);
      expect(after.page.labelComments).not.toEqual(before);
      expect(after.page.labelComments.rows[0].comment).toBe("a comment the cached page must show");
      await expectFresh(expert);
    });

    it("a gold change (an item taken out of the gold set) moves gold accuracy", async () => {
      const goldItem = (await t.db.select().from(schema.studyItems).where(eq(schema.studyItems.studyId, ab))).find(
        (i) => i.isGold,
      )!;
      // An A/B gold answer follows the pair's levels, so the change is the item leaving the gold set.
      await expectChange(
        ab,
        () => t.db.update(schema.studyItems).set({ isGold: false }).where(eq(schema.studyItems.id, goldItem.id)),
        (v) => v.gold,
      );
    });

    it("an exclusion written by another connection (a label taken out of the statistics as surplus), then counting surplus again", async () => {
      const before = (await served(crowd)).page;
      const other = await openDatabase(t.path);
      try {
        const labelId = (
          other.$client
            .prepare(
              `SELECT l.id FROM labels l JOIN study_items i ON i.id = l.study_item_id WHERE i.study_id = ? AND l.status = 'counted' AND i.is_gold = 0 ORDER BY l.id LIMIT 1`,
            )
            .get(crowd) as { id: number }
        ).id;
        other.$client.prepare(`UPDATE labels SET status = 'surplus' WHERE id = ?`).run(labelId);
      } finally {
        other.$client.close();
      }
      const excluded = await served(crowd);
      expect(excluded.recomputed).toBe(true);
      expect(excluded.page.view.labelStatus.surplus).toBe(before.view.labelStatus.surplus + 1);
      expect(differences(excluded.page.view.agreement, before.view.agreement, EXACT)).not.toEqual([]);
      await expectFresh(crowd);

      await setCountSurplus(t.db, crowd, "true");
      const counted = await served(crowd);
      expect(counted.recomputed).toBe(true);
      expect(differences(counted.page.view.agreement, before.view.agreement, EXACT)).toEqual([]);
      await expectFresh(crowd);
    });

    it("a crowd label on the same snippets moves the expert study's mark (its alignment reads them); a lease does not", async () => {
      const mark = await dashboardMark(t.db, expert);
      const worker = await addAnnotator(t.db, "cache-crowd", "crowd");
      expect(await dashboardMark(t.db, expert)).not.toBe(mark); // a new account: names are global
      const afterAccount = await dashboardMark(t.db, expert);
      const crowdMark = await dashboardMark(t.db, crowd);
      const lease = (await nextTask(t.db, crowd, worker))!;
      expect(await dashboardMark(t.db, expert)).toBe(afterAccount);
      expect(await dashboardMark(t.db, crowd)).toBe(crowdMark);
      await submitLabel(t.db, {
        studyId: crowd,
        itemId: lease.itemId,
        annotatorId: worker,
        payload: await validConsensusLabel(t.db, lease.itemId, 2),
        clientToken: "cache-token-0003",
        secondsOnTask: 20,
      });
      expect(await dashboardMark(t.db, expert)).not.toBe(afterAccount);
      await expectFresh(expert);
    });

    it("leases move the lease mark: progress follows a new lease while the figures stay cached", async () => {
      await served(expert);
      const reader = await addAnnotator(t.db, "cache-reader", "expert");
      await served(expert); // the new account moved the global mark
      const kept = dashboardCacheStats(t.db).leaseReads;
      expect((await served(expert)).recomputed).toBe(false);
      expect(dashboardCacheStats(t.db).leaseReads, "no write: the lease parts come from the cache").toBe(kept);
      const mark = await leaseMark(t.db, expert);
      await nextTask(t.db, expert, reader);
      expect(await leaseMark(t.db, expert)).not.toBe(mark);
      const after = await served(expert);
      expect(after.recomputed).toBe(false);
      expect(dashboardCacheStats(t.db).leaseReads).toBe(kept + 1);
      expect(after.page.view.names[String(reader)]).toBe("cache-reader");
      await expectFresh(expert);
    });

    it("a lease that ends by the clock (no write) makes the next request read the lease parts again", async () => {
      const walker = await addAnnotator(t.db, "cache-walker", "expert");
      const lease = (await nextTask(t.db, expert, walker))!;
      const progressOf = (page: DashboardPage) =>
        page.view.progress.annotators.find((a) => a.annotatorId === String(walker))?.activeLeases ?? 0;
      const before = new Date(Date.parse(lease.leaseExpiresAt) - 1000);
      expect(progressOf(await dashboardPage(t.db, expert, options(false), before))).toBe(1);
      const reads = dashboardCacheStats(t.db).leaseReads;
      expect(progressOf(await dashboardPage(t.db, expert, options(false), before))).toBe(1);
      expect(dashboardCacheStats(t.db).leaseReads).toBe(reads);
      const later = await dashboardPage(
        t.db,
        expert,
        options(false),
        new Date(Date.parse(lease.leaseExpiresAt) + 1000),
      );
      expect(dashboardCacheStats(t.db).leaseReads).toBe(reads + 1);
      expect(progressOf(later)).toBe(0);
    });
  });

  // Turns, snippets and scores fire no insert trigger (migration 0014): they only ever arrive with
  // their run or evaluation, whose own trigger moves the mark.
  it("an imported bundle moves the global mark through its runs and evaluations; a turn's later update moves it too", async () => {
    const fresh = await tempDb();
    try {
      const marks = [await dashboardMark(fresh.db, 1)];
      await importBundleFiles(fresh.db, [{ file: "fixture.json", text: JSON.stringify(fixtureBundle()) }]);
      marks.push(await dashboardMark(fresh.db, 1));
      await fresh.db.update(schema.turns).set({ utterance: "edited" }).where(eq(schema.turns.turnId, 1));
      marks.push(await dashboardMark(fresh.db, 1));
      expect(new Set(marks).size).toBe(3);
    } finally {
      await fresh.cleanup();
    }
  });
});
