/**
 * Issue 29, finding 11: files the CLI imports besides bundles (MTurk results, Prolific exports,
 * JSON options, benchmark plans) were decoded leniently, so a Latin-1 byte became U+FFFD in
 * stored strings. They are read strictly: the error names the file, byte offset and line.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadPlanFile } from "../../app/server/benchmark/plan-file.server.ts";
import { BenchmarkPlanError } from "../../app/domain/benchmark/plan.ts";
import { readJsonFile, readTextFile, UserError } from "../../scripts/cli-kit.ts";
import { runCli } from "../helpers/cli.ts";
import { tempDir } from "../../harness/temp-db.ts";

const tmp = tempDir();
afterAll(() => tmp.cleanup());

// "AssignmentId,Answer.comment\nA1,caf\xe9\n": the é as the one Latin-1 byte 0xe9.
const LATIN1_CSV = Buffer.concat([Buffer.from("AssignmentId,Answer.comment\nA1,caf"), Buffer.from([0xe9, 0x0a])]);

describe("strict UTF-8 reading of imported files", () => {
  it("readTextFile and readJsonFile name the byte and line; good UTF-8 reads as written", () => {
    const csv = join(tmp.dir, "results.csv");
    writeFileSync(csv, LATIN1_CSV);
    expect(() => readTextFile(csv)).toThrow(
      new UserError(`${csv}: invalid UTF-8 at byte 34 (line 2, byte 7 of the line: e9 0a); save the file as UTF-8`),
    );
    writeFileSync(csv, "AssignmentId,Answer.comment\nA1,café\n");
    expect(readTextFile(csv)).toBe("AssignmentId,Answer.comment\nA1,café\n");
    const json = join(tmp.dir, "options.json");
    writeFileSync(json, Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff]), Buffer.from('"}')]));
    expect(() => readJsonFile(json)).toThrow(
      /options\.json: invalid UTF-8 at byte 9 \(line 1, byte 10 of the line: ff 22 7d\)/,
    );
  });

  it("a benchmark plan with a Latin-1 mediator name is refused by name, in process and by the CLI with exit 2", () => {
    const plan = join(tmp.dir, "plan.json");
    writeFileSync(
      plan,
      Buffer.concat([
        Buffer.from('{"name":"p","mediators":[{"name":"M'),
        Buffer.from([0xe9]),
        Buffer.from('diateur","model":"m"}]}'),
      ]),
    );
    expect(() => loadPlanFile(plan)).toThrow(BenchmarkPlanError);
    expect(() => loadPlanFile(plan)).toThrow(
      `${plan}: invalid UTF-8 at byte 35 (line 1, byte 36 of the line: e9 64 69 61)`,
    );
    const result = runCli(["report", "--plan", plan, "--out", join(tmp.dir, "out")], {
      SOCRATES_DB: join(tmp.dir, "cli.db"),
    });
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain(`${plan}: invalid UTF-8 at byte 35`);
  });
});
