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

export interface SnippetMark {
  position: number;
  startTurn: number;
  endTurn: number;
  isPartial: boolean;
}

export function Dialogue({
  turns,
  parties,
  showThoughts,
  snippets = [],
}: {
  turns: DialogueTurn[];
  parties: Party[];
  showThoughts: boolean;
  snippets?: SnippetMark[];
}) {
  const partyIndex = new Map(parties.map((p, i) => [p.id, i]));
  const nameOf = (id: string) => parties.find((p) => p.id === id)?.name ?? id;
  const snippetStarting = new Map(snippets.map((s) => [s.startTurn, s]));
  return (
    <ol className="dialogue" data-testid="dialogue">
      {turns.flatMap((turn) => {
        const snippet = snippetStarting.get(turn.turnId);
        const divider = snippet ? (
          <li
            key={`snippet-${snippet.position}`}
            className="snippet-divider"
            aria-label={`Snippet ${snippet.position}`}
          >
            <span>
              Snippet {snippet.position} · turns {snippet.startTurn}–{snippet.endTurn}
              {snippet.isPartial ? " · partial" : ""}
            </span>
          </li>
        ) : null;
        const item =
          turn.role === "mediator" ? (
            <li key={turn.turnId} className="turn mediator" id={`turn-${turn.turnId}`}>
              <div className="turn-meta">
                <span className="turn-no">{turn.turnId}</span> Mediator
              </div>
              <p>{turn.utterance}</p>
            </li>
          ) : (
            <li
              key={turn.turnId}
              className={`turn party party-${partyIndex.get(turn.speaker) ?? 0}`}
              id={`turn-${turn.turnId}`}
            >
              <div className="turn-meta">
                <span className="turn-no">{turn.turnId}</span> {nameOf(turn.speaker)}{" "}
                <span className="speaker-id">{turn.speaker}</span>
                {turn.signal && turn.signal !== "continue" ? (
                  <span className={`signal signal-${turn.signal}`}>{turn.signal}</span>
                ) : null}
              </div>
              <p>{turn.utterance}</p>
              {showThoughts && turn.thought ? (
                <p className="thought">
                  <span className="thought-label">private thought</span> <em>{turn.thought}</em>
                </p>
              ) : null}
            </li>
          );
        return divider ? [divider, item] : [item];
      })}
    </ol>
  );
}
