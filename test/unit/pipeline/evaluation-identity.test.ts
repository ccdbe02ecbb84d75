/**
 * An evaluation's identity includes its judge's prompt version (evaluation-identity.server.ts),
 * over real SQLite files and the stand-in judge over HTTP: the same version reuses a stored
 * evaluation (no request), another version makes a new one, and a database made before versions
 * keeps its evaluations, which the current judge then reuses.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { Evaluation } from "../../../app/domain/bundle.ts";
import { evaluationId } from "../../../app/domain/evaluation-ids.ts";
import { exportBundle, importBundleRecords } from "../../../app/server/bundle-store.server.ts";
import { openDatabase, type Db } from "../../../app/server/db.server.ts";
import { EMOTION_JUDGE_TEMPLATE } from "../../../app/server/pipeline/evaluate-emotion.server.ts";
import { AGREEMENT_TEMPLATE, ATTITUDE_TEMPLATE } from "../../../app/server/pipeline/evaluate-per-turn.server.ts";
import { evaluateRuns } from "../../../app/server/pipeline/evaluate-runs.server.ts";
import { TOPIC_JUDGE_TEMPLATE } from "../../../app/server/pipeline/evaluate-topic.server.ts";
import {
  JUDGE_TEMPLATES,
  judgePromptVersion,
  newEvaluationId,
  resolveEvaluationIds,
  usableEvaluationIds,
} from "../../../app/server/pipeline/evaluation-identity.server.ts";
import { computeMetrics } from "../../../app/server/pipeline/metrics-runner.server.ts";
import { templateVersion } from "../../../app/server/pipeline/prompt-templates.server.ts";
import { metricValuesOf } from "../../../app/server/models/metric-value.server.ts";
import { databaseAt } from "../../helpers/migrations.ts";
import { tableCounts } from "../../../harness/temp-db.ts";
import { startMockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { chatRequests } from "./helpers.ts";
import { evaluationSetup, JUDGE_MODEL, judgeLlm, MEDIATED, UNMEDIATED } from "./evaluation-helpers.ts";
import { JUDGE_ROLES, standInResponder } from "../../../app/llm-roles/stand-in.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const RUNS = [UNMEDIATED, MEDIATED];
/** A prompt version no template text hashes to here: "recorded under an earlier judge prompt". */
const EARLIER = "0123456789ab";

function topicRows(db: Db): { id: string; run_id: string; prompt_version: string | null }[] {
  return db.$client
    .prepare(
      "SELECT id, run_id, prompt_version FROM evaluations WHERE backbone = ? AND method = 'topic-localized' ORDER BY id",
    )
    .all(JUDGE_MODEL) as never;
}

describe("an evaluation's identity (pure parts)", () => {
  it("versions each judge by exactly the templates it renders, and suffixes new ids with the version", () => {
    expect(JUDGE_TEMPLATES).toEqual({
      "topic-localized": [TOPIC_JUDGE_TEMPLATE],
      "per-turn": [ATTITUDE_TEMPLATE, AGREEMENT_TEMPLATE],
      emotion: [EMOTION_JUDGE_TEMPLATE],
    });
    const topic = judgePromptVersion("topic-localized");
    expect(topic).toMatch(/^[0-9a-f]{12}$/);
    expect(topic).toBe(templateVersion([TOPIC_JUDGE_TEMPLATE]));
    expect(judgePromptVersion("per-turn")).not.toBe(topic);
    expect(newEvaluationId("r1", "topic-localized", "org/m 2")).toBe(
      `r1:topic-localized:org_m_2:v${topic.slice(0, 8)}`,
    );
    expect(evaluationId("r1", "topic-localized", "org/m 2", null)).toBe("r1:topic-localized:org_m_2");
  });

  it("prefers the current version's row, accepts a row recorded before versions, and never one of another version", () => {
    const now = judgePromptVersion("topic-localized");
    const row = (id: string, runId: string, promptVersion: string | null, backbone = "j") => ({
      id,
      runId,
      method: "topic-localized",
      backbone,
      promptVersion,
    });
    const usable = usableEvaluationIds([
      row("a-old", "a", null),
      row("a-now", "a", now),
      row("b-old", "b", null),
      row("c-earlier", "c", EARLIER),
      row("d-earlier", "d", EARLIER),
      row("d-other-judge", "d", null, "k"),
      { id: "x", runId: "x", method: "some-future-method", backbone: "j", promptVersion: "whatever" },
    ]);
    expect([...usable].sort()).toEqual(["a-now", "b-old", "d-other-judge", "x"]);
  });
});

