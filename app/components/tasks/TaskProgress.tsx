/** How far the annotator is through their assignment: a bar and "n of m done". No timer is shown. */
import type { TaskProgressValue } from "../../task-types/task-view.ts";

export function TaskProgress({ progress }: { progress: TaskProgressValue }) {
  const total = Math.max(0, progress.total);
  const done = Math.max(0, Math.min(progress.done, total));
  const percent = total === 0 ? 0 : Math.round((done / total) * 100);
  return (
    <div className="task-progress">
      <div
        className="task-progress-bar"
        role="progressbar"
        aria-label="Items done"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={`${done} of ${total} done`}
      >
        <span style={{ width: `${percent}%` }} />
      </div>
      <span className="task-progress-text">
        {done} of {total} done
      </span>
    </div>
  );
}
