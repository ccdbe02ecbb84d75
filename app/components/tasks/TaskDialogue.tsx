/**
 * Turns as an annotator sees them: parties colour-coded by their place in the scenario (the same
 * colours as the run viewer), the mediator set apart, and optionally one party marked as the target.
 */
import type { TaskTurn } from "../../task-types/task-view.ts";

export function TaskDialogue({
  turns,
  partyOrder,
  label,
  dimmed = false,
  targetPartyId = null,
}: {
  turns: readonly TaskTurn[];
  /** Party ids in scenario order; a party's index picks its colour. */
  partyOrder: readonly string[];
  /** Accessible name of the list, e.g. "Snippet to label". */
  label: string;
  dimmed?: boolean;
  targetPartyId?: string | null;
}) {
  return (
    <ol className={`dialogue task-dialogue${dimmed ? " dimmed" : ""}`} aria-label={label}>
      {turns.map((turn) => {
        if (turn.isMediator) {
          return (
            <li key={turn.turnId} className="turn mediator" data-turn={turn.turnId}>
              <div className="turn-meta">
                <span className="turn-no">{turn.turnId}</span> {turn.speakerName}
              </div>
              <p>{turn.utterance}</p>
            </li>
          );
        }
        const index = Math.max(0, partyOrder.indexOf(turn.speakerId));
        const target = targetPartyId !== null && turn.speakerId === targetPartyId;
        return (
          <li
            key={turn.turnId}
            className={`turn party party-${index}${target ? " target" : ""}`}
            data-turn={turn.turnId}
            data-speaker={turn.speakerId}
          >
            <div className="turn-meta">
              <span className="turn-no">{turn.turnId}</span> {turn.speakerName}
              {target ? <span className="target-badge">target party</span> : null}
            </div>
            <p>{turn.utterance}</p>
          </li>
        );
      })}
    </ol>
  );
}

/** Party ids in order of first appearance, for when no scenario party list is at hand. */
export function speakersInOrder(...conversations: readonly (readonly TaskTurn[])[]): string[] {
  const order: string[] = [];
  for (const turns of conversations)
    for (const t of turns) if (!t.isMediator && !order.includes(t.speakerId)) order.push(t.speakerId);
  return order;
}
