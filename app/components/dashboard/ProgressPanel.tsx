/** Study progress: a stacked bar of complete / in progress / open items, with the counts. */
import type { StudyProgress } from "../../domain/validation/index.ts";

const PARTS = [
  { key: "complete", label: "complete" },
  { key: "inProgress", label: "in progress" },
  { key: "open", label: "open" },
] as const;

export function ProgressPanel({ progress }: { progress: StudyProgress }) {
  if (progress.items === 0) {
    return <p className="empty-state">No items yet — add trajectories or A/B pairs to the study to start labelling.</p>;
  }
  const share = (n: number) => (n / progress.items) * 100;
  return (
    <section className="dash-panel" data-testid="progress-panel">
      <div
        className="progress-bar"
        role="img"
        aria-label={`${progress.complete} complete, ${progress.inProgress} in progress, ${progress.open} open of ${progress.items} items`}
      >
        {PARTS.map((part) =>
          progress[part.key] > 0 ? (
            <span
              key={part.key}
              className={`progress-${part.key}`}
              style={{ width: `${share(progress[part.key])}%` }}
              title={`${progress[part.key]} ${part.label}`}
            />
          ) : null,
        )}
      </div>
      <ul className="progress-legend">
        {PARTS.map((part) => (
          <li key={part.key}>
            <i className={`progress-${part.key}`} /> <strong>{progress[part.key]}</strong> {part.label}
          </li>
        ))}
        <li className="muted">
          of {progress.items} items · {progress.labels} labels · {progress.labelsPerItem} per item to complete
        </li>
      </ul>
    </section>
  );
}
