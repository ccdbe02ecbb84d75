// An A/B study from one or many simulator backbones (the Table 1 layout): the pairs it takes,
// the form's choices with pair counts, a clear error for an unknown backbone, and the
// dashboard's fidelity and alpha per backbone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alpha as npmAlpha } from "krippendorff";
import { createStudyFromForm, studiesOverview } from "../../../app/server/annotation/study-admin.server.ts";
import { createAbStudy } from "../../../app/server/annotation/studies.server.ts";
import { studyDashboardView } from "../../../app/server/annotation/dashboard-view.server.ts";
import { importBundleFiles } from "../../../app/server/bundle-store.server.ts";
import { withWriteLock } from "../../../app/server/http/write-lock.server.ts";
import { fidelityPairsBundle, fxPairId, probingBundle } from "../../fixtures/probing-fixture.ts";
import { addAnnotator } from "../../../harness/annotation.ts";
import { imperfectChooser, labelAbStudy } from "../../helpers/ab-labelling.ts";
import { expectServiceError } from "../../helpers/expect-service-error.ts";
import { tempDb } from "../../../harness/temp-db.ts";

describe("A/B studies by simulator backbone", async () => {
  const t = await tempDb();
  beforeAll(async () => {
    await importBundleFiles(t.db, [
      { file: "probe.json", text: JSON.stringify(probingBundle()) },
      { file: "ab.json", text: JSON.stringify(fidelityPairsBundle(["sim-a", "sim-b", "sim-c"], 6)) },
    ]);
  });
  afterAll(() => t.cleanup());

  const pairsOf = (studyId: number) =>
    (
      t.db.$client
        .prepare("SELECT ab_pair_id AS id FROM study_items WHERE study_id = ? ORDER BY ab_pair_id")
        .all(studyId) as { id: string }[]
    ).map((r) => r.id);

  it("offers each stored backbone with its pair count", async () => {
    expect((await studiesOverview(t.db)).choices["ab-reactiveness"]).toEqual({
      backbones: [
        { backbone: "sim-a", pairs: 6 },
        { backbone: "sim-b", pairs: 6 },
        { backbone: "sim-c", pairs: 6 },
      ],
    });
    // No consensus study yet: nothing to draw gold snippets from; no evaluation yet: no judge for an active study.
    expect((await studiesOverview(t.db)).choices["consensus-snippet"]).toEqual({ goldSources: [], judges: [] });
  });

  it("takes only the chosen backbones' pairs, and every pair when none is chosen", async () => {
    const two = await createAbStudy(t.db, { name: "a and c", pool: "expert", backbones: ["sim-a", "sim-c"] });
    expect(pairsOf(two)).toEqual(
      [0, 1, 2, 3, 4, 5].flatMap((i) => [fxPairId("sim-a", i), fxPairId("sim-c", i)]).sort(),
    );
    expect(pairsOf(await createAbStudy(t.db, { name: "all", pool: "expert" }))).toHaveLength(18);
    // With pair ids as well: the pairs that are both listed and from a chosen backbone.
    const both = await createAbStudy(t.db, {
      name: "both",
      pool: "expert",
      backbones: ["sim-b"],
      pairIds: [fxPairId("sim-a", 0), fxPairId("sim-b", 1)],
    });
    expect(pairsOf(both)).toEqual([fxPairId("sim-b", 1)]);
  });

  it("refuses an unknown backbone by name, and a choice that leaves no pair", async () => {
    await expectServiceError(
      async () => await createAbStudy(t.db, { name: "x", pool: "expert", backbones: ["sim-a", "gpt-nope"] }),
      400,
      /no stored A\/B pair was simulated by "gpt-nope"/,
      "backbones",
    );
    await expectServiceError(
      async () =>
        await createAbStudy(t.db, { name: "x", pool: "expert", backbones: ["sim-c"], pairIds: [fxPairId("sim-a", 0)] }),
      400,
      /None of the chosen pairs/,
      "backbones",
    );
    await expectServiceError(
      async () => await createAbStudy(t.db, { name: "x", pool: "expert", backbones: [] }),
      400,
      /at least one simulator backbone/,
      "backbones",
    );
  });

  it("reads the ticked backbones from the New-study form", async () => {
    const form = new FormData();
    for (const [k, v] of [
      ["type", "ab-reactiveness"],
      ["name", "from the form"],
      ["pool", "expert"],
      ["backbones", "sim-b"],
      ["backbones", "sim-c"],
    ])
      form.append(k, v);
    const id = await withWriteLock(t.db, (db) => createStudyFromForm(db, form));
    expect(pairsOf(id).every((p) => p.startsWith("fx-ab:sim-b:") || p.startsWith("fx-ab:sim-c:"))).toBe(true);
    expect(pairsOf(id)).toHaveLength(12);
    const bad = new FormData();
    for (const [k, v] of [
      ["type", "ab-reactiveness"],
      ["name", "bad"],
      ["pool", "expert"],
      ["backbones", "sim-z"],
    ])
      bad.append(k, v);
    await expect(withWriteLock(t.db, (db) => createStudyFromForm(db, bad))).rejects.toThrow(
      /Unknown simulator backbone.*"sim-z"/,
    );
  });

  it("shows fidelity and nominal alpha per backbone on the dashboard", async () => {
    const study = await createAbStudy(t.db, {
      name: "labelled",
      pool: "expert",
      labelsPerItem: 3,
      backbones: ["sim-a", "sim-b"],
    });
    const annotators: number[] = [];
    for (const name of ["x1", "x2", "x3"]) annotators.push(await addAnnotator(t.db, name, "expert"));
    expect(await labelAbStudy(t.db, study, annotators, imperfectChooser)).toBe(36);
    const view = await studyDashboardView(t.db, study, { excludeFlagged: false });
    const fidelity = view.fidelity as {
      fidelity: { backbone: string; pairs: number }[];
      alphaByBackbone: { backbone: string; pairableUnits: number; nominal: { result: { alpha: number } } }[];
    };
    expect(fidelity.fidelity.map((f) => [f.backbone, f.pairs])).toEqual([
      ["sim-a", 6],
      ["sim-b", 6],
    ]);
    // Pair i: annotator 0 right; 1 wrong when i % 3 = 1; 2 wrong when i odd. Same choices on both backbones.
    const higherOf = (i: number) => (i % 2 === 0 ? "A" : "B");
    const flip = (c: string) => (c === "A" ? "B" : "A");
    const matrix = [0, 1, 2].map((a) =>
      [0, 1, 2, 3, 4, 5].map((i) =>
        (a === 1 && i % 3 === 1) || (a === 2 && i % 2 === 1) ? flip(higherOf(i)) : higherOf(i),
      ),
    );
    for (const row of fidelity.alphaByBackbone) {
      expect(row.pairableUnits).toBe(6);
      expect(Math.abs(row.nominal.result.alpha - npmAlpha(matrix))).toBeLessThan(1e-9);
    }
  });
});
