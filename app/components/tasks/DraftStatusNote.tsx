/**
 * The draft's saved state beside the task: "Saving…", "Saved · 4 s ago", "Not saved — retrying". A status region
 * that announces only the state: the ticking age is hidden from screen readers, so it is not read out every second.
 */
import { useEffect, useState } from "react";
import { formatDuration } from "./session-stats.ts";
import type { DraftStatus } from "./useDraftStatus.ts";

export function DraftStatusNote({ status }: { status: DraftStatus }) {
  const [now, setNow] = useState(() => Date.now());
  const savedAt = status.phase === "saved" ? status.at : null;
  useEffect(() => {
    if (savedAt === null) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [savedAt]);
  return (
    <p className="draft-status" role="status" data-testid="draft-status" data-phase={status.phase}>
      {status.phase === "saving" ? "Saving…" : null}
      {savedAt !== null ? (
        <>
          Saved<span aria-hidden="true"> · {formatDuration(Math.max(0, (now - savedAt) / 1000))} ago</span>
        </>
      ) : null}
      {status.phase === "retrying" ? "Not saved — retrying" : null}
      {status.phase === "failed" ? `Not saved: ${status.message}` : null}
    </p>
  );
}
