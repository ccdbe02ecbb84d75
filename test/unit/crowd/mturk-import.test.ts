/** `importMturkResults` on a real SQLite file with the demo studies, from results files in MTurk's exact format. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseCsv } from "../../../app/domain/csv.ts";
import type { ConsensusLabel } from "../../../app/task-types/consensus-snippet/label.ts";
import { playedScenarioOfRun, snippetContext } from "../../../app/server/annotation/task-view.server.ts";
import { listCrowdAssignments } from "../../../app/server/models/crowd-assignment.server.ts";
import { exportBatch } from "../../../app/crowd-channels/mturk/export.server.ts";
import { importMturkResults, MturkImportError } from "../../../app/crowd-channels/mturk/import.server.ts";
import { recordCrowdAssignment } from "../../../app/server/crowd/record-assignment.server.ts";
import type { Db } from "../../../app/server/db.server.ts";
import { demoStudiesTemplate } from "../../helpers/demo-studies-db.ts";
import { studyItemIds } from "../../../app/server/models/study.server.ts";
import {
  abAnswers,
  consensusAnswers,
  exportedInput as allExportedRows,
  mturkId,
  mturkResultsCsv,
  type InputCsv,
  type WorkerAssignment,
} from "../../../harness/mturk-results.ts";
import { tableCounts, type tempDb } from "../../../harness/temp-db.ts";

const CONSENSUS_STUDY = 2;
const AB_STUDY = 3;

/** Dialogue HTML as a HIT shows it: several lines, commas, quotes, markup. */
const DIALOGUE_HTML = [
  '<div class="turn"><b>Buyer:</b> "Fine, but only if delivery is in March," she said.</div>',
  '<div class="turn"><b>Seller:</b> We can\'t, sorry; April at the earliest.</div>',
  '<div class="turn"><b>Mediator:</b> Could a partial delivery, say 40%, work?</div>',
].join("\n");

/**
 * An input CSV built by hand for rows the export would not write (the demo A/B study's items are
 * fully labelled; hand-edited ids): the two columns the import reads and a multi-line HTML column.
 */
function inputCsv(studyId: number, itemIds: number[]): InputCsv {
  return {
    header: ["study_id", "item_id", "dialogue_html"],
    rows: itemIds.map((id) => [String(studyId), String(id), DIALOGUE_HTML]),
  };
}

async function scenarioOfItem(db: Db, itemId: number) {
  const item = db.$client.prepare(`SELECT snippet_id AS snippetId FROM study_items WHERE id = ?`).get(itemId) as {
    snippetId: number;
  };
  return (await playedScenarioOfRun(db, (await snippetContext(db, item.snippetId)).runId)).body;
}

/** A label that differs per worker: scores and positions from a small seed. */
async function labelFor(db: Db, itemId: number, seed: number): Promise<ConsensusLabel> {
  const scenario = await scenarioOfItem(db, itemId);
  return {
    kind: "consensus-snippet",
    topics: Object.fromEntries(
      scenario.topics.map((t, i) => [
        t.id,
        {
          score: ((seed + i) % 5) + 1,
          carriedForward: false,
          positions: Object.fromEntries(
            scenario.parties.map((p, j) => [
              p.id,
              (seed + j) % 3 === 0 ? "unclear" : t.options[(seed + j) % t.options.length].label,
            ]),
          ),
        },
      ]),
    ),
  };
}

/** The 1-based line a text starts on in the file. */
function lineOf(text: string, needle: string): number {
  const at = text.indexOf(needle);
  if (at < 0) throw new Error(`"${needle}" is not in the file`);
  return text.slice(0, at).split("\n").length;
}

async function refusal(run: () => unknown): Promise<MturkImportError> {
  try {
    await run();
  } catch (err) {
    if (err instanceof MturkImportError) return err;
    throw err;
  }
  throw new Error("the import was not refused");
}

const revisionCount = (db: Db) =>
  (db.$client.prepare(`SELECT count(*) AS n FROM label_revisions`).get() as { n: number }).n;

