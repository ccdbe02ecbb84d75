import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../app/server/db.server.ts";
import { fixtureBundle } from "../fixtures/bundle-fixture.ts";
import { runCli } from "../helpers/cli.ts";
import { runCliInProcess } from "../helpers/cli-in-process.ts";
import { tableCounts, tempDir } from "../../harness/temp-db.ts";

// Each malformed bundle: what to break, and the file-and-path message the CLI must print.
const malformed: { name: string; write: (file: string) => void; expected: RegExp }[] = [
  {
    name: "invalid JSON",
    write: (file) => writeFileSync(file, '{"format": "socrates-bundle", "version": 1, "scenarios": [}'),
    expected: /invalid-json\.json: \$: invalid JSON/,
  },
  {
    name: "a missing field",
    write: (file) => {
      const b = fixtureBundle();
      delete (b.scenarios[0] as Partial<(typeof b.scenarios)[0]>).background;
      writeFileSync(file, JSON.stringify(b));
    },
    expected: /a-missing-field\.json: \$\.scenarios\[0\]\.background: Required/,
  },
  {
    name: "an unknown topic id in a judge output",
    write: (file) => {
      const b = fixtureBundle();
      const output = b.evaluations[0].output as Record<string, unknown>;
      output.BUDGET = output.DATE;
      writeFileSync(file, JSON.stringify(b));
    },
    expected:
      /an-unknown-topic-id-in-a-judge-output\.json: \$\.evaluations\[0\]\.output\.BUDGET: unknown topic id "BUDGET"/,
  },
  {
    name: "a turn id outside the run",
    write: (file) => {
      const b = fixtureBundle();
      const output = b.evaluations[0].output as Record<string, { agreement_score: { turn_id: number }[] }>;
      output.DATE.agreement_score[0].turn_id = 42;
      writeFileSync(file, JSON.stringify(b));
    },
    expected:
      /a-turn-id-outside-the-run\.json: \$\.evaluations\[0\]\.output\.DATE\.agreement_score\[0\]\.turn_id: turn 42 is outside the run \(1\.\.7\)/,
  },
  {
    name: "a score of 7",
    write: (file) => {
      const b = fixtureBundle();
      const output = b.evaluations[0].output as Record<string, { agreement_score: { score: number }[] }>;
      output.PRICE.agreement_score[1].score = 7;
      writeFileSync(file, JSON.stringify(b));
    },
    expected:
      /a-score-of-7\.json: \$\.evaluations\[0\]\.output\.PRICE\.agreement_score\[1\]\.score: a score is from 1 to 5/,
  },
  {
    name: "a duplicate party id",
    write: (file) => {
      const b = fixtureBundle();
      b.scenarios[0].parties[1].id = "BUY";
      writeFileSync(file, JSON.stringify(b));
    },
    expected: /a-duplicate-party-id\.json: \$\.scenarios\[0\]\.parties\[1\]\.id: duplicate party id "BUY"/,
  },
  {
    // The seed below stores condition fx-1:general; the same scenario, axis and variant under a new id broke SQLite's
    // unique index (issue 29).
    name: "a stored condition's key under a new id",
    write: (file) =>
      writeFileSync(
        file,
        JSON.stringify({
          format: "socrates-bundle",
          version: 1,
          conditions: [{ ...fixtureBundle().conditions[0], id: "fx-1:general-again" }],
        }),
      ),
    expected:
      /a-stored-condition's-key-under-a-new-id\.json: \$\.conditions\[0\]\.variant: the stored condition "fx-1:general" already has scenario "fx-1", axis "general", variant "default"/,
  },
  {
    name: "a run config nested 10000 deep",
    write: (file) => {
      const b = fixtureBundle();
      writeFileSync(
        file,
        JSON.stringify(b).replace('"config":{', `"config":{"deep":${"[".repeat(10_000)}${"]".repeat(10_000)},`),
      );
    },
    expected:
      /a-run-config-nested-10000-deep\.json: \$\.runs\[0\]\.config\.deep(\[0\]){60}: nested deeper than 64 levels/,
  },
  {
    name: "invalid UTF-8",
    write: (file) =>
      writeFileSync(
        file,
        Buffer.concat([
          Buffer.from('{"format": "socrates-bundle",\n "version": 1, "description": "caf'),
          Buffer.from([0xe9]),
          Buffer.from('"}'),
        ]),
      ),
    expected: /invalid-utf-8\.json: \$: invalid UTF-8 at byte 64 \(line 2, byte 35 of the line: e9 22 7d\)/,
  },
];

// The import and export commands run in the test's process (runCliInProcess: the bin's `main`, its
// output and exit code); the help test spawns the built CLI.
describe("socrates import (CLI)", () => {
  const tmp = tempDir();
  const dbPath = join(tmp.dir, "cli.db");
  const env = { SOCRATES_DB: dbPath };
  let baseline: Record<string, number>;

  beforeAll(async () => {
    // Start from a database that already holds data, so "unchanged" means something.
    const seeded = {
      ...fixtureBundle(),
      scenarios: fixtureBundle().scenarios,
      runs: [],
      matched_pairs: [],
      evaluations: [],
    };
    writeFileSync(join(tmp.dir, "seed.json"), JSON.stringify(seeded));
    expect((await runCliInProcess(["import", join(tmp.dir, "seed.json")], env)).status).toBe(0);
    const db = await openDatabase(dbPath);
    baseline = await tableCounts(db);
    db.$client.close();
  });
  afterAll(() => tmp.cleanup());

  for (const c of malformed) {
    it(`refuses ${c.name} with exit code 2, naming file and JSON path, and changes nothing`, async () => {
      const file = join(tmp.dir, `${c.name.toLowerCase().replace(/ /g, "-")}.json`);
      c.write(file);
      const result = await runCliInProcess(["import", file], env);
      expect(result.status, result.stderr).toBe(2);
      expect(result.stderr).toMatch(c.expected);
      expect(result.stderr).toMatch(/nothing was written/);
      const db = await openDatabase(dbPath);
      expect(await tableCounts(db)).toEqual(baseline);
      db.$client.close();
    });
  }

  it("imports a good bundle, reports it, and importing it again changes nothing", async () => {
    const file = join(tmp.dir, "good.json");
    writeFileSync(file, JSON.stringify(fixtureBundle()));
    const dry = await runCliInProcess(["import", file, "--dry-run"], env);
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(
      /would import 2 runs, 1 matched pairs, 2 evaluations; already present and unchanged: 1 scenarios, 1 conditions/,
    );
    const first = await runCliInProcess(["import", file], env);
    expect(first.stdout).toMatch(/^imported 2 runs/);
    const second = await runCliInProcess(["import", file], env);
    expect(second.stdout).toMatch(
      /^imported nothing; already present and unchanged: 1 scenarios, 1 conditions, 2 runs, 1 matched pairs, 2 evaluations/,
    );

    const out = join(tmp.dir, "export.json");
    expect((await runCliInProcess(["export", out], env)).status).toBe(0);
    const exported = JSON.parse(readFileSync(out, "utf8"));
    expect(exported.runs.map((r: { id: string }) => r.id)).toEqual(["fx-1:med", "fx-1:unmed"]);
  });

  it("prints help for every command", () => {
    for (const args of [
      ["--help"],
      ["import", "--help"],
      ["export", "--help"],
      ["seed-demo", "--help"],
      ["db", "migrate", "--help"],
    ]) {
      const result = runCli(args);
      expect(result.status, args.join(" ")).toBe(0);
      expect(result.stdout).toMatch(/Usage: socrates/);
    }
  });
});
