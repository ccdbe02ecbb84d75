/** What every emotion metric's row says about the trajectory it was computed on (docs/metrics-emotion.md). */
import type { EmotionSource } from "../../emotion/trajectory.ts";

/** `{ source: "self" }` or `{ source: "judge", backbone }`: the run page groups rows by it. */
export function emotionSourceDetail(source: EmotionSource): { source: "self" | "judge"; backbone?: string } {
  return source.kind === "self" ? { source: "self" } : { source: "judge", backbone: source.backbone };
}

/** For explain(): the stored source fields as the label the run page uses ("self-report", "judge m"). */
export function detailSourceLabel(detail: Record<string, unknown>): string | null {
  if (detail.source === "self") return "self-report";
  if (detail.source === "judge" && typeof detail.backbone === "string") return `judge ${detail.backbone}`;
  return null;
}
