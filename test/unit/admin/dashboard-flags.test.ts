// The study dashboard's flags: open flags newest first with where to look, resolved ones hidden
// unless asked for, and Mark resolved checked on the server (the flag must be this study's and open).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveStudyFlag, studyFlagsPanel } from "../../../app/server/annotation/dashboard-flags.server.ts";
import { createAbStudy, createConsensusStudy } from "../../../app/server/annotation/studies.server.ts";
import { insertItemFlag } from "../../../app/server/models/item-flag.server.ts";
import { itemsOfStudy } from "../../../app/server/models/study.server.ts";
import { addAnnotator, seedDemo } from "../../../harness/annotation.ts";
import { expectServiceError } from "../../helpers/expect-service-error.ts";
import { tempDb } from "../../../harness/temp-db.ts";

describe("dashboard flags", async () => {
  const t = await tempDb();
  let study = 0;
  let other = 0;
  let flags: number[] = [];
  beforeAll(async () => {
    await seedDemo(t.db);
    study = await createConsensusStudy(t.db, { name: "flagged", pool: "expert", trajectories: 1 });
    other = await createAbStudy(t.db, { name: "other", pool: "crowd" });
    const ada = await addAnnotator(t.db, "flagger", "expert");
    const [first, second] = await itemsOfStudy(t.db, study);
    flags = [
      await insertItemFlag(t.db, {
        studyItemId: first.id,
        annotatorId: ada,
        comment: "The snippet cuts a sentence in half.",
      }),
      await insertItemFlag(t.db, {
        studyItemId: second.id,
        annotatorId: ada,
        comment: "Topic 2 is not discussed at all.",
      }),
    ];
    await insertItemFlag(t.db, {
      studyItemId: (await itemsOfStudy(t.db, other))[0].id,
      annotatorId: ada,
      comment: "A and B look identical.",
    });
  });
  afterAll(() => t.cleanup());

  it("lists the study's open flags newest first, with the annotator, the item's place and a link to its run at the snippet", async () => {
    const panel = await studyFlagsPanel(t.db, study, { showResolved: false });
    expect(panel.open).toBe(2);
    expect(panel.flags.map((f) => f.comment)).toEqual([
      "Topic 2 is not discussed at all.",
      "The snippet cuts a sentence in half.",
    ]);
    expect(panel.flags[1]).toMatchObject({ annotatorName: "flagger", position: 1 });
    expect(panel.flags[1].links[0].href).toMatch(/^\/runs\/[^#]+#turn-\d+$/);
    const ab = await studyFlagsPanel(t.db, other, { showResolved: false });
    expect(ab.flags[0].links.map((l) => l.text)).toEqual(["conversation A", "conversation B"]);
  });

  it("marks a flag resolved, hides it by default and shows it on request", async () => {
    await resolveStudyFlag(t.db, study, String(flags[0]));
    const hidden = await studyFlagsPanel(t.db, study, { showResolved: false });
    expect(hidden).toMatchObject({ open: 1, resolved: 1 });
    expect(hidden.flags.map((f) => f.id)).toEqual([flags[1]]);
    const shown = await studyFlagsPanel(t.db, study, { showResolved: true });
    expect(shown.flags.find((f) => f.id === flags[0])?.resolvedAt).toMatch(/^\d{4}-/);
  });

  it("refuses a flag of another study, one already resolved, and a missing id", async () => {
    const otherFlag = (await studyFlagsPanel(t.db, other, { showResolved: false })).flags[0].id;
    await expectServiceError(() => resolveStudyFlag(t.db, study, String(otherFlag)), 404, /does not exist/);
    await expectServiceError(() => resolveStudyFlag(t.db, study, String(flags[0])), 409, /already resolved/);
    await expectServiceError(() => resolveStudyFlag(t.db, study, null), 400, /Which flag/, "flagId");
    await expectServiceError(() => resolveStudyFlag(t.db, study, "1.5"), 400, /Which flag/, "flagId");
  });
});
