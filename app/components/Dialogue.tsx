/** The dialogue of a run: parties colour-coded by position, the mediator set apart, thoughts optional. */
import type { Party } from "../domain/bundle.ts";

export interface DialogueTurn {
  turnId: number;
  speaker: string;
  role: "party" | "mediator";
  utterance: string;
  thought: string | null;
  signal: string | null;
}

export function Dialogue({ turns, parties, showThoughts }: { turns: DialogueTurn[]; parties: Party[]; showThoughts: boolean }) {
  const partyIndex = new Map(parties.map((p, i) => [p.id, i]));
  const nameOf = (id: string) => parties.find((p) => p.id === id)?.name ?? id;
  return (
    <ol className="dialogue" data-testid="dialogue">
      {turns.map((turn) =>
        turn.role === "mediator" ? (
          <li key={turn.turnId} className="turn mediator" id={`turn-${turn.turnId}`}>
            <div className="turn-meta">
              <span className="turn-no">{turn.turnId}</span> Mediator
            </div>
            <p>{turn.utterance}</p>
          </li>
        ) : (
          <li key={turn.turnId} className={`turn party party-${partyIndex.get(turn.speaker) ?? 0}`} id={`turn-${turn.turnId}`}>
            <div className="turn-meta">
              <span className="turn-no">{turn.turnId}</span> {nameOf(turn.speaker)} <span className="speaker-id">{turn.speaker}</span>
              {turn.signal && turn.signal !== "continue" ? <span className={`signal signal-${turn.signal}`}>{turn.signal}</span> : null}
            </div>
            <p>{turn.utterance}</p>
            {showThoughts && turn.thought ? (
              <p className="thought">
                <span aria-hidden>💭</span> <em>{turn.thought}</em>
              </p>
            ) : null}
          </li>
        ),
      )}
    </ol>
  );
}
