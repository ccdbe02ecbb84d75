/** An annotator's task settings: auto-advance off by default, stored per annotator, a malformed value refused. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { saveTaskSettings, taskSettings } from "../../../app/server/annotation/annotator-settings.server.ts";
import { addAnnotator } from "../../../harness/annotation.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { expectServiceError } from "../../helpers/expect-service-error.ts";

describe("annotator task settings", () => {
  let t: ReturnType<typeof tempDb>;
  const userOf = (id: number, username: string) => ({
    id,
    role: "expert" as const,
    username,
    displayName: username,
    channel: null,
    externalId: null,
    qualifiedAt: null,
    crowdStudies: [],
  });
  beforeEach(() => {
    t = tempDb();
  });
  afterEach(() => t.cleanup());

  it("is off by default, turned on and off per annotator", () => {
    const ada = userOf(addAnnotator(t.db, "ada", "expert"), "ada");
    const ben = userOf(addAnnotator(t.db, "ben", "expert"), "ben");
    expect(taskSettings(t.db, ada)).toEqual({ autoAdvance: false });
    expect(saveTaskSettings(t.db, ada, { autoAdvance: "on" })).toEqual({ autoAdvance: true });
    expect(taskSettings(t.db, ada)).toEqual({ autoAdvance: true });
    expect(taskSettings(t.db, ben)).toEqual({ autoAdvance: false });
    // An unticked checkbox posts nothing.
    expect(saveTaskSettings(t.db, ada, { autoAdvance: null })).toEqual({ autoAdvance: false });
    expect(taskSettings(t.db, ada)).toEqual({ autoAdvance: false });
  });

  it("refuses a value a checkbox never posts, changing nothing", () => {
    const ada = userOf(addAnnotator(t.db, "ada", "expert"), "ada");
    expectServiceError(() => saveTaskSettings(t.db, ada, { autoAdvance: "yes" }), 400, /not valid/, "autoAdvance");
    expect(taskSettings(t.db, ada)).toEqual({ autoAdvance: false });
  });
});
