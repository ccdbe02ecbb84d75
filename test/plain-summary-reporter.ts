/**
 * Ends the test output with one plain line, "N passed, N failed, N skipped", so tools that read
 * only the closing line (CI) see the counts without parsing vitest's coloured summary.
 * A failed hook or file (its tests then count as skipped) and an unhandled error count as
 * failures, so the line never says "0 failed" for a failing run.
 */
import type { Reporter } from "vitest/reporters";

type Task = { type: string; result?: { state?: string; errors?: unknown[] }; tasks?: Task[] };
type Totals = { passed: number; failed: number; skipped: number };

function count(tasks: Task[], totals: Totals): void {
  for (const task of tasks) {
    if (task.type === "test") {
      const state = task.result?.state;
      if (state === "pass") totals.passed++;
      else if (state === "fail") totals.failed++;
      else totals.skipped++;
      continue;
    }
    // Suites and files carry errors of their own only when a hook or the file itself failed.
    if (task.result?.state === "fail" && (task.result.errors?.length ?? 0) > 0) totals.failed++;
    count(task.tasks ?? [], totals);
  }
}

export default class PlainSummaryReporter implements Reporter {
  onFinished(files: Task[] = [], errors: unknown[] = []): void {
    const totals: Totals = { passed: 0, failed: errors.length, skipped: 0 };
    count(files, totals);
    process.stdout.write(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`);
  }
}
