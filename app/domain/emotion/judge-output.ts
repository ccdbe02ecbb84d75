/**
 * Checks the post-hoc emotion judge's output against its run: one entry per party, each scoring
 * exactly that party's turns, once each. Shared by the judge (a failed check is a recorded
 * evaluation error for that party) and the bundle importer (an import error).
 */
import type { EmotionJudgeOutput } from "../bundle.ts";
import type { JudgeProblem } from "../judge-problems.ts";

/** The turns each party spoke: speakers[t − 1] spoke turn t. */
export function partyTurnIds(speakers: readonly string[], partyId: string): number[] {
  const turns: number[] = [];
  speakers.forEach((s, i) => {
    if (s === partyId) turns.push(i + 1);
  });
  return turns;
}

/** Problems with paths relative to the output (`[partyId, "scores", i, …]`); none = valid. */
export function checkEmotionJudgeOutput(
  output: Record<string, EmotionJudgeOutput>,
  ctx: { partyIds: readonly string[]; speakers: readonly string[] },
): JudgeProblem[] {
  const problems: JudgeProblem[] = [];
  for (const [partyId, judged] of Object.entries(output)) {
    if (!ctx.partyIds.includes(partyId)) {
      problems.push({
        path: [partyId],
        message: `unknown party id "${partyId}" (the run's parties are ${ctx.partyIds.join(", ")})`,
      });
      continue;
    }
    const own = partyTurnIds(ctx.speakers, partyId);
    const seen = new Set<number>();
    judged.scores.forEach((entry, i) => {
      const at = [partyId, "scores", i];
      if (!own.includes(entry.turn_id))
        problems.push({
          path: [...at, "turn_id"],
          message: `turn ${entry.turn_id} is not a turn of ${partyId} (its turns: ${own.join(", ") || "none"})`,
        });
      else if (seen.has(entry.turn_id))
        problems.push({ path: [...at, "turn_id"], message: `turn ${entry.turn_id} is scored twice` });
      seen.add(entry.turn_id);
      if (!Number.isInteger(entry.score) || entry.score < 0 || entry.score > 100)
        problems.push({ path: [...at, "score"], message: `score ${entry.score} is not a whole number from 0 to 100` });
    });
    const missing = own.filter((t) => !seen.has(t));
    if (missing.length > 0)
      problems.push({
        path: [partyId, "scores"],
        message: `no score for ${partyId}'s turn${missing.length > 1 ? "s" : ""} ${missing.join(", ")}`,
      });
  }
  return problems;
}
