/** The pure side of the MTurk results import: reading MTurk's cells and building the review file. */
import { describe, expect, it } from "vitest";
import { parseCsv } from "../../../app/domain/csv.ts";
import { parseMturkResults, parseMturkTime, parseRewardUsd } from "../../../app/domain/crowd/mturk-results.ts";
import { quotedCsv, reviewFileCsv } from "../../../app/domain/crowd/mturk-review.ts";
import { abAnswers, mturkResultsCsv, mturkTime } from "../../../harness/mturk-results.ts";

describe("MTurk cells", () => {
  it("reads MTurk's times in its U.S. zones, and nothing else", () => {
    expect(parseMturkTime("Mon Nov 23 09:12:45 PST 2026")).toBe("2026-11-23T17:12:45.000Z");
    expect(parseMturkTime("Tue Jul 07 23:59:59 PDT 2026")).toBe("2026-07-08T06:59:59.000Z");
    expect(parseMturkTime("Sun Mar 01 00:00:00 UTC 2026")).toBe("2026-03-01T00:00:00.000Z");
    expect(parseMturkTime("Mon Feb 30 09:00:00 PST 2026")).toBeNull();
    expect(parseMturkTime("Mon Nov 23 09:12:45 XYZ 2026")).toBeNull();
    expect(parseMturkTime("2026-11-23T17:12:45Z")).toBeNull();
    // The helper writes what the parser reads.
    const at = new Date("2026-11-23T17:12:45.000Z");
    expect(mturkTime(at)).toBe("Mon Nov 23 09:12:45 PST 2026");
    expect(parseMturkTime(mturkTime(at))).toBe(at.toISOString());
  });

  it("reads rewards with or without the dollar sign", () => {
    expect(parseRewardUsd("$0.50")).toBe(0.5);
    expect(parseRewardUsd("1.25")).toBe(1.25);
    expect(parseRewardUsd("$")).toBeNull();
    expect(parseRewardUsd("50 cents")).toBeNull();
  });
});

describe("parseMturkResults", () => {
  const input = { header: ["study_id", "item_id", "html"], rows: [["3", "41", '<p>a,\n"b"</p>']] };

  it("types a row: status, seconds, reward, ISO times, ids, answers", () => {
    const text = mturkResultsCsv(input, [{ hit: 0, workerId: "A1W", workSeconds: 95, answers: abAnswers(41, "B") }], {
      reward: "$0.75",
    });
    const { rows, problems } = parseMturkResults(text, 3);
    expect(problems).toEqual([]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      line: 2,
      workerId: "A1W",
      status: "Submitted",
      workSeconds: 95,
      rewardUsd: 0.75,
      studyId: 3,
      itemId: 41,
      acceptedAt: "2026-11-23T17:00:00.000Z",
      submittedAt: "2026-11-23T17:01:35.000Z",
    });
    expect(rows[0].answers).toMatchObject({ "choice|B": { on: true }, "choice|A": { on: false }, item_id: "41" });
  });

  it("keeps a time it cannot read as written, and does not read a rejected row's answer", () => {
    const text = mturkResultsCsv(input, [{ hit: 0, workerId: "A1W", status: "Rejected", answers: "not json" }]).replace(
      /"Mon Nov 23 09:00:00 PST 2026"/g,
      '"23/11/2026 09:00"',
    );
    const { rows, problems } = parseMturkResults(text, 3);
    expect(problems).toEqual([]);
    expect(rows[0]).toMatchObject({ status: "Rejected", answers: null, acceptedAt: "23/11/2026 09:00" });
  });

  it("names every missing column once, on line 1", () => {
    const text = '"HITId","WorkerId","Answer.taskAnswers"\r\n"3H","W","[]"\r\n';
    const { problems } = parseMturkResults(text, 3);
    expect(problems.map((p) => [p.line, p.path])).toEqual([
      [1, "AssignmentId"],
      [1, "AssignmentStatus"],
      [1, "WorkTimeInSeconds"],
      [1, "Input.study_id"],
      [1, "Input.item_id"],
    ]);
  });

  it("reports cell problems with the line the record starts on", () => {
    const text = mturkResultsCsv(
      { ...input, rows: [...input.rows, ["3", "0", "x"]] },
      [
        { hit: 0, workerId: "A1W", workSeconds: 1.5, answers: abAnswers(41, "A") },
        { hit: 1, workerId: "A2W", answers: abAnswers(41, "A") },
      ],
      { reward: "free" },
    );
    const { rows, problems } = parseMturkResults(text, 3);
    expect(rows).toEqual([]);
    expect(problems.map((p) => [p.line, p.path, p.message])).toEqual([
      [2, "WorkTimeInSeconds", '"1.5" is not a whole number of seconds'],
      [2, "Reward", '"free" is not an amount in USD such as $0.50'],
      [4, "Reward", '"free" is not an amount in USD such as $0.50'],
      [4, "Input.item_id", '"0" is not an item id (a positive whole number)'],
    ]);
  });

  it("turns a CSV syntax error into a problem with its line", () => {
    const { problems } = parseMturkResults('"HITId","AssignmentId"\n"a","b\n', 3);
    expect(problems).toEqual([{ line: 2, assignmentId: null, path: "CSV", message: "a quoted field is never closed" }]);
  });
});

describe("review file", () => {
  it("quotes every field like MTurk and round-trips through the reader", () => {
    const csv = quotedCsv(["a", "b"], [["x, y", 'say "hi"\nthere']]);
    expect(csv).toBe('"a","b"\r\n"x, y","say ""hi""\nthere"\r\n');
    expect(parseCsv(csv).records[0].fields).toEqual(["x, y", 'say "hi"\nthere']);
  });

  it("adds Approve and Reject when missing, fills the decided rows and clears the rest", () => {
    const csv = reviewFileCsv(
      ["AssignmentId", "Answer.taskAnswers"],
      [
        ["A1", "[]"],
        ["A2", "[]"],
        ["A3", "[]"],
      ],
      new Map([
        [0, { decision: "approve" as const }],
        [1, { decision: "reject" as const, reason: "Missed a check\nquestion." }],
      ]),
    );
    const parsed = parseCsv(csv);
    expect(parsed.header).toEqual(["AssignmentId", "Answer.taskAnswers", "Approve", "Reject"]);
    expect(parsed.records.map((r) => r.fields.slice(2))).toEqual([
      ["x", ""],
      ["", "Missed a check question."],
      ["", ""],
    ]);
  });
});
