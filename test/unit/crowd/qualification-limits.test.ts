/**
 * The reading test's attempt caps on a real SQLite file: three per worker, and per client
 * network across all studies (QUALIFICATION_ATTEMPTS_PER_NETWORK, default 6), checked in the transaction
 * that records the attempt. A person making up worker ids gets fresh workers, not fresh attempts.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  attemptsPerNetwork,
  DEFAULT_ATTEMPTS_PER_NETWORK,
  MAX_QUALIFICATION_ATTEMPTS,
  NETWORK_LIMIT_MESSAGE,
  networkLimitReached,
  takeQualificationTest,
} from "../../../app/server/crowd/qualification.server.ts";
import { findOrCreateCrowdWorker } from "../../../app/server/crowd/workers.server.ts";
import { networkIdentity } from "../../../app/server/http/load-context.server.ts";
import { loadQualificationTest } from "../../../app/server/templates.server.ts";
import { demoStudiesTemplate } from "../../helpers/demo-studies-db.ts";
import { tableCounts, type tempDb } from "../../../harness/temp-db.ts";

const STUDY = 2;

describe("reading-test attempt caps", () => {
  let t: Awaited<ReturnType<typeof tempDb>>;
  const test = loadQualificationTest();
  const form = (pick: (q: (typeof test.questions)[number]) => string) => {
    const f = new FormData();
    for (const q of test.questions) f.set(q.id, pick(q));
    return f;
  };
  const wrong = form((q) => q.options.find((o) => o.id !== q.answer)!.id);
  const right = form((q) => q.answer);
  const campus = { studyId: STUDY, network: networkIdentity({ clientAddress: "203.0.113.7" }) };
  const attempts = () =>
    t.db.$client
      .prepare(`SELECT annotator_id AS a, study_id AS s, network AS n FROM qualification_attempts ORDER BY id`)
      .all() as { a: number; s: number; n: string }[];

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

  it("reads the per-network cap from the environment, refusing nonsense", () => {
    expect(attemptsPerNetwork({})).toBe(DEFAULT_ATTEMPTS_PER_NETWORK);
    expect(attemptsPerNetwork({ QUALIFICATION_ATTEMPTS_PER_NETWORK: " 20 " })).toBe(20);
    for (const bad of ["0", "-1", "2.5", "many"])
      expect(() => attemptsPerNetwork({ QUALIFICATION_ATTEMPTS_PER_NETWORK: bad })).toThrow(
        /QUALIFICATION_ATTEMPTS_PER_NETWORK must be a whole number/,
      );
  });

  it("stores the study and the network's keyed hash (never the address) with each attempt", async () => {
    const worker = await findOrCreateCrowdWorker(t.db, "prolific", "made-up-0");
    expect((await takeQualificationTest(t.db, worker, wrong, campus)).status).toBe(200);
    expect(attempts()).toEqual([{ a: worker, s: STUDY, n: campus.network }]);
    expect(campus.network).not.toContain("203.0.113");
    // IPv6: one /64 is one network.
    expect(networkIdentity({ clientAddress: "2001:db8:1:2:aaaa::1" })).toBe(
      networkIdentity({ clientAddress: "2001:db8:1:2:bbbb::9" }),
    );
    // The same /64 written compressed or in full, and another /64, whatever the spelling.
    expect(networkIdentity({ clientAddress: "2001:db8::1" })).toBe(
      networkIdentity({ clientAddress: "2001:0db8:0000:0000:ffff::2" }),
    );
    expect(networkIdentity({ clientAddress: "2001:db8::1" })).not.toBe(
      networkIdentity({ clientAddress: "2001:db8:0:1::1" }),
    );
  });

  it("many made-up worker ids from one network: after the cap every further attempt is refused (429) and nothing is stored", async () => {
    const cap = DEFAULT_ATTEMPTS_PER_NETWORK;
    // Each made-up id is a fresh worker with fresh per-worker attempts; two attempts each.
    let made = 0;
    while (attempts().length < cap) {
      const worker = await findOrCreateCrowdWorker(t.db, "prolific", `made-up-${made++}`);
      for (let i = 0; i < 2 && attempts().length < cap; i++)
        expect((await takeQualificationTest(t.db, worker, wrong, campus)).status).toBe(200);
    }
    expect(await networkLimitReached(t.db, campus)).toBe(true);
    const counts = await tableCounts(t.db);
    const fresh = await findOrCreateCrowdWorker(t.db, "prolific", "made-up-fresh");
    const refused = await takeQualificationTest(t.db, fresh, right, campus);
    expect(refused).toEqual({
      status: 429,
      reply: { passed: false, correct: 0, total: 0, locked: false, networkLimited: true, error: NETWORK_LIMIT_MESSAGE },
    });
    expect(await tableCounts(t.db)).toEqual({ ...counts, annotators: counts.annotators + 1 });
    expect(attempts()).toHaveLength(cap);
    expect(t.db.$client.prepare(`SELECT qualified_at AS q FROM annotators WHERE id = ?`).get(fresh)).toEqual({
      q: null,
    });

    // The cap is global, like the pass it guards (issue 29): another study is no way round it; another network is not
    // affected.
    expect(await networkLimitReached(t.db, { ...campus, studyId: 3 })).toBe(true);
    expect((await takeQualificationTest(t.db, fresh, right, { ...campus, studyId: 3 })).status).toBe(429);
    expect(
      (
        await takeQualificationTest(t.db, fresh, right, {
          ...campus,
          network: networkIdentity({ clientAddress: "198.51.100.4" }),
        })
      ).reply.passed,
    ).toBe(true);
  });

  it("still locks a worker after three attempts, whatever the network", async () => {
    const worker = await findOrCreateCrowdWorker(t.db, "prolific", "one-person");
    for (let i = 0; i < MAX_QUALIFICATION_ATTEMPTS; i++) {
      await takeQualificationTest(t.db, worker, wrong, {
        studyId: STUDY,
        network: networkIdentity({ clientAddress: `192.0.2.${i}` }),
      });
    }
    const counts = await tableCounts(t.db);
    expect(
      (
        await takeQualificationTest(t.db, worker, right, {
          studyId: STUDY,
          network: networkIdentity({ clientAddress: "192.0.2.99" }),
        })
      ).status,
    ).toBe(403);
    expect(await tableCounts(t.db)).toEqual(counts);
  });
});
