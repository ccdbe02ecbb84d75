/**
 * The crowd side of the study dashboard's posts and the channel's say over a worker's next step,
 * on a real SQLite file with the demo studies: links, Prolific's settings through its channel,
 * and where a worker goes from /annotate/:study/next.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { channelNextPath } from "../../../app/crowd-channels/registry.server.ts";
import { crowdDashboardAction } from "../../../app/server/crowd/dashboard-actions.server.ts";
import { enterProlificSession } from "../../../app/crowd-channels/prolific/sessions.server.ts";
import { findOrCreateCrowdWorker } from "../../../app/server/crowd/workers.server.ts";
import { findStudy } from "../../../app/server/models/study.server.ts";
import { demoStudiesTemplate } from "../../helpers/demo-studies-db.ts";
import { expectServiceError } from "../../helpers/expect-service-error.ts";
import type { tempDb } from "../../../harness/temp-db.ts";

const CONSENSUS_CROWD = 2;
const URL_BASE = "https://studio.example.org/admin/studies/2";

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};

describe("crowd dashboard actions and a channel's next step", () => {
  let t: Awaited<ReturnType<typeof tempDb>>;
  // The demo studies are seeded once; each test gets its own copy of that file.
  let template: Awaited<ReturnType<typeof demoStudiesTemplate>>;
  beforeAll(async () => {
    template = await demoStudiesTemplate();
  });
  afterAll(() => template.cleanup());

  beforeEach(async () => {
    t = await template.copy();
  });
  afterEach(() => t.cleanup());

  it("makes a signed link for a valid worker id and refuses a bad one", async () => {
    const ok = await crowdDashboardAction(t.db, CONSENSUS_CROWD, "link", form({ workerId: " W42 " }), URL_BASE);
    expect(ok.status).toBe(200);
    expect(ok.data.panel?.channel).toBe("link");
    expect((ok.data.panel!.result as { link: string }).link).toMatch(
      /^https:\/\/studio\.example\.org\/crowd\/start\?study=2&worker=W42&sig=/,
    );
    const bad = await crowdDashboardAction(t.db, CONSENSUS_CROWD, "link", form({ workerId: "<w>" }), URL_BASE);
    // The message says what was wrong and what a worker id looks like.
    expect(bad).toEqual({
      status: 400,
      data: {
        panel: {
          channel: "link",
          result: {
            link: null,
            error: `"<w>" is not a worker id: a worker id is 1–64 letters, digits, '_' or '-' (no spaces), e.g. A1B2C3D4E5F6G7.`,
          },
        },
        error: null,
      },
    });
    const empty = await crowdDashboardAction(t.db, CONSENSUS_CROWD, "link", form({ workerId: "  " }), URL_BASE);
    expect((empty.data.panel!.result as { error: string }).error).toBe(
      "A worker id is needed: a worker id is 1–64 letters, digits, '_' or '-' (no spaces), e.g. A1B2C3D4E5F6G7.",
    );
  });

  it("saves Prolific's settings through the channel, returns field problems with their status, and throws for a missing study", async () => {
    const saved = await crowdDashboardAction(
      t.db,
      CONSENSUS_CROWD,
      "prolific",
      form({ intent: "prolific", completionCode: "C0DE42", itemsPerSession: "2", rewardUsd: "" }),
      URL_BASE,
    );
    expect(saved).toEqual({ status: 200, data: { panel: { channel: "prolific", result: { ok: true } }, error: null } });
    expect(((await findStudy(t.db, CONSENSUS_CROWD))!.config as { prolific?: unknown }).prolific).toEqual({
      completionCode: "C0DE42",
      itemsPerSession: 2,
    });
    const refused = await crowdDashboardAction(
      t.db,
      CONSENSUS_CROWD,
      "prolific",
      form({ completionCode: "", itemsPerSession: "0" }),
      URL_BASE,
    );
    expect(refused.status).toBe(400);
    expect(refused.data.panel).toMatchObject({
      channel: "prolific",
      result: { ok: false, message: "The Prolific settings are not valid" },
    });
    await expectServiceError(
      () =>
        crowdDashboardAction(t.db, 999, "prolific", form({ completionCode: "C0DE42", itemsPerSession: "2" }), URL_BASE),
      404,
      /Study 999/,
    );
  });

  it("answers an unknown intent with a 400", async () => {
    expect(await crowdDashboardAction(t.db, CONSENSUS_CROWD, "nope", form({}), URL_BASE)).toMatchObject({
      status: 400,
      data: { panel: null, error: 'Unknown action "nope"' },
    });
  });

  it("a channel's next step is its own for Prolific participants and none for experts and other crowd workers", async () => {
    await crowdDashboardAction(
      t.db,
      CONSENSUS_CROWD,
      "prolific",
      form({ completionCode: "C0DE42", itemsPerSession: "2" }),
      URL_BASE,
    );
    const params = new URLSearchParams({ PROLIFIC_PID: "p1", STUDY_ID: "s1", SESSION_ID: "x1" });
    const { annotatorId } = await enterProlificSession(t.db, CONSENSUS_CROWD, params);
    expect(await channelNextPath(t.db, CONSENSUS_CROWD, { id: annotatorId, channel: "prolific" })).toBe(
      `/crowd/qualify?study=${CONSENSUS_CROWD}`,
    );
    const mturk = await findOrCreateCrowdWorker(t.db, "mturk", "A1");
    expect(await channelNextPath(t.db, CONSENSUS_CROWD, { id: mturk, channel: "mturk" })).toBeNull();
    expect(await channelNextPath(t.db, CONSENSUS_CROWD, { id: 1, channel: null })).toBeNull();
  });
});
