/**
 * The extended-history condition: the writer prepends four dated entries that lead up to the
 * dispute (from the seed's timeline, or invented consistently with the background when there is
 * no seed), and the original background follows unchanged. The expanded background should be
 * about five times the original's length; the measured ratio is recorded with the condition,
 * and a ratio outside [3, 8] is repaired once, then rejected.
 */
import { z } from "zod";
import type { ScenarioBody } from "../bundle.ts";
import { fictionalNameProblems } from "../curation/writer-checks.ts";
import type { SeedReport } from "../curation/seed.ts";
import { generalBody, type BaseScenario, type ProbeProblem } from "./expand.ts";

export const HISTORY_ENTRIES = 4;
export const TARGET_RATIO = 5;
export const MIN_RATIO = 3;
export const MAX_RATIO = 8;

export const historyReplySchema = z.object({
  entries: z.array(z.object({ date: z.string(), event: z.string() })),
});
export type HistoryReply = z.infer<typeof historyReplySchema>;

/** Dates the entries may carry: a year, a year and month, or a full date (ISO order, so they sort as text). */
const DATE = /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$/;

/** The expanded background: the entries as dated paragraphs, a blank line, then the original background unchanged. */
export function historyBackground(reply: HistoryReply, original: string): string {
  return [...reply.entries.map((e) => `${e.date.trim()}: ${e.event.trim()}`), original].join("\n\n");
}

export const lengthRatio = (expanded: string, original: string) => expanded.length / original.length;

/** Ratios are recorded to two decimals: enough to read, and the same bytes on every run. */
export const roundRatio = (ratio: number) => Math.round(ratio * 100) / 100;

function checkDates(reply: HistoryReply, add: (rule: string, message: string) => void): void {
  const dates = reply.entries.map((e) => e.date.trim());
  const bad = dates.filter((d) => !DATE.test(d));
  if (bad.length > 0)
    add(
      "dated-entries",
      `dates are written YYYY, YYYY-MM or YYYY-MM-DD; got ${bad.map((d) => JSON.stringify(d)).join(", ")}`,
    );
  else if (dates.some((d, i) => i > 0 && d < dates[i - 1]))
    add("chronological", `the entries must run from oldest to newest; got ${dates.join(", ")}`);
}

/** The writer's reply: four dated, chronological entries with fictional names, and a length ratio in [3, 8]. */
export function checkHistoryReply(reply: HistoryReply, base: BaseScenario, seed: SeedReport | null): ProbeProblem[] {
  const problems: ProbeProblem[] = [];
  const add = (rule: string, message: string) => problems.push({ rule, message });
  if (reply.entries.length !== HISTORY_ENTRIES)
    add("four-entries", `give exactly ${HISTORY_ENTRIES} entries, got ${reply.entries.length}`);
  checkDates(reply, add);
  if (reply.entries.some((e) => e.event.trim() === "")) add("dated-entries", "every entry needs its event described");
  if (seed) problems.push(...fictionalNameProblems(reply.entries.map((e) => e.event).join("\n"), seed));
  const ratio = lengthRatio(historyBackground(reply, base.background), base.background);
  if (ratio < MIN_RATIO || ratio > MAX_RATIO) {
    const target = TARGET_RATIO * base.background.length;
    add(
      "length-ratio",
      `the expanded background is ${roundRatio(ratio)}× the original (${base.background.length} characters); it must be ${MIN_RATIO}–${MAX_RATIO}×, aim for about ${TARGET_RATIO}× (about ${target} characters in all, so the four entries together about ${target - base.background.length})`,
    );
  }
  return problems;
}

/** The condition's body: only the background changes, and it ends with the original background. */
export function assembleHistory(base: BaseScenario, reply: HistoryReply): ScenarioBody {
  const body = generalBody(base);
  return { ...body, background: historyBackground(reply, body.background) };
}

/** The assembled body against the original: the background ends with the original, parties and topics unchanged. */
export function checkHistoryBody(base: BaseScenario, body: ScenarioBody): ProbeProblem[] {
  const problems: ProbeProblem[] = [];
  if (!body.background.endsWith(`\n\n${base.background}`))
    problems.push({ rule: "background-kept", message: "the original background must follow the entries unchanged" });
  if (
    JSON.stringify(body.parties) !== JSON.stringify(base.parties) ||
    JSON.stringify(body.topics) !== JSON.stringify(base.topics)
  ) {
    problems.push({ rule: "parties-topics-verbatim", message: "the history condition changes the background only" });
  }
  return problems;
}
