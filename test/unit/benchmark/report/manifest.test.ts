/**
 * Issue 28, item 8: every report folder has a manifest.json (project version and commit, plan
 * and config hashes with no secret in them, models, seeds, studies, counts, the date, a hash of
 * every source row, every number), and `report --verify DIR` passes on a fresh report and fails,
 * naming the number and the changed row, after one metric row is changed in the database.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseManifest } from "../../../../app/domain/benchmark/provenance/manifest.ts";
import { configHash, projectInfo } from "../../../../app/server/benchmark/report-manifest.server.ts";
import { planGrid } from "../../../../app/server/benchmark/plan-file.server.ts";
import { runCliInProcess } from "../../../helpers/cli-in-process.ts";
import { demoStudiesDb } from "../../../helpers/demo-studies-db.ts";
import { tempDir } from "../../../../harness/temp-db.ts";
import { fixturePlan, MAIN_JUDGE, seedGrid } from "./fixture.ts";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** The demo's expert consensus study (1) and A/B study (3). */
const loaded = fixturePlan({ studies: [1, 3] });

async function reportFolder() {
  const t = await demoStudiesDb();
  await seedGrid(t.db, loaded);
  const planFile = join(t.dir, "plan.json");
  writeFileSync(planFile, JSON.stringify(loaded.plan));
  const configFile = join(t.dir, "socrates.config.json");
  writeFileSync(
    configFile,
    JSON.stringify({
      endpoints: {
        main: { baseURL: "http://127.0.0.1:9/v1", apiKeyEnv: "SECRET_NAME_ENV", apiKey: "sk-never-written" },
      },
      roles: { evaluator: { model: MAIN_JUDGE } },
    }),
  );
  const out = join(t.dir, "out");
  const env = { SOCRATES_DB: t.path };
  const args = ["report", "--plan", planFile, "--config", configFile, "--out", out, "--format", "md,csv"];
  const made = await runCliInProcess(args, env);
  expect(made.status, made.stderr).toBe(0);
  expect(made.stdout).toContain(`wrote ${join(out, "manifest.json")}`);
  return { ...t, out, env, configFile, text: readFileSync(join(out, "manifest.json"), "utf8") };
}

