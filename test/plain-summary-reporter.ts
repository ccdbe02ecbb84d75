/**
 * Ends the test output with one plain line, "N passed, N failed, N skipped", so tools that read
 * only the closing line (CI) see the counts without parsing vitest's coloured summary.
 * A failed hook or file (its tests then count as skipped) and an unhandled error count as
 * failures, so the line never says "0 failed" for a failing run. Above it, the ten slowest test
 * files (collect, setup and run time), so a file that grows slow is seen where it is paid for.
 */
import type { Reporter } from "vitest/reporters";

type Task = {
  type: string;
  name?: string;
  result?: { state?: string; errors?: unknown[]; duration?: number };
  tasks?: Task[];
  collectDuration?: number;
  setupDuration?: number;
};
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

/** The `n` slowest files, slowest first, one line each: seconds (collect + setup + tests) and the file. */
export function slowestFiles(files: Task[], n = 10): string[] {
  const seconds = (f: Task) => ((f.collectDuration ?? 0) + (f.setupDuration ?? 0) + (f.result?.duration ?? 0)) / 1000;
  return [...files]
    .sort((a, b) => seconds(b) - seconds(a))
    .slice(0, n)
    .map((f) => `${seconds(f).toFixed(1).padStart(7)} s  ${f.name ?? "?"}`);
}

export default class PlainSummaryReporter implements Reporter {
  onFinished(files: Task[] = [], errors: unknown[] = []): void {
    const totals: Totals = { passed: 0, failed: errors.length, skipped: 0 };
    count(files, totals);
    const slowest = slowestFiles(files);
    if (slowest.length > 0) process.stdout.write(`\nslowest test files:\n${slowest.join("\n")}\n`);
    process.stdout.write(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`);
  }
}
