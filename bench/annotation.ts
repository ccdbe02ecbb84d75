/**
 * The annotation platform at study scale: a consensus study of 100 trajectories (about 1,500
 * snippets), 30 experts labelling until every item has k = 3 labels, then the dashboard.
 * Prints how long study creation takes, allocation + submit throughput (and each part's cost per
 * label: nextTask, submitLabel), and the dashboard's
 * compute time (alpha at two levels with 1,000 bootstrap draws each, alignment, trend).
 * Figures only, no pass/fail. bench:annotation-http runs the same allocate + submit measurement
 * (measureInProcess) in its own run, for the HTTP / in-process ratio.
 *
 *   npm run bench:annotation        (SCALE=0.2 for a quick look)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import * as schema from "../db/schema.ts";
import { nextTask } from "../app/server/annotation/assignment.server.ts";
import { studyDashboard } from "../app/server/annotation/dashboard.server.ts";
import { submitLabel } from "../app/server/annotation/submit.server.ts";
import { openDatabase, type Db } from "../app/server/db.server.ts";
import { closeDatabase } from "../app/server/db-transaction.server.ts";
import { addExperts, createBenchStudy, EXPERTS, importSyntheticRuns, K, labelMaker } from "./study-fixture.ts";

const seconds = (start: number) => (performance.now() - start) / 1000;

export interface InProcessFigures {
  trajectories: number;
  items: number;
  createSeconds: number;
  submitted: number;
  allocateSeconds: number;
  submitSeconds: number;
  /** Labels per second, allocate + submit. */
  labelsPerSecond: number;
}

/**
 * Labels a fresh study of `trajectories` trajectories to k = 3 through nextTask and submitLabel,
 * annotators taking turns one task each as requests would interleave on a server; each call timed
 * on its own, so the allocation and the submit costs show separately. Leaves the labelled study in
 * `db` (the dashboard part of this bench reads it).
 */
export async function measureInProcess(db: Db, trajectories: number): Promise<InProcessFigures & { studyId: number }> {
  await importSyntheticRuns(db, trajectories);
  let t = performance.now();
  const studyId = await createBenchStudy(db, trajectories);
  const createSeconds = seconds(t);
  const items = (
    await db.select({ id: schema.studyItems.id }).from(schema.studyItems).where(eq(schema.studyItems.studyId, studyId))
  ).length;
  const annotators = await addExperts(db);
  const label = await labelMaker(db, studyId);
  let submitted = 0;
  let allocateSeconds = 0;
  let submitSeconds = 0;
  const active = new Set(annotators);
  while (active.size > 0) {
    for (const annotatorId of [...active]) {
      t = performance.now();
      const lease = await nextTask(db, studyId, annotatorId);
      allocateSeconds += seconds(t);
      if (!lease) {
        active.delete(annotatorId);
        continue;
      }
      const payload = await label();
      t = performance.now();
      await submitLabel(db, {
        studyId,
        itemId: lease.itemId,
        annotatorId,
        payload,
        clientToken: `bench-${annotatorId}-${lease.itemId}`,
        secondsOnTask: 30,
      });
      submitSeconds += seconds(t);
      submitted++;
    }
  }
  const labelsPerSecond = submitted / (allocateSeconds + submitSeconds);
  return { studyId, trajectories, items, createSeconds, submitted, allocateSeconds, submitSeconds, labelsPerSecond };
}

/** measureInProcess on a temporary database of its own, removed afterwards. */
export async function measureInProcessFresh(trajectories: number): Promise<InProcessFigures> {
  const dir = mkdtempSync(join(tmpdir(), "socrates-bench-annotation-"));
  try {
    const db = await openDatabase(join(dir, "bench.db"));
    try {
      const { studyId: _, ...figures } = await measureInProcess(db, trajectories);
      return figures;
    } finally {
      await closeDatabase(db);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const SCALE = Number(process.env.SCALE ?? 1);
  if (!(SCALE > 0 && SCALE <= 10)) {
    console.error(`SCALE must be a number in (0, 10], got "${process.env.SCALE}"`);
    process.exit(2);
  }
  const dir = mkdtempSync(join(tmpdir(), "socrates-bench-annotation-"));
  try {
    const db = await openDatabase(join(dir, "bench.db"));
    const m = await measureInProcess(db, Math.max(2, Math.round(100 * SCALE)));
    const labelSeconds = m.allocateSeconds + m.submitSeconds;
    const perLabel = (s: number) => ((1000 * s) / m.submitted).toFixed(3);

    const t = performance.now();
    const dashboard = await studyDashboard(db, m.studyId);
    const dashboardSeconds = seconds(t);
    if (dashboard.kind !== "consensus-snippet") throw new Error("expected a consensus dashboard");

    const rows: [string, string][] = [
      ["trajectories / items", `${m.trajectories} / ${m.items}`],
      ["annotators × k", `${EXPERTS} × ${K}`],
      ["create study (s)", m.createSeconds.toFixed(2)],
      ["labels submitted", String(m.submitted)],
      ["allocate + submit, total (s)", labelSeconds.toFixed(2)],
      ["allocate (nextTask), per label (ms)", perLabel(m.allocateSeconds)],
      ["submit (submitLabel), per label (ms)", perLabel(m.submitSeconds)],
      ["allocate + submit, per label (ms)", perLabel(labelSeconds)],
      ["labels per second", `${m.labelsPerSecond.toFixed(0)}   (target ≥ 1,000 on an idle 2-core machine)`],
      ["dashboard compute (s)", dashboardSeconds.toFixed(2)],
      ["  alpha units × raters", `${dashboard.agreement.units.length} × ${dashboard.agreement.raters.length}`],
      ["  alignment units", String(dashboard.alignment?.units.length ?? 0)],
    ];
    const width = Math.max(...rows.map(([k]) => k.length));
    console.log(`Annotation platform at study scale (scale ${SCALE})`);
    for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
    await closeDatabase(db);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
