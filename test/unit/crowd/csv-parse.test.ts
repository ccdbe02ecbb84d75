import { describe, expect, it } from "vitest";
import { csvObjects, CsvSyntaxError, parseCsv, toCsv } from "../../../app/domain/csv.ts";

describe("parseCsv", () => {
  it("reads quoted commas, doubled quotes and line breaks, and reports the line each record starts on", () => {
    const text = 'a,b,c\r\n1,"x, y","say ""hi"""\r\n2,"line one\nline two\r\nline three",z\n3,,\n';
    const parsed = parseCsv(text);
    expect(parsed.header).toEqual(["a", "b", "c"]);
    expect(parsed.records).toEqual([
      { line: 2, fields: ["1", "x, y", 'say "hi"'] },
      { line: 3, fields: ["2", "line one\nline two\r\nline three", "z"] },
      { line: 6, fields: ["3", "", ""] },
    ]);
    expect(csvObjects(parsed)[1].values).toEqual({ a: "2", b: "line one\nline two\r\nline three", c: "z" });
  });

  it("round-trips whatever toCsv writes", () => {
    const rows = [
      ["plain", 'quo"te', "comma,here", "multi\nline\r\nbreaks", "", "<script>alert('x')</script>"],
      ["ünïcödé", "  spaces  ", '""', ",", "\n", "end"],
    ];
    const header = ["c1", "c2", "c3", "c4", "c5", "c6"];
    const parsed = parseCsv(toCsv(header, rows));
    expect(parsed.header).toEqual(header);
    expect(parsed.records.map((r) => r.fields)).toEqual(rows);
  });

  it("strips a byte-order mark and skips blank lines", () => {
    const parsed = parseCsv('\uFEFF"h1","h2"\n\n"v1","v2"\n\n');
    expect(parsed.header).toEqual(["h1", "h2"]);
    expect(parsed.records).toEqual([{ line: 3, fields: ["v1", "v2"] }]);
  });

  it("names the line of a record with the wrong number of fields", () => {
    expect(() => parseCsv('a,b\n1,2\n"x\ny",2,3\n')).toThrowError(
      new CsvSyntaxError(3, "3 fields, but the header has 2"),
    );
  });

  it("names the line where an unclosed quote opens", () => {
    expect(() => parseCsv('a,b\n1,2\n3,"never closed\n4,5\n')).toThrow(/line 3: a quoted field is never closed/);
  });

  it("refuses stray quotes and an empty file", () => {
    expect(() => parseCsv('a,b\n1,x"y\n')).toThrow(/line 2: a quote inside an unquoted field/);
    expect(() => parseCsv('a,b\n"1"x,2\n')).toThrow(/line 2: unexpected text after a closing quote/);
    expect(() => parseCsv("")).toThrow(/line 1: the file is empty/);
  });
});
