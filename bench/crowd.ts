/**
 * The MTurk batch round trip at study scale: a crowd consensus study of 100 trajectories
 * (about 1,300 snippets), exported as one batch, answered by 30 workers with k = 3 (a results
 * file as MTurk writes it, about 3,900 assignments), imported, imported again, and the
 * dashboard's per-channel figures. Prints sizes and times, no pass/fail.
 *
 *   npm run bench:crowd             (SCALE=0.2 for a quick look)
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseCsv } from "../app/domain/csv.ts";
import type { ConsensusLabel } from "../app/task-types/consensus-snippet/label.ts";
import { createRng, randomInt } from "../app/domain/stats/rng.ts";
import { createConsensusStudy } from "../app/server/annotation/studies.server.ts";
import { playedScenarioOfRun, snippetContext } from "../app/server/annotation/task-view.server.ts";
import { importBundleFiles } from "../app/server/bundle-store.server.ts";
import { studyChannelStats } from "../app/server/crowd/channel-stats.server.ts";
import { exportBatch } from "../app/crowd-channels/mturk/export.server.ts";
import { importMturkResults } from "../app/crowd-channels/mturk/import.server.ts";
import { openDatabase } from "../app/server/db.server.ts";
import { closeDatabase } from "../app/server/db-transaction.server.ts";
import { findItem } from "../app/server/models/study.server.ts";
import { consensusAnswers, mturkResultsCsv, type WorkerAssignment } from "../harness/mturk-results.ts";
import { syntheticBundle } from "./synthetic-bundle.ts";

const SCALE = Number(process.env.SCALE ?? 1);
if (!(SCALE > 0 && SCALE <= 10)) {
  console.error(`SCALE must be a number in (0, 10], got "${process.env.SCALE}"`);
  process.exit(2);
}
const TRAJECTORIES = Math.max(2, Math.round(100 * SCALE));
const WORKERS = 30;
const K = 3;

const seconds = (start: number) => (performance.now() - start) / 1000;
const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);

const dir = mkdtempSync(join(tmpdir(), "socrates-bench-crowd-"));
try {
  const db = await openDatabase(join(dir, "bench.db"));
  await importBundleFiles(db, [
    { file: "synthetic", text: JSON.stringify(syntheticBundle(Math.ceil(TRAJECTORIES / 135))) },
  ]);
  const studyId = await createConsensusStudy(db, {
    name: "bench crowd",
    pool: "crowd",
    trajectories: TRAJECTORIES,
    labelsPerItem: K,
    config: { seed: 1 },
  });

  let t = performance.now();
  const batch = await exportBatch(db, studyId, { outDir: join(dir, "batch"), overrides: { rewardUsd: 0.4 } });
  const exportSeconds = seconds(t);
  const input = parseCsv(readFileSync(batch.files.inputCsv, "utf8"));

  // Each HIT answered by k distinct workers with random scores; one assignment in 50 rejected.
  const rng = createRng(9);
  const itemColumn = input.header.indexOf("item_id");
  const assignments: WorkerAssignment[] = [];
  for (const [hit, record] of input.records.entries()) {
    const itemId = Number(record.fields[itemColumn]);
    const { runId } = await snippetContext(db, (await findItem(db, itemId))!.snippetId!);
    const { body } = await playedScenarioOfRun(db, runId);
    const first = randomInt(rng, WORKERS);
    for (let j = 0; j < K; j++) {
      const label: ConsensusLabel = {
        kind: "consensus-snippet",
        topics: Object.fromEntries(
          body.topics.map((topic) => [
            topic.id,
            {
              score: 1 + randomInt(rng, 5),
              carriedForward: false,
              positions: Object.fromEntries(body.parties.map((p) => [p.id, "unclear"])),
            },
          ]),
        ),
      };
      assignments.push({
        hit,
        workerId: `A${String((first + j) % WORKERS).padStart(12, "0")}W`,
        status: randomInt(rng, 50) === 0 ? "Rejected" : "Submitted",
        workSeconds: 40 + randomInt(rng, 200),
        answers: consensusAnswers(itemId, body, label),
      });
    }
  }
  const results = mturkResultsCsv({ header: input.header, rows: input.records.map((r) => r.fields) }, assignments);

  t = performance.now();
  const first = await importMturkResults(db, studyId, { text: results, fileName: "Batch_bench_batch_results.csv" });
  const importSeconds = seconds(t);
  t = performance.now();
  const second = await importMturkResults(db, studyId, { text: results, fileName: "Batch_bench_batch_results.csv" });
  const reimportSeconds = seconds(t);
  t = performance.now();
  const channels = await studyChannelStats(db, studyId);
  const statsSeconds = seconds(t);
  const mturk = channels.find((c) => c.channel === "mturk");

  const rows: [string, string][] = [
    ["trajectories / HITs exported", `${TRAJECTORIES} / ${batch.rows}`],
    ["export (s)", exportSeconds.toFixed(2)],
    ["  input.csv (MB)", mb(statSync(batch.files.inputCsv).size)],
    ["results file: assignments / MB", `${assignments.length} / ${mb(Buffer.byteLength(results))}`],
    ["import, first (s)", importSeconds.toFixed(2)],
    ["  assignments per second", (assignments.length / importSeconds).toFixed(0)],
    ["  labels stored / rejected skipped", `${first.summary.stored} / ${first.summary.rejectedSkipped}`],
    ["  review file: approve / reject", `${first.review.approvals} / ${first.review.rejections}`],
    ["import, again (s)", reimportSeconds.toFixed(2)],
    ["  new labels on the second import", String(second.summary.stored + second.summary.revised)],
    ["per-channel figures (s)", statsSeconds.toFixed(3)],
    [
      "  mturk workers / median s / $ per hour",
      `${mturk?.workers ?? 0} / ${mturk?.medianSecondsPerLabel ?? "–"} / ${mturk?.effectiveHourlyUsd?.toFixed(2) ?? "–"}`,
    ],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log(`MTurk batch round trip at study scale (scale ${SCALE})`);
  for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
  await closeDatabase(db); // its writer connection too
} finally {
  rmSync(dir, { recursive: true, force: true });
}