describe("evaluate finds stored evaluations by run, judge and prompt version", { timeout: 60_000 }, () => {
  it("reuses the same version without a request, and re-judges (new id, old row kept) evaluations of an earlier prompt", async () => {
    const { db, mock, llm } = await evaluationSetup(cleanups);
    const first = await evaluateRuns(db, { llm, method: "topic", runIds: RUNS });
    expect(first.runs.map((r) => r.status)).toEqual(["stored", "stored"]);
    const version = judgePromptVersion("topic-localized");
    expect(topicRows(db)).toEqual(
      RUNS.map((r) => ({
        id: newEvaluationId(r, "topic-localized", JUDGE_MODEL),
        run_id: r,
        prompt_version: version,
      })).sort((a, b) => a.id.localeCompare(b.id)),
    );
    const sent = chatRequests(mock).length;
    expect(sent).toBe(first.calls);

    // Same version: nothing planned, nothing sent.
    const again = await evaluateRuns(db, { llm, method: "topic", runIds: RUNS });
    expect(again.runs.map((r) => r.status)).toEqual(["skipped", "skipped"]);
    expect(chatRequests(mock)).toHaveLength(sent);

    // The same evaluations as if recorded under an earlier judge prompt (bundle import: the same checks as any record).
    const stored = (await exportBundle(db)).evaluations.filter(
      (e) => e.backbone === JUDGE_MODEL && e.method === "topic-localized",
    );
    db.$client.prepare("DELETE FROM evaluations WHERE backbone = ?").run(JUDGE_MODEL);
    const earlier = stored.map(
      (e): Evaluation => ({ ...e, id: evaluationId(e.run_id, e.method, e.backbone, EARLIER), prompt_version: EARLIER }),
    );
    await importBundleRecords(db, "earlier prompt", { evaluations: earlier });
    // An earlier prompt's text was another request: its cached replies cannot answer the current one.
    db.$client.prepare("DELETE FROM llm_calls WHERE role = 'evaluator'").run();
    expect((await resolveEvaluationIds(db, RUNS, "topic-localized", JUDGE_MODEL)).size).toBe(0);

    const dry = await evaluateRuns(db, { llm, method: "topic", runIds: RUNS, dryRun: true });
    expect(dry.runs.map((r) => r.status)).toEqual(["planned", "planned"]);
    const rejudged = await evaluateRuns(db, { llm, method: "topic", runIds: RUNS });
    expect(rejudged.runs.map((r) => r.status)).toEqual(["stored", "stored"]);
    expect(chatRequests(mock).length - sent).toBe(first.calls);
    const current = new Map(RUNS.map((r) => [r, newEvaluationId(r, "topic-localized", JUDGE_MODEL)]));
    expect(await resolveEvaluationIds(db, RUNS, "topic-localized", JUDGE_MODEL)).toEqual(current);
    expect(
      topicRows(db)
        .map((r) => r.id)
        .sort(),
    ).toEqual([...earlier.map((e) => e.id), ...current.values()].sort());

    // Metrics are computed from the current evaluation only, never from the superseded one.
    await computeMetrics(db, { runId: MEDIATED });
    const ofJudge = (await metricValuesOf(db, "run", MEDIATED)).filter((m) =>
      m.evaluationId.includes(`:${JUDGE_MODEL}`),
    );
    expect(ofJudge.length).toBeGreaterThan(0);
    expect(new Set(ofJudge.map((m) => m.evaluationId))).toEqual(new Set([current.get(MEDIATED)]));
  });
});

/** The columns a table has in `sqlite` (main or an attached schema). */
function columnsOf(sqlite: Database.Database, table: string, schema = "main"): string[] {
  return (sqlite.prepare(`PRAGMA ${schema}.table_info("${table}")`).all() as { name: string }[]).map((c) => c.name);
}

