import { Link } from "@remix-run/react";
import type { ComponentProps } from "react";
import { type TaskTypeId, TASK_TYPES } from "../../task-types/registry.ts";
import { AgreementPanel } from "../dashboard/AgreementPanel.tsx";

export interface AgreementSectionProps extends ComponentProps<typeof AgreementPanel> {
  studyId: number;
  kind: TaskTypeId;
  flaggedCount: number;
  goldThreshold: number;
  /** Whether flagged annotators are excluded right now (the switch offers the other state). */
  excluding: boolean;
  /** Labels faster than the minimum seconds on task, when they are left out of these figures (issue 28). */
  fastLeftOut?: { count: number; minSeconds: number; includeHref: string } | null;
}

/** Agreement between annotators, with the switch that leaves annotators below the gold threshold out. */
export function AgreementSection({
  studyId,
  kind,
  flaggedCount,
  goldThreshold,
  excluding,
  agreement,
  withoutFlagged,
  fastLeftOut,
}: AgreementSectionProps) {
  const base = `/admin/studies/${studyId}`;
  return (
    <section className="dash-section">
      <h2>Agreement between annotators</h2>
      {flaggedCount ? (
        <p className="notice notice-warning">
          {flaggedCount} annotator{flaggedCount > 1 ? "s are" : " is"} below the gold threshold (
          {Math.round(goldThreshold * 100)}%).{" "}
          {excluding ? (
            <Link to={base}>Include them again</Link>
          ) : (
            <Link to={`${base}?exclude=flagged`}>
              Exclude them from {TASK_TYPES[kind].dashboard.flaggedExcludedFrom}
            </Link>
          )}
        </p>
      ) : null}
      {fastLeftOut ? (
        <p className="notice" data-testid="fast-left-out">
          {fastLeftOut.count} label{fastLeftOut.count === 1 ? "" : "s"} faster than {fastLeftOut.minSeconds} s on task{" "}
          {fastLeftOut.count === 1 ? "is" : "are"} left out of these figures and{" "}
          {TASK_TYPES[kind].dashboard.flaggedExcludedFrom}. <Link to={fastLeftOut.includeHref}>Include them again</Link>
        </p>
      ) : null}
      <AgreementPanel agreement={agreement} withoutFlagged={withoutFlagged} />
    </section>
  );
}
