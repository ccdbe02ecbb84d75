/**
 * Per annotator: labels, time per item, gold accuracy, labels under the minimum seconds on task, and a badge when
 * flagged.
 */
import type { FastLabels, GoldAccuracy, StudyProgress } from "../../domain/validation/index.ts";
import { formatPercent, formatSeconds } from "./format.ts";
import { ScrollX } from "../ScrollX.tsx";

interface Props {
  progress: StudyProgress;
  gold: readonly GoldAccuracy[];
  flagged: readonly string[];
  /** Display names by annotator id; the id is shown otherwise. */
  names?: Readonly<Record<string, string>>;
  /** Labels under the study's minimum seconds on task, counted per annotator beside gold accuracy. */
  fast?: FastLabels;
}

export function AnnotatorTable({ progress, gold, flagged, names = {}, fast }: Props) {
  const ids = [...new Set([...progress.annotators.map((a) => a.annotatorId), ...gold.map((g) => g.annotatorId)])].sort(
    // By name, then id in numeric order ("9" before "10"); plain comparisons, so server and browser agree.
    (a, b) => {
      const [x, y] = [(names[a] ?? a).toLowerCase(), (names[b] ?? b).toLowerCase()];
      return x < y ? -1 : x > y ? 1 : Number(a) - Number(b) || (a < b ? -1 : a > b ? 1 : 0);
    },
  );
  if (ids.length === 0) {
    return <p className="empty-state">No labels yet — annotators appear here once they start an item.</p>;
  }
  const flaggedSet = new Set(flagged);
  return (
    <ScrollX label="Annotators">
      <table className="data-table dash-table" data-testid="annotator-table">
        <thead>
          <tr>
            <th>Annotator</th>
            <th className="num">Labels</th>
            <th className="num">Gold labels</th>
            <th className="num">Open leases</th>
            <th className="num">Median time per item</th>
            <th className="num">Gold accuracy</th>
            {fast ? <th className="num">Under {fast.minSeconds} s</th> : null}
          </tr>
        </thead>
        <tbody>
          {ids.map((id) => {
            const p = progress.annotators.find((a) => a.annotatorId === id);
            const g = gold.find((a) => a.annotatorId === id);
            return (
              <tr key={id} className={flaggedSet.has(id) ? "flagged" : undefined}>
                <td>
                  {names[id] ?? id} {flaggedSet.has(id) ? <span className="badge badge-flag">flagged</span> : null}
                </td>
                <td className="num">{p?.labels ?? 0}</td>
                <td className="num">{p?.goldLabels ?? 0}</td>
                <td className="num">{p?.activeLeases ?? 0}</td>
                <td className="num" title={p ? `${p.timedLabels} timed labels` : undefined}>
                  {formatSeconds(p?.medianSeconds)}
                </td>
                <td className="num">
                  {g ? (
                    `${formatPercent(g.accuracy)} (${g.passed}/${g.attempted})`
                  ) : (
                    <span className="muted">no gold yet</span>
                  )}
                </td>
                {fast ? (
                  <td className="num" data-testid="fast-count">
                    {fast.annotators.find((a) => a.annotatorId === id)?.fast ?? 0}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollX>
  );
}
