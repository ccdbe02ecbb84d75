/**
 * An annotator's task settings: auto-advance off by default, stored per annotator, a malformed value refused; their
 * own keys per task type, stored only when the whole form is valid, and reset to the defaults.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  hotkeyTables,
  resetHotkeys,
  saveHotkeys,
  saveTaskSettings,
  taskSettings,
} from "../../../app/server/annotation/annotator-settings.server.ts";
import { addAnnotator, sessionUser } from "../../../harness/annotation.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { expectServiceError } from "../../helpers/expect-service-error.ts";

describe("annotator task settings", () => {
  let t: Awaited<ReturnType<typeof tempDb>>;
  const userOf = (id: number, username: string) => sessionUser(id, "expert", username);
  beforeEach(async () => {
    t = await tempDb();
  });
  afterEach(() => t.cleanup());

  it("is off by default, turned on and off per annotator", async () => {
    const ada = userOf(await addAnnotator(t.db, "ada", "expert"), "ada");
    const ben = userOf(await addAnnotator(t.db, "ben", "expert"), "ben");
    expect(await taskSettings(t.db, ada)).toEqual({ autoAdvance: false, hotkeys: {} });
    expect(await saveTaskSettings(t.db, ada, { autoAdvance: "on" })).toEqual({ autoAdvance: true });
    expect((await taskSettings(t.db, ada)).autoAdvance).toBe(true);
    expect((await taskSettings(t.db, ben)).autoAdvance).toBe(false);
    // An unticked checkbox posts nothing.
    expect(await saveTaskSettings(t.db, ada, { autoAdvance: null })).toEqual({ autoAdvance: false });
    expect((await taskSettings(t.db, ada)).autoAdvance).toBe(false);
  });

  it("refuses a value a checkbox never posts, changing nothing", async () => {
    const ada = userOf(await addAnnotator(t.db, "ada", "expert"), "ada");
    await expectServiceError(
      async () => await saveTaskSettings(t.db, ada, { autoAdvance: "yes" }),
      400,
      /not valid/,
      "autoAdvance",
    );
    expect(await taskSettings(t.db, ada)).toEqual({ autoAdvance: false, hotkeys: {} });
  });

  it("stores an annotator's own keys per task type, leaves other types and annotators alone, and resets them", async () => {
    const ada = userOf(await addAnnotator(t.db, "ada", "expert"), "ada");
    const ben = userOf(await addAnnotator(t.db, "ben", "expert"), "ben");
    const stored = () =>
      JSON.parse(
        (t.db.$client.prepare(`SELECT hotkeys FROM annotators WHERE id = ?`).get(ada.id) as { hotkeys: string })
          .hotkeys,
      );
    const fields = { "keys.chooseA": "q", "keys.chooseB": "w", "keys.submit": "Enter Ctrl+Enter" };
    expect(await saveHotkeys(t.db, ada, { taskType: "ab-reactiveness", fields })).toEqual({
      taskType: "ab-reactiveness",
    });
    await saveHotkeys(t.db, ada, { taskType: "consensus-snippet", fields: { "keys.carryForward": "Shift+r" } });
    expect(stored()).toEqual({
      "ab-reactiveness": { chooseA: ["q"], chooseB: ["w"] },
      "consensus-snippet": { carryForward: ["Shift+r"] },
    });
    expect((await taskSettings(t.db, ben)).hotkeys).toEqual({});
    // The settings page shows them beside the defaults.
    const ab = hotkeyTables(await taskSettings(t.db, ada)).find((table) => table.id === "ab-reactiveness")!;
    expect(ab.changed).toBe(true);
    expect(ab.shortcuts.find((s) => s.command === "chooseA")).toMatchObject({ written: "q", defaults: ["1", "a"] });
    expect(ab.shortcuts.find((s) => s.command === "submit")).toMatchObject({ written: "Enter Ctrl+Enter" });

    await resetHotkeys(t.db, ada, "ab-reactiveness");
    expect(stored()).toEqual({ "consensus-snippet": { carryForward: ["Shift+r"] } });
    await resetHotkeys(t.db, ada, "consensus-snippet");
    expect(stored()).toEqual({});
  });

  it("refuses a form with a duplicate key or an unknown task type, storing nothing", async () => {
    const ada = userOf(await addAnnotator(t.db, "ada", "expert"), "ada");
    await saveHotkeys(t.db, ada, { taskType: "ab-reactiveness", fields: { "keys.chooseA": "q" } });
    const err = await expectServiceError(
      async () =>
        await saveHotkeys(t.db, ada, {
          taskType: "ab-reactiveness",
          fields: { "keys.chooseA": "z", "keys.skip": "z" },
        }),
      400,
      /Your keys for A\/B reactiveness were not saved: 2 problems/,
      "ab-reactiveness.keys.skip",
    );
    expect(err.problems.map((p) => p.path).sort()).toEqual([
      "ab-reactiveness.keys.chooseA",
      "ab-reactiveness.keys.skip",
    ]);
    await expectServiceError(
      async () => await saveHotkeys(t.db, ada, { taskType: "poetry", fields: {} }),
      400,
      /Unknown task type/,
      "taskType",
    );
    await expectServiceError(async () => await resetHotkeys(t.db, ada, null), 400, /Unknown task type/, "taskType");
    expect((await taskSettings(t.db, ada)).hotkeys).toEqual({ "ab-reactiveness": { chooseA: ["q"] } });
  });
});
