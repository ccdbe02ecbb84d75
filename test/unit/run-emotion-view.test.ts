// The run page's loader data for emotion, from a real SQLite file: the charts per trajectory,
// the failed-party note, and the consensus list left to the consensus evaluators.
import { afterEach, describe, expect, it } from "vitest";
import { importBundleFiles } from "../../app/server/bundle-store.server.ts";
import { getRunEmotion, getRunView } from "../../app/server/catalog.server.ts";
import { tempDb } from "../../harness/temp-db.ts";
import { emotionFixtureBundle, JUDGE_BACKBONE } from "../fixtures/emotion-fixture.ts";
import { fixtureBundle } from "../fixtures/bundle-fixture.ts";

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

async function dbWith(bundle: object) {
  const t = await tempDb();
  cleanups.push(t.cleanup);
  await importBundleFiles(t.db, [{ file: "emotion.json", text: JSON.stringify(bundle) }]);
  return t.db;
}

describe("run page emotion data", () => {
  it("draws the self-report of a run whose parties reported emotion, reasons as hover titles", async () => {
    const db = await dbWith(emotionFixtureBundle());
    const view = (await getRunView(db, "fx-1:med"))!;
    const charts = await getRunEmotion(db, view);
    expect(charts.map((c) => [c.key, c.label, c.failedParties])).toEqual([["self", "self-report", []]]);
    const svg = charts[0].chart.svg;
    expect(svg.match(/aria-roledescription="line mark"/g)).toHaveLength(2);
    expect(svg).toContain(
      "<title>Buyer, turn 4: 58 — Buyer exhales: the mediator finally named the lantern deadline</title>",
    );
    expect(svg).toContain("Seller relaxes &lt;cautiously&gt; &amp; &quot;mostly&quot; agrees");
    expect(svg).toContain("<title>mediator, turn 3</title>");
    // The dialogue's turns carry no emotion: reasons show only in the chart.
    expect(view.turns.every((t) => !("emotion" in t) && !("emotionReason" in t))).toBe(true);
  });

  it("draws a judged trajectory, names the party the judge failed on, and keeps it out of the consensus list", async () => {
    const db = await dbWith(emotionFixtureBundle());
    const view = (await getRunView(db, "fx-1:unmed"))!;
    expect(view.evaluations).toEqual([]);
    const charts = await getRunEmotion(db, view);
    expect(charts.map((c) => [c.label, c.failedParties])).toEqual([[`judge ${JUDGE_BACKBONE}`, ["Seller"]]]);
    expect(charts[0].chart.svg.match(/aria-roledescription="line mark"/g)).toHaveLength(1);
    expect(charts[0].chart.svg).toContain("Buyer hardens");
    expect(charts[0].chart.data.columns).toContain("reason");
    // The mediated run's consensus evaluators are untouched.
    expect((await getRunView(db, "fx-1:med"))!.evaluations.map((e) => e.method)).toEqual([
      "topic-localized",
      "per-turn",
    ]);
  });

  it("has no charts for a run without emotion", async () => {
    const db = await dbWith(fixtureBundle());
    expect(await getRunEmotion(db, (await getRunView(db, "fx-1:med"))!)).toEqual([]);
  });
});
