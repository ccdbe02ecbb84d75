/**
 * `socrates promediate import` through the CLI's main in this process: the per-case summary and
 * warnings, --dry-run, and damaged copies of a real case (written to a temp dir) refused by file
 * and JSON path with exit 2 and nothing written, even beside a good case.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../../app/server/db.server.ts";
import { tableCounts, tempDir } from "../../../harness/temp-db.ts";
import { runCliInProcess } from "../../helpers/cli-in-process.ts";
import { CASES_DIR } from "./cases-dir.ts";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

async function setup() {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const dbPath = join(dir, "cli.db");
  (await openDatabase(dbPath)).$client.close();
  return { dir, dbPath, env: { SOCRATES_DB: dbPath } };
}

async function counts(dbPath: string) {
  const db = await openDatabase(dbPath);
  try {
    return await tableCounts(db);
  } finally {
    db.$client.close();
  }
}

const williams = () => JSON.parse(readFileSync(join(CASES_DIR, "williams.json"), "utf8"));

/** A case folder in the temp dir: williams.json damaged by `damage`, hmo.json intact, topics.json copied. */
function damagedFolder(dir: string, damage: (c: Record<string, unknown>) => string | undefined) {
  const folder = join(dir, "cases");
  mkdirSync(folder);
  copyFileSync(join(CASES_DIR, "hmo.json"), join(folder, "hmo.json"));
  copyFileSync(join(CASES_DIR, "topics.json"), join(folder, "topics.json"));
  const c = williams();
  const text = damage(c) ?? JSON.stringify(c);
  writeFileSync(join(folder, "williams.json"), text);
  return folder;
}

const damaged: { name: string; damage: (c: Record<string, unknown>) => string | undefined; expected: RegExp[] }[] = [
  {
    name: "missing names",
    damage: (c) => void delete c.names,
    expected: [/williams\.json: \$\.names: Required/],
  },
  {
    name: "an option list in no known label style",
    damage: (c) =>
      void (c.options = (c.options as string).replace(
        /\(([abc])\) (No additional|1 additional|2 {2}additional)/g,
        "[$1] $2",
      )),
    expected: [/williams\.json: \$\.options: issue 2 \("Allocation of Costs"\): no two options labelled in order/],
  },
  {
    name: "a topic count mismatch",
    damage: (c) => void (c.topics = ["Consultation procedures", "Allocation of costs"]),
    expected: [
      /williams\.json: \$\.issues: 3 numbered issues \(1\., 2\., …\) for 2 topics/,
      /williams\.json: \$\.options: 3 numbered option lists \(1\., 2\., …\) for 2 topics/,
    ],
  },
  {
    name: "more options than a topic may have",
    damage: (c) =>
      void (c.options = (c.options as string).replace(
        "\n\n2. Allocation of Costs",
        " (e) e (f) f (g) g (h) h (i) i\n\n2. Allocation of Costs",
      )),
    expected: [/williams\.json: \$\.options: issue 1: Array must contain at most 8 element\(s\)/],
  },
  {
    name: "bad JSON",
    damage: (c) => JSON.stringify(c).slice(0, 200),
    expected: [/williams\.json: \$: not valid JSON/],
  },
];

describe("socrates promediate import", { timeout: 60_000 }, () => {
  it("prints a summary per case and the spelling warnings, and stores the scenarios", async () => {
    const { dbPath, env } = await setup();
    const result = await runCliInProcess(["promediate", "import", CASES_DIR], env);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      "williams.json -> promediate-williams: 3 topics, 10 options (4/3/3), 5 parties (BRADLEY, PATRICIA, ROBERT, STEWARD, SUSAN), 0 warnings",
    );
    expect(result.stdout).toContain("hmo.json -> promediate-hmo: 5 topics, 15 options (2/3/5/3/2), 3 parties");
    expect(result.stdout).toContain("stored 6 scenarios and 6 conditions");
    expect(result.stderr).toContain(
      `warning: ${join(CASES_DIR, "francis.json")}: $.config.MacNamara: spelled "Macnamara" in $.names`,
    );
    expect(result.stderr).toContain(`warning: ${join(CASES_DIR, "ias.json")}: $.config.McKenzie: spelled "Mckenzie"`);
    expect(await counts(dbPath)).toMatchObject({ scenarios: 6, conditions: 6 });
    const again = await runCliInProcess(["promediate", "import", CASES_DIR], env);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain("stored 0 scenarios and 0 conditions; already present and unchanged: 6 scenarios");
  });

  it("--dry-run says what it would store and writes nothing", async () => {
    const { dbPath, env } = await setup();
    const before = await counts(dbPath);
    const result = await runCliInProcess(
      ["promediate", "import", join(CASES_DIR, "hmo.json"), "--topics", join(CASES_DIR, "topics.json"), "--dry-run"],
      env,
    );
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("would store 1 scenarios and 1 conditions");
    expect(await counts(dbPath)).toEqual(before);
  });

  for (const { name, damage, expected } of damaged) {
    it(`refuses a case with ${name} by file and JSON path, exit 2, writing nothing`, async () => {
      const { dir, dbPath, env } = await setup();
      const before = await counts(dbPath);
      const folder = damagedFolder(dir, damage);
      const result = await runCliInProcess(["promediate", "import", folder], env);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain("import refused, nothing was written");
      for (const e of expected) expect(result.stderr).toMatch(e);
      expect(result.stderr).not.toContain("hmo.json:");
      expect(await counts(dbPath)).toEqual(before);
    });
  }

  it("refuses a case whose file changed since its import (same scenario id, other content)", async () => {
    const { dir, dbPath, env } = await setup();
    const file = join(dir, "williams.json");
    copyFileSync(join(CASES_DIR, "williams.json"), file);
    const topics = ["--topics", join(CASES_DIR, "topics.json")];
    expect((await runCliInProcess(["promediate", "import", file, ...topics], env)).status).toBe(0);
    const before = await counts(dbPath);
    const c = williams();
    c.instruction = `${c.instruction}\nA sentence added later.`;
    writeFileSync(file, JSON.stringify(c));
    const result = await runCliInProcess(["promediate", "import", file, ...topics], env);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      /williams\.json: \$: the records built from it, at \$\.scenarios\[0\]: "promediate-williams" is already stored with different content/,
    );
    expect(await counts(dbPath)).toEqual(before);
  });

  it("names a case with no topic list when no topics.json is given or beside it", async () => {
    const { dir, dbPath, env } = await setup();
    const file = join(dir, "river.json");
    copyFileSync(join(CASES_DIR, "river.json"), file);
    const result = await runCliInProcess(["promediate", "import", file], env);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      "river.json: $.topics: the case has no topic list and no topics.json was given (--topics) or found beside it",
    );
    expect(await counts(dbPath)).toMatchObject({ scenarios: 0 });
  });
});