/**
 * A database at migration 0014 with the catalogue, the runs and every evaluation of `source`, under the bare ids older
 * code gave evaluations.
 */
function oldShapeDatabase(source: string, dir: string): string {
  const old = databaseAt("0014_issue19_child_row_triggers");
  const path = join(dir, "old.db");
  old.sqlite.exec(`VACUUM INTO '${path}'`);
  old.cleanup();
  const sqlite = new Database(path);
  sqlite.pragma("foreign_keys = OFF");
  sqlite.prepare("ATTACH DATABASE ? AS src").run(source);
  sqlite.function("bare_id", (id: unknown) => (typeof id === "string" ? id.replace(/:v[0-9a-f]{8}$/, "") : id));
  const copy = (table: string, rewrite: Record<string, string> = {}) => {
    const cols = columnsOf(sqlite, table);
    const select = cols.map((c) => rewrite[c] ?? `"${c}"`).join(", ");
    sqlite.exec(
      `INSERT INTO main."${table}" (${cols.map((c) => `"${c}"`).join(", ")}) SELECT ${select} FROM src."${table}"`,
    );
  };
  for (const table of ["scenarios", "conditions", "runs", "turns", "snippets", "matched_pairs"]) copy(table);
  copy("evaluations", { id: "bare_id(id)" });
  copy("evaluation_scores", { evaluation_id: "bare_id(evaluation_id)" });
  sqlite.exec("DETACH DATABASE src");
  expect(columnsOf(sqlite, "evaluations")).not.toContain("prompt_version");
  sqlite.close();
  return path;
}

describe("a database made before evaluation versions", { timeout: 60_000 }, () => {
  it("migrates with every evaluation under its old id, and the current judge reuses them without a request", async () => {
    const made = await evaluationSetup(cleanups);
    await evaluateRuns(made.db, { llm: made.llm, method: "topic", runIds: RUNS });
    const path = oldShapeDatabase(made.path, made.dir);
    const before = new Database(path, { readonly: true });
    const oldIds = (before.prepare("SELECT id FROM evaluations ORDER BY id").all() as { id: string }[]).map(
      (r) => r.id,
    );
    before.close();
    expect(oldIds).toEqual(expect.arrayContaining(RUNS.map((r) => evaluationId(r, "topic-localized", JUDGE_MODEL))));

    // Opening applies migration 0018: the column is added, every old row is "recorded before versions".
    const db = await openDatabase(path);
    cleanups.push(() => db.$client.close());
    expect(
      (db.$client.prepare("SELECT id FROM evaluations ORDER BY id").all() as { id: string }[]).map((r) => r.id),
    ).toEqual(oldIds);
    expect(db.$client.prepare("SELECT count(*) AS n FROM evaluations WHERE prompt_version IS NOT NULL").get()).toEqual({
      n: 0,
    });
    const counts = await tableCounts(db);

    // The current judge, on a stand-in that has never answered anything: every evaluation is found under its old id.
    const fresh = await startMockLlm({ respond: standInResponder({ roles: JUDGE_ROLES }) });
    cleanups.push(() => fresh.close());
    const again = await evaluateRuns(db, { llm: judgeLlm(db, fresh), method: "topic", runIds: RUNS });
    expect(again.runs.map((r) => r.status)).toEqual(["skipped", "skipped"]);
    expect(chatRequests(fresh)).toHaveLength(0);
    expect(await tableCounts(db)).toEqual(counts);
    expect(await resolveEvaluationIds(db, RUNS, "topic-localized", JUDGE_MODEL)).toEqual(
      new Map(RUNS.map((r) => [r, evaluationId(r, "topic-localized", JUDGE_MODEL)])),
    );
    // …and the metrics read it.
    await computeMetrics(db, { runId: MEDIATED });
    expect(
      (await metricValuesOf(db, "run", MEDIATED)).some(
        (m) => m.evaluationId === evaluationId(MEDIATED, "topic-localized", JUDGE_MODEL),
      ),
    ).toBe(true);
  });
});