describe("mturk import", () => {
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

  /** Items of the crowd consensus study nobody has labelled yet (what an export would send out). */
  function openConsensusItems(n: number): number[] {
    const rows = t.db.$client
      .prepare(
        `SELECT i.id FROM study_items i WHERE i.study_id = ? AND NOT EXISTS (SELECT 1 FROM labels l WHERE l.study_item_id = i.id) ORDER BY i.position LIMIT ?`,
      )
      .all(CONSENSUS_STUDY, n) as { id: number }[];
    expect(rows).toHaveLength(n);
    return rows.map((r) => r.id);
  }

  /** The input CSV `mturk export` writes for the crowd consensus study (one row per HIT). */
  async function exportedInput(): Promise<InputCsv & { template: string }> {
    const batch = await exportBatch(t.db, CONSENSUS_STUDY, { outDir: join(t.dir, "batch") });
    return {
      ...allExportedRows(batch.batches, await studyItemIds(t.db, CONSENSUS_STUDY)),
      template: readFileSync(batch.files.template, "utf8"),
    };
  }

  const itemIdsOf = (input: InputCsv) => input.rows.map((r) => Number(r[input.header.indexOf("item_id")]));

  /** A copy of an input row pointing at another item id. */
  function rowForItem(input: InputCsv, row: number, itemId: number): string[] {
    const copy = [...input.rows[row]];
    copy[input.header.indexOf("item_id")] = String(itemId);
    return copy;
  }

  /** The first two exported HITs, each done by three workers: one assignment already approved, one rejected. */
  async function consensusBatch() {
    const input = await exportedInput();
    const items = itemIdsOf(input);
    const workers = ["A1ALPHA", "A2BRAVO", "A3CHARLIE"];
    const assignments: (WorkerAssignment & { label: ConsensusLabel })[] = [];
    for (const hit of [0, 1]) {
      for (const [w, workerId] of workers.entries()) {
        const label = await labelFor(t.db, items[hit], hit * 3 + w);
        const status = hit === 1 && w === 2 ? "Rejected" : hit === 0 && w === 0 ? "Approved" : "Submitted";
        assignments.push({
          hit,
          workerId,
          status,
          workSeconds: 60 + 17 * (hit * 3 + w),
          answers: consensusAnswers(items[hit], await scenarioOfItem(t.db, items[hit]), label),
          label,
        });
      }
    }
    return { items, input, assignments, text: mturkResultsCsv(input, assignments) };
  }

  it("reads MTurk's file (quoted multi-line fields), stores the right labels, skips the rejection, and a second import adds nothing", async () => {
    const { items, input, assignments, text } = await consensusBatch();
    // The format really is what the parser has to cope with: every field quoted, the export's HTML
    // cells holding commas, quotes and line breaks, so records span many lines.
    expect(text.startsWith('"HITId","HITTypeId","Title",')).toBe(true);
    expect(input.rows[0].some((cell) => cell.includes("\n") && cell.includes(",") && cell.includes('"'))).toBe(true);
    // The answers name only form fields the exported HIT has (template plus its row's HTML).
    for (const a of assignments) {
      const hitHtml = input.template + input.rows[a.hit].join("");
      for (const name of Object.keys(a.answers)) expect(hitHtml).toContain(`name="${name}"`);
    }
    const breaksInFirstRecord = input.rows[0].join("").split("\n").length - 1;
    expect(lineOf(text, mturkId("3ASG", "0XA2BRAVO"))).toBe(3 + breaksInFirstRecord);

    const before = await tableCounts(t.db);
    const { summary } = await importMturkResults(t.db, CONSENSUS_STUDY, {
      text,
      fileName: "Batch_1_batch_results.csv",
    });
    // Each exported item already held two counted labels (the demo batch) of k = 3: the first new
    // label on each is counted, the other three are surplus.
    expect(summary).toEqual({
      dryRun: false,
      rows: 6,
      stored: 5,
      revised: 0,
      unchanged: 0,
      rejectedSkipped: 1,
      statusUpdated: 0,
      workersCreated: 3,
      confirmed: 0,
      surplus: 3,
      mismatched: [],
    });
    const statuses = t.db.$client
      .prepare(
        `SELECT study_item_id AS itemId, status, count(*) AS n FROM labels WHERE study_item_id IN (?, ?) GROUP BY study_item_id, status ORDER BY study_item_id, status`,
      )
      .all(items[0], items[1]);
    expect(statuses).toEqual([
      { itemId: items[0], status: "counted", n: 3 },
      { itemId: items[0], status: "surplus", n: 2 },
      { itemId: items[1], status: "counted", n: 3 },
      { itemId: items[1], status: "surplus", n: 1 },
    ]);

    const after = await tableCounts(t.db);
    expect(after.labels - before.labels).toBe(5);
    expect(after.crowd_assignments - before.crowd_assignments).toBe(6);
    expect(after.annotators - before.annotators).toBe(3);

    // Workers are crowd annotators keyed by WorkerId on the mturk channel.
    // (The demo's own MTurk workers are named A?DEMOTURKER…; they are not this file's.)
    const workers = t.db.$client
      .prepare(
        `SELECT external_id AS workerId, role FROM annotators WHERE channel = 'mturk' AND external_id NOT LIKE '%DEMOTURKER%' ORDER BY external_id`,
      )
      .all();
    expect(workers).toEqual(["A1ALPHA", "A2BRAVO", "A3CHARLIE"].map((workerId) => ({ workerId, role: "crowd" })));

    // Each accepted assignment's label is the worker's answer, timed by WorkTimeInSeconds.
    const stored = t.db.$client
      .prepare(
        `SELECT a.external_id AS workerId, l.study_item_id AS itemId, r.payload, r.seconds_on_task AS seconds FROM labels l
         JOIN annotators a ON a.id = l.annotator_id JOIN label_revisions r ON r.label_id = l.id WHERE a.channel = 'mturk' AND a.external_id NOT LIKE '%DEMOTURKER%'`,
      )
      .all() as { workerId: string; itemId: number; payload: string; seconds: number }[];
    const expected = assignments.filter((a) => a.status !== "Rejected");
    expect(stored).toHaveLength(expected.length);
    for (const a of expected) {
      const row = stored.find((s) => s.workerId === a.workerId && s.itemId === items[a.hit]);
      expect(row, `${a.workerId} on item ${items[a.hit]}`).toBeDefined();
      expect(JSON.parse(row!.payload)).toEqual(a.label);
      expect(row!.seconds).toBe(a.workSeconds);
    }

    // The rejection is recorded without a label; status, HIT, reward and times come from the file.
    const recorded = await listCrowdAssignments(t.db, CONSENSUS_STUDY, "mturk");
    const rejected = recorded.find((r) => r.workerId === "A3CHARLIE" && r.studyItemId === items[1])!;
    expect(rejected).toMatchObject({ status: "rejected", labelId: null });
    expect(recorded.find((r) => r.workerId === "A1ALPHA" && r.studyItemId === items[0])).toMatchObject({
      status: "approved",
      externalGroupId: mturkId("3HIT", "0"),
      rewardUsd: 0.5,
      workSeconds: 60,
    });
    const times = t.db.$client
      .prepare(`SELECT accepted_at AS a, submitted_at AS s FROM crowd_assignments WHERE external_id = ?`)
      .get(mturkId("3ASG", "0XA1ALPHA"));
    // The helper's first assignment is accepted at the batch start (17:00 UTC = 09:00 PST) and submitted 60 s later.
    expect(times).toEqual({ a: "2026-11-23T17:00:00.000Z", s: "2026-11-23T17:01:00.000Z" });

    // The same file again: nothing new anywhere.
    const revisions = revisionCount(t.db);
    const again = await importMturkResults(t.db, CONSENSUS_STUDY, { text, fileName: "Batch_1_batch_results.csv" });
    expect(again.summary).toEqual({
      dryRun: false,
      rows: 6,
      stored: 0,
      revised: 0,
      unchanged: 5,
      rejectedSkipped: 1,
      statusUpdated: 0,
      workersCreated: 0,
      confirmed: 0,
      surplus: 0,
      mismatched: [],
    });
    expect(await tableCounts(t.db)).toEqual(after);
    expect(revisionCount(t.db)).toBe(revisions);
  });

  it("a dry run reports the same counts and writes nothing", async () => {
    const { text } = await consensusBatch();
    const before = await tableCounts(t.db);
    const { summary, review } = await importMturkResults(t.db, CONSENSUS_STUDY, {
      text,
      fileName: "b.csv",
      dryRun: true,
    });
    expect(summary).toMatchObject({ dryRun: true, stored: 5, rejectedSkipped: 1, workersCreated: 3 });
    expect(review.approvals + review.rejections + review.untouched).toBe(6);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  describe("refuses a bad file with the line number and leaves the database unchanged", () => {
    async function expectRefused(text: string, pattern: RegExp): Promise<MturkImportError> {
      const before = await tableCounts(t.db);
      const revisions = revisionCount(t.db);
      const err = await refusal(() =>
        importMturkResults(t.db, CONSENSUS_STUDY, { text, fileName: "Batch_9_batch_results.csv" }),
      );
      expect(err.message).toMatch(pattern);
      expect(await tableCounts(t.db)).toEqual(before);
      expect(revisionCount(t.db)).toBe(revisions);
      return err;
    }

    it("a missing Answer.taskAnswers column", async () => {
      const { input, assignments } = await consensusBatch();
      const err = await expectRefused(
        mturkResultsCsv(input, assignments, { withoutTaskAnswers: true }),
        /Batch_9_batch_results\.csv line 1: Answer\.taskAnswers: this column is missing/,
      );
      expect(err.problems).toHaveLength(1);
    });

    it("an empty Answer.taskAnswers cell, malformed JSON in one, an unknown item id, a score of 6 — every one with its line", async () => {
      const { items, input, assignments } = await consensusBatch();
      const bad = assignments.map((a) => ({ ...a }));
      bad[1].answers = "";
      bad[2].answers = '[{"score|X|3":{"on":true},'; // cut off mid-object
      // A score of 6, as a hand-edited or forged answer would carry it.
      const six = { ...(bad[3].answers as Record<string, unknown>) };
      const topic = (await scenarioOfItem(t.db, items[1])).topics[0].id;
      for (const key of Object.keys(six)) if (key.startsWith(`score|${topic}|`)) six[key] = { on: false };
      six[`score|${topic}|6`] = { on: true };
      bad[3].answers = six;
      const withUnknown = { ...input, rows: [input.rows[0], input.rows[1], rowForItem(input, 0, 999_999)] };
      const text = mturkResultsCsv(withUnknown, [
        ...bad,
        { hit: 2, workerId: "A9ZULU", answers: abAnswers(999_999, "A") },
      ]);
      const lineOfWorker = (hit: number, worker: string) => lineOf(text, mturkId("3ASG", `${hit}X${worker}`));
      const err = await expectRefused(text, /refused, nothing was written \(4 problems\)/);
      const lines = err.message
        .split("\n")
        .slice(1)
        .map((l) => l.trim());
      expect(lines).toEqual([
        `Batch_9_batch_results.csv line ${lineOfWorker(0, "A2BRAVO")} (assignment ${mturkId("3ASG", "0XA2BRAVO")}): Answer.taskAnswers: is empty (the worker's answers are missing)`,
        expect.stringMatching(
          new RegExp(
            `^Batch_9_batch_results\\.csv line ${lineOfWorker(0, "A3CHARLIE")} \\(assignment ${mturkId("3ASG", "0XA3CHARLIE")}\\): Answer\\.taskAnswers: is not valid JSON`,
          ),
        ),
        `Batch_9_batch_results.csv line ${lineOfWorker(1, "A1ALPHA")} (assignment ${mturkId("3ASG", "1XA1ALPHA")}): topics.${topic}.score: a score is 1 to 5`,
        `Batch_9_batch_results.csv line ${lineOfWorker(2, "A9ZULU")} (assignment ${mturkId("3ASG", "2XA9ZULU")}): Input.item_id: item 999999 is not an item of study ${CONSENSUS_STUDY}`,
      ]);
      // Multi-line fields push later records down: the lines are file lines, not record numbers.
      expect(lineOfWorker(2, "A9ZULU")).toBeGreaterThan(7);
    });

    it("an item of another study, a study id that is not this one, an answer naming another item, an unknown status", async () => {
      const abItem = (
        t.db.$client.prepare(`SELECT id FROM study_items WHERE study_id = ? LIMIT 1`).get(AB_STUDY) as { id: number }
      ).id;
      const [own] = openConsensusItems(1);
      const scenario = await scenarioOfItem(t.db, own);
      const answers = consensusAnswers(own, scenario, await labelFor(t.db, own, 1));
      const input: InputCsv = {
        header: ["study_id", "item_id", "dialogue_html"],
        rows: [
          [String(CONSENSUS_STUDY), String(abItem), "x"],
          [String(AB_STUDY), String(own), "x"],
          [String(CONSENSUS_STUDY), String(own), "x"],
        ],
      };
      const text = mturkResultsCsv(input, [
        { hit: 0, workerId: "W1", answers: abAnswers(abItem, "A") },
        { hit: 1, workerId: "W1", answers },
        { hit: 2, workerId: "W2", answers: { ...answers, item_id: "12345" } },
        { hit: 2, workerId: "W3", answers, status: "Pending" as "Submitted" },
      ]);
      const err = await expectRefused(text, /4 problems/);
      expect(err.problems.map((p) => [p.line, p.path])).toEqual([
        [2, "Input.item_id"],
        [3, "Input.study_id"],
        [4, "Answer.taskAnswers item_id"],
        [5, "AssignmentStatus"],
      ]);
      expect(err.problems[1].message).toBe(`is ${AB_STUDY}, but this import is for study ${CONSENSUS_STUDY}`);
    });

    it("answers that do not make a label: no choice on an A/B pair, a topic left without a score", async () => {
      const abItem = (
        t.db.$client.prepare(`SELECT id FROM study_items WHERE study_id = ? LIMIT 1`).get(AB_STUDY) as { id: number }
      ).id;
      const noChoice = abAnswers(abItem, "A");
      noChoice["choice|A"] = { on: false };
      const abText = mturkResultsCsv(inputCsv(AB_STUDY, [abItem]), [{ hit: 0, workerId: "W1", answers: noChoice }]);
      const before = await tableCounts(t.db);
      const ab = await refusal(() => importMturkResults(t.db, AB_STUDY, { text: abText, fileName: "ab.csv" }));
      expect(ab.problems).toEqual([
        { line: 2, assignmentId: mturkId("3ASG", "0XW1"), path: "choice", message: "no conversation was chosen" },
      ]);

      const [own] = openConsensusItems(1);
      const scenario = await scenarioOfItem(t.db, own);
      const answers = consensusAnswers(own, scenario, await labelFor(t.db, own, 1));
      const topic = scenario.topics[0].id;
      for (const key of Object.keys(answers)) if (key.startsWith(`score|${topic}|`)) answers[key] = { on: false };
      const err = await expectRefused(
        mturkResultsCsv(inputCsv(CONSENSUS_STUDY, [own]), [{ hit: 0, workerId: "W1", answers }]),
        /no score was chosen/,
      );
      expect(err.problems).toEqual([
        expect.objectContaining({ line: 2, path: `topics.${topic}.score`, message: "no score was chosen" }),
      ]);
      expect(await tableCounts(t.db)).toEqual(before);
    });

    it("a different answer under an AssignmentId imported before, naming its line; the new rows in that file are not kept either", async () => {
      const { items, input, assignments, text } = await consensusBatch();
      await importMturkResults(t.db, CONSENSUS_STUDY, { text, fileName: "first.csv" });
      const changed = assignments.map((a) => ({ ...a }));
      changed[4].answers = consensusAnswers(
        items[1],
        await scenarioOfItem(t.db, items[1]),
        await labelFor(t.db, items[1], 7),
      );
      const extra = items[2]; // not in the first file
      const text2 = mturkResultsCsv(input, [
        ...changed,
        {
          hit: 2,
          workerId: "A4DELTA",
          answers: consensusAnswers(extra, await scenarioOfItem(t.db, extra), await labelFor(t.db, extra, 2)),
        },
      ]);
      const err = await expectRefused(text2, /different answer/);
      expect(err.problems).toEqual([
        {
          line: lineOf(text2, mturkId("3ASG", "1XA2BRAVO")),
          assignmentId: mturkId("3ASG", "1XA2BRAVO"),
          path: "AssignmentId",
          message: expect.stringMatching(/imported before with a different answer/),
        },
      ]);
      expect(t.db.$client.prepare(`SELECT count(*) AS n FROM annotators WHERE external_id = 'A4DELTA'`).get()).toEqual({
        n: 0,
      });
    });
  });

  it("keeps a later status when an older download still says Submitted", async () => {
    const { input, assignments, text } = await consensusBatch();
    const approved = assignments.map((a) => ({
      ...a,
      status: a.status === "Rejected" ? ("Rejected" as const) : ("Approved" as const),
    }));
    await importMturkResults(t.db, CONSENSUS_STUDY, { text: mturkResultsCsv(input, approved), fileName: "later.csv" });
    const { summary } = await importMturkResults(t.db, CONSENSUS_STUDY, { text, fileName: "older.csv" });
    expect(summary.statusUpdated).toBe(0);
    const inFile = new Set(approved.map((a) => a.assignmentId ?? mturkId("3ASG", `${a.hit}X${a.workerId}`)));
    const statuses = (await listCrowdAssignments(t.db, CONSENSUS_STUDY, "mturk"))
      .filter((r) => inFile.has(r.externalId))
      .map((r) => r.status);
    expect(statuses).toHaveLength(inFile.size);
    expect(new Set(statuses)).toEqual(new Set(["approved", "rejected"]));
  });

  it("writes the review file: gold failures and flagged workers rejected with a reason, the rest approved, settled rows blank", async () => {
    const items = t.db.$client
      .prepare(
        `SELECT i.id, i.is_gold AS isGold, p.level_a AS a, p.level_b AS b FROM study_items i JOIN ab_pairs p ON p.id = i.ab_pair_id WHERE i.study_id = ? ORDER BY i.position`,
      )
      .all(AB_STUDY) as { id: number; isGold: number; a: number; b: number }[];
    const gold = items.filter((i) => i.isGold === 1).slice(0, 2);
    const plain = items.filter((i) => i.isGold === 0).slice(0, 2);
    expect(gold).toHaveLength(2);
    const right = (i: { a: number; b: number }) => (i.a > i.b ? "A" : "B");
    const wrong = (i: { a: number; b: number }) => (i.a > i.b ? "B" : "A");
    const hits = [...gold, ...plain];
    const input = inputCsv(
      AB_STUDY,
      hits.map((i) => i.id),
    );
    const answer = (
      hit: number,
      workerId: string,
      choice: "A" | "B",
      status: WorkerAssignment["status"] = "Submitted",
    ): WorkerAssignment => ({ hit, workerId, status, answers: abAnswers(hits[hit].id, choice) });
    const assignments = [
      answer(0, "WGOOD", right(gold[0])),
      answer(1, "WGOOD", right(gold[1])),
      answer(2, "WGOOD", right(plain[0])),
      answer(3, "WGOOD", right(plain[1]), "Approved"), // settled on MTurk already
      answer(0, "WSLIP", wrong(gold[0])), // one gold item missed: that assignment is rejected
      answer(2, "WSLIP", right(plain[0])),
      answer(0, "WBAD", wrong(gold[0])), // both gold items missed: flagged, everything rejected
      answer(1, "WBAD", wrong(gold[1])),
      answer(3, "WBAD", right(plain[1])),
      answer(2, "WGONE", right(plain[0]), "Rejected"),
    ];
    const text = mturkResultsCsv(input, assignments);
    const { review } = await importMturkResults(t.db, AB_STUDY, { text, fileName: "ab.csv" });
    expect(review).toMatchObject({ approvals: 4, rejections: 4, untouched: 2 });

    const original = parseCsv(text);
    const written = parseCsv(review.csv);
    expect(written.header).toEqual(original.header);
    expect(
      review.csv
        .split("\r\n")[0]
        .split(",")
        .every((f) => /^".*"$/.test(f)),
    ).toBe(true);
    const approve = written.header.indexOf("Approve");
    const reject = written.header.indexOf("Reject");
    expect(approve).toBe(written.header.length - 2);
    const cells = written.records.map((r) => ({
      worker: r.fields[written.header.indexOf("WorkerId")],
      approve: r.fields[approve],
      reject: r.fields[reject],
    }));
    expect(cells.map((c) => [c.worker, c.approve, c.reject === "" ? "" : "reason"])).toEqual([
      ["WGOOD", "x", ""],
      ["WGOOD", "x", ""],
      ["WGOOD", "x", ""],
      ["WGOOD", "", ""],
      ["WSLIP", "", "reason"],
      ["WSLIP", "x", ""],
      ["WBAD", "", "reason"],
      ["WBAD", "", "reason"],
      ["WBAD", "", "reason"],
      ["WGONE", "", ""],
    ]);
    expect(cells[4].reject).toMatch(/check question with a known answer/);
    expect(cells[8].reject).toMatch(/matched 0 of 2 check questions/);
    // Everything but the two review columns is the file as downloaded (multi-line HTML included).
    written.records.forEach((r, i) =>
      expect(r.fields.slice(0, approve)).toEqual(original.records[i].fields.slice(0, approve)),
    );

    // The decisions are recorded on the assignments; importing again changes none of them.
    const decided = (await listCrowdAssignments(t.db, AB_STUDY, "mturk")).filter((r) => r.decision !== null);
    expect(decided).toHaveLength(8);
    const stamps = t.db.$client
      .prepare(`SELECT decided_at FROM crowd_assignments WHERE decided_at IS NOT NULL ORDER BY id`)
      .all();
    const counts = await tableCounts(t.db);
    const again = await importMturkResults(t.db, AB_STUDY, { text, fileName: "ab.csv" });
    expect(again.review.csv).toBe(review.csv);
    expect(
      t.db.$client.prepare(`SELECT decided_at FROM crowd_assignments WHERE decided_at IS NOT NULL ORDER BY id`).all(),
    ).toEqual(stamps);
    expect(await tableCounts(t.db)).toEqual(counts);
  });

  it("confirms a pending answer from the task page when the file names the same worker and HIT, lists a mismatch, and stores rows past k as surplus", async () => {
    const item = (
      t.db.$client
        .prepare(`SELECT id FROM study_items WHERE study_id = ? AND is_gold = 0 ORDER BY position LIMIT 1`)
        .get(AB_STUDY) as { id: number }
    ).id;
    const counted = () =>
      t.db.$client.prepare(`SELECT count(*) AS n FROM labels WHERE study_item_id = ? AND status = 'counted'`).get(item);
    expect(counted()).toEqual({ n: 3 });
    const hitId = mturkId("3HIT", "0");
    const pendingFromPage = (workerId: string, assignmentId: string, choice: "A" | "B") =>
      recordCrowdAssignment(t.db, {
        channel: "mturk",
        externalId: assignmentId,
        externalGroupId: hitId,
        studyId: AB_STUDY,
        itemId: item,
        workerId,
        status: "submitted",
        payload: { kind: "ab-reactiveness", choice },
        secondsOnTask: 40,
        rewardUsd: 0.5,
        acceptedAt: null,
        submittedAt: null,
        source: "external-question",
      });
    const realId = mturkId("3ASG", "0XAPENDING1");
    const forgedId = mturkId("3ASG", "0XAIMPOSTOR");
    await pendingFromPage("APENDING1", realId, "A");
    await pendingFromPage("AIMPOSTOR", forgedId, "B");

    const text = mturkResultsCsv(inputCsv(AB_STUDY, [item]), [
      { hit: 0, workerId: "APENDING1", answers: abAnswers(item, "A") },
      // MTurk has this AssignmentId, but for another worker.
      { hit: 0, workerId: "AOTHER", assignmentId: forgedId, answers: abAnswers(item, "B") },
      { hit: 0, workerId: "ANEWCOMER", answers: abAnswers(item, "B") },
    ]);
    const { summary, review } = await importMturkResults(t.db, AB_STUDY, { text, fileName: "ab.csv" });
    expect(summary).toMatchObject({ rows: 3, stored: 1, confirmed: 1, surplus: 2, workersCreated: 1 });
    expect(summary.mismatched).toEqual([
      {
        line: lineOf(text, forgedId),
        assignmentId: forgedId,
        message: expect.stringMatching(
          /stored pending from the task page, but MTurk reports worker AOTHER; it stays pending/,
        ),
      },
    ]);

    const rows = t.db.$client
      .prepare(
        `SELECT a.external_id AS worker, l.status, c.confirmed_at IS NOT NULL AS confirmed FROM crowd_assignments c
         JOIN annotators a ON a.id = c.annotator_id JOIN labels l ON l.id = c.label_id WHERE c.study_item_id = ? AND c.channel = 'mturk' ORDER BY a.external_id`,
      )
      .all(item);
    expect(rows).toEqual([
      { worker: "AIMPOSTOR", status: "pending", confirmed: 0 },
      { worker: "ANEWCOMER", status: "surplus", confirmed: 1 },
      { worker: "APENDING1", status: "surplus", confirmed: 1 },
    ]);
    expect(counted()).toEqual({ n: 3 });
    expect(t.db.$client.prepare(`SELECT count(*) AS n FROM annotators WHERE external_id = 'AOTHER'`).get()).toEqual({
      n: 0,
    });
    // The unconfirmed assignment gets no approve or reject mark.
    expect(review).toMatchObject({ approvals: 2, rejections: 0, untouched: 1 });
  });
});
