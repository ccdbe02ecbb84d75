/**
 * Ends the test output with one plain line, "N passed, N failed, N skipped", so tools that read
 * only the closing line (CI) see the counts without parsing vitest's coloured summary.
 */
import type { Reporter } from "vitest/reporters";

type Task = { type: string; mode?: string; result?: { state?: string }; tasks?: Task[] };

function count(tasks: Task[], totals: { passed: number; failed: number; skipped: number }): void {
  for (const task of tasks) {
    if (task.tasks) count(task.tasks, totals);
    if (task.type !== "test") continue;
    const state = task.result?.state;
    if (state === "pass") totals.passed++;
    else if (state === "fail") totals.failed++;
    else totals.skipped++;
  }
}

export default class PlainSummaryReporter implements Reporter {
  onFinished(files: Task[] = []): void {
    const totals = { passed: 0, failed: 0, skipped: 0 };
    count(files, totals);
    process.stdout.write(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`);
  }
}
