/**
 * `importMturkResults` run again on PostgreSQL after a serialization failure (forced by
 * ../db/serialization-fault.ts) names each problem of a refused file once: the problems found in the transaction
 * belong to its last run. On SQLite, where work runs once, the same check holds with no failure raised.
 */
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as schema from "../../../db/schema.ts";
import { exportBatch } from "../../../app/crowd-channels/mturk/export.server.ts";
import { importMturkResults, MturkImportError } from "../../../app/crowd-channels/mturk/import.server.ts";
import { playedScenarioOfRun, snippetContext } from "../../../app/server/annotation/task-view.server.ts";
import type { Db } from "../../../app/server/db.server.ts";
import { findItem, studyItemIds } from "../../../app/server/models/study.server.ts";
import { consensusAnswers, exportedInput, mturkResultsCsv } from "../../../harness/mturk-results.ts";
import { tableCounts, testEngine, type TempDb } from "../../../harness/temp-db.ts";
import { demoStudiesTemplate } from "../../helpers/demo-studies-db.ts";
import { failInserts } from "../db/serialization-fault.ts";

/** One forced failure on PostgreSQL, none on SQLite. */
const RETRIES = testEngine() === "postgres" ? 1 : 0;

const CONSENSUS_STUDY = 2;

describe(`mturk import run again (${testEngine()})`, () => {
  let template: Awaited<ReturnType<typeof demoStudiesTemplate>>;
  let t: TempDb;
  beforeAll(async () => {
    template = await demoStudiesTemplate();
  }, 180_000);
  afterAll(() => template.cleanup());
  beforeEach(async () => {
    t = await template.copy();
  });
  afterEach(() => t.cleanup());

  async function scenarioOfItem(db: Db, itemId: number) {
    const item = await findItem(db, itemId);
    return (await playedScenarioOfRun(db, (await snippetContext(db, item!.snippetId!)).runId)).body;
  }

  it("names each problem of a refused file once", async () => {
    const batch = await exportBatch(t.db, CONSENSUS_STUDY, { outDir: join(t.dir, "batch") });
    const input = exportedInput(batch.batches, await studyItemIds(t.db, CONSENSUS_STUDY));
    const items = input.rows.map((r) => Number(r[input.header.indexOf("item_id")]));
    const answer = async (item: number, seed: number) => {
      const scenario = await scenarioOfItem(t.db, item);
      const topics = Object.fromEntries(
        scenario.topics.map((topic) => [
          topic.id,
          {
            score: ((seed % 5) + 1) as 1,
            carriedForward: false,
            positions: Object.fromEntries(scenario.parties.map((p) => [p.id, topic.options[0].label])),
          },
        ]),
      );
      return consensusAnswers(item, scenario, { kind: "consensus-snippet", topics });
    };
    const first = [{ hit: 0, workerId: "A1ALPHA", answers: await answer(items[0], 1) }];
    await importMturkResults(t.db, CONSENSUS_STUDY, { text: mturkResultsCsv(input, first), fileName: "first.csv" });
    // The same assignment with another answer (a problem), then a new worker (an insert the fault fails once).
    const second = [
      { hit: 0, workerId: "A1ALPHA", answers: await answer(items[0], 2) },
      { hit: 1, workerId: "A4DELTA", answers: await answer(items[1], 3) },
    ];
    const fault = await failInserts(t.db, schema.annotators);
    const before = await tableCounts(t.db);
    let refused: MturkImportError | undefined;
    try {
      await importMturkResults(t.db, CONSENSUS_STUDY, { text: mturkResultsCsv(input, second), fileName: "second.csv" });
    } catch (err) {
      if (!(err instanceof MturkImportError)) throw err;
      refused = err;
    }
    expect(await fault.raised()).toBe(RETRIES);
    expect(refused?.problems.map((p) => p.message)).toEqual([expect.stringMatching(/different answer/)]);
    expect(await tableCounts(t.db)).toEqual(before);
  });
});
