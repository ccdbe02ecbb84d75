/**
 * Twenty annotators, each in its own process with its own connection, request and submit tasks
 * at the same time. SQLite's write lock must serialise allocation so that no item gets more than
 * k labels and nobody gets an item twice.
 */
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConsensusStudy } from "../../../app/server/annotation/studies.server.ts";
import { addAnnotator, seedDemo } from "../../../harness/annotation.ts";
import { tempDb } from "../../../harness/temp-db.ts";

const ROOT = resolve(import.meta.dirname, "../../..");
const WORKER = resolve(ROOT, "test/helpers/annotator-worker.ts");

interface Worker {
  ready: Promise<void>;
  go: () => void;
  done: Promise<number[]>;
}

function startWorker(dbPath: string, studyId: number, annotatorId: number): Worker {
  const child = spawn(resolve(ROOT, "node_modules/.bin/tsx"), [WORKER, dbPath, String(studyId), String(annotatorId)], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  let markReady: () => void = () => {};
  const ready = new Promise<void>((ok) => (markReady = ok));
  child.stdout.on("data", (d) => {
    out += d;
    if (out.startsWith("ready\n")) markReady();
  });
  child.stderr.on("data", (d) => (err += d));
  const done = new Promise<number[]>((ok, fail) =>
    child.on("exit", (code) => (code === 0 ? ok(JSON.parse(out.slice("ready\n".length)) as number[]) : fail(new Error(`worker ${annotatorId} exited ${code}: ${err}`)))),
  );
  return { ready, go: () => child.stdin.end("go\n"), done };
}

describe("allocation under concurrency", () => {
  const t = tempDb();
  let studyId = 0;
  const annotators: number[] = [];
  const K = 3;

  beforeAll(() => {
    seedDemo(t.db);
    studyId = createConsensusStudy(t.db, { name: "race", pool: "expert", trajectories: 4, labelsPerItem: K, config: { seed: 3 } });
    for (let i = 0; i < 20; i++) annotators.push(addAnnotator(t.db, `racer${i}`, "expert"));
  });
  afterAll(() => t.cleanup());

  it("20 annotators at once: at most k labels per item, never a repeated item, every slot filled", async () => {
    const workers = annotators.map((id) => startWorker(t.path, studyId, id));
    await Promise.all(workers.map((w) => w.ready));
    for (const w of workers) w.go();
    const results = await Promise.all(workers.map((w) => w.done));
    for (const got of results) expect(new Set(got).size).toBe(got.length);

    const perItem = t.db.$client
      .prepare(`SELECT i.id, (SELECT count(*) FROM labels l WHERE l.study_item_id = i.id) AS labels, (SELECT count(*) FROM assignments a WHERE a.study_item_id = i.id AND a.status <> 'released') AS slots FROM study_items i WHERE i.study_id = ?`)
      .all(studyId) as { id: number; labels: number; slots: number }[];
    expect(perItem.length).toBeGreaterThan(10);
    for (const row of perItem) {
      expect(row.labels).toBe(K);
      expect(row.slots).toBe(K);
    }
    const total = results.reduce((n, got) => n + got.length, 0);
    expect(total).toBe(perItem.length * K);
    const duplicates = t.db.$client.prepare(`SELECT count(*) AS n FROM (SELECT study_item_id, annotator_id FROM labels GROUP BY 1, 2 HAVING count(*) > 1)`).get() as { n: number };
    expect(duplicates.n).toBe(0);
  }, 120_000);
});
