/** Reading Prolific's submissions export: columns by name in any order and naming, statuses, codes. */
import { describe, expect, it } from "vitest";
import {
  columnKey,
  formatExportProblem,
  isConfirmingStatus,
  normaliseStatus,
  parseProlificExport,
} from "../../../app/domain/crowd/prolific-export.ts";

describe("Prolific export parsing", () => {
  it("reads today's header with extra columns in any order", () => {
    const text =
      "Age,Completion code,Status,Participant id,Submission id,Started at\r\n" +
      '34,C0DE42,AWAITING REVIEW,5f1a2b3c4d5e6f7a8b9c0d1e,64aa00000000000000000001,"2026-03-02 10:00:00"\r\n' +
      "29,NOCODE,APPROVED,5f1a2b3c4d5e6f7a8b9c0d1f,64aa00000000000000000002,\r\n";
    expect(parseProlificExport(text)).toEqual({
      problems: [],
      rows: [
        {
          line: 2,
          submissionId: "64aa00000000000000000001",
          participantId: "5f1a2b3c4d5e6f7a8b9c0d1e",
          status: "AWAITING REVIEW",
          completionCode: "C0DE42",
          studyId: null,
        },
        {
          line: 3,
          submissionId: "64aa00000000000000000002",
          participantId: "5f1a2b3c4d5e6f7a8b9c0d1f",
          status: "APPROVED",
          completionCode: null,
          studyId: null,
        },
      ],
    });
  });

  it("reads the older snake_case export (session_id, participant_id, entered_code) and the API's status spelling", () => {
    const text =
      "session_id,participant_id,status,entered_code,study_id\nabc,p1,awaiting_review,,60aa\nabd,p2,TIMED-OUT,X1,60aa\n";
    const { rows, problems } = parseProlificExport(text);
    expect(problems).toEqual([]);
    expect(rows.map((r) => [r.submissionId, r.participantId, r.status, r.completionCode, r.studyId])).toEqual([
      ["abc", "p1", "AWAITING REVIEW", null, "60aa"],
      ["abd", "p2", "TIMED-OUT", "X1", "60aa"],
    ]);
  });

  it("refuses a header naming one column twice, and an empty file", () => {
    expect(parseProlificExport("Submission id,session_id,Participant id,Status\n").problems[0]).toEqual({
      line: 1,
      column: "Submission id / session_id",
      message: "these columns all name the submission id; keep one",
    });
    expect(parseProlificExport("Submission id,Participant id,Status\n").problems).toEqual([
      { line: 1, column: "CSV", message: "the file has a header but no submissions" },
    ]);
    expect(parseProlificExport("").problems[0].message).toMatch(/empty/);
  });

  it("helpers", () => {
    expect(columnKey("  Submission_ID ")).toBe("submission id");
    expect(normaliseStatus(" awaiting  review")).toBe("AWAITING REVIEW");
    expect(isConfirmingStatus("APPROVED")).toBe(true);
    expect(isConfirmingStatus("RETURNED")).toBe(false);
    expect(formatExportProblem("f.csv", { line: 4, column: "Status", message: "is empty" })).toBe(
      'f.csv row 4, column "Status": is empty',
    );
  });
});
