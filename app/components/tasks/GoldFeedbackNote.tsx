/**
 * Gold feedback on the task page (a study setting): whether the annotator's answer on the check item just submitted
 * matched its known answer, and what was expected. Announced through a status region that stays on the page, so the
 * words are read when they arrive; dismissable, and gone on the next item (its page brings no feedback).
 */
import { useState } from "react";

export interface GoldFeedbackValue {
  itemId: number;
  matched: boolean;
  lines: string[];
}

export function GoldFeedbackNote({ feedback, itemId }: { feedback: GoldFeedbackValue | null; itemId: number }) {
  // Dismissed on this item (the item on screen), so the same feedback does not come back when the page reloads data.
  const [dismissedOn, setDismissedOn] = useState<number | null>(null);
  const shown = feedback !== null && dismissedOn !== itemId ? feedback : null;
  return (
    <div role="status" className="gold-feedback-region" data-testid="gold-feedback">
      {shown ? (
        <div className={`gold-feedback ${shown.matched ? "gold-feedback-matched" : "gold-feedback-missed"}`}>
          <p>
            <strong>
              {shown.matched
                ? "Your answer on the last item matched its known answer."
                : "Your answer on the last item did not match its known answer."}
            </strong>{" "}
            That item was a check item with a known answer:
          </p>
          <ul>
            {shown.lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <button type="button" className="button-secondary" onClick={() => setDismissedOn(itemId)}>
            Dismiss
          </button>
        </div>
      ) : null}
    </div>
  );
}