describe("report manifest and --verify", () => {
  // `report` runs in the test's process (runCliInProcess: the bin's `main`, its output and exit code).
  // One database and report for the three tests below (each used to make its own, the file's main
  // cost): the --verify test puts back the row it changes, and the edited manifests go to a copy.
  let folder: Awaited<ReturnType<typeof reportFolder>>;
  beforeAll(async () => {
    folder = await reportFolder();
  }, 120_000);
  afterAll(() => folder?.cleanup());

  it("records what the report came from, without secrets", { timeout: 120_000 }, async () => {
    const { db, out, configFile, text } = folder;
    const manifest = parseManifest(text, "manifest.json");
    const pkg = JSON.parse(readFileSync("package.json", "utf8"));
    const head = spawnSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" }).stdout.trim();
    expect(manifest.project).toMatchObject({ name: pkg.name, version: pkg.version, commit: head });
    expect(manifest.plan).toMatchObject({ name: "report-test", hash: loaded.hash });
    expect(text).not.toContain("sk-never-written");
    expect(text).not.toContain("SECRET_NAME_ENV");
    expect(manifest.config).toEqual(configHash(configFile));
    expect(manifest.config.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.models).toMatchObject({ simulator: { model: "sim-main" }, evaluator: { model: MAIN_JUDGE } });
    expect(manifest.seeds).toEqual({ plan: 1, bootstrap: 1 });
    expect(manifest.studyIds).toEqual([1, 3]);
    expect(Date.parse(manifest.generatedAt)).not.toBeNaN();

    // One hash per metric row of the grid the report reads, counted here with SQL.
    const grid = (await planGrid(db, loaded.plan)).units;
    const runs = grid.flatMap((u) => [u.unmediatedRunId, ...u.mediated.map((m) => m.runId)]);
    const pairs = grid.flatMap((u) => u.mediated.map((m) => m.pairId));
    const count = (kind: string, ids: string[], metrics: string[]) =>
      (
        db.$client
          .prepare(
            `SELECT count(*) AS n FROM metric_values WHERE subject_kind = ? AND subject_id IN (SELECT value FROM json_each(?)) AND metric IN (SELECT value FROM json_each(?))`,
          )
          .get(kind, JSON.stringify(ids), JSON.stringify(metrics)) as { n: number }
      ).n;
    const expected =
      count("run", runs, ["IT", "IE", "IF", "FI", "ER", "EF", "EV", "EC"]) + count("pair", pairs, ["CG"]);
    expect(expected).toBeGreaterThan(0);
    expect(manifest.sources.metric_values.rows).toBe(expected);
    const labels = (
      db.$client
        .prepare(
          "SELECT count(*) AS n FROM labels l JOIN study_items i ON i.id = l.study_item_id WHERE i.study_id IN (1, 2, 3)",
        )
        .get() as { n: number }
    ).n;
    expect(manifest.sources.labels.rows).toBe(labels);

    // The numbers are the files' numbers: Table 3's csv and the manifest agree cell by cell.
    const csv = readFileSync(join(out, "table3.csv"), "utf8").trim().split("\n").slice(1);
    expect(csv.length).toBeGreaterThan(0);
    for (const line of csv.slice(0, 20)) {
      const [table, , , mean] = line.split(",");
      expect(table).toBe("table3");
      const means = manifest.numbers
        .filter((n) => n.table === "table3" && n.field === "mean")
        .map((n) => (n.value === null ? "" : String(n.value)));
      expect(means).toContain(mean);
    }
    expect(manifest.counts.numbers).toBe(manifest.numbers.length);
    expect(manifest.files["table3.csv"]).toMatch(/^[0-9a-f]{64}$/);
  });

  it("--verify passes on a fresh report, and after one metric row changes exits 1 naming the number and the row", {
    timeout: 180_000,
  }, async () => {
    const { db, out, env } = folder;
    const fresh = await runCliInProcess(["report", "--verify", out], env);
    expect(fresh.status, fresh.stderr).toBe(0);
    expect(fresh.stdout).toMatch(/verified: all \d+ numbers identical/);

    // IT of one mediated run of the main grid, under the main judge.
    const unit = (await planGrid(db, loaded.plan)).units.find(
      (u) => u.part === "main" && u.domain === "healthcare" && u.conditionKey === "general" && u.runIndex === 0,
    )!;
    const run = unit.mediated.find((m) => m.mediator === "alpha")!.runId;
    const row = db.$client
      .prepare(
        "SELECT id, evaluation_id, value FROM metric_values WHERE subject_kind = 'run' AND subject_id = ? AND metric = 'IT' AND value IS NOT NULL AND evaluation_id LIKE ?",
      )
      .get(run, `%${MAIN_JUDGE}`) as { id: number; evaluation_id: string; value: number };
    expect(row).toBeDefined();
    db.$client.prepare("UPDATE metric_values SET value = ? WHERE id = ?").run(row.value === 0 ? 0.5 : 0, row.id);

    const changed = await runCliInProcess(["report", "--verify", out], env);
    expect(changed.status).toBe(1);
    expect(changed.stderr).toMatch(
      /differs from the database: table3, row alpha, column IT healthcare \(IT\|healthcare\), mean: stored [\d.e-]+, recomputed [\d.e-]+/,
    );
    expect(changed.stderr).toContain(`metric_values: 1 changed (run:${run}|${row.evaluation_id}|IT)`);

    // Put it back: identical again.
    db.$client.prepare("UPDATE metric_values SET value = ? WHERE id = ?").run(row.value, row.id);
    expect((await runCliInProcess(["report", "--verify", out], env)).status).toBe(0);
  });

  it("a folder without a manifest, or with an edited one, exits 2 naming the file and the JSON path", {
    timeout: 120_000,
  }, async () => {
    const { env, dir, text } = folder;
    const out = join(dir, "edited");
    cpSync(folder.out, out, { recursive: true });
    const missing = await runCliInProcess(["report", "--verify", dir], env);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain(`${join(dir, "manifest.json")}: no such file`);

    const edited = JSON.parse(text);
    edited.plan.definition.seed = 5;
    writeFileSync(join(out, "manifest.json"), JSON.stringify(edited));
    const tampered = await runCliInProcess(["report", "--verify", out], env);
    expect(tampered.status).toBe(2);
    expect(tampered.stderr).toMatch(
      /manifest\.json: \$\.plan\.definition: the plan hashes to [0-9a-f]+, not the recorded [0-9a-f]+: the manifest was edited/,
    );

    writeFileSync(join(out, "manifest.json"), JSON.stringify({ ...JSON.parse(text), studyIds: [1, 99] }));
    const gone = await runCliInProcess(["report", "--verify", out], env);
    expect(gone.status).toBe(2);
    expect(gone.stderr).toContain(`${join(out, "manifest.json")}: $.studyIds[1]: study 99 does not exist`);

    writeFileSync(join(out, "manifest.json"), JSON.stringify({ ...JSON.parse(text), numbers: [{ table: "t" }] }));
    const bad = await runCliInProcess(["report", "--verify", out], env);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(`${join(out, "manifest.json")}: $.numbers[0].row:`);
  });

  it("says the commit is unknown outside a git checkout, and hashes a configuration the same whatever its secrets", () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    copyFileSync("package.json", join(dir, "package.json"));
    expect(projectInfo(dir)).toMatchObject({ commit: "unknown", dirty: null });

    const write = (name: string, config: unknown) => {
      writeFileSync(join(dir, name), JSON.stringify(config));
      return configHash(join(dir, name)).hash;
    };
    const base = { endpoints: { main: { baseURL: "http://x/v1" } }, roles: { evaluator: { model: "m" } } };
    const a = write("a.json", {
      ...base,
      endpoints: { main: { ...base.endpoints.main, apiKey: "one", apiKeyEnv: "A" } },
    });
    const b = write("b.json", {
      ...base,
      endpoints: { main: { ...base.endpoints.main, apiKey: "two", apiKeyEnv: "B" } },
    });
    const c = write("c.json", { ...base, roles: { evaluator: { model: "other" } } });
    expect(a).toBe(b);
    expect(a).not.toBe(c);
    expect(configHash(join(dir, "absent.json"))).toEqual({ path: join(dir, "absent.json"), hash: null });
  });
});
