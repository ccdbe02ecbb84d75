// The New-study form's validation: messages in the form's terms at the form's field names, the gold
// source checked whatever the gold rate, and the item-count preview that creates nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createStudyFromForm,
  previewStudyFromForm,
  studiesOverview,
} from "../../../app/server/annotation/study-admin.server.ts";
import { createAbStudy, createConsensusStudy } from "../../../app/server/annotation/studies.server.ts";
import { ServiceError } from "../../../app/server/http/errors.server.ts";
import { withWriteLock } from "../../../app/server/http/write-lock.server.ts";
import { seedDemo } from "../../../harness/annotation.ts";
import { tempDb } from "../../../harness/temp-db.ts";

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries({
    type: "consensus-snippet",
    name: "A study",
    pool: "expert",
    trajectories: "1",
    ...fields,
  }))
    f.append(k, v);
  return f;
}

async function refusal(fields: Record<string, string>): Promise<ServiceError> {
  const t0 = await withWriteLock(db(), (db) => createStudyFromForm(db, form(fields))).then(
    () => null,
    (err: unknown) => err,
  );
  expect(t0).toBeInstanceOf(ServiceError);
  return t0 as ServiceError;
}

const t = await tempDb();
const db = () => t.db;
const studyCount = () => (t.db.$client.prepare("SELECT count(*) AS n FROM studies").get() as { n: number }).n;

describe("the New-study form's validation", () => {
  let consensus = 0;
  let ab = 0;
  beforeAll(async () => {
    await seedDemo(t.db);
    consensus = await createConsensusStudy(t.db, { name: "gold source", pool: "expert", trajectories: 1 });
    ab = await createAbStudy(t.db, { name: "an A/B study", pool: "crowd" });
  });
  afterAll(() => t.cleanup());

  it("refuses a gold study that does not exist, even at gold rate 0, in the user's terms at its field", async () => {
    for (const goldRate of ["0", "0.5"]) {
      const err = await refusal({ goldFromStudyId: "999", goldRate });
      expect(err.problems).toEqual([{ path: "goldFromStudyId", message: "Study 999 does not exist" }]);
    }
  });

  it("refuses an A/B study as the gold source, saying what gold comes from", async () => {
    const err = await refusal({ goldFromStudyId: String(ab) });
    expect(err.problems).toEqual([
      {
        path: "goldFromStudyId",
        message: `Study ${ab} is an A/B reactiveness study; gold snippets come from a consensus study`,
      },
    ]);
    expect(err.message).not.toMatch(/goldFromStudyId/);
  });

  it("names every bad field by the form's own name, with messages a person reads", async () => {
    const err = await refusal({
      name: "   ",
      trajectories: "",
      goldRate: "2",
      leaseMinutes: "0",
      labelsPerItem: "1.5",
    });
    expect(err.message).toBe("The study was not created: 5 fields need attention");
    expect(Object.fromEntries(err.problems.map((p) => [p.path, p.message]))).toEqual({
      name: "give the study a name",
      trajectories: "enter a number",
      goldRate: "at most 1",
      leaseMinutes: "at least 1",
      labelsPerItem: "enter a whole number",
    });
  });

  it("offers the consensus studies, and only those, as gold sources", async () => {
    const sources = (await studiesOverview(t.db)).choices["consensus-snippet"].goldSources ?? [];
    expect(sources.map((s) => s.id)).toContain(consensus);
    expect(sources.map((s) => s.id)).not.toContain(ab);
  });

  it("previews the item count the form would create, creating nothing", async () => {
    const before = studyCount();
    const preview = await withWriteLock(t.db, (db) => previewStudyFromForm(db, form({ trajectories: "2" })));
    expect(studyCount()).toBe(before);
    const id = await withWriteLock(t.db, (db) => createStudyFromForm(db, form({ trajectories: "2" })));
    const created = (
      t.db.$client.prepare("SELECT count(*) AS n FROM study_items WHERE study_id = ?").get(id) as { n: number }
    ).n;
    expect(preview).toEqual({ items: created, gold: 0, uploadIgnored: false });
    await expect(withWriteLock(t.db, (db) => previewStudyFromForm(db, form({ name: "" })))).rejects.toThrow(
      /not created/,
    );
  });
});
