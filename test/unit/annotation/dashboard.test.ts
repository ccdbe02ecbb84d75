/**
 * The dashboard's figures equal the statistics engine's output on the same labels. The seeded
 * demo studies are read back here with plain SQL — a second path, independent of the dashboard's
 * loaders and of the validation analytics — and fed straight to krippendorffAlpha and pearson.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alpha as npmAlpha } from "krippendorff";
import { krippendorffAlpha, pearson } from "../../../app/domain/stats/index.ts";
import { seedDemoStudies } from "../../../demo/studies.ts";
import { studyDashboard } from "../../../app/server/annotation/dashboard.server.ts";
import { seedDemo } from "../../../harness/annotation.ts";
import { tempDb } from "../../../harness/temp-db.ts";

interface ScoreRow {
  itemId: number;
  annotatorId: number;
  runId: string;
  position: number;
  endTurn: number;
  isLast: number;
  payload: string;
}

const EXACT = 1e-12;

describe("study dashboard against the statistics engine", async () => {
  const t = await tempDb();
  let expertStudy = 0;
  let crowdStudy = 0;
  let abStudy = 0;

  beforeAll(async () => {
    await seedDemo(t.db);
    await seedDemoStudies(t.db);
    const ids = t.db.$client.prepare(`SELECT id, type, pool FROM studies ORDER BY id`).all() as {
      id: number;
      type: string;
      pool: string;
    }[];
    expertStudy = ids.find((s) => s.type === "consensus-snippet" && s.pool === "expert")!.id;
    crowdStudy = ids.find((s) => s.type === "consensus-snippet" && s.pool === "crowd")!.id;
    abStudy = ids.find((s) => s.type === "ab-reactiveness")!.id;
  });
  afterAll(() => t.cleanup());

  /** Latest revision of every non-gold label in a study, flattened to (item, topic, annotator, score). */
  function scores(studyId: number) {
    const rows = t.db.$client
      .prepare(
        `SELECT i.id AS itemId, l.annotator_id AS annotatorId, s.run_id AS runId, s.position, s.end_turn AS endTurn, s.is_last AS isLast, r.payload
         FROM labels l JOIN study_items i ON i.id = l.study_item_id JOIN snippets s ON s.id = i.snippet_id
         JOIN label_revisions r ON r.label_id = l.id
         WHERE i.study_id = ? AND i.is_gold = 0 AND r.revision = (SELECT max(revision) FROM label_revisions WHERE label_id = l.id)`,
      )
      .all(studyId) as ScoreRow[];
    return rows.flatMap((row) =>
      Object.entries((JSON.parse(row.payload) as { topics: Record<string, { score: number }> }).topics).map(
        ([topicId, t]) => ({ ...row, topicId, score: t.score }),
      ),
    );
  }

  function alphaByHand(studyId: number, level: "interval" | "ordinal") {
    const all = scores(studyId);
    const raters = [...new Set(all.map((s) => s.annotatorId))];
    const units = [...new Set(all.map((s) => `${s.itemId}|${s.topicId}`))];
    const matrix = raters.map((r) =>
      units.map((u) => all.find((s) => s.annotatorId === r && `${s.itemId}|${s.topicId}` === u)?.score ?? null),
    );
    // Only labelled units: empty columns add no pairs, so alpha is the same as over every item.
    return { result: krippendorffAlpha(matrix, level), raters: raters.length };
  }

  it("alpha (interval and ordinal) per pool", async () => {
    for (const studyId of [expertStudy, crowdStudy]) {
      const d = await studyDashboard(t.db, studyId);
      if (d.kind !== "consensus-snippet") throw new Error("expected a consensus dashboard");
      for (const level of ["interval", "ordinal"] as const) {
        const hand = alphaByHand(studyId, level);
        expect(hand.result.alpha).not.toBeNull();
        expect(d.agreement[level].result.alpha).toBeCloseTo(hand.result.alpha as number, 12);
        expect(Math.abs((d.agreement[level].result.alpha as number) - (hand.result.alpha as number))).toBeLessThan(
          EXACT,
        );
        expect(d.agreement.raters).toHaveLength(hand.raters);
      }
    }
  });

  it("alignment rows: evaluator, per-turn baseline and crowd mean against the expert mean, trajectory and outcome level", async () => {
    const d = await studyDashboard(t.db, expertStudy);
    if (d.kind !== "consensus-snippet" || !d.alignment) throw new Error("expected an alignment table");

    // Reference: expert mean per (run, snippet position, topic).
    const expert = scores(expertStudy);
    const crowd = scores(crowdStudy);
    const key = (s: { runId: string; position: number; topicId: string }) => `${s.runId}|${s.position}|${s.topicId}`;
    const groups = new Map<
      string,
      { runId: string; topicId: string; endTurn: number; isLast: number; expert: number[]; crowd: number[] }
    >();
    for (const s of expert) {
      const g = groups.get(key(s)) ?? {
        runId: s.runId,
        topicId: s.topicId,
        endTurn: s.endTurn,
        isLast: s.isLast,
        expert: [],
        crowd: [],
      };
      g.expert.push(s.score);
      groups.set(key(s), g);
    }
    for (const s of crowd) groups.get(key(s))?.crowd.push(s.score);
    const units = [...groups.values()];
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    const storedScore = (method: string, runId: string, topicId: string, turn: number) =>
      (
        t.db.$client
          .prepare(
            `SELECT s.score FROM evaluations e JOIN evaluation_scores s ON s.evaluation_id = e.id WHERE e.method = ? AND e.run_id = ? AND s.topic_id = ? AND s.turn_id = ?`,
          )
          .get(method, runId, topicId, turn) as { score: number } | undefined
      )?.score ?? null;

    const methods: [string, (u: (typeof units)[number]) => number | null][] = [
      ["evaluator:demo-judge", (u) => storedScore("topic-localized", u.runId, u.topicId, u.endTurn)],
      [
        "baseline",
        (u) => {
          const a = storedScore("per-turn", u.runId, u.topicId, u.endTurn);
          return a === null ? null : 1 + 4 * a;
        },
      ],
      ["crowd", (u) => (u.crowd.length ? mean(u.crowd) : null)],
    ];
    for (const [rowKey, valueOfUnit] of methods) {
      const row = d.alignment.rows.find((r) => r.key === rowKey);
      expect(row, rowKey).toBeDefined();
      for (const level of ["trajectory", "outcome"] as const) {
        const chosen = units
          .filter((u) => (level === "outcome" ? u.isLast === 1 : true))
          .filter((u) => valueOfUnit(u) !== null);
        const hand = pearson(
          chosen.map((u) => mean(u.expert)),
          chosen.map((u) => valueOfUnit(u) as number),
        );
        expect(hand.r, `${rowKey} ${level}`).not.toBeNull();
        expect(row![level].n).toBe(hand.n);
        expect(Math.abs((row![level].r as number) - (hand.r as number))).toBeLessThan(EXACT);
        expect(Math.abs((row![level].p as number) - (hand.p as number))).toBeLessThan(EXACT);
      }
    }
  });

  it("progress counts and median seconds per annotator", async () => {
    const d = await studyDashboard(t.db, expertStudy);
    const perItem = t.db.$client
      .prepare(
        `SELECT i.id, (SELECT count(*) FROM labels l WHERE l.study_item_id = i.id) AS n FROM study_items i WHERE i.study_id = ?`,
      )
      .all(expertStudy) as { id: number; n: number }[];
    expect(d.progress.complete).toBe(perItem.filter((r) => r.n >= 2).length);
    expect(d.progress.open).toBe(perItem.filter((r) => r.n === 0).length);
    for (const a of d.progress.annotators) {
      const secs = (
        t.db.$client
          .prepare(
            `SELECT r.seconds_on_task AS s FROM labels l JOIN label_revisions r ON r.label_id = l.id JOIN study_items i ON i.id = l.study_item_id WHERE i.study_id = ? AND l.annotator_id = ? ORDER BY s`,
          )
          .all(expertStudy, Number(a.annotatorId)) as { s: number }[]
      ).map((r) => r.s);
      const mid =
        secs.length % 2 ? secs[(secs.length - 1) / 2] : (secs[secs.length / 2 - 1] + secs[secs.length / 2]) / 2;
      expect(a.labels).toBe(secs.length);
      expect(a.medianSeconds).toBe(mid);
    }
  });

  it("A/B: fidelity per simulator backbone by majority, gold accuracy and the flagged worker", async () => {
    const d = await studyDashboard(t.db, abStudy);
    if (d.kind !== "ab-reactiveness") throw new Error("expected an A/B dashboard");
    const rows = t.db.$client
      .prepare(
        `SELECT i.id AS itemId, i.is_gold AS isGold, p.level_a AS a, p.level_b AS b, ra.simulator_backbone AS backbone, r.payload, l.annotator_id AS annotatorId
         FROM labels l JOIN study_items i ON i.id = l.study_item_id JOIN ab_pairs p ON p.id = i.ab_pair_id JOIN runs ra ON ra.id = p.run_a_id
         JOIN label_revisions r ON r.label_id = l.id WHERE i.study_id = ?`,
      )
      .all(abStudy) as {
      itemId: number;
      isGold: number;
      a: number;
      b: number;
      backbone: string;
      payload: string;
      annotatorId: number;
    }[];
    const byItem = new Map<number, typeof rows>();
    for (const r of rows) byItem.set(r.itemId, [...(byItem.get(r.itemId) ?? []), r]);
    const tally = new Map<string, { pairs: number; correct: number }>();
    for (const labels of byItem.values()) {
      if (labels[0].isGold) continue;
      const votesA = labels.filter((l) => JSON.parse(l.payload).choice === "A").length;
      const majority = votesA * 2 > labels.length ? "A" : votesA * 2 < labels.length ? "B" : null;
      const higher = labels[0].a > labels[0].b ? "A" : "B";
      const entry = tally.get(labels[0].backbone) ?? { pairs: 0, correct: 0 };
      entry.pairs++;
      if (majority === higher) entry.correct++;
      tally.set(labels[0].backbone, entry);
    }
    expect(d.ab.fidelity.map((f) => [f.backbone, f.pairs, f.correct])).toEqual(
      [...tally.entries()].sort().map(([b, e]) => [b, e.pairs, e.correct]),
    );
    // Nominal alpha per backbone (the Table 1 layout), against the krippendorff package on a raters × pairs matrix
    // built from the SQL rows.
    const backbones = [...tally.keys()].sort();
    expect(backbones).toEqual(["demo-sim-alpha", "demo-sim-beta"]);
    for (const backbone of backbones) {
      const own = rows.filter((r) => r.backbone === backbone && !r.isGold);
      const items = [...new Set(own.map((r) => r.itemId))];
      const raters = [...new Set(own.map((r) => r.annotatorId))];
      const choiceOf = (item: number, rater: number) => {
        const row = own.find((r) => r.itemId === item && r.annotatorId === rater);
        return row ? (JSON.parse(row.payload) as { choice: string }).choice : undefined;
      };
      const matrix = raters.map((rater) => items.map((item) => choiceOf(item, rater)));
      const shown = d.ab.alphaByBackbone.find((a) => a.backbone === backbone)!;
      expect(Math.abs((shown.nominal.result.alpha as number) - npmAlpha(matrix))).toBeLessThan(1e-9);
    }
    // The careless demo worker fails all five gold pairs and is the one flagged.
    const careless = String(
      (t.db.$client.prepare(`SELECT id FROM annotators WHERE external_id = 'DEMOW3'`).get() as { id: number }).id,
    );
    expect(d.flagged).toEqual([careless]);
    expect(d.gold.find((g) => g.annotatorId === careless)).toMatchObject({ attempted: 5, passed: 0 });
    expect(d.abWithoutFlagged?.raters).not.toContain(careless);
  });
});
