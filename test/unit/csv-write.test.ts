/**
 * The app's one CSV writer (app/domain/csv.ts), which the report's csv files, the label export,
 * MTurk's input and review files all go through: exact output for every character that needs
 * quoting, spaces kept, the formula guard, and a round trip through the reader.
 */
import { describe, expect, it } from "vitest";
import { csvField, csvRecord, parseCsv, toCsv } from "../../app/domain/csv.ts";
import { tableCsv } from "../../app/domain/benchmark/report/format.ts";
import { reviewFileCsv } from "../../app/domain/crowd/mturk-review.ts";

const AWKWARD = ["a,b", 'say "hi"', "one\ntwo", "one\rtwo", "one\r\ntwo", "  padded  ", " lead", "trail ", "plain"];

describe("csvField", () => {
  it("quotes a comma, a quote, \\n and \\r, doubles quotes, and keeps leading and trailing spaces unquoted", () => {
    expect(AWKWARD.map((v) => csvField(v))).toEqual([
      '"a,b"',
      '"say ""hi"""',
      '"one\ntwo"',
      '"one\rtwo"',
      '"one\r\ntwo"',
      "  padded  ",
      " lead",
      "trail ",
      "plain",
    ]);
  });

  it("quotes every field when asked (MTurk's style), with the same escaping", () => {
    expect(csvRecord(["x", "a,b", 'q"', " s "], { quoteAll: true })).toBe('"x","a,b","q"""," s "');
  });

  it("guards formula-leading text with ' (plain numbers stay), unless verbatim", () => {
    expect(csvRecord(["=1+1", "+cmd", "-x", "@SUM(A1)", "\tx", "\rx", -0.5, "+3", "1e-3"])).toBe(
      `'=1+1,'+cmd,'-x,'@SUM(A1),'\tx,"'\rx",-0.5,+3,1e-3`,
    );
    expect(csvRecord(["=1+1", "\rx"], { verbatim: true })).toBe('=1+1,"\rx"');
  });

  it("writes null and undefined as empty fields, objects as JSON", () => {
    expect(csvRecord([null, undefined, { a: [1, 2] }, 0])).toBe(',,"{""a"":[1,2]}",0');
  });

  it("round-trips every awkward value through the reader, quoted as needed or always", () => {
    const rows = [AWKWARD, AWKWARD.map((v) => v.toUpperCase())];
    const header = AWKWARD.map((_, i) => `c${i}`);
    for (const options of [{}, { quoteAll: true }]) {
      expect(parseCsv(toCsv(header, rows, options)).records.map((r) => r.fields)).toEqual(rows);
    }
  });
});

describe("its users", () => {
  it("the report's table csv quotes a label with \\r and guards a formula-leading mediator name", () => {
    const csv = tableCsv({
      id: "t",
      title: "T",
      caption: "",
      scale: "raw",
      columns: [{ key: "c", label: "col,1" }],
      rows: [{ key: "r", label: "=evil\rname", cells: { c: { text: "x", value: 1 } } }],
      notes: [],
    });
    const header = "table,row,column,mean,median,n,missing,ci_low,ci_high,text";
    expect(csv).toBe(`${header}\nt,"'=evil\rname","col,1",1,,,,,,x\n`);
  });

  it("MTurk's review file quotes every field and guards a worker's formula", () => {
    const marks = new Map([[0, { decision: "approve" as const }]]);
    const csv = reviewFileCsv(["AssignmentId", "Answer.x"], [["A1", "=cmd"]], marks);
    expect(csv).toBe('"AssignmentId","Answer.x","Approve","Reject"\r\n"A1","\'=cmd","x",""\r\n');
  });
});
